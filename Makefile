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
	# pywargame: an independent VASSAL module reader for the tests. Its declared
	# requirements (docs and ImageMagick tooling) are not needed by pywargame.vassal.
	$(PY) -m pip install --quiet --no-deps 'pywargame==0.8.0'
	@touch $(STAMP)

# The bundled sample: an illustrative Omaha sector (maps/demo, counters/demo).
# Later stages (digitize, counters, aids, vassal, rules) join here as they land.
demo: $(STAMP)
	@echo "== bocage demo: checking the bundled sample game =="
	$(VENV)/bin/bocage check maps/demo counters/demo
	@echo "== validate: lint the demo map and check the rulebook's facts about it =="
	$(VENV)/bin/bocage validate maps/demo/map.json --facts maps/demo/facts.json --report build/demo/validation.html
	@echo "== counters: one PNG per face, a contact sheet, and a duplex sheet PDF =="
	$(VENV)/bin/bocage counters render counters/demo/units.csv counters/demo/markers.csv --out build/demo/counters/
	$(VENV)/bin/bocage counters sheet counters/demo/units.csv counters/demo/markers.csv --paper letter --pdf build/demo/counters.pdf
	@echo "== play aids: terrain effects chart and the map tiled for printing at true scale =="
	$(VENV)/bin/bocage aids maps/demo --out build/demo/aids/
	@echo "== rules: where can the 914th Infantry Regiment go, and who is in supply? =="
	$(VENV)/bin/bocage rules moves maps/demo -p maps/demo/position.json -u 914/352
	$(VENV)/bin/bocage rules supply maps/demo -p maps/demo/position.json
	@echo "== done: outputs are in build/demo/ (validation.html, counters/, counters.pdf, aids/) =="

test: $(STAMP)
	$(PY) -m mypy
	$(PY) -m pytest -q

bench: $(STAMP)
	$(PY) bench/run.py

docs: $(STAMP)
	$(PY) -m pipeline.cli.docs README.md

clean:
	rm -rf $(VENV) build/*/ .pytest_cache .mypy_cache .hypothesis
