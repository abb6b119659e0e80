#!/usr/bin/env bash
# `make indexes`: builds every index listed in indexes/manifest.tsv.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
grep -v '^#' indexes/manifest.tsv | while IFS=$'\t' read -r out list common; do
  [ -n "$out" ] || continue
  args=("$(scripts/wordlist.sh "$list")" -o "indexes/$out")
  if [ "$common" != - ]; then args+=(--common "$(scripts/wordlist.sh "$common")"); fi
  target/release/wordhoard build "${args[@]}" | tail -1 | sed "s|^|indexes/$out: |"
done
