# bocage: the human entry points. `make demo` runs the pipeline on the bundled sample,
# `make test` runs the test suite (what CI runs), `make bench` prints benchmark ratios.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PYTHON ?= $(shell tools/find-python)

.PHONY: setup demo test typecheck bench docs clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "make: no Python 3.12+ found (see tools/find-python)"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# The bundled sample: an illustrative Omaha sector (maps/demo, counters/demo).
# Later stages (digitize, counters, aids, vassal, rules) join here as they land.
demo: $(STAMP)
	@echo "== bocage demo: checking the bundled sample game =="
	$(VENV)/bin/bocage check maps/demo counters/demo
	@echo "== done: the sample data loads and agrees with itself; nothing is written yet =="

test: $(STAMP)
	$(PY) -m mypy
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/run.py

docs: $(STAMP)
	$(PY) -m pipeline.cli.docs README.md

clean:
	rm -rf $(VENV) build/*/ .pytest_cache .mypy_cache .hypothesis
