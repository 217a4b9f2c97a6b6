# Two set-up commands for a fresh machine (see README): `make eval` and `make test`.
# Each creates .venv with Python >= 3.11 and installs the project before running.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

.PHONY: eval test test-fast lint bench test-sandbox-unprivileged

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## The main job: evaluate (no endpoint configured -> the reference policy on the bench split).
eval: $(STAMP)
	$(BIN)/bs4-env eval $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

## Everything CI runs: lint, types, and every test (slow and integration included).
test: lint
	$(BIN)/pytest -m "" -p no:cacheprovider $(ARGS)
	$(MAKE) test-sandbox-unprivileged

## The sandbox suite again as an unprivileged uid (CI runs as root; without root the run
## above already was unprivileged).
test-sandbox-unprivileged: $(STAMP)
	@if [ "$$(id -u)" = 0 ]; then \
		$(BIN)/python -m tests.sandbox.run_unprivileged -- \
			$(BIN)/python -m pytest tests/sandbox -m "" -p no:cacheprovider -q; \
	else echo "not root: the sandbox suite already ran unprivileged"; fi

## Fast unit tests only (the default marker filter in pyproject).
test-fast: $(STAMP)
	$(BIN)/pytest $(ARGS)

bench: $(STAMP)
	$(BIN)/python scripts/bench_core.py
