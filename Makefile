# Muster: the two set-up commands of the README.
#   make run   installs everything, loads the demo club and serves http://$(HOST):$(PORT)/
#              (127.0.0.1:8000 unless told otherwise: make run PORT=8080)
#   make test  installs everything and runs the test suite
#   make bench runs the benchmarks (benchmarks/README.md); not part of the tests
#   make lint  ruff (lint and format check), mypy and import-linter (settings: pyproject.toml)
# Both first check the system packages (scripts/system-packages.sh): as root they
# install what is missing with apt-get, otherwise they stop before creating anything
# and print the one command to run. A broken .venv is rebuilt (scripts/venv.sh).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Invitation links and the demo's "Open ..." line name the address served.
SITE_URL ?= http://$(HOST):$(PORT)
export SITE_URL
# DEBUG=1 make run: Django's technical pages and reloading on code changes.
RELOAD := $(if $(filter 1 true True TRUE yes on,$(DEBUG)),,--noreload)

.PHONY: run test lint install install-test bench system venv

system:
	@sh scripts/system-packages.sh "$(PYTHON)"

venv: system
	@sh scripts/venv.sh "$(PYTHON)" "$(VENV)"

install: venv
	$(BIN)/python -m pip install --quiet -r requirements.txt

install-test: venv
	$(BIN)/python -m pip install --quiet -r requirements-test.txt

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@echo "Muster serves $(SITE_URL)/ (stop it with Ctrl-C)."
	@echo "Your own club and its organizer: $(BIN)/python manage.py create_organizer USERNAME --club SLUG"
	@echo "(a public site: README, Production). E-mails (invitations, password resets, notices) are printed here."
	$(BIN)/python manage.py runserver $(RELOAD) $(HOST):$(PORT)

test: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: install-test
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)
