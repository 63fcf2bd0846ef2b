#!/usr/bin/env bash
# The official Go client (clients/go, issue 38): installs Go (and gcc, which -race needs) from the
# system's packages if missing, then runs `go vet ./...` and `go test -race ./...` offline (the
# shared vectors, a scripted fake service, the heartbeat goroutine; the live tests skip without
# CARDKEY_LIVE_URL: Jest's test/e2e/clients/go-client.e2e-spec.ts runs them against the service).
# Last line: "go client: N passed, N failed" (each Go test counts once, go vet as one more; skips
# are not counted).
set -uo pipefail
cd "$(dirname "$0")/../clients/go"
passed=0
failed=0

step() { printf '\n=== go client: %s (at %d s) ===\n' "$*" "$SECONDS"; }
finish() { echo "go client: $passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0 || exit 1; }

step "toolchain"
missing=()
command -v go >/dev/null 2>&1 || missing+=(golang-go)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 "${missing[@]}"; }; then
    echo "could not install ${missing[*]}" >&2
    failed=$((failed + 1))
    finish
  fi
fi
go version
# Offline: the module needs nothing but the standard library.
export GOPROXY=off GOFLAGS=-mod=mod

step "go vet"
if go vet ./...; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

step "go test -race"
log=$(mktemp)
go test -race -count=1 -v ./... 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
tests_passed=$(grep -cE '^\s*--- PASS: ' "$log")
tests_skipped=$(grep -cE '^\s*--- SKIP: ' "$log")
tests_failed=$(grep -cE '^\s*--- FAIL: ' "$log")
rm -f "$log"
echo "$tests_skipped skipped (the live tests, without CARDKEY_LIVE_URL)"
passed=$((passed + tests_passed))
failed=$((failed + tests_failed))
# A build failure or a panic fails no named test: count it once.
if [ "$rc" -ne 0 ] && [ "$tests_failed" -eq 0 ]; then failed=$((failed + 1)); fi
finish
