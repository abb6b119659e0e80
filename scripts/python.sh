#!/usr/bin/env bash
# `make python`: the Python package (crates/python) built from source by pip
# (maturin, fetched from PyPI, is its PEP 517 backend) and installed into
# the virtual environment target/python-venv. `--test` also installs pytest
# and runs crates/python/tests against the release CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/python-venv
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "make python: no $python on PATH; install Python 3.9 or later (skipped)" >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "Creating the virtual environment $venv" >&2
  if ! "$python" -m venv "$venv"; then
    echo "make python: '$python -m venv' failed; on Debian: apt-get install python3-venv" >&2
    exit 1
  fi
fi
extras=()
if [ "${1:-}" = "--test" ]; then
  extras=(pytest)
fi
echo "pip install ./crates/python ${extras[*]} (builds the extension with cargo)" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check ./crates/python "${extras[@]}"
"$venv/bin/python" -c 'import wordhoard; print(f"wordhoard {wordhoard.__version__} installed in target/python-venv")'
if [ "${1:-}" = "--test" ]; then
  cd crates/python
  exec ../../target/python-venv/bin/python -m pytest -q -rs tests
fi
echo "Use it: . target/python-venv/bin/activate   (then: python -c 'import wordhoard; help(wordhoard)')"
