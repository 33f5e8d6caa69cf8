"""Real daphne processes on the test database, for browser, multi-process and benchmark runs.

A separate process (rather than a server thread) is what production runs, and keeps
Playwright's event loop and the server's database connections apart.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

from django.conf import settings
from django.db import connection

PROJECT_DIR = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


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


def wait_until_answering(server, name: str, *, timeout: float, poll: float) -> None:
    """Wait until `server` (with .process, .url, .log() and .stop()) answers /ok/; stop it
    and fail with its log if its process exits first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"{name} exited early:\n{server.log()}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{server.url}/ok/", timeout=2) as response,
        ):
            if response.status == 200:
                return
        time.sleep(poll)
    server.stop()
    raise RuntimeError(f"{name} did not start within {timeout} s:\n{server.log()}")


class DaphneServer:
    """One daphne process serving the project on a free port of 127.0.0.1."""

    def __init__(
        self,
        *,
        extra_env: dict[str, str] | None = None,
        application: str = "config.asgi:application",
        project_dir: Path = PROJECT_DIR,
        python: str = sys.executable,
        port: int | None = None,
    ):
        # A port of its own, or one a stopped server left (its pages reconnect to it).
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        from django.conf import settings

        # The server keeps uploaded pictures where the test does: a temporary folder.
        env = {
            **os.environ,
            "DATABASE_URL": database_url_for_current_connection(),
            "MEDIA_ROOT": str(settings.MEDIA_ROOT),
        }
        env.update(extra_env or {})
        env.setdefault("DEBUG", "1")
        self.log_path = PROJECT_DIR / f".daphne-{self.port}.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [
                python,
                "-m",
                "daphne",
                # As deploy/daphne@.service listens: a queue of 1024 for a storm of joins.
                "-e",
                f"tcp:port={self.port}:interface=127.0.0.1:backlog=1024",
                application,
            ],
            cwd=project_dir,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        wait_until_answering(self, "daphne", timeout=30.0, poll=0.2)

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


def session_key_for(user) -> str:
    """The value of a session cookie that signs `user` in on a live server."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def cookie_for(user) -> str:
    """A session cookie for `user`, as the Cookie header of a request to a live server."""
    return f"{settings.SESSION_COOKIE_NAME}={session_key_for(user)}"


@contextlib.contextmanager
def room_socket(server_url: str, session, cookie: str, *, origin: str | None = None):
    """A websocket on the session's room, synced from the start, as a browser opens it."""
    from websockets.sync.client import connect

    ws_url = server_url.replace("http://", "ws://") + f"/ws/sessions/{session.pk}/"
    headers = {"Origin": origin or server_url, "Cookie": cookie}
    # As a browser: no pings of its own (daphne's are answered), and every frame kept until
    # read; a bounded queue would stop reading the socket, pongs included, once it filled.
    with connect(ws_url, additional_headers=headers, ping_interval=None, max_queue=None) as socket:
        socket.send(json.dumps({"type": "sync", "last_seq": 0}))
        yield socket


def receive_until(socket, predicate, timeout=15.0) -> str:
    """The first frame on `socket` that `predicate` accepts; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            frame = socket.recv(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            break
        seen.append(frame)
        if predicate(frame):
            return frame
    raise AssertionError(f"no matching frame within {timeout} s; got {seen!r}")


def post_chat(server_url: str, session, cookie: str, text: str) -> int:
    """Post a chat line as the room's form does (CSRF cookie from the page); the status
    (204 when the line went)."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    room_url = f"{server_url}/sessions/{session.pk}/"
    opener.open(urllib.request.Request(room_url, headers={"Cookie": cookie})).read()
    csrf = next(c.value for c in jar if c.name == settings.CSRF_COOKIE_NAME)
    request = urllib.request.Request(
        f"{room_url}chat/",
        data=urllib.parse.urlencode({"text": text}).encode(),
        headers={
            "Cookie": f"{cookie}; {settings.CSRF_COOKIE_NAME}={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
        },
    )
    with opener.open(request) as response:
        return response.status


