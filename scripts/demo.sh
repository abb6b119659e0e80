#!/usr/bin/env bash
# `make demo`: finds enable1.txt (before compiling anything), builds the
# release binary, builds the enable1 index into the index folder
# ($WORDHOARD_HOME, else the platform's data folder), then answers the
# seed questions from it. After this, every command works from any folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/lists.sh
cargo build --release --locked
wh=target/release/wordhoard
# Each command in bold on a terminal, plain into a file or a pipe.
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold= plain=; fi
step() { printf '\n%s$ wordhoard %s%s\n' "$bold" "$*" "$plain"; "$wh" "$@"; }
step build "$enable1" "${common[@]}" --name enable1
step list
step verify
step bee stats
step bee best --top 3
step bee best --top 1 --exclude ''
step bee solve aeginrt --center r | head -20
step bee hints aeginrt --center r
step anigram unscramble deir
step anigram count
step anigram top --top 5
step anigram longest
step boxed solve riu pgh lcs yao --limit 5
printf '\nThe binary is %s; `make install` puts it on your PATH (~/.local/bin), or run: cargo install --path crates/cli --locked\n' "$root/$wh"
