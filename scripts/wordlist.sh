#!/usr/bin/env bash
# Prints the path of a shared word list: $WORDHOARD_WORDLISTS/NAME, else
# ../shared/wordlists/NAME, else (enable1.txt only) a copy downloaded from
# its public home into .cache/wordlists and checked to have 172,820 words.
# Usage: scripts/wordlist.sh NAME
set -euo pipefail
name=${1:?usage: scripts/wordlist.sh NAME}
root=$(cd "$(dirname "$0")/.." && pwd)
for dir in "${WORDHOARD_WORDLISTS:-}" "$root/../shared/wordlists" "$root/.cache/wordlists"; do
  if [ -n "$dir" ] && [ -f "$dir/$name" ]; then
    echo "$dir/$name"
    exit 0
  fi
done
if [ "$name" != enable1.txt ]; then
  echo "error: $name not found in \$WORDHOARD_WORDLISTS or ../shared/wordlists" >&2
  exit 1
fi
mkdir -p "$root/.cache/wordlists"
tmp="$root/.cache/wordlists/.enable1.txt.part"
echo "downloading enable1.txt from its public home..." >&2
curl -fsSL --retry 3 -o "$tmp" https://norvig.com/ngrams/enable1.txt
lines=$(tr -d '\r' < "$tmp" | grep -c .)
if [ "$lines" != 172820 ]; then
  rm -f "$tmp"
  echo "error: the downloaded enable1.txt has $lines words, not 172,820" >&2
  exit 1
fi
mv "$tmp" "$root/.cache/wordlists/enable1.txt"
echo "$root/.cache/wordlists/enable1.txt"
