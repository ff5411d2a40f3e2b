#!/usr/bin/env bash
# `npm run test:package`: the npm package as a release would publish it. `npm pack` (prepack writes dist/, prepare
# builds web/dist), then the tarball is installed into an empty folder with production dependencies only, and the
# installed `tocsin` prints its version, serves /readyz and the web app, and stops cleanly on SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/container/lib.sh
version=$(node -p 'require("./package.json").version')
work=$(mktemp -d /tmp/tocsin-package.XXXXXX)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

step "npm pack"
npm pack --pack-destination "$work" --silent >/dev/null
tgz=$(ls "$work"/tocsin-*.tgz)
[ -d dist ] && fail "postpack left dist/ in the checkout"
tar -tzf "$tgz" > "$work/list"
for f in package/bin/tocsin.js package/dist/cli/cli.main.js package/dist/main.js package/web/dist/index.html package/assets/fonts; do
  grep -q "^$f" "$work/list" || fail "$f is not in the tarball"
done
grep -q '^package/src/' "$work/list" && fail "the tarball ships src/"
grep -q '\.test\.js$' "$work/list" && fail "the tarball ships tests"
echo "tarball: $(du -k "$tgz" | cut -f1) KiB, $(wc -l < "$work/list") files" >&2

step "install the tarball into an empty folder"
mkdir "$work/app"
(cd "$work/app" && npm init -y >/dev/null && npm install --omit=dev --no-audit --no-fund --silent "$tgz")
for dev in vite typescript vitest react eslint; do
  [ -e "$work/app/node_modules/$dev" ] && fail "dev dependency $dev was installed"
done
[ -e "$work/app/node_modules/tocsin/src" ] && fail "the installed package has src/"

step "npx tocsin --version"
got=$(cd "$work/app" && npx --no-install tocsin --version)
[ "$got" = "$version" ] || fail "npx tocsin --version printed '$got', not $version"

step "tocsin serve from the installed package"
port=$(free_port)
(cd "$work/app" && TOCSIN_DATA_DIR="$work/data" PORT=$port HOST=127.0.0.1 LOG_FORMAT=json exec node_modules/.bin/tocsin serve) > "$work/serve.log" 2>&1 &
pid=$!
wait_http "http://127.0.0.1:$port/readyz" 120
node -e 'fetch(process.argv[1]).then(async r=>{const t=await r.text();if(!r.ok||!/<div id="root"|<script/.test(t))process.exit(1)})' "http://127.0.0.1:$port/" || fail "the web app is not served"
[ -f "$work/data/tocsin.db" ] || fail "no SQLite database in TOCSIN_DATA_DIR"
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=
[ "$rc" = 0 ] || { cat "$work/serve.log" >&2; fail "tocsin serve exited $rc on SIGTERM"; }
grep -q '"msg":"stopped"' "$work/serve.log" || fail "no clean shutdown in the log"
step "package test passed"
