#!/usr/bin/env bash
# manage.py with the server's environment (ENV_FILE, default /etc/srs-table.env), run as
# the service user, e.g.
#   runuser -u srs-table -- /srv/srs-table/deploy/manage.sh migrate
set -euo pipefail
cd "$(dirname "$0")/.."
env_file="${ENV_FILE:-/etc/srs-table.env}"
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
exec .venv/bin/python manage.py "$@"
