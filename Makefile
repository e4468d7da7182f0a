# Rollcall: `make run` serves the app, `make test` runs the whole suite.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-run

# DEBUG stays off unless the environment says DEBUG=1; HOST tells the settings which
# host names to allow (rollcall/install.py), rollcall.reach prints the addresses friends
# open (the LAN's, name.local, PUBLIC_URL when set), and the static files are gathered for
# whitenoise to serve. Queued Discord messages are posted from a thread of the daphne
# process (DISCORD_WORKER_IN_SERVER; production runs `manage.py discord_worker` instead).
run: $(VENV)/.installed-run
	HOST=$(HOST) $(BIN)/python manage.py migrate --noinput
	HOST=$(HOST) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	HOST=$(HOST) $(BIN)/python manage.py load_demo --if-empty
	@HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m rollcall.reach
	@echo "  Demo logins: gm (the GM), alice, bob — password: rollcall-demo"
	@echo ""
	HOST=$(HOST) DISCORD_WORKER_IN_SERVER=1 $(BIN)/daphne -b $(HOST) -p $(PORT) rollcall.asgi:application

# axe-core for the accessibility checks of the browser tests comes from npm, pinned in
# package-lock.json; without npm those checks are left out locally (CI requires them).
test: $(VENV)/.installed-test
	@if command -v npm >/dev/null 2>&1 && { [ ! -f node_modules/axe-core/axe.min.js ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then \
		npm ci --ignore-scripts --no-audit --no-fund --loglevel=error; fi
	$(BIN)/pytest -n 2 --dist loadfile

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(VENV)/.installed-test
	$(BIN)/python bench/odds.py

clean:
	rm -rf $(VENV) db.sqlite3 db.sqlite3-wal db.sqlite3-shm db.sqlite3.secret-key staticfiles
