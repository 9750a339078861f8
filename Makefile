# Developer tasks. `make install test` is the whole suite that CI runs (.ci/run).
#
# Everything runs in a virtual environment, .venv, that `make install` creates with the
# system's python3: Debian and Ubuntu refuse `pip install` outside one (PEP 668).
# `make PYTHON=/path/to/python ...` runs the tasks with another interpreter instead
# (`make install` then installs into that one's environment, which must exist).
VENV ?= .venv
PYTHON ?= $(VENV)/bin/python
# The tools installed beside $(PYTHON) (lint-imports, dask, crazy-eights) come first on
# the PATH of every task; a bare command name (PYTHON=python3) leaves PATH as it is.
BIN := $(if $(findstring /,$(PYTHON)),$(abspath $(dir $(PYTHON))))
export PATH := $(if $(BIN),$(BIN):)$(PATH)

.PHONY: install system-deps test lint typecheck pytest bench serve

# Everything the test suite needs: Debian's python3-venv, Chromium, PostgreSQL, Redis,
# nginx, ngircd and Prometheus (see scripts/system-deps), the virtual environment, then
# the package in it, editable, with every extra the tests use.
install: system-deps $(if $(filter $(VENV)/bin/python,$(PYTHON)),$(VENV)/bin/python)
	$(PYTHON) -m pip install -e '.[dev,rl,lab,postgres,cluster,lab-cluster,chat]'

system-deps:
	scripts/system-deps

# Debian's python3 makes virtual environments once python3-venv is installed.
$(VENV)/bin/python: | system-deps
	python3 -m venv $(VENV)

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
