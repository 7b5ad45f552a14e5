# Card Club. `make run` serves the site with demo content; `make test` runs the whole suite.
SHELL := /bin/bash
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
# Django 6 needs Python >= 3.12: take the first interpreter that is new enough.
BASE_PYTHON ?= $(shell for p in python3.13 python3.12 $$HOME/.pyenv/versions/3.13.0/bin/python $$HOME/.pyenv/versions/3.12.1/bin/python python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then command -v $$p; break; fi; done)

.PHONY: run test test-fast test-browser bench lint setup messages catalogue demo worker clean

$(VENV)/.installed: pyproject.toml
	@test -n "$(BASE_PYTHON)" || { echo "Python 3.12 or newer is needed (pyenv install 3.12)"; exit 1; }
	test -x $(PY) || $(BASE_PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

# The translation catalogues (locale/<lang>/LC_MESSAGES/django.po -> .mo), compiled with gettext's msgfmt
# when the machine has it (apt-get install gettext); without it the committed .mo files serve, and
# tests/test_i18n.py keeps those up to date with the .po files.
messages: $(VENV)/.installed
	@if command -v msgfmt >/dev/null 2>&1; then $(PY) manage.py compilemessages --ignore=.venv --ignore=var -v0; \
	else echo "msgfmt not found (apt-get install gettext): using the committed translation catalogues"; fi

# After adding or changing translatable strings: refresh the .po from the code and templates (needs gettext),
# translate the new entries (tests/test_i18n.py fails on an empty or fuzzy one), then `make messages`.
catalogue: $(VENV)/.installed
	$(PY) manage.py makemessages -l fr --no-location --ignore=.venv --ignore=var --ignore=staticfiles \
		--ignore=static --ignore=tests --ignore=bench

setup: messages
	$(PY) manage.py migrate --noinput
	$(PY) manage.py vapid_keys >/dev/null 2>&1  # the Web Push key pair, generated once and kept

demo: setup
	$(PY) manage.py seed_demo

run: demo
	@echo "Card Club on http://127.0.0.1:$(PORT)/  (demo players: alice, bob, carol; password: cardclub-demo)"
	SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} $(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

# The suite: engines, platform, sockets, services (PostgreSQL + Redis), then the browser apart.
test: messages
	$(PY) -m pytest -m "not browser" -p no:cacheprovider
	$(PY) -m pytest -m browser -p no:cacheprovider tests/e2e

test-fast: messages
	$(PY) -m pytest -m "not browser and not services and not slow" -x

test-browser: messages
	$(PY) -m pytest -m browser tests/e2e

# Every benchmark in bench/, but not its helpers (bench/_*.py) nor the echo and floor apps bench/live.py serves.
bench: $(VENV)/.installed
	@for f in bench/*.py; do case $$f in bench/_*|bench/echo_app.py|bench/floor_app.py) continue;; esac; \
		echo "== $$f"; $(PY) $$f || exit 1; done

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf var staticfiles artifacts .pytest_cache
