#!/usr/bin/env bash
# `make check-targets`: the workspace compiles for macOS, Windows and musl,
# the query library for wasm32 without its memory map, and the web crate
# (crates/web) for wasm32. A target whose
# standard library is missing is added with rustup where possible, else
# named and skipped; the last line counts both.
set -euo pipefail
cd "$(dirname "$0")/.."
# Warnings on another platform are errors, as clippy makes them here.
export RUSTFLAGS="${RUSTFLAGS:-} -D warnings"
sysroot=$(rustc --print sysroot)
checked=0
skipped=()

have() { [ -d "$sysroot/lib/rustlib/$1/lib" ]; }

check() {
  local target=$1; shift
  if ! have "$target" && command -v rustup >/dev/null 2>&1; then
    rustup target add "$target" >/dev/null 2>&1 || true
  fi
  if ! have "$target"; then
    echo "skipped: $target (its standard library is not installed: rustup target add $target)" >&2
    skipped+=("$target")
    return
  fi
  echo "checking $target: cargo check $*" >&2
  cargo check --locked --quiet --target "$target" "$@"
  checked=$((checked + 1))
}

# The Python extension is built by maturin for the interpreter at hand,
# not cross-compiled: it is left out here.
check x86_64-apple-darwin --workspace --all-targets --exclude wordhoard-python
check x86_64-pc-windows-gnu --workspace --all-targets --exclude wordhoard-python
check x86_64-unknown-linux-musl --workspace --all-targets --exclude wordhoard-python
check wasm32-unknown-unknown -p wordhoard-query --no-default-features --features unicode-tables
check wasm32-unknown-unknown -p wordhoard-web
echo "check-targets: $checked checked, ${#skipped[@]} skipped${skipped:+ (${skipped[*]})}"
