#!/usr/bin/env bash
# `make demo`: build indexes/enable1.hoard once, then answer the seed
# questions from it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
wh=target/release/wordhoard
enable1=$(scripts/wordlist.sh enable1.txt)
common=()
if popular=$(scripts/wordlist.sh popular.txt 2>/dev/null); then
  common=(--common "$popular")
fi
step() { printf '\n\033[1m$ wordhoard %s\033[0m\n' "$*"; "$wh" "$@"; }
step build "$enable1" "${common[@]}" -o indexes/enable1.hoard
step verify
step bee stats
step bee best --top 3
step bee best --top 1 --exclude ''
step bee solve aeginrt --center r | head -20
step bee hints aeginrt --center r
step anigram unscramble deir
step anigram count
step anigram top --n 5
step anigram longest
step boxed solve riu pgh lcs yao --limit 5
