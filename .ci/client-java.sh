#!/usr/bin/env bash
# The official Java client (clients/java, issue 38): installs a JDK from the system's packages if
# javac is missing, builds the client and its tests with the plain JDK tools (clients/java/build.sh:
# javac and jar, nothing downloaded), then runs the unit tests offline (the shared vectors, a
# scripted service, the heartbeat loop). The live tests need the service: Jest's
# test/e2e/clients/java-client.e2e-spec.ts runs them. Last line: "java client: N passed, N failed" (each unit
# test counts once, the build as one more).
set -uo pipefail
cd "$(dirname "$0")/../clients/java"
passed=0
failed=0

step() { printf '\n=== java client: %s (at %d s) ===\n' "$*" "$SECONDS"; }
finish() { echo "java client: $passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0 || exit 1; }

step "toolchain"
if ! command -v javac >/dev/null 2>&1; then
  echo "installing openjdk-17-jdk-headless"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 openjdk-17-jdk-headless; }; then
    echo "could not install openjdk-17-jdk-headless" >&2
    failed=$((failed + 1))
    finish
  fi
fi
javac -version

step "build (javac --release 17 -Xlint:all -Werror, jar)"
if ./build.sh; then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
  finish
fi

step "unit tests"
log=$(mktemp)
java -cp build/classes:build/test-classes cardkey.client.TestRunner unit 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
tests_passed=$(grep -c '^PASS ' "$log")
tests_failed=$(grep -c '^FAIL ' "$log")
rm -f "$log"
passed=$((passed + tests_passed))
failed=$((failed + tests_failed))
# A crash of the runner fails no named test: count it once.
if [ "$rc" -ne 0 ] && [ "$tests_failed" -eq 0 ]; then failed=$((failed + 1)); fi
finish
