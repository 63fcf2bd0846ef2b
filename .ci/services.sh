#!/usr/bin/env bash
# Installs (if missing) curl, jq and openssl, PgBouncer, Redis Sentinel, and PostgreSQL 15 and Redis, starting them on loopback, idempotently, then prints
# the environment for the second test pass. Used by .ci/run; also handy on a developer machine.
set -euo pipefail

# The examples' end-to-end test runs the curl script: it needs curl, jq and openssl.
missing=()
for tool in curl jq openssl; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi

if ! command -v redis-server >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >&2
fi
if ! redis-cli -p 6379 ping >/dev/null 2>&1; then
  redis-server --port 6379 --bind 127.0.0.1 --save '' --appendonly no --dir /tmp --daemonize yes --pidfile /tmp/redis-ci.pid >&2
  until redis-cli -p 6379 ping >/dev/null 2>&1; do sleep 0.1; done
fi

# The Redis Sentinel spec starts its own primary, replica and sentinels; the package's own
# sentinel service is not wanted.
if ! command -v redis-sentinel >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-sentinel >&2
  systemctl stop redis-sentinel >/dev/null 2>&1 || service redis-sentinel stop >/dev/null 2>&1 || true
fi

# The PgBouncer spec starts its own pooler (transaction mode) in front of this PostgreSQL; the
# package's own service is not wanted.
if ! command -v pgbouncer >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >&2
  systemctl stop pgbouncer >/dev/null 2>&1 || service pgbouncer stop >/dev/null 2>&1 || true
fi

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi
PG_VERSION=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_ctlcluster "$PG_VERSION" main start >&2 2>/dev/null || true
until pg_isready -q -h 127.0.0.1; do sleep 0.1; done
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='app'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE app LOGIN PASSWORD 'app'\"" >&2
# The e2e suites clone a migrated template database per test app (test/support/stores.ts).
su postgres -c "psql -qc 'ALTER ROLE app CREATEDB'" >&2
# `npm run bench:scale` writes the grown database out (CHECKPOINT) before it measures.
su postgres -c "psql -qc 'GRANT pg_checkpoint TO app'" >&2
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='app'\"" | grep -q 1 ||
  su postgres -c "psql -qc 'CREATE DATABASE app OWNER app'" >&2
