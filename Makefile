# Card Club. `make run` serves the site with demo content; `make test` runs the whole suite.
SHELL := /bin/bash
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
# Django 6 needs Python >= 3.12: take the first interpreter that is new enough.
BASE_PYTHON ?= $(shell for p in python3.13 python3.12 $$HOME/.pyenv/versions/3.13.0/bin/python $$HOME/.pyenv/versions/3.12.1/bin/python python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then command -v $$p; break; fi; done)

.PHONY: run test test-fast test-browser bench lint setup demo worker clean

$(VENV)/.installed: pyproject.toml
	@test -n "$(BASE_PYTHON)" || { echo "Python 3.12 or newer is needed (pyenv install 3.12)"; exit 1; }
	test -x $(PY) || $(BASE_PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

setup: $(VENV)/.installed
	$(PY) manage.py migrate --noinput

demo: setup
	$(PY) manage.py seed_demo

run: demo
	@echo "Card Club on http://127.0.0.1:$(PORT)/  (demo players: alice, bob, carol; password: cardclub-demo)"
	SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} $(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

# The suite: engines, platform, sockets, services (PostgreSQL + Redis), then the browser apart.
test: $(VENV)/.installed
	$(PY) -m pytest -m "not browser" -p no:cacheprovider
	$(PY) -m pytest -m browser -p no:cacheprovider tests/e2e

test-fast: $(VENV)/.installed
	$(PY) -m pytest -m "not browser and not services and not slow" -x

test-browser: $(VENV)/.installed
	$(PY) -m pytest -m browser tests/e2e

# Every benchmark in bench/, but not its helpers (bench/_*.py) nor the echo app bench/live.py serves.
bench: $(VENV)/.installed
	@for f in bench/*.py; do case $$f in bench/_*|bench/echo_app.py) continue;; esac; \
		echo "== $$f"; $(PY) $$f || exit 1; done

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf var staticfiles artifacts .pytest_cache
