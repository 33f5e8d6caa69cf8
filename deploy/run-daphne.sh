#!/usr/bin/env bash
# Start N daphne processes of the SRS table on 127.0.0.1:BASE_PORT.. (where systemd is not
# used: a container, a test machine), each logging to its own file; stop them all with
# Ctrl+C or SIGTERM. The environment comes from ENV_FILE (see srs-table.env.example).
#   deploy/run-daphne.sh [N=2] [BASE_PORT=8001]
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-2}"
base_port="${2:-8001}"
env_file="${ENV_FILE:-/etc/srs-table.env}"
if [ -f "$env_file" ]; then
  set -a
  # shellcheck disable=SC1090
  . "$env_file"
  set +a
fi
log_dir="${LOG_DIR:-.}"
pids=()
stop() { [ "${#pids[@]}" -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; wait; }
trap 'stop; exit 0' INT TERM
trap stop EXIT
for ((n = 0; n < count; n++)); do
  port=$((base_port + n))
  .venv/bin/daphne --bind 127.0.0.1 --port "$port" --proxy-headers \
    --application-close-timeout 15 config.asgi:application >>"$log_dir/daphne-$port.log" 2>&1 &
  pids+=("$!")
  echo "daphne on 127.0.0.1:$port (pid $!), log $log_dir/daphne-$port.log"
done
wait -n
echo "a daphne process ended: stopping the others" >&2
exit 1
