# Two commands on a fresh machine: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARTIFACTS := build/artifacts

.PHONY: demo test lint typecheck system-deps install install-dev clean

demo: $(VENV)/.installed
	$(BIN)/relay demo

test: $(VENV)/.installed-dev system-deps lint typecheck
	mkdir -p $(ARTIFACTS)
	$(BIN)/pytest --cov --cov-report=term --cov-report=xml:$(ARTIFACTS)/coverage.xml

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"

# Exact versions come from the lock files; the project itself is installed editable on top.
$(VENV)/.installed: requirements.lock pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-dev: requirements-dev.lock pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements-dev.lock
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@ $(VENV)/.installed

# Chromium for the browser tests, pgn-extract for the PGN checks: installed when missing.
system-deps:
	@sh scripts/ensure-system-deps.sh

clean:
	rm -rf $(VENV) build .mypy_cache .ruff_cache .pytest_cache .coverage *.egg-info
