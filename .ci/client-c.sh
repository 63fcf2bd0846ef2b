#!/usr/bin/env bash
# The official C client (clients/c, issue 38): installs its toolchain from the system's packages
# if missing, builds it twice — normal (clients/c/build) and with AddressSanitizer +
# UndefinedBehaviorSanitizer (clients/c/build-asan) — runs its ctest suite (the shared vectors, a
# scripted fake service, the heartbeat thread, the offline example, the C++ view of the header) on
# both, and runs the offline example under valgrind. The live tests against the service run in
# Jest (test/e2e/clients/c-client.e2e-spec.ts), which needs both builds: run this first. Then a Windows compile
# check: every source, test and example compiled by MinGW-w64's GCC (syntax only: Debian packages no
# Windows builds of libcurl, libsodium, cJSON or OpenSSL to link against, so their Linux headers
# stand in), which keeps the `#ifdef _WIN32` parts (the machine code's registry read, the wait
# clock) and the POSIX calls MinGW provides compiling for Windows.
# Last line: "c client: N passed, N failed". JOBS (default 2) sets the build parallelism.
set -uo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-2}
CLIENT=clients/c
passed=0
failed=0

step() { printf '\n=== c client: %s (at %d s) ===\n' "$*" "$SECONDS"; }
finish() { echo "c client: $passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0 || exit 1; }

step "toolchain"
packages=(gcc g++ cmake pkg-config libcurl4-openssl-dev libsodium-dev libcjson-dev libssl-dev valgrind gcc-mingw-w64-x86-64-posix)
missing=()
for package in "${packages[@]}"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${missing[@]}"; }; then
    echo "could not install ${missing[*]}" >&2
    failed=$((failed + 1))
    finish
  fi
fi

# Builds one flavour and runs its ctest suite; counts each ctest test (a failed build counts once).
build_and_test() {
  local dir=$1; shift
  step "build $dir"
  if ! cmake -S "$CLIENT" -B "$dir" "$@" >/dev/null || ! cmake --build "$dir" -j"$JOBS"; then
    echo "the build in $dir failed" >&2
    failed=$((failed + 1))
    return
  fi
  step "ctest $dir"
  local log
  log=$(cd "$dir" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure 2>&1)
  echo "$log"
  local summary total bad
  summary=$(grep -E '[0-9]+ tests? failed out of [0-9]+' <<<"$log" | tail -1)
  if [ -z "$summary" ]; then
    failed=$((failed + 1))
    return
  fi
  bad=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$summary")
  total=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$summary")
  passed=$((passed + total - bad))
  failed=$((failed + bad))
}

build_and_test "$CLIENT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
build_and_test "$CLIENT/build-asan" -DCARDKEY_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug

step "valgrind on the offline example"
if [ -x "$CLIENT/build/offline_check" ] &&
  valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    "$CLIENT/build/offline_check"; then
  passed=$((passed + 1))
else
  echo "offline_check is not valgrind-clean (or was not built)" >&2
  failed=$((failed + 1))
fi

step "windows compile check (MinGW-w64, syntax only)"
windows_ok=1
for source in "$CLIENT"/src/*.c "$CLIENT"/tests/*.c "$CLIENT"/examples/*.c; do
  if ! x86_64-w64-mingw32-gcc -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -fsyntax-only \
    -I"$CLIENT/include" -idirafter /usr/include -idirafter /usr/include/x86_64-linux-gnu "$source"; then
    echo "$source does not compile for Windows" >&2
    windows_ok=0
  fi
done
if [ "$windows_ok" -eq 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

finish
