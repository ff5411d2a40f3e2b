#!/usr/bin/env bash
# `npm run test:container`: ships Tocsin for real on this machine, with podman (docs/install.md).
#  1. the local base (tools/container/base.sh: debootstrap + Node 24 from the npm registry; cached),
#  2. the image from Containerfile on it (size under 250 MB, labels, non-root), PostgreSQL and Redis images from
#     the same base (deploy/images),
#  3. the npm package (tools/container/test-package.sh, beside the builds of 2), the systemd unit
#     (systemd-analyze verify),
#  4. the quick start against the image and the one-machine compose file (at the same time), then the scaled compose
#     file under podman-compose with one serve replica killed (tools/container/container-test.main.ts).
# Any failed step ends it with a non-zero exit. Idempotent: what a previous run left is removed first.
set -euo pipefail
cd "$(dirname "$0")/../.."
. tools/container/lib.sh
export PATH="$HOME/.cache/node24/node_modules/.bin:$PATH"
cache=${TOCSIN_CONTAINER_CACHE:-$HOME/.cache/tocsin-container}
mkdir -p "$cache"

step "tools"
missing=()
for tool in podman:podman runc:runc podman-compose:podman-compose debootstrap:debootstrap systemd-analyze:systemd; do
  command -v "${tool%%:*}" >/dev/null || missing+=("${tool#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    echo "installing Debian's ${missing[*]}" >&2
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" uidmap slirp4netns \
      fuse-overlayfs containernetworking-plugins >/dev/null
  else
    fail "missing: ${missing[*]} (Debian packages)"
  fi
fi

# This machine's podman: runc with cgroupfs (no systemd), and explicit limits (the default ulimits are refused).
if [ -z "${CONTAINERS_CONF:-}" ]; then
  nofile=$(ulimit -Hn)
  [ "$nofile" = unlimited ] || [ "$nofile" -gt 65536 ] && nofile=65536
  cat > "$cache/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
  export CONTAINERS_CONF="$cache/containers.conf"
fi
podman info >/dev/null || fail "podman cannot run here: $(podman info 2>&1 | tail -1)"

step "local base image"
base=$(bash tools/container/base.sh)
echo "base: $base" >&2

# The npm package needs none of the images: it is tested beside their builds (its output is kept until it ends, so the
# two do not interleave). Much of both is waiting on npm's registry and the disk; the web build is in both.
step "npm package (beside the image builds)"
package_log="$cache/test-package.log"
bash tools/container/test-package.sh > "$package_log" 2>&1 &
package_pid=$!
# A failed step ends the run: the package test with it (its own EXIT trap stops its server and removes its folder).
trap 'if [ -n "${package_pid:-}" ]; then kill "$package_pid" 2>/dev/null || true; fi' EXIT

step "Tocsin image"
version=$(node -p 'require("./package.json").version')
secret=()
ca=${TOCSIN_BUILD_CA:-${NODE_EXTRA_CA_CERTS:-}}
[ -n "$ca" ] && [ -s "$ca" ] && secret=(--secret "id=ca,src=$ca")
export TOCSIN_IMAGE=localhost/tocsin:test
podman build -q --format docker --network host "${secret[@]}" --build-arg "BASE=$base" \
  --build-arg "VERSION=$version" --build-arg "REVISION=$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  -t "$TOCSIN_IMAGE" -f Containerfile . >/dev/null
size=$(podman image inspect "$TOCSIN_IMAGE" --format '{{.Size}}')
echo "image: $((size / 1000000)) MB uncompressed" >&2
[ "$size" -lt 250000000 ] || fail "the image is $size bytes (goal: under 250 MB)"
labels=$(podman image inspect "$TOCSIN_IMAGE" --format '{{index .Config.Labels "org.opencontainers.image.version"}} {{index .Config.Labels "org.opencontainers.image.licenses"}} {{index .Config.Labels "org.opencontainers.image.source"}} {{.Config.User}}')
[[ "$labels" == "$version UNLICENSED https://"*" 10001:10001" ]] || fail "labels or user: $labels"
[ "$(podman run --rm --network host "$TOCSIN_IMAGE" --version 2>/dev/null)" = "$version" ] || fail "tocsin --version in the image"

step "PostgreSQL and Redis images from the same base"
export POSTGRES_IMAGE=localhost/tocsin-postgres:15 REDIS_IMAGE=localhost/tocsin-redis:7
podman build -q --network host --build-arg "BASE=$base" -t "$POSTGRES_IMAGE" -f deploy/images/postgres.Containerfile deploy/images >/dev/null
podman build -q --network host --build-arg "BASE=$base" -t "$REDIS_IMAGE" -f deploy/images/redis.Containerfile deploy/images >/dev/null

step "systemd unit"
# Verified as shipped, with the two paths that exist only on an installed machine pointed at this checkout.
unit_dir=$(mktemp -d)
sed -e "s|/usr/bin/node |$(command -v node) |" -e "s|/opt/tocsin/node_modules/tocsin/|$PWD/|" deploy/tocsin.service > "$unit_dir/tocsin.service"
out=$(systemd-analyze verify "$unit_dir/tocsin.service" 2>&1) || fail "systemd-analyze verify: $out"
[ -z "$out" ] || fail "systemd-analyze verify: $out"
rm -rf "$unit_dir"

step "npm package (waiting for it)"
package_rc=0
wait "$package_pid" || package_rc=$?
package_pid=
cat "$package_log" >&2
[ "$package_rc" = 0 ] || fail "the npm package test exited $package_rc"

# The quick start (podman run) and the one-machine compose file share nothing (names, volumes, ports, networks): they
# run at the same time, each in its own process (their podman calls block). The scaled walk, whose takeover after a
# kill is bounded in time, runs after them with the machine to itself.
step "quick start and one machine (at the same time)"
walk_logs=$(mktemp -d)
node tools/container/container-test.main.ts quickstart > "$walk_logs/quickstart.log" 2>&1 &
quickstart_pid=$!
node tools/container/container-test.main.ts single > "$walk_logs/single.log" 2>&1 &
single_pid=$!
quickstart_rc=0 single_rc=0
wait "$quickstart_pid" || quickstart_rc=$?
wait "$single_pid" || single_rc=$?
cat "$walk_logs/quickstart.log" "$walk_logs/single.log" >&2
rm -rf "$walk_logs"
[ "$quickstart_rc" = 0 ] || fail "the quick start walk exited $quickstart_rc"
[ "$single_rc" = 0 ] || fail "the one-machine compose walk exited $single_rc"

step "scale"
node tools/container/container-test.main.ts scale

# Layers of superseded builds: dropped after a week, so the build cache of the current inputs stays warm.
podman image prune -f --filter until=168h >/dev/null 2>&1 || true
step "container tests passed"
