#!/usr/bin/env bash
# Installs what the web page's build and browser test need, each from its
# registry, and does nothing for what is already there:
#   - wasm-bindgen-cli at the exact version of the wasm-bindgen crate in
#     Cargo.lock (the two must match), built by `cargo install --locked`
#     into .tools/ (no prebuilt download);
#   - with `--test`: Debian's chromium (apt-get), and playwright-core from
#     web/package-lock.json (npm ci), which drives that Chromium and never
#     downloads a browser of its own.
# Usage: scripts/web-tools.sh [--test]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "scripts/web-tools.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
bindgen="$root/.tools/bin/wasm-bindgen"
if ! { [ -x "$bindgen" ] && [ "$("$bindgen" --version)" = "wasm-bindgen $version" ]; }; then
  echo "scripts/web-tools.sh: building wasm-bindgen-cli $version into .tools/ (once; a few minutes)" >&2
  cargo install --quiet --locked --force --root "$root/.tools" --version "$version" wasm-bindgen-cli
fi

[ "${1:-}" = --test ] || exit 0

if [ ! -x /usr/bin/chromium ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "scripts/web-tools.sh: Chromium is missing and there is no apt-get; install Chromium at /usr/bin/chromium" >&2
    exit 1
  fi
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "scripts/web-tools.sh: installing Chromium needs root: run 'apt-get install chromium' as root" >&2
      exit 1
    fi
  fi
  echo "scripts/web-tools.sh: installing Debian's chromium for the browser test" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y -qq chromium >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq chromium >/dev/null; }
  [ -x /usr/bin/chromium ] || { echo "scripts/web-tools.sh: chromium did not install" >&2; exit 1; }
fi

if ! [ -f web/node_modules/playwright-core/package.json ] ||
   ! cmp -s web/package-lock.json web/node_modules/.package-lock.json 2>/dev/null; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
