# wordhoard: `make demo` builds the enable1 index and answers the seed
# questions; `make test` runs every test; `make bench` measures speed.

CARGO ?= cargo
WH := target/release/wordhoard

.PHONY: demo test lint bench indexes release clean

release:
	$(CARGO) build --release --locked

demo: release
	scripts/demo.sh

indexes: release
	scripts/indexes.sh

# nextest runs each test in its own process; doctests need cargo test.
test:
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		$(CARGO) nextest run --workspace --locked --no-fail-fast; \
	else \
		$(CARGO) test --workspace --locked --no-fail-fast --lib --bins --tests; \
	fi
	$(CARGO) test --workspace --locked --doc

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

bench: release
	scripts/bench.sh

clean:
	$(CARGO) clean
	rm -f indexes/*.hoard
