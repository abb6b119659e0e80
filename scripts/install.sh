#!/usr/bin/env bash
# `make install [PREFIX=...]`: copies the release binary to PREFIX/bin
# (default ~/.local/bin). Usage: scripts/install.sh [PREFIX]
# $WORDHOARD_BIN names another binary to install (the tests use it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$HOME/.local}
bin=${WORDHOARD_BIN:-$root/target/release/wordhoard}
if [ ! -x "$bin" ]; then
  echo "error: no binary at $bin; run \`make release\` first (\`make install\` does)" >&2
  exit 1
fi
mkdir -p "$prefix/bin"
# Copy beside, then rename: a running wordhoard keeps its old file.
cp "$bin" "$prefix/bin/.wordhoard.tmp.$$"
chmod 755 "$prefix/bin/.wordhoard.tmp.$$"
mv -f "$prefix/bin/.wordhoard.tmp.$$" "$prefix/bin/wordhoard"
echo "installed $prefix/bin/wordhoard"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on your PATH; add it: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
