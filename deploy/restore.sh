#!/usr/bin/env bash
# Restore a backup made by deploy/backup.sh into the database DATABASE_URL names (empty, or
# made by an earlier restore: what is there is replaced) and into MEDIA_ROOT, then apply
# migrations the backup may lack (a backup from an older version). Stop the daphne
# processes first, start them after.
#   runuser -u srs-table -- /srv/srs-table/deploy/restore.sh /var/lib/srs-table/backups/srs-table-…
set -euo pipefail
cd "$(dirname "$0")/.."
source_dir="${1:?usage: $0 BACKUP_FOLDER}"
env_file="${ENV_FILE:-/etc/srs-table.env}"
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
pg_restore --clean --if-exists --no-owner --no-privileges --exit-on-error \
  --dbname="$DATABASE_URL" "$source_dir/database.dump"
mkdir -p "$MEDIA_ROOT"
tar -C "$MEDIA_ROOT" -xzf "$source_dir/media.tar.gz"
.venv/bin/python manage.py migrate --noinput -v0
echo "restored $source_dir"
