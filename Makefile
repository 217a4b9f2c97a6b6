# Two set-up commands for a fresh machine (see README): `make eval` and `make test`.
# Each creates .venv with Python >= 3.11 and installs the project before running.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

.PHONY: eval test test-fast lint bench

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

## Fast unit tests only (the default marker filter in pyproject).
test-fast: $(STAMP)
	$(BIN)/pytest $(ARGS)

bench: $(STAMP)
	$(BIN)/python scripts/bench_core.py
