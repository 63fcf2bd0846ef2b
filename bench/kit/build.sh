#!/usr/bin/env bash
# `npm run bench:kit`: builds the many-core benchmark kit into bench-kit/ (ignored by git):
#   bench-kit/run.sh          the entry point (a copy of bench/kit/run.sh)
#   bench-kit/node.xz         this machine's Node binary
#   bench-kit/payload.tar.xz  the service built from the last commit (HEAD) with its production
#                             dependencies and autocannon (bench/kit/stage-modules.mjs), the kit's
#                             driver (bench/kit/*.ts compiled with tsconfig.bench.json), PostgreSQL 15
#                             (server, initdb, pgbench, psql, pg_stat_statements) and Redis, with every
#                             shared library they load except glibc's
#   bench-kit/MANIFEST.txt    commit, date, versions, sizes; SHA256SUMS
# Needs this machine's toolchain (Debian 12: node 20, postgresql-15 and redis-server installed,
# xz); no network. bench/kit/ itself is taken from the working tree (MANIFEST says when it differs
# from HEAD), everything else from HEAD, so the kit is of a commit even while others edit files.
# Knobs: KIT_COMMIT=HEAD  KIT_SOURCE=head|worktree  KIT_OVERLAY='paths'  KIT_OUT=bench-kit  KIT_XZ_LEVEL=6  KIT_PGBIN=/usr/lib/postgresql/15  KIT_REDIS=$(command -v redis-server)
set -Eeuo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=$(mkdir -p "${KIT_OUT:-$ROOT/bench-kit}" && cd "${KIT_OUT:-$ROOT/bench-kit}" && pwd)
PGDIR=${KIT_PGBIN:-/usr/lib/postgresql/15}
PGSHARE=/usr/share/postgresql/15
REDIS=$(readlink -f "${KIT_REDIS:-$(command -v redis-server)}")
LEVEL=${KIT_XZ_LEVEL:-6}
NODE=$(readlink -f "$(command -v node)")
say() { printf '[bench:kit] %s\n' "$*"; }
fail() { printf '[bench:kit] FAILED: %s\n' "$*" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || fail "the kit is for x86-64 Linux; build it on one"
for c in git tar xz ldd strip sha256sum; do command -v "$c" >/dev/null || fail "'$c' is missing"; done
[ -x "$PGDIR/bin/postgres" ] && [ -x "$PGDIR/bin/pgbench" ] || fail "PostgreSQL 15 server and pgbench not found under $PGDIR (KIT_PGBIN)"
[ -x "$REDIS" ] || fail "redis-server not found (KIT_REDIS)"
[ -d "$ROOT/node_modules/autocannon" ] || fail "node_modules is incomplete: run npm install"

B=$(mktemp -d /tmp/cardkey-kit-build.XXXXXX)
trap 'rm -rf "$B"' EXIT
ST=$B/stage
mkdir -p "$B/src" "$ST/app/dist" "$ST/pg" "$ST/redis" "$ST/lib" "$ST/lib-fallback"

# ------------------------------------------------------------------ the service, built from HEAD
COMMIT=$(git -C "$ROOT" rev-parse "${KIT_COMMIT:-HEAD}")
if [ "${KIT_SOURCE:-head}" = worktree ]; then
  # The working tree as it is (tracked and untracked files git does not ignore): for a commit that
  # does not compile on its own, or to measure a change before committing it.
  say "sources: the working tree (at commit ${COMMIT:0:12}, with its uncommitted changes)"
  (cd "$ROOT" && git ls-files -co --exclude-standard -z -- src migrations bench sdk tsconfig*.json package.json | xargs -0 tar cf - 2>/dev/null) | tar -x -C "$B/src"
  COMMIT="$COMMIT + working tree ($(git -C "$ROOT" status --porcelain -- src migrations | wc -l) files changed in src/ and migrations/)"
else
  say "sources: commit ${COMMIT:0:12}, bench/kit/ from the working tree"
  git -C "$ROOT" archive "$COMMIT" | tar -x -C "$B/src"
  # KIT_OVERLAY="path …": paths taken from the working tree over the commit (a commit that names a
  # file its author has not committed yet); MANIFEST lists them.
  for p in ${KIT_OVERLAY:-}; do
    [ -e "$ROOT/$p" ] || fail "KIT_OVERLAY: $p is not in the working tree"
    rm -rf "${B:?}/src/$p" && mkdir -p "$(dirname "$B/src/$p")" && cp -a "$ROOT/$p" "$B/src/$p"
  done
  [ -n "${KIT_OVERLAY:-}" ] && COMMIT="$COMMIT + from the working tree: $KIT_OVERLAY"
fi
rm -rf "$B/src/bench/kit" && cp -a "$ROOT/bench/kit" "$B/src/bench/kit"
KIT_DIRTY=$(git -C "$ROOT" status --porcelain -- bench/kit | wc -l)
ln -s "$ROOT/node_modules" "$B/src/node_modules"
TSC="$ROOT/node_modules/typescript/bin/tsc"
(cd "$B/src" && node "$TSC" -p tsconfig.build.json && node "$TSC" -p tsconfig.bench.json) || fail "compile failed"
cp -a "$B/src/dist/src" "$B/src/dist/migrations" "$B/src/dist/bench" "$B/src/dist/sdk" "$ST/app/dist/"
find "$ST/app/dist" -name '*.map' -delete
cp "$B/src/package.json" "$ST/app/"
node "$ROOT/bench/kit/stage-modules.mjs" "$ROOT" "$ST/app/node_modules"

# ------------------------------------------------------------------ PostgreSQL 15 and Redis
# The layout of Debian's packages (lib/postgresql/15/{bin,lib}, share/postgresql/15): PostgreSQL finds
# its share and module folders relative to its binary.
PB=$ST/pg/lib/postgresql/15/bin PL=$ST/pg/lib/postgresql/15/lib PS=$ST/pg/share/postgresql/15
mkdir -p "$PB" "$PL" "$PS/extension"
for b in postgres initdb pgbench psql pg_test_fsync; do cp -L "$PGDIR/bin/$b" "$PB/"; done
# Modules: PL/pgSQL, the snowball dictionaries and encoding conversions (initdb), pg_trgm (a
# migration), pg_stat_statements (the diagnosis). No llvmjit: it pulls libLLVM (100+ MB); jit = off.
for f in "$PGDIR"/lib/*.so; do
  case "$(basename "$f")" in plpgsql.so|dict_snowball.so|pg_trgm.so|pg_stat_statements.so|*_and_*.so) cp -L "$f" "$PL/";; esac
done
(cd "$PGSHARE" && tar cf - --exclude=./man --exclude=./contrib --exclude=./extension .) | tar -x -C "$PS"
cp -L "$PGSHARE"/extension/plpgsql* "$PGSHARE"/extension/pg_trgm* "$PGSHARE"/extension/pg_stat_statements* "$PS/extension/"
cp -L "$REDIS" "$ST/redis/redis-server"
# Every shared library that ldd resolves, except glibc's own (the target's glibc must be >= this
# machine's for these: run.sh says so when they do not load). libstdc++ and libgcc_s go to
# lib-fallback/: run.sh prefers the target's own and takes these only where it has none or older ones.
GLIBC='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|libutil\.so\.1|libanl\.so\.1)$'
for f in "$PB"/* "$PL"/*.so "$ST/redis/redis-server" "$NODE"; do ldd "$f" | awk '/=>/ {print $1, $3}'; done | sort -u |
  while read -r name path; do
    [[ "$name" =~ $GLIBC ]] && continue
    [ "$path" = not ] && fail "library $name is not found on this machine"
    case "$name" in libstdc++.so.*|libgcc_s.so.*) cp -L "$path" "$ST/lib-fallback/$name";; *) cp -L "$path" "$ST/lib/$name";; esac
  done
strip --strip-unneeded "$PB"/* "$PL"/*.so "$ST/redis/redis-server" "$ST"/lib/* "$ST"/lib-fallback/* 2>/dev/null || true

# ------------------------------------------------------------------ archives
PG_VERSION=$("$PGDIR/bin/postgres" --version)
REDIS_VERSION=$("${KIT_REDIS:-redis-server}" --version | sed -E 's/.* v=([^ ]+).*/\1/')
say "staged: $(du -sh "$ST/app" | cut -f1) service and modules, $(du -sh "$ST/pg" | cut -f1) PostgreSQL, $(du -sh "$ST/lib" "$ST/lib-fallback" | awk '{print $1}' | paste -sd+) libraries; compressing (xz -$LEVEL)"
(cd "$ST" && tar cf - --owner=0 --group=0 app pg redis lib lib-fallback | xz "-$LEVEL" -T0 > "$OUT/payload.tar.xz.part") && mv "$OUT/payload.tar.xz.part" "$OUT/payload.tar.xz"
# Node's binary compresses in a minute: kept between builds while the binary is the same.
NODE_SUM=$(sha256sum "$NODE" | cut -c1-64)
if [ ! -f "$OUT/node.xz" ] || [ "$(cat "$OUT/node.sha256" 2>/dev/null)" != "$NODE_SUM" ]; then
  say "compressing the Node binary ($NODE, $(node --version))"
  xz "-$LEVEL" -T0 -c "$NODE" > "$OUT/node.xz.part" && mv "$OUT/node.xz.part" "$OUT/node.xz"
  echo "$NODE_SUM" > "$OUT/node.sha256"
fi
cp "$ROOT/bench/kit/run.sh" "$OUT/run.sh" && chmod 755 "$OUT/run.sh"
cat > "$OUT/MANIFEST.txt" <<EOM
card-key service benchmark kit (npm run bench:kit)
commit: $COMMIT$( [ "$KIT_DIRTY" = 0 ] || echo " (bench/kit/ with uncommitted changes)")
built: $(date -u '+%Y-%m-%d %H:%M UTC') on $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version | sed -n 1p)
node: $(node --version); $PG_VERSION; redis $REDIS_VERSION
run: OUT=/some/dir bash bench-kit/run.sh   (knobs: bench/kit/run.sh)
EOM
(cd "$OUT" && sha256sum run.sh node.xz payload.tar.xz > SHA256SUMS)
say "$OUT: $(du -ch "$OUT/run.sh" "$OUT/node.xz" "$OUT/payload.tar.xz" | tail -1 | cut -f1) in all (node.xz $(du -h "$OUT/node.xz" | cut -f1), payload.tar.xz $(du -h "$OUT/payload.tar.xz" | cut -f1))"
