#!/usr/bin/env bash
# Starts Debian's PgBouncer in transaction mode on 127.0.0.1:6432 in front of the PostgreSQL that
# .ci/services.sh started (every database, the app role's password), for the PgBouncer pass of
# .ci/run; idempotent. Prints nothing on success.
set -euo pipefail
dir=/tmp/ck-ci-pgbouncer
if pg_isready -q -h 127.0.0.1 -p 6432 2>/dev/null; then exit 0; fi
mkdir -p "$dir"
printf '"app" "app"\n' > "$dir/userlist.txt"
cat > "$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=5432
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = 6432
unix_socket_dir =
auth_type = plain
auth_file = $dir/userlist.txt
pool_mode = transaction
default_pool_size = 4
max_client_conn = 2000
max_db_connections = 6
server_idle_timeout = 5
ignore_startup_parameters = extra_float_digits,options
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
chown -R postgres "$dir"
runuser -u postgres -- pgbouncer -d "$dir/pgbouncer.ini"
until pg_isready -q -h 127.0.0.1 -p 6432; do sleep 0.1; done
