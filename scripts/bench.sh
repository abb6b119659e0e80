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
# The Python package: the seeds' questions against pure Python in one
# process, its per-call overhead over Rust, and threads sharing an index.
scripts/python.sh >/dev/null
echo
echo "## Python package (crates/python/examples/norvig.py --bench)"
target/python-venv/bin/python crates/python/examples/norvig.py --bench | tee bench-out/python.txt
