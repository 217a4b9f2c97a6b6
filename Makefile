# Two set-up commands for a fresh machine (see README): `make eval` and `make test`.
# Each creates .venv with Python >= 3.11 and installs the project before running.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)

.PHONY: eval test test-fast lint bench browser test-sandbox-unprivileged

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

## Everything CI runs: lint, types, and every test (slow and integration included), spread
## over every core (pytest-xdist; tests/conftest.py keeps each module's fixtures in one worker).
JOBS ?= $(shell nproc)
test: lint browser
	$(BIN)/pytest -m "" -p no:cacheprovider -n $(JOBS) --dist loadgroup --durations=15 $(ARGS)
	$(MAKE) test-sandbox-unprivileged

## The HTML report's browser test drives Debian's headless Chromium: installed here as root,
## otherwise the exact command to run is printed and the run stops (never a silent skip).
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing Debian's chromium and chromium-driver for the report's browser test"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else \
		echo "make test needs Chromium for the HTML report's browser test; install it with:" >&2; \
		echo "  sudo apt-get install -y chromium chromium-driver" >&2; exit 1; \
	fi

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
