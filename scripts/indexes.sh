#!/usr/bin/env bash
# `make indexes`: builds every index listed in indexes/manifest.tsv into the
# index folder ($WORDHOARD_HOME, else the platform's data folder), where
# `--index NAME` finds it. A list under /usr/share/dict comes from a Debian
# package (wngerman, wfrench): installed with apt-get when missing, or, when
# that cannot be done, the index is skipped with the command that would.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

install_package() {
  local package=$1
  command -v apt-get >/dev/null 2>&1 || return 1
  local sudo=""
  if [ "$(id -u)" != 0 ]; then command -v sudo >/dev/null 2>&1 && sudo=sudo || return 1; fi
  echo "installing Debian's $package" >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null 2>&1 ||
    { $sudo apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null 2>&1; }
}

grep -v '^#' indexes/manifest.tsv | while IFS=$'\t' read -r name list common flags package; do
  [ -n "$name" ] || continue
  if [[ "$list" == /* ]]; then
    if [ ! -f "$list" ] && ! { [ "$package" != - ] && install_package "$package" && [ -f "$list" ]; }; then
      echo "$name: skipped: $list is missing; install it with: apt-get install $package" >&2
      continue
    fi
    path=$list
  else
    path=$(scripts/wordlist.sh "$list")
  fi
  args=("$path" --name "$name")
  if [ "$common" != - ]; then args+=(--common "$(scripts/wordlist.sh "$common")"); fi
  # shellcheck disable=SC2206 # the flags are words, split on purpose
  if [ "$flags" != - ]; then args+=($flags); fi
  target/release/wordhoard build "${args[@]}" | tail -1 | sed "s|^|$name: |"
done
target/release/wordhoard list
