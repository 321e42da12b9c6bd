# zfsplanner — the two commands: `make run` and `make test` (`make test-fast` while developing: no browser).
PYTHON ?= python3
PORT   ?= 8000
export PORT
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: screenshots run test test-fast test-services test-tools bench lint migrate demo frontend clean native

## python-ldap compiles against OpenLDAP's and SASL's headers: installed with apt-get when missing and we may.
BUILD_HEADERS := /usr/include/ldap.h:libldap2-dev /usr/include/sasl/sasl.h:libsasl2-dev
$(STAMP): requirements.txt
	@missing=""; for pair in $(BUILD_HEADERS); do \
	  [ -e "$${pair%%:*}" ] || missing="$$missing $${pair#*:}"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing build headers:$$missing (apt-get install)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Missing build headers:$$missing (apt-get install$$missing)"; \
	  fi; \
	fi
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

## OpenZFS's block compressors as a C extension (needs a C compiler and the Python headers).
native: $(STAMP)
	$(PY) native/build.py

## Start the app on http://127.0.0.1:$(PORT) (default 8000) with SQLite and in-process tasks, demo data loaded.
run: demo native
	@echo "zfsplanner: open http://127.0.0.1:$(PORT)/ (log in as demo / zfsplanner-demo)"
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

## What the tests run besides Python: Chromium (browser tests), dash, bash and fio (the collector script's
## tests), slapd (log-in over LDAP), nginx (the proxy in front of gunicorn), installed with apt-get when one is
## missing and we may. `make test-fast` needs all but Chromium.
TEST_TOOLS := chromium dash bash fio slapd nginx
test-fast: TEST_TOOLS := $(filter-out chromium,$(TEST_TOOLS))
test-tools:
	@missing=""; \
	for t in $(TEST_TOOLS); do \
	  if [ "$$t" = chromium ] && [ -n "$$CHROMIUM_PATH" ]; then continue; fi; \
	  command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing what the tests run:$$missing (apt-get install)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Missing for the tests:$$missing (apt-get install$$missing; or CHROMIUM_PATH for Chromium)."; \
	  fi; \
	fi

## The test suite (SQLite, in-process tasks, browser tests in Chromium): what CI runs.
test: $(STAMP) native test-tools
	$(PY) -m pytest -q

## The suite without the browser tests (tests/e2e, marked e2e), for the development loop: no Chromium started.
test-fast: $(STAMP) native test-tools
	$(PY) -m pytest -q -m "not services and not e2e"

## The suite against PostgreSQL + Redis + a real Celery worker (DATABASE_URL, CELERY_BROKER_URL set).
test-services: $(STAMP) native test-tools
	$(PY) -m pytest -q -m "services or not services"

## Screenshots of the main pages (1366 and 390 px) into docs/screenshots, from the browser tests.
screenshots: $(STAMP) test-tools
	SCREENSHOT_DIR=$(CURDIR)/docs/screenshots $(PY) -m pytest -q tests/e2e/test_designer.py -k axe
	SCREENSHOT_DIR=$(CURDIR)/docs/screenshots $(PY) -m pytest -q tests/e2e/test_collect.py

## Speed and memory benchmarks; writes docs/performance.md.
bench: $(STAMP) native
	$(PY) tests/perf/run.py

## ruff, mypy strict on the core and parsers, the import contracts (.importlinter) and dead code (vulture).
lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy
	shellcheck tools/collect.sh
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/vulture zfsplanner benchmarks .ci/vulture_whitelist.py --min-confidence 80 --exclude '*/migrations/*'

## Rebuild the vendored htmx and Chart.js from frontend/package-lock.json.
frontend:
	cd frontend && npm ci --no-fund --no-audit && npm run build

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
