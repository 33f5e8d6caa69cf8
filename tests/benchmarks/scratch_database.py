"""A SQLite database of the benchmark's own, in a directory removed when the run ends."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile


def use_scratch_database() -> None:
    """Point Django (and the servers a benchmark starts) at a new, empty database file."""
    workdir = tempfile.mkdtemp(prefix="srs-bench-")
    # Every run used to leave its database behind: a few megabytes in /tmp each time.
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
