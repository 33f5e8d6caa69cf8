"""Real daphne processes on the test database, for browser, multi-process and benchmark runs.

A separate process (rather than a server thread) is what production runs, and keeps
Playwright's event loop and the server's database connections apart.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from django.db import connection

PROJECT_DIR = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url_for_current_connection() -> str:
    """Describe the database the tests use now (the test database) as a DATABASE_URL."""
    settings_dict = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings_dict['NAME']}"
    if connection.vendor == "postgresql":
        user = settings_dict.get("USER") or ""
        password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
        auth = f"{user}{password}@" if user else ""
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = settings_dict.get("PORT") or 5432
        return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"
    raise RuntimeError(f"No live-server support for {connection.vendor}")


def shipped_rules_profiles() -> None:
    """Restore the rules profiles the migrations ship: transactional tests flush them."""
    from importlib import import_module

    from sessions_app.models import RulesProfile

    shipped = import_module("sessions_app.migrations.0002_shipped_rules_profiles").SHIPPED
    values = import_module("sessions_app.migrations.0004_shipped_judgement_values").SHIPPED_VALUES
    for profile in shipped:
        RulesProfile.objects.update_or_create(
            table=None,
            name=profile["name"],
            defaults={**profile, "judgement_value_names": values[profile["name"]]},
        )


class DaphneServer:
    """One daphne process serving the project on a free port of 127.0.0.1."""

    def __init__(
        self,
        *,
        extra_env: dict[str, str] | None = None,
        application: str = "config.asgi:application",
        project_dir: Path = PROJECT_DIR,
        python: str = sys.executable,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "DATABASE_URL": database_url_for_current_connection()}
        env.update(extra_env or {})
        env.setdefault("DEBUG", "1")
        self.log_path = PROJECT_DIR / f".daphne-{self.port}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                python,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                application,
            ],
            cwd=project_dir,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self._wait_ready()

    def _wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited early:\n{self.log()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/ok/", timeout=2) as response,
            ):
                if response.status == 200:
                    return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"daphne did not start within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()
        with contextlib.suppress(FileNotFoundError):
            self.log_path.unlink()
