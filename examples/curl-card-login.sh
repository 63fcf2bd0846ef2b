#!/usr/bin/env bash
# A card login by hand with curl, openssl and jq, in the two signed families:
#   (a) HTTP V3 card login   POST /api/legacy/v3/cards/login   form  app, kami, imei
#   (b) SDK card login       POST /api/v1/cards/login          JSON  {"app","card_key","machine_id"}
#   (c) one card heartbeat   POST /api/v1/cards/heartbeat      Bearer <session_token> from (b)
#
# Environment (see examples/setup-demo.sh): BASE_URL, PROGRAM_ID, API_SECRET, CARD_KEY;
# MACHINE_ID (default: this device's machine code, below). Exits non-zero at the first step that fails.
set -euo pipefail

: "${BASE_URL:?run eval \"\$(examples/setup-demo.sh)\" first}" "${PROGRAM_ID:?}" "${API_SECRET:?}" "${CARD_KEY:?}"
BASE_URL=${BASE_URL%/}

# This device's machine code (机器码), what every official client's helper computes (machineCode,
# machine_code, MachineCode, ck_machine_code; docs/protocol.md, "The machine code"): the first 32
# hex characters of SHA-256 of "PROGRAM_ID:" + the system's id, trimmed and lowercased. The id is
# Linux's /etc/machine-id (else /var/lib/dbus/machine-id) or macOS's IOPlatformUUID; a device with
# neither sends demo-machine-1. MACHINE_ID, when set, is sent instead.
machine_code() {
  local raw=''
  if [ -s /etc/machine-id ]; then
    raw=$(cat /etc/machine-id)
  elif [ -s /var/lib/dbus/machine-id ]; then
    raw=$(cat /var/lib/dbus/machine-id)
  elif command -v ioreg >/dev/null; then
    raw=$(ioreg -rd1 -c IOPlatformExpertDevice | awk -F'"' '/"IOPlatformUUID"/ {print $4}')
  fi
  raw=$(printf '%s' "$raw" | tr -d ' \t\r\n' | tr 'A-Z' 'a-z')
  [ -n "$raw" ] || return 1
  printf '%s:%s' "$PROGRAM_ID" "$raw" | openssl dgst -sha256 | awk '{print substr($NF, 1, 32)}'
}
MACHINE_ID=${MACHINE_ID:-$(machine_code || echo demo-machine-1)}

# sign PATH BODY: sets `signed` to the curl arguments of the three signature headers.
sign() {
  local path=$1 body=$2 timestamp nonce signature
  timestamp=$(date +%s)                   # Unix seconds, within ±300 s of the server clock
  nonce=$(openssl rand -hex 16)           # 8-96 of [A-Za-z0-9_.:-], never reused
  # The string signed: METHOD, PATH (no query string), TIMESTAMP, NONCE and the raw body, joined
  # by "\n" with no trailing newline. The key is the project's api_secret; the signature is the
  # lowercase hex HMAC-SHA256 (openssl prints "SHA2-256(stdin)= <hex>": keep the last field).
  signature=$(printf 'POST\n%s\n%s\n%s\n%s' "$path" "$timestamp" "$nonce" "$body" |
    openssl dgst -sha256 -hmac "$API_SECRET" | awk '{print $NF}')
  signed=(-H "X-Svc-Timestamp: $timestamp" -H "X-Svc-Nonce: $nonce" -H "X-Svc-Signature: $signature")
}

# check STEP ANSWER: prints the answer and applies the V3/SDK success rule: `success` when the
# answer has it, else code 0 (or 1). Business rejections come with HTTP 200: always read the body.
check() {
  printf '%s\n%s\n' "== $1" "$2"
  if ! jq -e 'if (.success | type) == "boolean" then .success else .code == 0 or .code == 1 end' >/dev/null 2>&1 <<<"$2"; then
    echo "$1 failed: $(jq -r '"code \(.code // .error.code), request_id \(.request_id)"' <<<"$2" 2>/dev/null || echo 'not a JSON answer')" >&2
    exit 1
  fi
}

# (a) HTTP V3: a form body. Build it once and send exactly these bytes (--data-binary), since the
# signature covers the raw body.
path=/api/legacy/v3/cards/login
body="app=$(jq -rn --arg v "$PROGRAM_ID" '$v|@uri')&kami=$(jq -rn --arg v "$CARD_KEY" '$v|@uri')&imei=$(jq -rn --arg v "$MACHINE_ID" '$v|@uri')"
sign "$path" "$body"
answer=$(curl -sS "$BASE_URL$path" -H 'Content-Type: application/x-www-form-urlencoded' "${signed[@]}" --data-binary "$body")
check 'HTTP V3 card login' "$answer"

# (b) SDK: a JSON body, signed the same way (fresh timestamp and nonce).
path=/api/v1/cards/login
body=$(jq -nc --arg app "$PROGRAM_ID" --arg card "$CARD_KEY" --arg machine "$MACHINE_ID" \
  '{app: $app, card_key: $card, machine_id: $machine}')
sign "$path" "$body"
answer=$(curl -sS "$BASE_URL$path" -H 'Content-Type: application/json' "${signed[@]}" --data-binary "$body")
check 'SDK card login' "$answer"
session_token=$(jq -r .data.session_token <<<"$answer")

# (c) Heartbeat: not signed; the session token of (b) is the credential. Same machine_id as at login.
answer=$(curl -sS "$BASE_URL/api/v1/cards/heartbeat" -H 'Content-Type: application/json' \
  -H "Authorization: Bearer $session_token" \
  --data-binary "$(jq -nc --arg machine "$MACHINE_ID" '{machine_id: $machine}')")
check 'card heartbeat' "$answer"
