#!/usr/bin/env bash
# Installs what the tests and benchmarks need beyond Rust, from Debian:
#   an        the multi-word anagram finder `anagram --words` is compared with
#   zsh       parses the zsh completion script (`completions zsh`)
#   man-db    renders the man pages (`man -l`), with groff
#   wamerican-huge, wngerman   word lists as people have them (tests/debian_lists.rs)
#   chromium  the browser `make test-web` drives (only when named)
# Does nothing for what is there; says what it skips where there is no
# apt-get. `make deps` runs it (CI does); `make test` does not.
# Usage: scripts/deps.sh [PACKAGE...]   (default: an zsh man-db wamerican-huge wngerman)
set -euo pipefail

have() {
  case $1 in
    an) command -v an >/dev/null 2>&1 || [ -x /usr/games/an ] ;;
    man-db) command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1 ;;
    chromium) [ -x /usr/bin/chromium ] ;;
    wamerican-huge) [ -f /usr/share/dict/american-english-huge ] ;;
    wngerman) [ -f /usr/share/dict/ngerman ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

missing=()
[ $# -gt 0 ] || set -- an zsh man-db wamerican-huge wngerman
for package in "$@"; do
  have "$package" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  # Not Debian (macOS, say): the tests that need these are skipped and
  # counted as skipped; install them by hand to run those too.
  echo "scripts/deps.sh: no apt-get here; not installing ${missing[*]} (the tests that need them are skipped)" >&2
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "scripts/deps.sh: installing ${missing[*]} needs root: run 'apt-get install ${missing[*]}' as root" >&2
    exit 1
  fi
fi
# man-db brings groff-base; the full groff is not needed.
echo "scripts/deps.sh: installing Debian's ${missing[*]} for the tests and benchmarks" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
  { $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null; }
for package in "${missing[@]}"; do
  have "$package" || { echo "scripts/deps.sh: $package did not install" >&2; exit 1; }
done
