# Developer tasks. `make test` is the whole suite that CI runs.
PYTHON ?= python3

.PHONY: install test lint typecheck pytest bench serve

# Everything the test suite needs: Debian's Chromium, PostgreSQL, Redis and nginx (see
# scripts/system-deps), then the package with every extra the tests use.
install:
	scripts/system-deps
	$(PYTHON) -m pip install -e '.[dev,rl,lab,postgres,cluster,lab-cluster,chat]'

test: lint typecheck pytest

# lint-imports checks the import contracts in pyproject.toml ([tool.importlinter]): the
# layers of docs/architecture.md and no import cycle inside a package.
lint:
	$(PYTHON) -m ruff check src tests bench scripts
	$(PYTHON) -m ruff format --check src tests bench scripts
	lint-imports

typecheck:
	$(PYTHON) -m mypy

# Test processes (pytest-xdist): the browser tests stay together on one of them.
JOBS ?= auto

pytest:
	$(PYTHON) -m pytest -n $(JOBS) --dist loadgroup -m "not alone"
	$(PYTHON) -m pytest -m alone

bench:
	$(PYTHON) bench/engine.py
