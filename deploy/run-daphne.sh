#!/usr/bin/env bash
# Where systemd is not used (a container, a test machine): keep one daphne process of the
# SRS table running on 127.0.0.1 for each port given, as deploy/daphne@.service does. A
# process that dies is started again after 2 s (Restart=always) and never stops the
# others; SIGTERM (to the PID it writes in PID_FILE, if given) or Ctrl+C stops them all.
# Each logs to LOG_DIR/daphne-PORT.log.
#   ENV_FILE=/etc/srs-table.env LOG_DIR=/var/lib/srs-table/log PID_FILE=/var/lib/srs-table/run-daphne.pid \
#     deploy/run-daphne.sh 8001 8002
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -gt 0 ] || { echo "usage: $0 PORT [PORT...]" >&2; exit 2; }
env_file="${ENV_FILE:-/etc/srs-table.env}"
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
log_dir="${LOG_DIR:-.}"
[ -z "${PID_FILE:-}" ] || echo "$$" >"$PID_FILE"
supervisors=()

keep_running() {
  local port="$1" child=""
  trap '[ -z "$child" ] || kill -TERM "$child" 2>/dev/null; wait; exit 0' TERM INT
  while true; do
    # The same command line as deploy/daphne@.service: a listen queue of 1024 (see there),
    # no --proxy-headers (the app reads the client's address itself, from TRUSTED_PROXIES
    # only) and daphne's own access log off (-v 0: the app logs each request, in UTC, with
    # its id).
    .venv/bin/daphne -e "tcp:port=$port:interface=127.0.0.1:backlog=1024" -v 0 \
      --application-close-timeout 15 config.asgi:application >>"$log_dir/daphne-$port.log" 2>&1 &
    child=$!
    wait "$child" || true
    echo "$(date -u +%FT%TZ) daphne on port $port ended; starting it again in 2 s" >>"$log_dir/daphne-$port.log"
    sleep 2
  done
}

stop() {
  trap - TERM INT EXIT
  [ "${#supervisors[@]}" -eq 0 ] || kill -TERM "${supervisors[@]}" 2>/dev/null || true
  wait
  [ -z "${PID_FILE:-}" ] || rm -f "$PID_FILE"
}
trap 'stop; exit 0' TERM INT
trap stop EXIT
for port in "$@"; do
  keep_running "$port" &
  supervisors+=("$!")
  echo "daphne kept running on 127.0.0.1:$port, log $log_dir/daphne-$port.log"
done
wait
