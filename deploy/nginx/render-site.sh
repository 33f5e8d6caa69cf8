#!/usr/bin/env bash
# Print the nginx site (deploy/nginx/srs-table.conf) for this server, from the README's
# settings: SRS_HOST, SRS_CODE, SRS_DATA, SRS_PORTS, SRS_HTTP_PORT, SRS_HTTPS_PORT,
# SRS_CERT, SRS_CERT_KEY.
set -euo pipefail
template="$(dirname "$0")/srs-table.conf"
servers=""
for port in $SRS_PORTS; do
  servers+="    server 127.0.0.1:$port max_fails=1 fail_timeout=2s;\n"
done
sed -e "/server 127\.0\.0\.1:800[0-9]/d" \
    -e "s|^upstream srs_table {|upstream srs_table {\n${servers%\\n}|" \
    -e "s|srs\.example\.org;|$SRS_HOST;|g" \
    -e "s|listen 80;|listen ${SRS_HTTP_PORT:-80};|; s|listen \[::\]:80;|listen [::]:${SRS_HTTP_PORT:-80};|" \
    -e "s|listen 443 ssl|listen ${SRS_HTTPS_PORT:-443} ssl|; s|listen \[::\]:443 ssl|listen [::]:${SRS_HTTPS_PORT:-443} ssl|" \
    -e "s|return 301 https://\$host\$request_uri;|return 301 https://\$host:${SRS_HTTPS_PORT:-443}\$request_uri;|" \
    -e "s|ssl_certificate .*|ssl_certificate     $SRS_CERT;|" \
    -e "s|ssl_certificate_key .*|ssl_certificate_key $SRS_CERT_KEY;|" \
    -e "s|/var/lib/srs-table|$SRS_DATA|g" \
    -e "s|/srv/srs-table|$SRS_CODE|g" \
    "$template"
