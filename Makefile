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

# The web app: open http://127.0.0.1:8000/ (a browser opens by itself where there is one).
run: $(STAMP)
	@(sleep 2 && $(BIN)/python -m webbrowser -t http://127.0.0.1:8000/ >/dev/null 2>&1 &); \
	$(BIN)/hraj serve

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# The store tests also run against a real PostgreSQL server that scripts/postgres.sh
# installs if missing and starts on a free port for this run only.
# The browser tests drive Debian's Chromium, installed here once if it is missing; the
# backgammon interchange test drives Debian's GNU Backgammon (gnubg), installed the same way.
test: lint
	@test -x /usr/bin/chromium || (apt-get update -qq >/dev/null 2>&1 && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1) || \
		echo "chromium could not be installed: the browser tests will fail (CI) or be skipped"
	@test -x /usr/games/gnubg || (apt-get update -qq >/dev/null 2>&1 && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnubg >/dev/null 2>&1) || \
		echo "gnubg could not be installed: the gnubg interchange test will fail (CI) or be skipped"
	eval "$$(scripts/postgres.sh start)"; \
	$(BIN)/pytest -n 2; status=$$?; \
	scripts/postgres.sh stop; exit $$status

bench: $(STAMP)
	$(BIN)/python -m benchmarks.playouts
