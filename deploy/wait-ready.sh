#!/usr/bin/env bash
# Wait until a daphne process answers its health endpoint: `live` (the process serves) or
# `ready` (database, migrations, Redis, channel layer and media all there).
#   deploy/wait-ready.sh PORT [live|ready] [SECONDS=60]
set -euo pipefail
port="$1" kind="${2:-live}" seconds="${3:-60}"
cd "$(dirname "$0")/.."
exec .venv/bin/python - "$port" "$kind" "$seconds" <<'PY'
import sys, time, urllib.request
port, kind, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
deadline = time.monotonic() + seconds
while True:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/{kind}/", timeout=10) as r:
            if r.status == 200:
                sys.exit(0)
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit(f"daphne on port {port} is not {kind} after {seconds:g} s")
    time.sleep(0.5)
PY
