# Every target sets itself up from a fresh clone: a venv in .venv with the project installed.
# What it installs is pinned by constraints.txt (the lock; `make lock` refreshes it), within the
# ranges of pyproject.toml. The project itself is installed editable and is not in the lock.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := constraints.txt
# The tool that writes the lock (docs/development.md#the-lock), installed into the venv by `make lock`.
UV_VERSION := 0.13.8

.PHONY: run test pytest chromium lint typecheck format bench lock clean

# uv installs the lock: from a fresh clone 35 s against pip's 121 s, side by side on this
# machine (docs/development.md#the-lock). pip only installs uv itself.
$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet 'uv==$(UV_VERSION)'

# --compile-bytecode: uv writes no .pyc by default, and where PYTHONDONTWRITEBYTECODE is set (CI's
# machine sets it) no run writes them either, so every interpreter (pytest's workers, the tests'
# subprocesses) compiled discord, SQLAlchemy and the rest from source: 2.4 s of CPU to import
# the bot against 1.0 s with them compiled.
$(STAMP): pyproject.toml $(LOCK) | $(PY)
	$(VENV)/bin/uv pip install --quiet --compile-bytecode --python $(PY) -c $(LOCK) \
		-e '.[test,playground]'
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

# Style, types and the tests at once: lint and mypy (~15 s of one core from a fresh clone) run
# beside pytest's workers instead of before them, filling the cores pytest leaves idle (its
# start-up, its last tests). Each one's output comes in one piece; any failure fails the target.
test: $(STAMP) chromium
	@$(MAKE) --no-print-directory -j 3 --output-sync=target lint typecheck pytest

# The project's own modules compiled once too (an empty PYTHONDONTWRITEBYTECODE is unset).
pytest: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest

# tests/test_playground_live.py plays the playground's page in headless Chromium (Debian's
# package). Installed when missing and we are root (CI is); otherwise it says how. Nothing to
# do when it is there, so `make test` stays quick. Without its recommends (printing, avahi,
# a Perl web stack: some 85 packages the headless tests never use, the same fonts either way):
# 7.5-8.0 s on a fresh machine against 13.3-13.5 s, side by side, and every browser test passes.
chromium:
	@if ! command -v chromium >/dev/null && [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
				apt-get install -y -qq --no-install-recommends chromium; \
		else \
			echo "Chromium is missing: run 'sudo apt-get install --no-install-recommends chromium' (the playground's test uses it)"; \
			exit 1; \
		fi; \
	fi

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Every benchmark with its defaults, SQLite only (docs/performance.md gives each one's command,
# PostgreSQL included). bench/ is a package; floor and standin are parts of bench.moves.
bench: $(STAMP)
	$(PY) -m bench.engine_speed
	$(PY) -m bench.moves
	$(PY) -m bench.render
	$(PY) -m bench.replay
	$(PY) -m bench.storage --sqlite-only

# Rewrites constraints.txt from pyproject.toml's ranges, for the app and the test and playground
# extras: a pin that still fits is kept, a new or out-of-range dependency gets the newest release
# that fits. `make lock UPGRADE=1` moves every pin to the newest release that fits.
lock: | $(PY)
	$(PY) -m pip install --quiet 'uv==$(UV_VERSION)'
	$(VENV)/bin/uv pip compile pyproject.toml --extra test --extra playground \
		--python-version 3.11 --custom-compile-command 'make lock' --quiet \
		$(if $(UPGRADE),--upgrade) --output-file $(LOCK)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
