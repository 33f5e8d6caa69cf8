#!/usr/bin/env bash
# Back up the SRS table: the database (pg_dump's custom format) and the uploaded pictures
# (MEDIA_ROOT), into one new folder under BACKUP_DIR (default /var/lib/srs-table/backups).
# Safe while the server runs: pg_dump reads one consistent snapshot, and pictures are only
# ever added under new names (pictures_prune removes those nothing names any more).
#   runuser -u srs-table -- /srv/srs-table/deploy/backup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
env_file="${ENV_FILE:-/etc/srs-table.env}"
set -a
# shellcheck disable=SC1090
. "$env_file"
set +a
backup_dir="${BACKUP_DIR:-/var/lib/srs-table/backups}"
target="$backup_dir/srs-table-$(date -u +%Y%m%dT%H%M%SZ)"
umask 077
mkdir -p "$target"
pg_dump --format=custom --no-owner --no-privileges --dbname="$DATABASE_URL" --file="$target/database.dump"
tar -C "$MEDIA_ROOT" -czf "$target/media.tar.gz" .
echo "$target"
