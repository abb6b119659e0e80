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
# The Python figures read an enable1 index of their own (a fresh machine
# has none in its index folder).
lists=${WORDHOARD_WORDLISTS:-$root/../shared/wordlists}
target/release/wordhoard build "$lists/enable1.txt" --common "$lists/popular.txt" \
  -o bench-out/enable1.hoard --force >/dev/null
# The Python package: the seeds' questions against pure Python in one
# process, its per-call overhead over Rust, and threads sharing an index.
scripts/python.sh >/dev/null
echo
echo "## Python package (crates/python/examples/norvig.py --bench)"
target/python-venv/bin/python crates/python/examples/norvig.py bench-out/enable1.hoard \
  --wordlist "$lists/enable1.txt" --bench | tee bench-out/python.txt
