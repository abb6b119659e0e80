#!/usr/bin/env bash
# `make install [PREFIX=...]` (default ~/.local): the release binary, its
# man pages and its shell completions, where Linux and macOS look for them:
#   PREFIX/bin/wordhoard
#   PREFIX/share/man/man1/wordhoard.1, wordhoard-bee.1, ...
#   PREFIX/share/bash-completion/completions/wordhoard
#   PREFIX/share/zsh/site-functions/_wordhoard
#   PREFIX/share/fish/vendor_completions.d/wordhoard.fish
# Each file is written beside its place and renamed into it, so a running
# wordhoard or a shell reading a completion never sees half a file.
# Usage: scripts/install.sh [PREFIX]
# $WORDHOARD_BIN names another binary to install (the tests use it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${1:-$HOME/.local}
bin=${WORDHOARD_BIN:-$root/target/release/wordhoard}
if [ ! -x "$bin" ]; then
  echo "error: no binary at $bin; run \`make release\` first (\`make install\` does)" >&2
  exit 1
fi

# put SOURCE DEST MODE: copy beside DEST, then rename over it.
put() {
  local dir tmp
  dir=$(dirname "$2")
  mkdir -p "$dir"
  tmp="$dir/.$(basename "$2").tmp.$$"
  cp "$1" "$tmp"
  chmod "$3" "$tmp"
  mv -f "$tmp" "$2"
}

work=$(mktemp -d "${TMPDIR:-/tmp}/wordhoard-install.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The release profile keeps debug info for profiling (16.4 MB); the
# installed binary goes without it (3.1 MB), when there is a `strip`.
cp "$bin" "$work/wordhoard"
if command -v strip >/dev/null 2>&1; then
  strip "$work/wordhoard"
else
  echo "note: no \`strip\` here; installing the binary with its debug info" >&2
fi
put "$work/wordhoard" "$prefix/bin/wordhoard" 755
mkdir "$work/man1"
"$bin" man --dir "$work/man1"
for page in "$work"/man1/*.1; do
  put "$page" "$prefix/share/man/man1/$(basename "$page")" 644
done
"$bin" completions bash > "$work/bash"
"$bin" completions zsh > "$work/zsh"
"$bin" completions fish > "$work/fish"
put "$work/bash" "$prefix/share/bash-completion/completions/wordhoard" 644
put "$work/zsh" "$prefix/share/zsh/site-functions/_wordhoard" 644
put "$work/fish" "$prefix/share/fish/vendor_completions.d/wordhoard.fish" 644

pages=$(ls "$work"/man1 | wc -l)
echo "installed $prefix/bin/wordhoard, $pages man pages in $prefix/share/man/man1, completions for bash, zsh and fish"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "note: $prefix/bin is not on your PATH; add it: export PATH=\"$prefix/bin:\$PATH\"" ;;
esac
case ":${MANPATH:-}:" in
  *":$prefix/share/man:"*) ;;
  *) [ -n "${MANPATH:-}" ] && echo "note: $prefix/share/man is not on your MANPATH" || true ;;
esac
echo "zsh: add $prefix/share/zsh/site-functions to \$fpath if it is not there (then: autoload -U compinit; compinit)"
