# The two set-up commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hraj play qwixx --seats me,greedy,greedy

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# The store tests also run against a real PostgreSQL server that scripts/postgres.sh
# installs if missing and starts on a free port for this run only.
test: lint
	eval "$$(scripts/postgres.sh start)"; \
	$(BIN)/pytest -n 2; status=$$?; \
	scripts/postgres.sh stop; exit $$status

bench: $(STAMP)
	$(BIN)/python -m benchmarks.playouts
