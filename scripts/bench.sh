#!/usr/bin/env bash
# `make bench`: builds the release binaries and runs the benchmark, which
# prints a Markdown report and keeps a copy in bench-out/bench.md.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/deps.sh
cargo build --release --locked -p wordhoard-cli -p wordhoard-bench
mkdir -p bench-out
target/release/wordhoard-bench --runs "${BENCH_RUNS:-11}" --out bench-out/bench.md "$@"
