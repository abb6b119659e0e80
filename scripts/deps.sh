#!/usr/bin/env bash
# Installs what the tests and benchmarks need beyond Rust: Debian's `an`
# (the multi-word anagram finder `wordhoard anagram --words` is compared
# with). Does nothing when it is there; says how when it cannot install.
set -euo pipefail

have_an() { command -v an >/dev/null 2>&1 || [ -x /usr/games/an ]; }

if have_an; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "scripts/deps.sh: Debian's 'an' is missing and there is no apt-get; install the 'an' package by hand" >&2
  exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "scripts/deps.sh: installing 'an' needs root: run 'apt-get install an' as root" >&2
    exit 1
  fi
fi
echo "scripts/deps.sh: installing Debian's 'an' (anagram finder) for the word-tool tests and benchmarks" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y -qq an >/dev/null 2>&1 || { $sudo apt-get update -qq >/dev/null && $sudo apt-get install -y -qq an >/dev/null; }
have_an || { echo "scripts/deps.sh: 'an' did not install" >&2; exit 1; }
