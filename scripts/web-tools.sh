#!/usr/bin/env bash
# Installs what the web page's build and browser test need, each from its
# registry, and does nothing for what is already there:
#   - wasm-bindgen-cli at the exact version of the wasm-bindgen crate in
#     Cargo.lock (the two must match), built by `cargo install --locked`
#     into .tools/ (no prebuilt download);
#   - with `--test`: Debian's chromium (scripts/deps.sh), and playwright-core from
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

scripts/deps.sh chromium

# npm ci again when the lock file changed since the last install.
if ! [ -f web/node_modules/.package-lock.json ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
  (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi
