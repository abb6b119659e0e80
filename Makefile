# wordhoard: `make demo` builds the enable1 index and answers the seed
# questions; `make test` runs every test; `make bench` measures speed.
#
# The binary, the tests and the benchmarks share one cargo profile
# (release), so `make demo` then `make test` compile each dependency once.

CARGO ?= cargo
PREFIX ?= $(HOME)/.local

.PHONY: help deps man demo test test-python python npm test-npm test-fst-crate-writer test-web web serve-web bench-web lint check-targets doc bench indexes release install fuzz clean

# The targets, each with what it does.
help:
	@echo "make demo             compile, build the enable1 index, answer the seed questions"
	@echo "make test             every test (unit, property, end-to-end, the SPEC figures)"
	@echo "make deps             Debian's tools and word lists some tests use (apt-get; CI runs it)"
	@echo "make install          the binary (stripped), man pages and completions under PREFIX=$(PREFIX)"
	@echo "make bench            speed against plain implementations and peers, in one run"
	@echo "make python           the Python package into target/python-venv (test-python: its tests)"
	@echo "make npm              the npm package into target/npm (test-npm: its tests)"
	@echo "make web              the web page into web/dist (serve-web, test-web, bench-web)"
	@echo "make indexes          every index of indexes/manifest.tsv into the index folder"
	@echo "make man              the man pages into target/man"
	@echo "make lint             rustfmt and clippy"
	@echo "make check-targets    the workspace for macOS, Windows, musl and wasm32"
	@echo "make doc              the API docs, warnings as errors"
	@echo "make fuzz             both fuzz targets, FUZZ_SECONDS each (nightly, cargo-fuzz)"
	@echo "make clean            remove target/"

release:
	$(CARGO) build --release --locked

# Finds the word list first (and says where it looked), then compiles.
demo:
	scripts/demo.sh

indexes: release
	scripts/indexes.sh

install: release
	scripts/install.sh "$(PREFIX)"

# The man pages, without installing: target/man/wordhoard.1 and one per command.
man: release
	rm -rf target/man && mkdir -p target/man
	target/release/wordhoard man --dir target/man
	@echo "wrote $$(ls target/man | wc -l) pages into target/man (read one: man -l target/man/wordhoard.1)"

# Debian's tools and word lists some tests use (an, zsh, man-db,
# wamerican-huge, wngerman), with apt-get; elsewhere it says what it skips,
# and those tests are counted as skipped.
deps:
	scripts/deps.sh

# nextest runs each test in its own process; doctests need cargo test.
# Tests that need the shared word lists are skipped (and counted as
# skipped) when the lists are missing: see crates/cli/build.rs.
test:
	@if $(CARGO) nextest --version >/dev/null 2>&1; then \
		$(CARGO) nextest run --workspace --locked --release --no-fail-fast --status-level skip; \
	else \
		$(CARGO) test --workspace --locked --release --no-fail-fast --lib --bins --tests; \
	fi
	$(CARGO) test --workspace --locked --release --doc

# The Python package (crates/python): built from source by pip into the
# virtual environment target/python-venv; `make test-python` runs its
# tests (pytest) against the release CLI's --json answers.
python:
	scripts/python.sh

test-python: release
	scripts/python.sh --test

# The npm package `wordhoard` (crates/web and crates/web/js) in
# target/npm/wordhoard/, packed as target/npm/wordhoard-VERSION.tgz;
# `make test-npm` installs that tarball into an empty project and checks
# every export against the CLI's --json (node's test runner).
npm:
	scripts/npm.sh

test-npm: release npm
	node --test --test-reporter=spec crates/web/js/test/package.test.mjs

# The builder and the end-to-end tests again with the fst crate writing
# the FSTs (feature fst-crate-writer): the reference the home-made writer
# in crates/builder/src/fst_writer.rs replaces must keep building and
# giving the same indexes.
test-fst-crate-writer:
	$(CARGO) nextest run --locked --release --no-fail-fast -p wordhoard-builder -p wordhoard-cli \
		--features wordhoard-builder/fst-crate-writer

# The web page (web/, crates/web): `make web` builds web/dist/ (the page,
# its WebAssembly and the enable1 index), `make serve-web` serves it on
# localhost, `make test-web` drives it in Debian's Chromium (Playwright)
# and writes its screenshots into target/screenshots/ (UPDATE_SCREENSHOTS=1:
# the README's, in web/screenshots/).
WEB_PORT ?= 8080
web:
	WEB_PORT=$(WEB_PORT) scripts/web.sh

serve-web: web
	node web/serve.mjs web/dist $(WEB_PORT)

test-web: web
	scripts/web-tools.sh --test
	cd web && node --test --test-reporter=spec test/page.test.mjs

bench-web: web
	scripts/web-tools.sh --test
	node web/test/bench.mjs
	node web/test/size.mjs

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

# macOS, Windows and musl builds of everything; wasm32 of the query library.
check-targets:
	scripts/check-targets.sh

doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --locked

bench: release
	scripts/bench.sh

# Fuzzing needs nightly Rust and cargo-fuzz; this installs both when missing.
FUZZ_SECONDS ?= 600
# Each target starts from its committed inputs (fuzz/regressions/) and
# its corpus so far (fuzz/corpus/, not committed); the arbitrary-bytes
# target also from the crafted files of tests/untrusted.rs (written to
# target/fuzz-seeds by that test).
fuzz:
	rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	cargo +nightly fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked
	WORDHOARD_FUZZ_SEEDS=$(CURDIR)/target/fuzz-seeds $(CARGO) nextest run --release --test untrusted
	cd fuzz && for t in index_mutate index_bytes; do \
	  seeds=regressions/$$t; [ $$t = index_bytes ] && seeds="$$seeds ../target/fuzz-seeds"; \
	  mkdir -p corpus/$$t && \
	  cargo +nightly fuzz run -O $$t corpus/$$t $$seeds -- -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -max_len=8192 || exit 1; \
	done

clean:
	$(CARGO) clean
