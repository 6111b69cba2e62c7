#!/usr/bin/env bash
# Prepares code-server (VS Code for the browser) and its native modules for the end-to-end suite,
# offline except for the npm and Debian registries. The npm postinstall of code-server downloads
# prebuilt binaries, which this environment cannot reach, so the steps below install without
# scripts and rebuild every native module from source instead.
#
# Idempotent: the finished tree lives in .cache/code-server/ with a marker file, so a rerun
# returns at once. Delete .cache/code-server/ to start over.
set -euo pipefail

CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.100.3}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="$ROOT/.cache/code-server"
PKG="$CACHE/package"
MARKER="$CACHE/.ready-$CODE_SERVER_VERSION"

if [[ -f "$MARKER" ]]; then
  echo "code-server $CODE_SERVER_VERSION is ready in $PKG"
  exit 0
fi

log() { printf '\n==> %s\n' "$*"; }

# Debian packages: Chromium drives the workbench; the -dev packages hold the headers the native
# modules compile against; ripgrep replaces the binary @vscode/ripgrep would download.
APT_PACKAGES=(chromium libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev ripgrep git python3 make g++)
missing=()
for package in "${APT_PACKAGES[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  log "installing Debian packages: ${missing[*]}"
  if [[ "$(id -u)" -eq 0 ]]; then SUDO=(); else SUDO=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update
  "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
fi

# The node-gyp bundled with npm, so no extra download is needed. The machine's npm config may set
# nodedir (headers from the Debian nodejs packages); node-gyp reads it from npm_config_nodedir.
NPM_ROOT="$(dirname "$(readlink -f "$(command -v npm)")")/.."
NODE_GYP="$NPM_ROOT/node_modules/node-gyp/bin/node-gyp.js"
if [[ ! -f "$NODE_GYP" ]]; then
  echo "node-gyp not found next to npm ($NODE_GYP)" >&2
  exit 1
fi
nodedir="$(npm config get nodedir 2>/dev/null || true)"
if [[ -n "$nodedir" && "$nodedir" != "undefined" && "$nodedir" != "null" ]]; then
  export npm_config_nodedir="$nodedir"
fi
# Two cores are shared with other work: build one file at a time.
export JOBS="${JOBS:-1}"
gyp() { node "$NODE_GYP" "$@" -j "$JOBS"; }

mkdir -p "$CACHE"
cd "$CACHE"

if [[ ! -f "$PKG/package.json" ]]; then
  log "fetching code-server@$CODE_SERVER_VERSION"
  rm -rf "$PKG" code-server-*.tgz
  npm pack "code-server@$CODE_SERVER_VERSION" --silent
  tar -xzf "code-server-$CODE_SERVER_VERSION.tgz"
  rm -f "code-server-$CODE_SERVER_VERSION.tgz"
fi

npm_install() {
  local dir="$1"
  if [[ ! -f "$dir/.deps-installed" ]]; then
    log "npm install in ${dir#"$CACHE"/}"
    (cd "$dir" && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
    touch "$dir/.deps-installed"
  fi
}
npm_install "$PKG"
npm_install "$PKG/lib/vscode"
npm_install "$PKG/lib/vscode/extensions"

for module in node-pty @parcel/watcher @vscode/spdlog native-watchdog @vscode/deviceid; do
  dir="$PKG/lib/vscode/node_modules/$module"
  if [[ ! -f "$dir/.rebuilt" ]]; then
    log "node-gyp rebuild $module"
    (cd "$dir" && gyp rebuild)
    touch "$dir/.rebuilt"
  fi
done

log "ripgrep"
mkdir -p "$PKG/lib/vscode/node_modules/@vscode/ripgrep/bin"
cp -f "$(command -v rg)" "$PKG/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"

# The server loads modules from node_modules.asar in release builds; the plain folder stands in.
ln -sfn node_modules "$PKG/lib/vscode/node_modules.asar"

argon2="$PKG/node_modules/argon2"
if [[ ! -f "$argon2/lib/binding/napi-v3/argon2.node" ]]; then
  log "node-gyp rebuild argon2"
  (cd "$argon2" && gyp rebuild --module_name=argon2 --module_path=lib/binding/napi-v3 --napi_build_version=3)
  mkdir -p "$argon2/lib/binding/napi-v3"
  cp -f "$argon2/build/Release/argon2.node" "$argon2/lib/binding/napi-v3/"
fi

log "checking that code-server starts"
# An explicit config file, or code-server writes a default one into the real HOME.
printf 'auth: none\n' > "$CACHE/config.yaml"
node "$PKG/out/node/entry.js" --config "$CACHE/config.yaml" --version

touch "$MARKER"
echo "code-server $CODE_SERVER_VERSION is ready in $PKG"
