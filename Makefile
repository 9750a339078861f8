# Developer tasks. `make test` is the whole suite that CI runs.
PYTHON ?= python3

.PHONY: install test lint typecheck pytest bench serve

# Everything the test suite needs: Debian's Chromium for the browser tests, then the
# package with its development and interoperability extras.
install:
	scripts/system-deps
	$(PYTHON) -m pip install -e '.[dev,rl]'

test: lint typecheck pytest

lint:
	$(PYTHON) -m ruff check src tests bench scripts
	$(PYTHON) -m ruff format --check src tests bench scripts

typecheck:
	$(PYTHON) -m mypy

pytest:
	$(PYTHON) -m pytest

bench:
	$(PYTHON) bench/engine.py
