#!/usr/bin/env bash
# pnpm test:compose: proves the Docker deployment end to end (not part of .ci/run).
#
#   1. a clean start: `docker compose down -v`, then `docker compose up --build -d` and every
#      service healthy (build and start-up timed);
#   2. the end-to-end suite against the stack (`pnpm test:e2e` with QUOTES_URL/DATA_API_URL),
#      after a few smoke checks of its own;
#   3. persistence: sign up, create a key, `docker compose down` (volumes kept) and `up -d`
#      again; the key still answers 200 for the same user, and its quota count survived;
#   4. graceful stop: `docker stop` of each service container exits 0 within its grace period
#      and logs "shutting down gracefully" then "closed";
#   5. a summary (image sizes, timings, results); the stack is left down (volumes kept unless
#      --clean). Exits non-zero on any failure.
#
# Needs a Docker engine with Compose (v2, or v1.27+ as `docker-compose`), curl and node. When
# no engine answers and a docker-sandbox is found (DOCKER_SANDBOX, PATH, or
# ../shared/tools/docker-sandbox next to the repository), it is started (as root).
#
# Usage: scripts/test-compose.sh [--clean] [--no-cache]
#   --clean      also delete the volumes at the end (docker compose down -v)
#   --no-cache   build the images from scratch (a cold build time)
# Environment: HEALTH_TIMEOUT (s, default 240), QUOTES_PORT/DATA_API_PORT (default 3000/3001,
#   must match the published ports), KEEP_UP=1 leaves the stack running at the end.
set -Eeuo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

CLEAN=0
BUILD_ARGS=()
for arg in "$@"; do
  case $arg in
    --clean) CLEAN=1 ;;
    --no-cache) BUILD_ARGS+=(--no-cache) ;;
    -h | --help) sed -n '2,/^set -E/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $arg (try --help)" >&2; exit 2 ;;
  esac
done

HEALTH_TIMEOUT=${HEALTH_TIMEOUT:-240}
QUOTES_URL=http://localhost:${QUOTES_PORT:-3000}
DATA_API_URL=http://localhost:${DATA_API_PORT:-3001}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/test-compose.XXXXXX")

