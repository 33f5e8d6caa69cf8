# The README's two commands: `make run` (the app on the embedded default, with demo data)
# and `make test` (the whole suite, real-browser tests included).

VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

# The first Python >= 3.12 found: .python-version makes pyenv's python3.12 resolve here.
PYTHON_FOR_VENV := $(shell for candidate in python3.12 python3.13 python3.14 python3 python; do \
	if command -v $$candidate >/dev/null 2>&1 && $$candidate -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then \
	echo $$candidate; break; fi; done)

.PHONY: run test test-fast test-browser bench bench-smoke lint lock messages check-python check-chromium

check-python:
	@if [ -z "$(PYTHON_FOR_VENV)" ]; then \
		echo "No Python 3.12 or newer found: install one (e.g. 'pyenv install 3.12') and run make again."; \
		exit 1; fi
	@if [ -x $(PY) ] && ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then \
		echo "Replacing $(VENV): it was made with a Python older than 3.12."; rm -rf $(VENV); fi

# Exact versions with their hashes from the lock files (requirements/*.lock, made by
# `make lock`), then the project itself without dependencies: every install, a developer's,
# CI's or a server's, runs the same code.
PIP_INSTALL := $(PY) -m pip install -q --disable-pip-version-check

$(VENV)/.installed: pyproject.toml requirements/base.lock | check-python
	@test -x $(PY) || $(PYTHON_FOR_VENV) -m venv $(VENV)
	$(PIP_INSTALL) --require-hashes --only-binary :all: -r requirements/base.lock
	$(PIP_INSTALL) --no-deps -e .
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed pyproject.toml requirements/dev.lock
	$(PIP_INSTALL) --require-hashes --only-binary :all: -r requirements/dev.lock
	@touch $@

# Resolve the lock files again after changing pyproject.toml's dependencies, for every
# Python from 3.12 on (Debian 12's 3.12 under /opt, Debian 13's 3.13), with hashes.
# `UPGRADE=1 make lock` moves every package to its newest version allowed.
lock: $(VENV)/.installed-dev
	$(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.12 \
		--generate-hashes --no-header --quiet $(if $(UPGRADE),--upgrade) -o requirements/base.lock
	$(VENV)/bin/uv pip compile pyproject.toml --extra dev --universal --python-version 3.12 \
		--generate-hashes --no-header --quiet $(if $(UPGRADE),--upgrade) -o requirements/dev.lock

run: check-python $(VENV)/.installed
	@$(PY) manage.py migrate --noinput -v0
	@$(PY) manage.py demo_data
	@echo ""
	@echo "SRS Table is starting: open http://$(HOST):$(PORT)/ and log in with one of the accounts above."
	@echo "(Ctrl+C stops it.)"
	@$(PY) manage.py runserver $(HOST):$(PORT)

check-chromium:
	@if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then \
		echo "Chromium is missing, and the browser tests need it: install it with 'apt-get install -y chromium'."; \
		exit 1; fi

# Browser tests run as their own pytest run: Playwright's sync API leaves an event loop
# behind that breaks the database and async tests which would follow it.
# Both runs are spread over parallel workers (pytest-xdist), each with a database and a
# channel prefix of its own. Most tests wait on sockets and servers more than they compute,
# so there are more workers than cores; the browser run, where Chromium keeps the cores
# busy, has two. TEST_WORKERS=0 BROWSER_WORKERS=0 make test runs everything in one process.
TEST_WORKERS ?= 4
BROWSER_WORKERS ?= 2
test: check-python $(VENV)/.installed-dev check-chromium
	@$(PY) manage.py collectstatic --noinput -v0
	$(PY) -m pytest -m "not browser" -n $(TEST_WORKERS) --dist worksteal
	$(PY) -m pytest -m browser -n $(BROWSER_WORKERS) --dist worksteal

test-fast: check-python $(VENV)/.installed-dev
	$(PY) -m pytest -m "not browser and not multiprocess"

# The rules tests' seeded random games at full size, too: the everyday suite plays a fifth
# of them (RANDOM_GAMES, tests/minigames/conftest.py).
bench: check-python $(VENV)/.installed-dev
	@$(PY) manage.py collectstatic --noinput -v0
	@for script in tests/benchmarks/bench_*.py; do echo "== $$script"; $(PY) $$script || exit 1; done
	@echo "== tests/minigames random games at full size (RANDOM_GAMES=500)"
	@RANDOM_GAMES=500 $(PY) -m pytest tests/minigames -k "random or generic" -p no:cacheprovider -q

# Every benchmark at a toy size, for CI: it notices a benchmark that no longer runs. The
# figures of so short a run mean nothing; `make bench` gives the real ones. Two run at a
# time (each in a folder and database of its own): most are one process, and CI has two
# cores. A benchmark that fails fails the whole run. The roll benchmarks make their pending
# checks one by one through the service, in proportion to --seconds: a tenth of a second
# keeps that set-up small (it was most of the smoke run). BENCH_REPEATS is bench_session's.
BENCH_SMOKE := \
	"tests/benchmarks/bench_acticsx.py --games 4 --random-games 5 --budget 0.2" \
	"tests/benchmarks/bench_actual.py --games 4 --budget 0.1 --random-seconds 0.5" \
	"tests/benchmarks/bench_dice.py --rolls 200 --checks 5 --repeats 1" \
	"tests/benchmarks/bench_review.py --small 5 --large 50 --repeats 1" \
	"tests/benchmarks/bench_roll.py --seconds 0.1 --rounds 1" \
	"tests/benchmarks/bench_room.py --seconds 0.1 --events 3 --clients 3" \
	"tests/benchmarks/bench_live_room.py --smoke" \
	"tests/benchmarks/bench_session.py" \
	"tests/benchmarks/bench_srs.py"
bench-smoke: check-python $(VENV)/.installed-dev
	@$(PY) manage.py collectstatic --noinput -v0
	@printf '%s\n' $(BENCH_SMOKE) | BENCH_REPEATS=2 xargs -P 2 -I{} sh -c 'echo "== {}"; $(PY) {}'

lint: check-python $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

# Refresh the Japanese catalogue after changing UI text. Entries stay on one line each
# (--no-wrap) so that a translated string is never mistaken for an empty one.
messages: check-python $(VENV)/.installed-dev
	$(PY) manage.py makemessages -l ja --no-wrap --ignore=.venv --ignore=staticfiles --ignore=tests
	$(PY) manage.py compilemessages --ignore=.venv
