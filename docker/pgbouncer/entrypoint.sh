#!/bin/sh
# Writes PgBouncer's configuration from the environment, then runs it in the foreground.
#   DB_HOST, DB_PORT (5432): the Postgres every database is pooled to
#   DB_USER (postgres), DB_PASSWORD: the one role clients log in as (checked here with
#     SCRAM-SHA-256, and the password PgBouncer logs in to Postgres with: SCRAM again, which the
#     postgres image requires of remote hosts)
# Transaction pooling; every other setting is PgBouncer's default (pool sizes, timeouts, no
# ignore_startup_parameters). The password lives only in the container's environment and in a
# file under /tmp readable by PgBouncer's user alone.
set -eu
: "${DB_HOST:?DB_HOST must name the Postgres server}"
: "${DB_PASSWORD:?DB_PASSWORD must be set}"
DB_PORT=${DB_PORT:-5432}
DB_USER=${DB_USER:-postgres}

dir=$(mktemp -d /tmp/pgbouncer.XXXXXX)
umask 077
# auth_file: "user" "password", a double quote inside doubled.
quote() { printf '"%s"' "$(printf '%s' "$1" | sed 's/"/""/g')"; }
printf '%s %s\n' "$(quote "$DB_USER")" "$(quote "$DB_PASSWORD")" >"$dir/userlist.txt"

cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=$DB_HOST port=$DB_PORT

[pgbouncer]
listen_addr = *
listen_port = 6432
unix_socket_dir = $dir
auth_type = scram-sha-256
auth_file = $dir/userlist.txt
pool_mode = transaction
INI

exec pgbouncer "$dir/pgbouncer.ini"