T_START=$(date +%s%N)
log() {
  local ms=$((($(date +%s%N) - T_START) / 1000000))
  printf '[test-compose %4d.%ds] %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$*" >&2
}
fail() { log "FAIL: $*"; exit 1; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
secs() { printf '%d.%d s' $(($1 / 1000)) $(($1 % 1000 / 100)); } # ms -> "12.3 s"

declare -A RESULT=()   # summary lines
RESULT_ORDER=()
result() { RESULT[$1]=$2; RESULT_ORDER+=("$1"); }

# ---------------------------------------------------------------- engine and compose
find_sandbox() {
  if [[ -n ${DOCKER_SANDBOX:-} ]]; then echo "$DOCKER_SANDBOX"; return; fi
  command -v docker-sandbox 2>/dev/null && return
  local sibling=$ROOT/../shared/tools/docker-sandbox
  [[ -x $sibling ]] && { echo "$sibling"; return; }
  return 1
}

ensure_engine() {
  command -v docker >/dev/null || fail "no docker client on PATH"
  if docker info >/dev/null 2>&1; then return; fi
  local ds
  ds=$(find_sandbox) || fail "no Docker engine answers (docker info) and no docker-sandbox was found"
  local rc=0
  "$ds" status >/dev/null 2>&1 || rc=$?
  if ((rc != 0)); then
    log "engine stopped: starting $ds (the first start on a machine takes ~3 min)"
    "$ds" >&2 || fail "$ds failed to start the engine"
  fi
  docker info >/dev/null 2>&1 || fail "the Docker engine still does not answer"
}

if docker compose version >/dev/null 2>&1; then
  DC=(docker compose)
elif command -v docker-compose >/dev/null; then
  DC=(docker-compose)
else
  DC=()
fi
dc() { "${DC[@]}" "$@"; }

# ---------------------------------------------------------------- clean-up and failure report
STACK_TOUCHED=0
on_exit() {
  local rc=$?
  if ((rc != 0 && STACK_TOUCHED)); then
    log "failed: state and recent logs of the stack follow"
    dc ps >&2 || true
    dc logs --no-color --tail=60 >&2 || true
  fi
  if ((STACK_TOUCHED)) && [[ ${KEEP_UP:-0} != 1 ]]; then
    if ((CLEAN)); then dc down -v --remove-orphans >/dev/null 2>&1 || true
    else dc down --remove-orphans >/dev/null 2>&1 || true; fi
    log "stack down$( ((CLEAN)) && echo ', volumes deleted' || echo ', volumes kept')"
  fi
  rm -rf "$WORK"
  exit $rc
}
trap on_exit EXIT
trap 'log "unexpected error (rc $?) at line $LINENO: $BASH_COMMAND"' ERR

# ---------------------------------------------------------------- waiting for health
SERVICES=()
# Waits until every service's container is running and healthy. Fails at once when one exits
# or turns unhealthy, or after HEALTH_TIMEOUT. Sets HEALTHY_MS[service] (ms since $1) and
# OWN_MS[service]: from its container's start to healthy (polled every 0.5 s; the health checks
# run every 5 s, so this is an upper bound).
declare -A HEALTHY_MS=() OWN_MS=()
wait_healthy() {
  local since=$1 deadline=$((SECONDS + HEALTH_TIMEOUT))
  HEALTHY_MS=() OWN_MS=()
  while :; do
    local pending=0 svc id line status health started
    for svc in "${SERVICES[@]}"; do
      [[ -n ${HEALTHY_MS[$svc]:-} ]] && continue
      id=$(dc ps -q "$svc" 2>/dev/null | head -n1)
      if [[ -z $id ]]; then pending=1; continue; fi
      line=$(docker inspect -f '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$id" 2>/dev/null) || { pending=1; continue; }
      read -r status health <<<"$line"
      case "$status/$health" in
        running/healthy)
          HEALTHY_MS[$svc]=$(($(now_ms) - since))
          started=$(date -d "$(docker inspect -f '{{.State.StartedAt}}' "$id")" +%s%3N)
          OWN_MS[$svc]=$(($(now_ms) - started))
          log "  $svc healthy after $(secs "${HEALTHY_MS[$svc]}") ($(secs "${OWN_MS[$svc]}") after its container started)" ;;
        running/none) fail "$svc has no health check" ;;
        */unhealthy) fail "$svc is unhealthy" ;;
        exited/* | dead/*) fail "$svc exited ($(docker inspect -f '{{.State.ExitCode}}' "$id"))" ;;
        *) pending=1 ;;
      esac
    done
    ((pending)) || return 0
    ((SECONDS < deadline)) || fail "not every service was healthy within ${HEALTH_TIMEOUT}s"
    sleep 0.5
  done
}

# ---------------------------------------------------------------- HTTP helpers
# http METHOD URL [curl args…]: body in $WORK/body, headers in $WORK/headers, status in $CODE.
CODE=
http() {
  local method=$1 url=$2
  shift 2
  CODE=$(curl -sS -X "$method" -o "$WORK/body" -D "$WORK/headers" -w '%{http_code}' \
    -A 'test-compose (quotes-and-data-platform; scripts/test-compose.sh)' "$@" "$url") ||
    fail "$method $url: curl failed"
}
expect() { # expect STATUS DESCRIPTION
  [[ $CODE == "$1" ]] || { head -c 600 "$WORK/body" >&2; echo >&2; fail "$2: HTTP $CODE, expected $1"; }
}
json() { # json EXPRESSION (over `j`, the body as JSON)
  node -e 'const j = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); const v = (0, eval)("(j) => " + process.argv[2])(j); process.stdout.write(String(v))' "$WORK/body" "$1"
}
csrf_of_body() { sed -n 's/.*name="_csrf" value="\([^"]*\)".*/\1/p' "$WORK/body" | head -n1; }
# Cookies by hand: the session cookie is Secure, which not every curl sends over http://localhost.
COOKIES=()
declare -A COOKIE=()
keep_cookies() {
  local name value
  while IFS= read -r line; do
    line=${line%$'\r'}
    [[ ${line,,} == set-cookie:* ]] || continue
    line=${line#*: }
    line=${line%%;*}
    name=${line%%=*} value=${line#*=}
    [[ -n ${COOKIE[$name]+x} ]] || COOKIES+=("$name")
    COOKIE[$name]=$value
  done <"$WORK/headers"
}
cookie_header() {
  local out= name
  for name in "${COOKIES[@]}"; do [[ -n ${COOKIE[$name]} ]] && out+="${out:+; }$name=${COOKIE[$name]}"; done
  printf 'Cookie: %s' "$out"
}

# ---------------------------------------------------------------- checks
smoke_checks() {
  http GET "$QUOTES_URL/api"
  expect 200 "quotes GET /api"
  [[ -s $WORK/body ]] || fail "quotes GET /api: empty body"
  http GET "$QUOTES_URL/api/q/q1" -H 'Accept: application/json'
  expect 200 "quotes GET /api/q/q1"
  [[ $(json 'j.id') == q1 ]] || fail "quotes GET /api/q/q1: wrong id"
  http GET "$QUOTES_URL/api/search?term=love&limit=5" -H 'Accept: application/json'
  expect 200 "quotes search"
  (($(json 'j.total_quotes') > 0)) || fail "quotes search: no results for 'love' (corpus not seeded?)"
  local total
  http GET "$QUOTES_URL/api/search?limit=1" -H 'Accept: application/json'
  total=$(json 'j.total_quotes')
  http GET "$QUOTES_URL/ready"
  expect 200 "quotes /ready"
  http GET "$DATA_API_URL/ready"
  expect 200 "data-api /ready"
  http GET "$DATA_API_URL/signup"
  expect 200 "data-api GET /signup"
  http GET "$DATA_API_URL/api/v1/data"
  expect 401 "data-api /api/v1/data without a key"
  http GET "$DATA_API_URL/docs/json"
  expect 200 "data-api /docs/json"
  log "  smoke checks passed ($total quotes seeded)"
}

run_e2e() {
  if [[ ! -f e2e/package.json ]]; then
    log "  e2e/package.json not found: end-to-end suite SKIPPED (smoke checks only)"
    result "e2e suite" "SKIPPED (no e2e/package.json yet; smoke checks passed)"
    [[ ${REQUIRE_E2E:-0} == 1 ]] && fail "REQUIRE_E2E=1 and there is no e2e suite"
    return 0
  fi
  if [[ ! -d e2e/node_modules ]]; then
    log "  installing the e2e suite's dependencies"
    pnpm install --frozen-lockfile --filter '@repo/e2e...' >&2 || fail "pnpm install for e2e failed"
  fi
  local t0 rc=0
  t0=$(now_ms)
  QUOTES_URL=$QUOTES_URL DATA_API_URL=$DATA_API_URL pnpm test:e2e >"$WORK/e2e.log" 2>&1 || rc=$?
  local took=$(($(now_ms) - t0))
  local tail
  tail=$(sed 's/\x1b\[[0-9;]*m//g' "$WORK/e2e.log" | grep -E '^\s*(Test Files|Tests)\s' | sed 's/^ *//' | tr -s ' ' | paste -sd';' - || true)
  if ((rc != 0)); then
    cat "$WORK/e2e.log" >&2
    fail "end-to-end suite failed (rc $rc)"
  fi
  log "  end-to-end suite passed in $(secs "$took"): ${tail:-see output}"
  result "e2e suite" "PASSED in $(secs "$took") (${tail:-pnpm test:e2e exit 0})"
}

# Signs up a fresh account through the dashboard forms and creates a key: sets KEY.
KEY=
create_account_and_key() {
  local email=$1 password=$2 csrf
  COOKIES=() COOKIE=()
  http GET "$DATA_API_URL/signup"
  expect 200 "GET /signup"
  keep_cookies
  csrf=$(csrf_of_body)
  [[ -n $csrf ]] || fail "GET /signup: no CSRF token in the form"
  http POST "$DATA_API_URL/signup" -H "$(cookie_header)" \
    --data-urlencode "email=$email" --data-urlencode "password=$password" \
    --data-urlencode "plan=PRO" --data-urlencode "_csrf=$csrf"
  expect 303 "POST /signup"
  keep_cookies
  grep -qi '^location: */dashboard' "$WORK/headers" || fail "POST /signup did not redirect to /dashboard"
  http GET "$DATA_API_URL/dashboard" -H "$(cookie_header)"
  expect 200 "GET /dashboard"
  keep_cookies
  csrf=$(csrf_of_body)
  [[ -n $csrf ]] || fail "GET /dashboard: no CSRF token"
  http POST "$DATA_API_URL/dashboard/keys" -H "$(cookie_header)" \
    --data-urlencode "name=compose-persistence" --data-urlencode "_csrf=$csrf"
  expect 200 "POST /dashboard/keys"
  KEY=$(tr '\n' ' ' <"$WORK/body" | grep -o '<input[^>]*id="new-key"[^>]*>' | grep -o 'value="sk_[A-Za-z0-9]*"' | sed 's/^value="//; s/"$//')
  [[ $KEY =~ ^sk_[A-Za-z0-9]{38}$ ]] || fail "POST /dashboard/keys: no sk_… key in the page"
}

graceful_stop() { # graceful_stop SERVICE: docker stop, exit code, timing, shutdown log lines
  local svc=$1 id grace t0 took code logs a b
  id=$(dc ps -q "$svc" | head -n1)
  [[ -n $id ]] || fail "no container for $svc"
  # compose's stop_grace_period; `docker stop` alone would use the engine's 10 s default.
  grace=$(docker inspect -f '{{if .Config.StopTimeout}}{{.Config.StopTimeout}}{{end}}' "$id")
  grace=${grace:-20}
  t0=$(now_ms)
  docker stop -t "$grace" "$id" >/dev/null
  took=$(($(now_ms) - t0))
  code=$(docker inspect -f '{{.State.ExitCode}}' "$id")
  logs=$(docker logs "$id" 2>&1)
  a=$(grep -n '"shutting down gracefully"' <<<"$logs" | tail -n1 | cut -d: -f1)
  b=$(grep -n '"msg":"closed"' <<<"$logs" | tail -n1 | cut -d: -f1)
  local verdict="exit $code after $(secs "$took") (grace ${grace} s)"
  [[ $code == 0 ]] || fail "$svc: docker stop: $verdict"
  ((took < grace * 1000)) || fail "$svc: docker stop took the whole grace period: $verdict"
  [[ -n $a && -n $b ]] && ((a < b)) || { tail -n 5 <<<"$logs" >&2; fail "$svc: no \"shutting down gracefully\" then \"closed\" in its logs"; }
  log "  $svc: $verdict, logs show \"shutting down gracefully\" then \"closed\""
  result "docker stop $svc" "$verdict; logged \"shutting down gracefully\" → \"closed\""
}

image_of() { # the image compose builds for SERVICE
  dc config | awk -v s="  $1:" '$0 == s {f=1; next} f && /^  [^ ]/ {f=0} f && $1 == "image:" && !ref {ref=$2} END {print ref}'
}

check_images() { # what the service images must (not) contain
  local svc ref user env
  for svc in quotes data-api; do
    ref=$(image_of "$svc")
    [[ -n $ref ]] || fail "no image: for $svc in docker-compose.yml"
    user=$(docker image inspect -f '{{.Config.User}}' "$ref")
    [[ $user == node ]] || fail "$ref runs as '${user:-root}', not node"
    env=$(docker image inspect -f '{{range .Config.Env}}{{.}} {{end}}' "$ref")
    [[ $env == *NODE_ENV=production* && $env == *EMBEDDED_STORES=off* ]] ||
      fail "$ref lacks NODE_ENV=production or EMBEDDED_STORES=off"
    [[ -n $(docker image inspect -f '{{if .Config.Healthcheck}}yes{{end}}' "$ref") ]] || fail "$ref has no HEALTHCHECK"
    docker run --rm --entrypoint sh "$ref" -c '
      cd /app || exit 1
      for f in dist/server.js migrations views public package.json; do [ -e "$f" ] || { echo "missing /app/$f"; exit 1; }; done
      dev=$(ls node_modules/.pnpm | grep -E "^(typescript|tsx|vitest|@vitest\+.*|@biomejs\+.*|turbo|playwright-core|fast-check|esbuild)@")
      [ -z "$dev" ] || { echo "dev tooling in the image: $dev"; exit 1; }
      ! command -v pnpm >/dev/null || { echo "pnpm in the image"; exit 1; }
      [ ! -e src ] && [ ! -e test ] || { echo "sources or tests in the image"; exit 1; }
    ' >&2 || fail "$ref: content check failed"
  done
  log "   images: run as node, NODE_ENV=production, EMBEDDED_STORES=off, HEALTHCHECK, no dev tooling or sources"
}

# ================================================================ run
command -v curl >/dev/null || fail "curl is needed"
command -v node >/dev/null || fail "node is needed"
ensure_engine
if ((${#DC[@]} == 0)); then
  # The sandbox installs a compose shim when it starts: look again.
  if docker compose version >/dev/null 2>&1; then DC=(docker compose)
  elif command -v docker-compose >/dev/null; then DC=(docker-compose)
  else fail "no docker compose / docker-compose"; fi
fi
log "engine: $(docker version -f 'Docker {{.Server.Version}}' 2>/dev/null); compose: $(dc version --short 2>/dev/null || dc version | head -n1)"
mapfile -t SERVICES < <(dc config --services)
((${#SERVICES[@]} > 0)) || fail "docker compose config lists no services"

STACK_TOUCHED=1
log "1. clean start: docker compose down -v"
dc down -v --remove-orphans >/dev/null 2>&1 || true

log "   docker compose build"
t0=$(now_ms)
dc build "${BUILD_ARGS[@]}" >"$WORK/build.log" 2>&1 || { tail -n 60 "$WORK/build.log" >&2; fail "docker compose build failed"; }
BUILD_MS=$(($(now_ms) - t0))
log "   built in $(secs "$BUILD_MS")"
result "build (docker compose build${BUILD_ARGS[*]:+ ${BUILD_ARGS[*]}})" "$(secs "$BUILD_MS")"
check_images

log "   docker compose up --build -d, waiting for ${SERVICES[*]} to be healthy"
t0=$(now_ms)
dc up --build -d >"$WORK/up.log" 2>&1 || { cat "$WORK/up.log" >&2; fail "docker compose up failed"; }
wait_healthy "$t0"
UP_MS=$(($(now_ms) - t0))
startup="$(secs "$UP_MS") from \`up --build -d\` to all healthy; container start → healthy: "
for svc in "${SERVICES[@]}"; do startup+="$svc $(secs "${OWN_MS[$svc]}"), "; done
result "start-up, empty volumes (initdb, migrations, seed)" "${startup%, }"

log "2. checks against the stack"
smoke_checks
run_e2e

log "3. persistence across docker compose down / up"
EMAIL="compose-$(date +%s)-$RANDOM@example.com"
create_account_and_key "$EMAIL" "compose-check-$RANDOM-$RANDOM"
http GET "$DATA_API_URL/api/v1/data" -H "Authorization: Bearer $KEY"
expect 200 "GET /api/v1/data with the new key"
USER_ID=$(json 'j.user.id')
[[ $(json 'j.user.email') == "$EMAIL" ]] || fail "GET /api/v1/data: another user"
USED_BEFORE=$(json 'j.quota.used')
log "   $EMAIL (user $USER_ID) has key ${KEY:0:11}…; quota used $USED_BEFORE"
dc down >"$WORK/down.log" 2>&1 || { cat "$WORK/down.log" >&2; fail "docker compose down failed"; }
[[ -z $(dc ps -q) ]] || fail "containers left after docker compose down"
t0=$(now_ms)
dc up -d >"$WORK/up2.log" 2>&1 || { cat "$WORK/up2.log" >&2; fail "docker compose up -d (second) failed"; }
wait_healthy "$t0"
RESTART_MS=$(($(now_ms) - t0))
startup="$(secs "$RESTART_MS") from \`up -d\` to all healthy; container start → healthy: "
for svc in "${SERVICES[@]}"; do startup+="$svc $(secs "${OWN_MS[$svc]}"), "; done
result "start-up, existing volumes" "${startup%, }"
http GET "$DATA_API_URL/api/v1/data" -H "Authorization: Bearer $KEY"
expect 200 "GET /api/v1/data after down/up"
[[ $(json 'j.user.id') == "$USER_ID" && $(json 'j.user.email') == "$EMAIL" ]] ||
  fail "GET /api/v1/data after down/up: not the same user"
USED_AFTER=$(json 'j.quota.used')
((USED_AFTER == USED_BEFORE + 1)) || fail "quota count did not survive down/up (Redis): $USED_BEFORE then $USED_AFTER"
log "   after down/up: 200, same user $USER_ID, quota used $USED_BEFORE -> $USED_AFTER"
result "persistence (down, up)" "PASSED: key ${KEY:0:11}… → 200, same user; quota count kept ($USED_BEFORE → $USED_AFTER)"

log "4. graceful stop"
for svc in data-api quotes; do graceful_stop "$svc"; done

# ---------------------------------------------------------------- summary
images=$(for svc in quotes data-api; do
  ref=$(image_of "$svc")
  docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}\t{{.ID}}' "$ref"
done)
base=$(docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}\t{{.ID}} (base of both)' node:24-bookworm-slim)
{
  echo
  echo "================ pnpm test:compose: PASSED ================"
  echo "images:"
  while IFS=$'\t' read -r ref size imgid; do printf '  %-36s %9s  %s\n' "$ref" "$size" "$imgid"; done <<<"$images"$'\n'"$base"
  for k in "${RESULT_ORDER[@]}"; do printf '%s: %s\n' "$k" "${RESULT[$k]}"; done
  echo "total: $(secs $(($(now_ms) - T_START / 1000000)))"
} | tee "$WORK/summary"
