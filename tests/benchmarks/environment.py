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
