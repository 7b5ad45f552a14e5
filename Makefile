# Card Club. `make run` serves the site with demo content; `make test` runs the whole suite.
SHELL := /bin/bash
PORT ?= 8000
# 127.0.0.1: this computer only. HOST=0.0.0.0 serves the local network too (a phone on the same Wi-Fi).
HOST ?= 127.0.0.1
VENV := .venv
PY := $(VENV)/bin/python
# Django 6 needs Python >= 3.12: take the first interpreter that is new enough.
BASE_PYTHON ?= $(shell for p in python3.13 python3.12 $$HOME/.pyenv/versions/3.13.0/bin/python $$HOME/.pyenv/versions/3.12.1/bin/python python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then command -v $$p; break; fi; done)

.PHONY: run dev reset test test-fast test-browser bench lint setup messages catalogue demo static worker clean

# What serving needs: pyproject.toml's dependencies, installed as they are (the site runs from this directory,
# so the project itself is not built or installed). The test tools (its `test` extra) come with `make test`.
PIP := $(PY) -m pip install --quiet --disable-pip-version-check
DEPENDENCIES = $(PY) -c 'import sys, tomllib; project = tomllib.load(open("pyproject.toml", "rb"))["project"]; \
	print("\n".join(project["dependencies"] + [d for e in sys.argv[1:] for d in project["optional-dependencies"][e]]))'

$(VENV)/.installed: pyproject.toml
	@test -n "$(BASE_PYTHON)" || { echo "Python 3.12 or newer is needed (pyenv install 3.12)"; exit 1; }
	test -x $(PY) || $(BASE_PYTHON) -m venv $(VENV)
	$(DEPENDENCIES) > $(VENV)/requirements.txt
	$(PIP) -r $(VENV)/requirements.txt
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(DEPENDENCIES) test > $(VENV)/requirements-test.txt
	$(PIP) -r $(VENV)/requirements-test.txt
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

# `make run` serves as the site would in production (the site's own error pages, no debug details, static
# files by whitenoise from staticfiles/), over plain HTTP, with a secret key made once for this checkout
# (var/secret_key) and e-mail printed to the console. `make dev` keeps Django's debug pages instead.
SECRET_KEY_FILE := var/secret_key
LAN_ADDRESS = $(shell hostname -I 2>/dev/null | awk '{print $$1}')
SERVE_ENV = DJANGO_DEBUG=false DJANGO_SECRET_KEY="$$(cat $(SECRET_KEY_FILE))" DJANGO_SECURE_COOKIES=false \
	DJANGO_SSL_REDIRECT=false DJANGO_HSTS_SECONDS=0 \
	DJANGO_EMAIL_BACKEND=$${DJANGO_EMAIL_BACKEND:-django.core.mail.backends.console.EmailBackend}
# On the local network the site answers to whatever name or address a phone reaches it by (a socket is
# still accepted only from a page of the very address it connects to: config/asgi.py's origin check).
ifeq ($(HOST),127.0.0.1)
SITE := http://127.0.0.1:$(PORT)
else
SITE := http://$(or $(LAN_ADDRESS),$(HOST)):$(PORT)
SERVE_ENV += DJANGO_ALLOWED_HOSTS=$${DJANGO_ALLOWED_HOSTS:-*}
endif

$(SECRET_KEY_FILE):
	@mkdir -p var
	@$(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@

static: $(VENV)/.installed $(SECRET_KEY_FILE)
	@$(SERVE_ENV) $(PY) manage.py collectstatic --noinput -v0

run: demo static
	@echo
	@echo "Card Club on $(SITE)/  (demo players: alice, bob, carol; password: cardclub-demo)"
	@echo "Its data is in var/ (make reset starts the demo again). Ctrl-C stops the server."
	@echo
	@$(SERVE_ENV) SITE_URL=$${SITE_URL:-$(SITE)} $(VENV)/bin/daphne -b $(HOST) -p $(PORT) config.asgi:application

# The same site with Django's debug pages (tracebacks, the URL list on a 404), on this computer only.
dev: demo
	SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} $(VENV)/bin/daphne -b 127.0.0.1 -p $(PORT) config.asgi:application

# The demo from scratch: its database (var/db.sqlite3) deleted, then migrated and seeded again.
reset:
	@test -z "$$DATABASE_URL" || { echo "make reset resets the demo's SQLite database in var/ only (DATABASE_URL is set)"; exit 1; }
	rm -f var/db.sqlite3 var/db.sqlite3-wal var/db.sqlite3-shm
	$(MAKE) --no-print-directory demo

# The suite: engines, platform, sockets, services (PostgreSQL + Redis), then the browser apart.
test: messages $(VENV)/.installed-test
	$(PY) -m pytest -m "not browser" -p no:cacheprovider
	$(PY) -m pytest -m browser -p no:cacheprovider tests/e2e

test-fast: messages $(VENV)/.installed-test
	$(PY) -m pytest -m "not browser and not services and not slow" -x

test-browser: messages $(VENV)/.installed-test
	$(PY) -m pytest -m browser tests/e2e

# Every benchmark in bench/ (not its helpers, bench/_*.py, nor the echo and floor apps bench/live.py serves),
# in this order; tests/test_bench_list.py fails on a bench file missing here. bench/RESULTS.md says what each
# measures and keeps their runs.
BENCHES := bench/engines.py bench/moves.py bench/frames.py bench/instructions.py bench/redraws.py bench/live_cpu.py bench/scale_cpu.py bench/mechanisms.py \
	bench/handler.py bench/live.py bench/streams.py bench/login_flood.py bench/history.py bench/min_penalty.py \
	bench/bots.py bench/cosplay_sim.py bench/chronica_balance.py
bench: $(VENV)/.installed-test
	@echo "make bench runs: $(BENCHES)"
	@for f in $(BENCHES); do echo "== $$f"; $(PY) $$f || exit 1; done

lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

clean:
	rm -rf var staticfiles artifacts .pytest_cache
