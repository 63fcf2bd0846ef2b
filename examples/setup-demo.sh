#!/usr/bin/env bash
# Prepares a demo program on a running service and prints `export` lines for the other examples:
#
#   eval "$(examples/setup-demo.sh)"
#
# As the platform admin it creates an author (unique name), a project owned by that author and one
# 30-day card. Needs curl and jq.
#
# Environment: BASE_URL (default http://localhost:3000), ADMIN_USERNAME (default admin),
# ADMIN_PASSWORD (default: the contents of ./data/admin-password.txt).
set -euo pipefail

BASE_URL=${BASE_URL:-http://localhost:3000}
BASE_URL=${BASE_URL%/}
ADMIN_USERNAME=${ADMIN_USERNAME:-admin}
if [[ -z ${ADMIN_PASSWORD:-} && -r data/admin-password.txt ]]; then
  ADMIN_PASSWORD=$(<data/admin-password.txt)
fi
if [[ -z ${ADMIN_PASSWORD:-} ]]; then
  echo "setup-demo: set ADMIN_PASSWORD (or run from the directory holding data/admin-password.txt)" >&2
  exit 1
fi
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "setup-demo: $tool is required" >&2; exit 1; }
done

auth=()
# admin METHOD PATH JSON: calls the admin API; any non-2xx answer stops the script.
admin() {
  local answer status
  answer=$(curl -sS -X "$1" "$BASE_URL$2" -H 'Content-Type: application/json' "${auth[@]}" \
    --data-binary "$3" -w '\n%{http_code}') ||
    { echo "setup-demo: $1 $2: cannot reach $BASE_URL" >&2; exit 1; }
  status=${answer##*$'\n'}
  answer=${answer%$'\n'*}
  if [[ $status != 2?? ]]; then
    echo "setup-demo: $1 $2 answered HTTP $status: $answer" >&2
    exit 1
  fi
  printf '%s' "$answer"
}

suffix="$(date +%s)-$RANDOM"

token=$(admin POST /admin/v1/auth/login \
  "$(jq -nc --arg u "$ADMIN_USERNAME" --arg p "$ADMIN_PASSWORD" '{username: $u, password: $p}')" | jq -r .token)
auth=(-H "Authorization: Bearer $token")

# The author gets a random password that is not printed: the platform admin manages its project.
author_password=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')
author_id=$(admin POST /admin/v1/authors \
  "$(jq -nc --arg u "demo-$suffix" --arg p "$author_password" '{username: $u, password: $p}')" | jq -r .id)

# A platform admin creates the project for the author (owner_id). The secrets are shown only now.
project=$(admin POST /admin/v1/projects \
  "$(jq -nc --arg n "Demo program $suffix" --arg o "$author_id" '{name: $n, owner_id: $o}')")
project_id=$(jq -r .id <<<"$project")

card_key=$(admin POST "/admin/v1/projects/$project_id/cards" \
  '{"count": 1, "duration_seconds": 2592000}' | jq -r '.items[0].code')

# %q quotes each value for the shell that evals these lines.
printf 'export BASE_URL=%q\n' "$BASE_URL"
printf 'export PROGRAM_ID=%q\n' "$(jq -r .program_id <<<"$project")"
printf 'export API_SECRET=%q\n' "$(jq -r .api_secret <<<"$project")"
printf 'export LEGACY_SECRET=%q\n' "$(jq -r .legacy_secret <<<"$project")"
printf 'export CARD_KEY=%q\n' "$card_key"
