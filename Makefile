# Two set-up commands for a fresh machine (see README): `make eval` and `make test`.
# Each creates .venv with Python >= 3.11 and installs what it needs before running:
# `make eval` the package with its `eval` extra only, `make test` everything (dev, and the
# learning lab of lab/, a distribution of its own).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
TORCH_VERSION ?= 2.13.0
# Where `make test` takes torch from when no local wheel has it (see scripts/install_torch.py):
# e.g. TORCH_INDEX=https://download.pytorch.org/whl/cpu for the CPU build.
TORCH_INDEX ?=
HASH := $(shell cat pyproject.toml lab/pyproject.toml | sha256sum | cut -c1-12)
EVAL_STAMP := $(VENV)/.installed-eval-$(HASH)
STAMP := $(VENV)/.installed-$(HASH)

.PHONY: eval test test-fast lint bench browser browser-check primerl-venv test-sandbox-unprivileged

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The main job's install: the package and its `eval` extra (no torch, no test tools).
$(EVAL_STAMP): pyproject.toml | $(BIN)/python
	@echo "installing beautiful-soup-env with its eval extra into $(VENV)"
	$(BIN)/python -m pip install --quiet -e '.[eval]'
	touch $(EVAL_STAMP)

# Everything: torch first, pinned to the CPU build the lab's tests need (an unpinned torch
# would pull the multi-GB CUDA build), then the dev extra (eval, report, tools) and the lab.
# torch goes through pip, which reads the machine's local wheel folder (uv does not); the rest
# through uv (installed by pip), which resolved and installed the same 149 packages at the same
# versions in 5.5 s where pip took 56 s on a fresh venv (2026-12-06, docs/development.md).
# Neither byte-compiles what it installs (most of pip's time: 20,500 modules, of which a test
# run imports a small part); the processes of `make test` write the bytecode of what they
# import instead (PYTHONDONTWRITEBYTECODE is unexported below), once, for the later ones.
$(STAMP): pyproject.toml lab/pyproject.toml | $(BIN)/python
	$(BIN)/python scripts/install_torch.py $(TORCH_VERSION) $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(BIN)/python -m pip install --quiet 'uv>=0.5'
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]' -e ./lab
	touch $(STAMP) $(EVAL_STAMP)

## The main job: evaluate (no --model -> the reference policy on the bench split). bs4-env eval
## says how many rollouts it will run and where the results go before it starts.
eval: $(EVAL_STAMP)
	@$(BIN)/bs4-env eval $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(PHASE) mypy $(BIN)/mypy

## Everything CI runs: lint, types, and every test (slow and integration included), spread
## over every core (pytest-xdist; tests/conftest.py keeps each module's fixtures in one worker).
## The prime-rl integration test runs prime-rl at the pinned commit from a cached venv built
## from the vendored source, by the first test that needs it (23-28 s on a fresh machine, while
## the other worker runs tests); without that source it is deselected with a printed note.
## The type check and the unprivileged sandbox suite run beside pytest
## (scripts/beside.sh: each still fails the run, and its output and phase time follow pytest's);
## only the suite's latency tests (SANDBOX_LATENCY) run after pytest, alone, still unprivileged:
## they measure wall time, which two busy pytest workers beside them would decide.
JOBS ?= $(shell nproc)
# A process that finds no bytecode for a module compiles it; with this variable set (as in
# this project's shells) it would do so again in every process, since nothing is precompiled.
unexport PYTHONDONTWRITEBYTECODE
# Each phase prints its wall time in the log (`phase NAME: N s`); .ci/run prints the total.
PHASE := bash scripts/phase.sh
PYTEST := $(BIN)/pytest -m "" -p no:cacheprovider -n $(JOBS) --dist loadgroup --no-loadscope-reorder --durations=15 -rs
PRIMERL_VENDOR := $(or $(BS4ENV_PRIMERL_VENDOR),../shared/vendor/prime-rl-559b447.tar.gz)
PRIMERL_TEST := tests/e2e/test_primerl_integration.py
# The one test that needs Chromium: run after pytest, so that Chromium can install beside it.
BROWSER_TEST := tests/test_html_report.py::test_report_in_headless_chromium
TESTS := if [ -f "$(PRIMERL_VENDOR)" ]; then \
		$(PHASE) pytest $(PYTEST) --deselect $(BROWSER_TEST) $(ARGS); \
	else \
		echo "NOTE: prime-rl integration test NOT RUN: $(PRIMERL_VENDOR) is missing."; \
		echo "  To run it: put prime-rl-559b447.tar.gz there (or set BS4ENV_PRIMERL_VENDOR), then"; \
		echo "  make primerl-venv && $(BIN)/pytest -m integration $(PRIMERL_TEST)"; \
		$(PHASE) pytest $(PYTEST) --deselect $(PRIMERL_TEST) --deselect $(BROWSER_TEST) $(ARGS); \
	fi
