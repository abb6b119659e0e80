#!/usr/bin/env bash
# `make indexes`: builds every index listed in indexes/manifest.tsv into the
# index folder ($WORDHOARD_HOME, else the platform's data folder), where
# `--index NAME` finds it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
grep -v '^#' indexes/manifest.tsv | while IFS=$'\t' read -r name list common; do
  [ -n "$name" ] || continue
  args=("$(scripts/wordlist.sh "$list")" --name "$name")
  if [ "$common" != - ]; then args+=(--common "$(scripts/wordlist.sh "$common")"); fi
  target/release/wordhoard build "${args[@]}" | tail -1 | sed "s|^|$name: |"
done
target/release/wordhoard list
