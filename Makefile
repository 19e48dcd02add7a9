# Every target sets itself up from a fresh clone: a venv in .venv with the project installed.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck format bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,playground]'
	touch $(STAMP)

# With DISCORD_TOKEN (environment or .env): the bot on Discord. Without: the local playground,
# the real bot on a simulated Discord in your browser. `make run ARGS="--port 9000 --no-browser"`.
run: $(STAMP)
	@if $(PY) -m bot.config --has-token; then \
		$(PY) -m bot $(ARGS); \
	else \
		$(PY) -m bot.playground $(ARGS); \
	fi

# Style, then the layers' import contracts (pyproject.toml [tool.importlinter]).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

# The files and the per-module strictness are set in pyproject.toml ([tool.mypy]).
typecheck: $(STAMP)
	$(VENV)/bin/mypy

test: lint typecheck
	$(PY) -m pytest

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(PY) bench/engine_speed.py
	$(PY) bench/moves.py
	$(PY) bench/render.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
