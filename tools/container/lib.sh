# Shared helpers of the container and package tests (sourced).
step() { printf '\n== %s (%ss)\n' "$*" "$SECONDS" >&2; }
fail() {
  printf 'FAILED: %s\n' "$*" >&2
  exit 1
}
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
# wait_http URL [seconds] [expected status]: polls until the URL answers the status.
wait_http() {
  local url=$1 limit=${2:-120} want=${3:-200} code
  for ((i = 0; i < limit * 2; i++)); do
    code=$(node -e 'fetch(process.argv[1]).then(r=>console.log(r.status),()=>console.log(0))' "$url")
    [ "$code" = "$want" ] && return 0
    sleep 0.5
  done
  fail "$url did not answer $want within ${limit}s (last: $code)"
}
