# Developer tasks. `make test` is the whole suite that CI runs.
PYTHON ?= python3

.PHONY: install test lint typecheck pytest bench serve

install:
	$(PYTHON) -m pip install -e '.[dev]'

test: lint typecheck pytest

lint:
	$(PYTHON) -m ruff check src tests bench
	$(PYTHON) -m ruff format --check src tests bench

typecheck:
	$(PYTHON) -m mypy

pytest:
	$(PYTHON) -m pytest

bench:
	$(PYTHON) bench/engine.py