# The sandbox suite again as an unprivileged uid (CI runs as root; without root the run
# above already was unprivileged): $(call UNPRIVILEGED,PHASE NAME,PYTEST ARGS).
UNPRIVILEGED = if [ "$$(id -u)" = 0 ]; then \
		$(PHASE) $(1) $(BIN)/python -m tests.sandbox.run_unprivileged -- \
			$(BIN)/python -m pytest -m "" -p no:cacheprovider -q $(2); \
	else echo "not root: the sandbox suite already ran unprivileged"; fi
# Its tests that assert wall-clock latency (the event-loop stall beside 32 calls, queue wait
# and starvation bounds): beside pytest the stall test measured 473 and 1,018 ms (2026-12-06).
SANDBOX_LATENCY := tests/sandbox/test_sandbox_pool.py::test_concurrent_calls_do_not_stall_event_loop \
	tests/sandbox/test_sandbox_fairness.py
UNPRIVILEGED_BESIDE := $(call UNPRIVILEGED,sandbox-unprivileged,tests/sandbox $(SANDBOX_LATENCY:%=--deselect %))
# The report's browser test needs Debian's Chromium. On a fresh machine (root) its install took
# 82 s, so it runs beside pytest (phase browser-install) and the one test that needs it after.
HAVE_BROWSER = command -v chromium >/dev/null && command -v chromedriver >/dev/null
APT_BROWSER := apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
BROWSER_BESIDE := if $(HAVE_BROWSER); then echo "Chromium is installed"; \
	else $(PHASE) browser-install bash -c "$(APT_BROWSER)"; fi
test: $(STAMP) browser-check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@bash scripts/beside.sh '$(PHASE) mypy $(BIN)/mypy' '$(UNPRIVILEGED_BESIDE)' '$(BROWSER_BESIDE)' \
		-- bash -c '$(TESTS)'
	@$(call UNPRIVILEGED,sandbox-latency,$(SANDBOX_LATENCY))
	@$(PHASE) browser-test $(BIN)/pytest -m "" -p no:cacheprovider -q $(BROWSER_TEST)

## The venv the prime-rl integration test runs in (built once, cached outside git).
primerl-venv: $(STAMP)
	$(BIN)/python scripts/primerl_venv.py

## The HTML report's browser test drives Debian's headless Chromium: `make browser` installs it
## now as root; `make test` checks first that it is there or can be installed (as root, beside
## pytest), otherwise the exact command to run is printed and the run stops (never a silent skip).
browser: browser-check
	@if $(HAVE_BROWSER); then :; else \
		echo "installing Debian's chromium and chromium-driver for the report's browser test"; \
		$(APT_BROWSER); fi

browser-check:
	@if $(HAVE_BROWSER); then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then :; \
	else \
		echo "make test needs Chromium for the HTML report's browser test; install it with:" >&2; \
		echo "  sudo apt-get install -y chromium chromium-driver" >&2; exit 1; \
	fi

## The sandbox suite again as an unprivileged uid, whole (`make test` runs it beside pytest
## but for its latency tests, which follow pytest).
test-sandbox-unprivileged: $(STAMP)
	@$(call UNPRIVILEGED,sandbox-unprivileged,tests/sandbox)

## Fast unit tests only (the default marker filter in pyproject).
test-fast: $(STAMP)
	$(BIN)/pytest $(ARGS)

bench: $(STAMP)
	$(BIN)/python scripts/bench_core.py
