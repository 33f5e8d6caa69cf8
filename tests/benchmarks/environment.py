"""The environment every benchmark that sets up Django starts from.

A SQLite database of the benchmark's own, in a directory removed when the run ends; the
in-memory channel layer (a benchmark that measures Redis starts its own server with it);
a fast password hasher, so that creating users does not dominate the set-up.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def use_benchmark_environment() -> None:
    """Set the environment for Django and for the servers a benchmark starts."""
    workdir = tempfile.mkdtemp(prefix="srs-bench-")
    # Every run used to leave its database behind: a few megabytes in /tmp each time.
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("PASSWORD_HASHERS", "django.contrib.auth.hashers.MD5PasswordHasher")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.pop("REDIS_URL", None)


def set_up_django(**environment: str) -> None:
    """Django on the benchmark's database, `environment` set on top of the benchmark's own
    (a secret key the servers a benchmark starts share, DEBUG off, …): from then on a script
    can import models, services and factories."""
    use_benchmark_environment()
    os.environ.update(environment)
    import django

    django.setup()


def collect_static_for_production() -> None:
    """`collectstatic` as a DEBUG=0 server needs it: the manifest names every file (a roll's
    card names its dice pictures through it); under DEBUG=1 it writes none.

    Benchmarks run two at a time (`make bench-smoke`) and share one STATIC_ROOT: two
    collections at once rewrite the files the other is hashing, and whitenoise fails on a
    half-written one. A lock on a file beside STATIC_ROOT makes them take turns."""
    import fcntl
    import subprocess
    import sys
    from pathlib import Path

    project_dir = Path(__file__).resolve().parents[2]
    static_root = Path(os.environ.get("STATIC_ROOT") or project_dir / "staticfiles")
    lock_path = static_root.with_name(static_root.name + ".collecting")
    with open(lock_path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=project_dir,
            env={
                **os.environ,
                "DEBUG": "0",
                "SECRET_KEY": os.environ.get("SECRET_KEY") or "bench-only-" + "x" * 50,
                "SECURE_SSL_REDIRECT": "0",
            },
            check=True,
        )
