# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-pure bench lint clean compile uncompile current-engine

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml setup.py
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The install compiles the engine (setup.py: mypyc, where there is a C compiler); built
# again here when a source it came from changed since (events/build.py: "stale").
current-engine: $(STAMP)
	@$(BIN)/python -c 'import sys, engine; sys.exit(engine.BUILD.why.startswith("stale"))' \
		2>/dev/null || $(MAKE) --no-print-directory compile

run: current-engine
	rm -f rinklog.db
	$(BIN)/rinklog sim --home HFX --away QUE --seed 2026 --db rinklog.db
	$(BIN)/rinklog scoresheet --db rinklog.db $$($(BIN)/rinklog games --db rinklog.db --ids | head -n 1)

# The whole suite on TEST_WORKERS processes (pytest-xdist; this machine has 2 cores), each
# test module whole on one process, modules with slow tests first (tests/conftest.py).
# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set: pytest's rewritten test
# modules (and those of every plugin it rewrites: hypothesis, syrupy...) are then cached in
# __pycache__, and collecting takes about a quarter of the CPU on the next run.
TEST_WORKERS ?= 2
test: current-engine
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder

# The same suite on the pure-Python engine and folds (RINKLOG_PURE=1, events/build.py).
test-pure: $(STAMP)
	RINKLOG_PURE=1 PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder

bench: current-engine
	$(BIN)/python tests/bench/bench_games.py
	$(BIN)/python tests/bench/bench_games.py --engines 30
	$(BIN)/python tests/bench/bench_projections.py
	$(BIN)/python tests/bench/bench_season.py
	$(BIN)/python tests/bench/bench_season.py --league dicedemo
	$(BIN)/python tests/bench/bench_matrix.py
	$(BIN)/python tests/bench/bench_odds.py --second-half 20

# Rebuild the compiled engine now (the install's build, setup.py). `make uncompile` removes
# it: pure Python until the next build (RINKLOG_PURE=1 plays pure without removing it).
compile: $(STAMP)
	$(BIN)/python -m pip install --quiet --no-deps -e .

uncompile:
	rm -f engine/*.so engine/*/*.so projections/*.so projections/*/*.so engine/compiled.json
	rm -rf build

lint: $(STAMP)
	$(BIN)/ruff check .

clean: uncompile
	rm -rf $(VENV) rinklog.db .pytest_cache
