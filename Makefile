# Muster: the two set-up commands of the README.
#   make run   installs everything, loads the demo club and serves http://127.0.0.1:8000
#   make test  installs everything and runs the test suite
#   make bench runs the benchmarks (benchmarks/README.md); not part of the tests
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test bench

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null || { echo "Muster needs $(PYTHON) (Python 3.11); set PYTHON=... to use another 3.11+ interpreter."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements.txt

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements-test.txt

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

test: install-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: install-test
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)
