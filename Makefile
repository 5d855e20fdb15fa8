# Two commands set everything up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean compile uncompile

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	rm -f rinklog.db
	$(BIN)/rinklog sim --home HFX --away QUE --seed 2026 --db rinklog.db
	$(BIN)/rinklog scoresheet --db rinklog.db $$($(BIN)/rinklog games --db rinklog.db --ids | head -n 1)

# The whole suite on TEST_WORKERS processes (pytest-xdist; this machine has 2 cores), each
# test module whole on one process, modules with slow tests first (tests/conftest.py).
# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set: pytest's rewritten test
# modules (and those of every plugin it rewrites: hypothesis, syrupy...) are then cached in
# __pycache__, and collecting takes about a quarter of the CPU on the next run.
TEST_WORKERS ?= 2
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope --no-loadscope-reorder

bench: $(STAMP)
	$(BIN)/python tests/bench/bench_games.py
	$(BIN)/python tests/bench/bench_projections.py
	$(BIN)/python tests/bench/bench_season.py
	$(BIN)/python tests/bench/bench_season.py --league dicedemo
	$(BIN)/python tests/bench/bench_matrix.py
	$(BIN)/python tests/bench/bench_odds.py

# Opt-in: build the rules engine (engine/bones) with mypyc, in place; about twice as fast
# to play. Needs a C compiler. `make test` never needs it; `make uncompile` undoes it.
compile: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[compile]'
	$(BIN)/python tests/bench/compile_engine.py

uncompile:
	rm -f engine/bones/*.so
	rm -rf build/mypyc build/lib.*

lint: $(STAMP)
	$(BIN)/ruff check .

clean: uncompile
	rm -rf $(VENV) rinklog.db .pytest_cache
