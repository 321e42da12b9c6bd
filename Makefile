# zfsplanner — the two commands: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test test-services e2e bench lint typecheck migrate demo frontend clean

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

migrate: $(STAMP)
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

## Start the app on http://127.0.0.1:8000 with SQLite and in-process tasks, demo data loaded.
run: demo
	$(PY) manage.py runserver 127.0.0.1:8000

## The test suite (SQLite, in-process tasks; browser tests when /usr/bin/chromium exists).
test: $(STAMP)
	$(PY) -m pytest -q

## The suite against PostgreSQL + Redis + a real Celery worker (DATABASE_URL, CELERY_BROKER_URL set).
test-services: $(STAMP)
	$(PY) -m pytest -q -m "services or not services"

## Speed and memory benchmarks; writes docs/performance.md.
bench: $(STAMP)
	$(PY) tests/perf/run.py

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy

## Rebuild the vendored htmx and Chart.js from frontend/package-lock.json.
frontend:
	cd frontend && npm ci --no-fund --no-audit && npm run build

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
