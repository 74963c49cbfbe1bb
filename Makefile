# The commands of the README. Everything runs from a project-local .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
TEST_WORKERS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))

.PHONY: demo test lint check-imports pytest golden bench clean sandbox control-plane

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@ $(VENV)/.installed

## demo: install (quietly: its output only if it fails) and run the main jobs on manifests/examples/
demo:
	@$(MAKE) -q $(VENV)/.installed 2>/dev/null || echo "Installing kubectl-dgd into $(VENV) ..."
	@bash scripts/quietly.sh "installing kubectl-dgd into $(VENV)" $(MAKE) --no-print-directory $(VENV)/.installed
	@bash scripts/demo.sh $(BIN)

## test: the full check CI runs: lint, format, types, import contracts, tests
test: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
# Bytecode caches are written (they are gitignored) even where PYTHONDONTWRITEBYTECODE is set:
# without them pytest rewrites every test module and each console-script test compiles again.
# Two workers per core (many tests wait on sockets, timers and child processes, so one per core
# leaves the CPU idle: 116 s against 89 s on the 2-core machine); worksteal: an idle worker
# takes tests queued for a busy one.
# The package's byte code first, once, rather than by every worker at its first import.
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m compileall -q -j 0 kubectl_dgd > /dev/null
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

## sandbox: a local cluster with GPU nodes and the README's scenarios; Ctrl-C stops it
sandbox: $(VENV)/.installed-dev
	@$(BIN)/python scripts/sandbox.py

## control-plane: build (or find cached) kube-apiserver, etcd, controllers, scheduler, kwok
control-plane:
	bash scripts/control-plane/build.sh

## golden: re-record the golden files (then read the diff)
golden: $(VENV)/.installed-dev
	UPDATE_GOLDEN=1 $(BIN)/pytest -q tests

## bench: benchmarks (figures and ratios; not part of the tests)
bench: $(VENV)/.installed-dev
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .import_linter_cache
