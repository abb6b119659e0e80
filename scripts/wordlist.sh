#!/usr/bin/env bash
# Prints the path of a shared word list: $WORDHOARD_WORDLISTS/NAME, else
# ../shared/wordlists/NAME, else .cache/wordlists/NAME, else (enable1.txt
# only) a copy downloaded from its public home into .cache/wordlists and
# checked to have 172,820 words. When none is found it prints one line
# naming every place it looked, and leaves nothing behind.
# Usage: scripts/wordlist.sh NAME
set -euo pipefail
name=${1:?usage: scripts/wordlist.sh NAME}
root=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$root/.." && pwd)/shared/wordlists
cache="$root/.cache/wordlists"
url=https://norvig.com/ngrams/enable1.txt
places=()
for dir in "${WORDHOARD_WORDLISTS:-}" "$shared" "$cache"; do
  [ -n "$dir" ] || continue
  places+=("$dir/$name")
  if [ -f "$dir/$name" ]; then
    echo "$dir/$name"
    exit 0
  fi
done
looked="looked in $(printf '%s, ' "${places[@]}" | sed 's/, $//')"
[ -n "${WORDHOARD_WORDLISTS:-}" ] || looked="$looked (\$WORDHOARD_WORDLISTS is not set)"
hint="put $name in one of those folders, or set WORDHOARD_WORDLISTS to the folder that holds it"
if [ "$name" != enable1.txt ]; then
  echo "error: $name not found: $looked; $hint" >&2
  exit 1
fi

# Download beside nothing of ours: only a whole, checked list reaches the cache.
tmp=$(mktemp "${TMPDIR:-/tmp}/enable1.XXXXXX")
trap 'rm -f "$tmp"' EXIT
if ! command -v curl >/dev/null 2>&1; then
  why="curl is not installed"
elif ! why=$(curl -fsSL --retry 1 --connect-timeout 10 -o "$tmp" "$url" 2>&1); then
  why=$(printf '%s\n' "$why" | grep . | tail -n 1 | sed 's/^curl: ([0-9]*) //')
else
  why=""
fi
if [ -z "$why" ]; then
  lines=$(tr -d '\r' < "$tmp" | grep -c . || true)
  [ "$lines" = 172820 ] || why="the download has $lines words, not 172,820"
fi
if [ -n "$why" ]; then
  echo "error: $name not found: $looked; the download from $url failed ($why); $hint" >&2
  exit 1
fi
mkdir -p "$cache"
mv "$tmp" "$cache/$name"
trap - EXIT
echo "$cache/$name"
