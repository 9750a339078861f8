# Developer tasks. `make install test` is the whole suite that CI runs.
# Everything runs in a virtual environment, .venv (made by `make install` with the
# system's python3): Debian and Ubuntu refuse `pip install` outside one (PEP 668).
# PYTHON=... runs the tasks with another interpreter instead.
VENV ?= .venv
PYTHON ?= $(VENV)/bin/python
# The tools installed beside that interpreter (lint-imports).
BIN = $(if $(findstring /,$(PYTHON)),$(dir $(PYTHON)))

.PHONY: install test lint typecheck pytest bench serve

# Everything the test suite needs: Debian's Chromium, PostgreSQL, Redis and nginx (see
# scripts/system-deps), then the package with every extra the tests use.
install: $(if $(filter $(VENV)/bin/python,$(PYTHON)),$(VENV)/bin/python)
	scripts/system-deps
	$(PYTHON) -m pip install -e '.[dev,rl,lab,postgres,cluster]'

# Debian's python3 makes venvs once python3-venv is installed: scripts/system-deps.
$(VENV)/bin/python:
	scripts/system-deps
	python3 -m venv $(VENV)

test: lint typecheck pytest

# lint-imports checks the import contracts in pyproject.toml ([tool.importlinter]): the
# layers of docs/architecture.md and no import cycle inside a package.
lint:
	$(PYTHON) -m ruff check src tests bench scripts
	$(PYTHON) -m ruff format --check src tests bench scripts
	$(BIN)lint-imports

typecheck:
	$(PYTHON) -m mypy

# Test processes (pytest-xdist): the browser tests stay together on one of them.
JOBS ?= auto

pytest:
	$(PYTHON) -m pytest -n $(JOBS) --dist loadgroup -m "not alone"
	$(PYTHON) -m pytest -m alone

bench:
	$(PYTHON) bench/engine.py
