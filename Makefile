# Everything installs into .venv; a fresh machine needs only python3 (3.11+), pip and make.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: setup play test lint typecheck unit bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,ray]'
	touch $(STAMP)

play: setup
	$(VENV)/bin/playtable play

lint: setup
	$(VENV)/bin/ruff check src tests benchmarks

typecheck: setup
	$(VENV)/bin/mypy

# pytest exits 5 when it collects no test: that is not a failure of the suite.
unit: setup
	$(VENV)/bin/pytest -n 2 -p no:cacheprovider; rc=$$?; if [ $$rc -eq 5 ]; then rc=0; fi; exit $$rc

test: lint typecheck unit

bench: setup
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
