#!/usr/bin/env bash
# The card-key service's many-core benchmark (`npm run bench:kit` builds the folder this runs from).
#
#   OUT=/some/dir bash bench-kit/run.sh
#
# Needs bash, coreutils, tar, glibc and xz (or python3) on an x86-64 Linux machine; no Node, no
# PostgreSQL, no Redis, no network. Unpacks Node, PostgreSQL 15, Redis and the built service into a
# fresh folder, starts PostgreSQL (durable commits; as an unprivileged user when run as root) and
# Redis sized to the machine, then the driver (dist/bench/kit/driver.js): it seeds with the bench's
# own code, measures every adapter / worker count / scenario of the plan with several load-generator
# processes (every answer checked), diagnoses PostgreSQL under the bound-device login (wait events,
# WAL and commits per login, statements per login from pg_stat_statements) and measures PostgreSQL
# alone with pgbench; prints a table and writes $OUT/kit-results.{txt,json}. Stops all it started.
#
# Knobs (environment; the driver's are listed in bench/kit/driver.ts):
#   KIT_PLAN='fastify@1,2,4,8,12=baseline,bound,v3,card-heartbeat,new-device;express@1,8=baseline,bound'
#   KIT_SECS=8 KIT_WARMUP=2 KIT_CONNECTIONS=256 KIT_LOADGEN=<cores/3> KIT_CARDS=10000 KIT_BOUND=1024
#   KIT_DIAG=1 KIT_DIAG_WORKERS=8 KIT_DIAG_SECS=10 KIT_PGBENCH_CLIENTS=16,64,128 KIT_PGBENCH_SECS=8
#   KIT_PGBENCH_SCALE=20 KIT_BUDGET_SECS=480 KIT_TIMEOUT=560 (s, watchdog) KIT_PG_SYNC=on
#   KIT_TMP=/tmp (where it unpacks; PGDATA lives there) KIT_KEEP=1 (keep that folder)
#   KIT_CPU_PROF=1 (a CPU profile of each service process, in $OUT/profiles; driver.ts)
set -Eeuo pipefail
umask 022
T0=$(date +%s)
KIT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-}
say() { printf '[%4d s] %s\n' "$(( $(date +%s) - T0 ))" "$*"; }
fail() { printf '\nKIT FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(uname -m)" = x86_64 ] || fail "the kit is for x86-64 Linux (this is $(uname -m))"
[ -f "$KIT/node.xz" ] && [ -f "$KIT/payload.tar.xz" ] || fail "node.xz or payload.tar.xz is missing next to run.sh (npm run bench:kit)"
for c in tar awk sed timeout mktemp; do command -v "$c" >/dev/null || fail "'$c' is not installed"; done
if command -v xz >/dev/null; then unxz_to() { xz -dc "$1"; }
elif command -v python3 >/dev/null; then unxz_to() { python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer, 1<<20)' "$1"; }
else fail "neither xz nor python3 is there to unpack the kit"; fi

WORK=$(mktemp -d "${KIT_TMP:-/tmp}/cardkey-kit.XXXXXX")
chmod 755 "$WORK"
mkdir -p "$WORK/logs" "$WORK/run" "$WORK/bin"
[ -n "$OUT" ] && mkdir -p "$OUT"
PG_PID='' REDIS_PID='' DRIVER_PID='' STATUS=1

stop_pid() { # pid signal seconds
  kill -0 "$1" 2>/dev/null || return 0
  kill "-$2" "$1" 2>/dev/null
  for _ in $(seq 1 $(( $3 * 5 ))); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.2; done
  kill -KILL "$1" 2>/dev/null || true
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  set +e
  [ -n "$DRIVER_PID" ] && stop_pid "$DRIVER_PID" TERM 10
  # Whatever still runs the kit's node (the service, its workers, load generators): found by the
  # executable's path, which only this run uses.
  for exe in /proc/[0-9]*/exe; do
    [ "$(readlink "$exe" 2>/dev/null)" = "$WORK/bin/node" ] && { p=${exe#/proc/}; kill -KILL "${p%/exe}" 2>/dev/null; }
  done
  [ -n "$PG_PID" ] && stop_pid "$PG_PID" INT 20
  [ -n "$REDIS_PID" ] && stop_pid "$REDIS_PID" TERM 10
  if [ "$STATUS" != 0 ]; then
    for f in "$WORK"/logs/*.log; do [ -f "$f" ] && { echo "== $f" >&2; tail -n 20 "$f" >&2; }; done
  fi
  [ -n "$OUT" ] && mkdir -p "$OUT/logs" && cp "$WORK"/logs/*.log "$OUT/logs/" 2>/dev/null
  if [ "${KIT_KEEP:-0}" = 1 ]; then say "kept $WORK"; else rm -rf "$WORK"; fi
  [ "$STATUS" = 0 ] && say "done; everything the kit started is stopped" || echo "KIT FAILED (exit $rc); everything the kit started is stopped" >&2
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say "unpacking into $WORK"
unxz_to "$KIT/node.xz" > "$WORK/bin/node" && chmod 755 "$WORK/bin/node"
unxz_to "$KIT/payload.tar.xz" | tar -x -C "$WORK" -f -
# KIT_DEV_BENCH=<a compiled dist/bench folder>: replaces the kit's (trying a driver change without rebuilding).
[ -n "${KIT_DEV_BENCH:-}" ] && cp -a "$KIT_DEV_BENCH"/. "$WORK/app/dist/bench/"
NODE=$WORK/bin/node PGBIN=$WORK/pg/lib/postgresql/15/bin REDIS=$WORK/redis/redis-server
# The kit's libraries; libstdc++ / libgcc_s from the system when they serve, else the kit's.
LIBS=$WORK/lib
loads() { for b in "$PGBIN/postgres" "$PGBIN/pgbench" "$REDIS" "$NODE"; do env LD_LIBRARY_PATH="$LIBS" "$b" --version >/dev/null 2>&1 || return 1; done; }
if ! loads; then
  LIBS=$WORK/lib:$WORK/lib-fallback
  loads || { env LD_LIBRARY_PATH="$LIBS" "$PGBIN/postgres" --version; env LD_LIBRARY_PATH="$LIBS" "$NODE" --version;
    fail "the kit's binaries do not load here ($(ldd --version 2>&1 | sed -n 1p)); build the kit on a system with an older or equal glibc"; }
  say "using the kit's libstdc++ / libgcc_s"
fi
export LD_LIBRARY_PATH=$LIBS
say "$("$NODE" --version), $("$PGBIN/postgres" --version), redis $("$REDIS" --version | sed -E 's/.* v=([^ ]+).*/\1/'), $(nproc) cores"

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() { local p; for p in "$@"; do port_free "$p" && { echo "$p"; return; }; done; fail "no free port among $*"; }
PG_PORT=$(pick_port 55432 55433 55434 55435)
REDIS_PORT=$(pick_port 56379 56380 56381 56382)
SERVICE_PORT=$(pick_port 53000 53001 53002 53003)

# ------------------------------------------------------------------ PostgreSQL, never as root
PGDATA=$WORK/pgdata
as_pg() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  PG_USER=nobody
  id -u "$PG_USER" >/dev/null 2>&1 || { useradd -r -M -s /bin/false cardkeykit 2>/dev/null; PG_USER=cardkeykit; }
  id -u "$PG_USER" >/dev/null 2>&1 || fail "running as root and no unprivileged user for PostgreSQL"
  if command -v setpriv >/dev/null; then as_pg() { setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --clear-groups "$@"; }
  elif command -v runuser >/dev/null; then as_pg() { runuser -u "$PG_USER" -- "$@"; }
  else fail "running as root without setpriv or runuser"; fi
  mkdir -p "$PGDATA" && chown "$PG_USER" "$PGDATA" "$WORK/run" "$WORK/logs"
  say "PostgreSQL runs as $PG_USER"
fi
as_pg "$PGBIN/initdb" -D "$PGDATA" -U postgres -E UTF8 --locale=C -A trust --no-sync > "$WORK/logs/initdb.log" 2>&1 || fail "initdb failed"
NCPU=$(nproc)
MEM_MB=$(( $(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 ))
SB_MB=$(( MEM_MB / 8 )); [ "$SB_MB" -gt 8192 ] && SB_MB=8192; [ "$SB_MB" -lt 128 ] && SB_MB=128
MAX_CONN=$(( NCPU * 12 + 200 ))
cat >> "$PGDATA/postgresql.conf" <<EOC
# ---- bench/kit/run.sh: $NCPU cores, $MEM_MB MB
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$WORK/run'
max_connections = $MAX_CONN
shared_buffers = ${SB_MB}MB
effective_cache_size = $(( MEM_MB / 2 ))MB
work_mem = 8MB
maintenance_work_mem = 512MB
wal_buffers = 64MB
max_wal_size = 16GB
checkpoint_timeout = 30min
synchronous_commit = ${KIT_PG_SYNC:-on}
random_page_cost = 1.1
max_parallel_workers_per_gather = 0
jit = off
timezone = 'GMT'
log_min_messages = warning
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = none
pg_stat_statements.max = 1000
EOC
as_pg "$PGBIN/postgres" -D "$PGDATA" >> "$WORK/logs/postgres.log" 2>&1 &
PG_PID=$!
for i in $(seq 1 150); do
  [ "$(sed -n 8p "$PGDATA/postmaster.pid" 2>/dev/null | tr -d ' ')" = ready ] && break
  kill -0 "$PG_PID" 2>/dev/null || fail "PostgreSQL exited during start"
  [ "$i" = 150 ] && fail "PostgreSQL not ready after 30 s"
  sleep 0.2
done
PG_PID=$(head -1 "$PGDATA/postmaster.pid")
say "PostgreSQL ready on port $PG_PORT (shared_buffers ${SB_MB}MB, max_connections $MAX_CONN, synchronous_commit ${KIT_PG_SYNC:-on}; PGDATA on $(df -PT "$PGDATA" | awk 'NR==2 {print $2}'))"

"$REDIS" --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no --dir "$WORK" \
  --logfile "$WORK/logs/redis.log" --maxclients 10000 > /dev/null 2>&1 &
REDIS_PID=$!
for i in $(seq 1 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT") 2>/dev/null && break
  kill -0 "$REDIS_PID" 2>/dev/null || fail "Redis exited during start"
  [ "$i" = 100 ] && fail "Redis not ready after 20 s"
  sleep 0.2
done
say "Redis ready on port $REDIS_PORT"

# ------------------------------------------------------------------ the driver
set +e
env KIT_T0="$T0" KIT_WORK="$WORK" KIT_APP="$WORK/app" KIT_PGBIN="$PGBIN" KIT_PG_PID="$PG_PID" KIT_REDIS_PID="$REDIS_PID" \
  KIT_PG_PORT="$PG_PORT" KIT_REDIS_PORT="$REDIS_PORT" KIT_SERVICE_PORT="$SERVICE_PORT" KIT_PGDATA_FS="$(df -PT "$PGDATA" | awk 'NR==2 {print $2}')" \
  KIT_CLK_TCK="$(getconf CLK_TCK 2>/dev/null || echo 100)" KIT_MANIFEST="$(sed -n 2p "$KIT/MANIFEST.txt" 2>/dev/null)" \
  KIT_REDIS_VERSION="$("$REDIS" --version | sed -E 's/.* v=([^ ]+).*/\1/')" OUT="$OUT" HOME="$WORK" PGUSER=postgres \
  timeout -k 10 "${KIT_TIMEOUT:-560}" "$NODE" "$WORK/app/dist/bench/kit/driver.js" &
DRIVER_PID=$!
wait "$DRIVER_PID"
RC=$?
DRIVER_PID=''
set -e
[ "$RC" = 124 ] && fail "the driver ran past the ${KIT_TIMEOUT:-560} s watchdog (KIT_TIMEOUT); what it measured is in \$OUT"
[ "$RC" = 0 ] || fail "the driver failed (exit $RC)"
STATUS=0
