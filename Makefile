# Two commands on a fresh machine: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
ARTIFACTS := build/artifacts

.PHONY: demo test check gate lint typecheck system-deps install install-dev clean

# The tiers of the suite (docs/testing.md). WORKERS: pytest-xdist processes for make test.
WORKERS ?= 2
INNER_LOOP := not (e2e or browser or processes or services or gate)

demo: $(VENV)/.installed
	$(BIN)/relay demo

# The whole suite but make gate's real-time corpus, on WORKERS processes, the files that wait
# on real time first (tests/conftest.py); what .ci/run calls.
test: $(VENV)/.installed-dev system-deps lint typecheck
	mkdir -p $(ARTIFACTS)
	HYPOTHESIS_PROFILE=$${HYPOTHESIS_PROFILE:-ci} $(BIN)/pytest -n $(WORKERS) --dist loadfile \
		--no-loadscope-reorder -m "not gate" --durations=20 \
		--cov --cov-report=term --cov-report=xml:$(ARTIFACTS)/coverage.xml

# The inner loop, between commits: lint, types, and every test that needs no process of its
# own, no browser and no server (tests/tiers.py fails a test that reaches for one).
check: $(VENV)/.installed-dev lint typecheck
	RELAY_TEST_TIER=check $(BIN)/pytest -n 2 --dist loadfile --no-loadscope-reorder \
		-m "$(INNER_LOOP)" -q

# The whole accuracy corpus over pseudo-terminals in real time, and eight games at every pace
# (make test plays the corpus in fake time and four games a pace in real time).
gate: $(VENV)/.installed-dev
	$(BIN)/pytest -m gate --durations=0

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