_NGINX_CONF = """
# Generated for one test run: everything under {prefix}, nothing of the system's nginx.
worker_processes 1;
# A graceful stop otherwise waits for every held websocket to close, past the test's end.
worker_shutdown_timeout 1s;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    include /etc/nginx/mime.types;
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    map $http_upgrade $srs_connection_upgrade {{ default upgrade; '' close; }}
    upstream srs_table {{
        {balance}
        {servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        server_name _;
        client_max_body_size 10m;
        # Which daphne process answered: tests check that both served the room.
        add_header X-Upstream $upstream_addr always;
        location /static/ {{ alias {static_root}/; }}
        {media_location}
        include {proxy_rules};
    }}
}}
"""


def site_media_location(media_root: Path) -> str:
    """The site's internal location for uploaded files (deploy/nginx/srs-table.conf), as
    written there, serving `media_root` instead of the server's folder."""
    site = (PROJECT_DIR / "deploy" / "nginx" / "srs-table.conf").read_text()
    block = re.search(r"^    location /protected-media/ \{.*?^    \}", site, re.M | re.S)
    if block is None:
        raise RuntimeError("deploy/nginx/srs-table.conf has no /protected-media/ location")
    return block.group(0).replace("/var/lib/srs-table/media/", f"{media_root}/")


class NginxServer:
    """Debian's nginx in front of daphne processes, on a free port of 127.0.0.1.

    It runs the project's own proxy rules (deploy/nginx/srs-table-proxy.conf) from a
    configuration generated in a temporary directory, as a child process that does not
    daemonize. With `by_cookie`, the cookie `srs_backend` picks the daphne process (a hash
    of its value) rather than taking turns: a test can then put two browsers on two
    processes for sure.
    """

    def __init__(
        self, upstream_ports: list[int], *, by_cookie: bool = False, media_root: Path | None = None
    ):
        from django.conf import settings as django_settings

        if not os.path.exists(NGINX):
            raise RuntimeError("nginx is missing: install it with 'apt-get install -y nginx'.")
        self.prefix = Path(tempfile.mkdtemp(prefix="srs-nginx-"))
        # Its workers run as an unprivileged user when the master is root.
        self.prefix.chmod(0o755)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = self.prefix / "nginx.conf"
        config.write_text(
            _NGINX_CONF.format(
                prefix=self.prefix,
                port=self.port,
                balance="hash $cookie_srs_backend;" if by_cookie else "",
                servers="\n        ".join(f"server 127.0.0.1:{port};" for port in upstream_ports),
                static_root=django_settings.STATIC_ROOT,
                proxy_rules=PROJECT_DIR / "deploy" / "nginx" / "srs-table-proxy.conf",
                media_location=site_media_location(media_root) if media_root else "",
            )
        )
        self.process = subprocess.Popen(
            [
                NGINX,
                "-p",
                str(self.prefix),
                "-c",
                str(config),
                "-e",
                str(self.prefix / "error.log"),
                "-g",
                "daemon off;",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        wait_until_answering(self, "nginx", timeout=15.0, poll=0.1)

    def upstream_for(self, backend_cookie: str) -> str:
        """The daphne address nginx picks for a request carrying `srs_backend=<value>`."""
        request = urllib.request.Request(
            f"{self.url}/ok/", headers={"Cookie": f"srs_backend={backend_cookie}"}
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.headers["X-Upstream"]

    def log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            # SIGQUIT: nginx's graceful stop; worker_shutdown_timeout closes held websockets.
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.prefix, ignore_errors=True)


class TcpRelay:
    """A TCP relay on a free port of 127.0.0.1 to `target`: a server process pointed at it
    loses its database (or Redis) when `stop()` cuts every connection and refuses new ones,
    while the real server, shared with other test runs, goes on."""

    def __init__(self, target_host: str, target_port: int):
        import threading

        self.target = (target_host, target_port)
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _address = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._stopped:
                    client.close()
                    upstream.close()
                    return
                self._sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            sockets, self._sockets = self._sockets, []
        self._listener.close()
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
