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

# The bundled sample: an illustrative Omaha sector (maps/demo, counters/demo) and a
# simulated scan of its printed map (maps/demo/scan.jpg), through every stage.
BOCAGE := $(VENV)/bin/bocage
DEMO   := build/demo
demo: $(STAMP)
	@echo "== 1. check: the sample data loads and agrees with itself =="
	$(BOCAGE) check maps/demo counters/demo
	@echo "== 2. digitize: read the scan back into map data (grid, terrain, hexsides) =="
	$(BOCAGE) digitize maps/demo/scan.jpg --legend maps/demo/map.json --grid maps/demo/map.json \
	    --out $(DEMO)/digitized.json --overlay $(DEMO)/overlay.png --gis $(DEMO)/digitized.gpkg
	@echo "== 3. validate: the hand-entered map against the scan and the rulebook's facts =="
	@echo "   (exit 1 means findings, shown in the report; the demo goes on)"
	$(BOCAGE) validate maps/demo/map.json --against $(DEMO)/digitized.json \
	    --facts maps/demo/facts.json --report $(DEMO)/validation.html --quiet; test $$? -le 1
	@echo "== 4. counters: one PNG per face, a contact sheet, and a duplex sheet PDF =="
	$(BOCAGE) counters render counters/demo/units.csv counters/demo/markers.csv --out $(DEMO)/counters/
	$(BOCAGE) counters sheet counters/demo/units.csv counters/demo/markers.csv --paper letter \
	    --pdf $(DEMO)/counters.pdf
	@echo "== 5. play aids: terrain effects chart and the map tiled at true scale =="
	$(BOCAGE) aids maps/demo --out $(DEMO)/aids/
	@echo "== 6. VASSAL: a module on the scan, numbered like the printed map, and its check =="
	$(BOCAGE) vassal build maps/demo --board maps/demo/scan.jpg --grid $(DEMO)/digitized.json \
	    --counters $(DEMO)/counters --charts $(DEMO)/aids --out $(DEMO)/demo.vmod
	$(BOCAGE) vassal check $(DEMO)/demo.vmod
	$(BOCAGE) vassal preview $(DEMO)/demo.vmod --out $(DEMO)/module-preview.png
	@echo "== 7. rules: where can the 914th Infantry Regiment go, and who is in supply? =="
	$(BOCAGE) rules moves maps/demo -p maps/demo/position.json -u 914/352 --picture $(DEMO)/moves.png
	$(BOCAGE) rules supply maps/demo -p maps/demo/position.json --picture $(DEMO)/supply.png
	@echo "== done: outputs are in $(DEMO)/ =="
	@echo "   digitized.json, overlay.png, digitized.gpkg (+ .jpg, .jgw), validation.html, counters/,"
	@echo "   counters.pdf, aids/, demo.vmod, module-preview.png, moves.png, supply.png"

# The tests that drive Chromium (marked `browser`) run in a process of their own beside
# the rest, with a temporary folder of their own (two runs cleaning one would collide);
# the rest run on every core (pytest-xdist: they share no files or ports). The browser
# tests' output follows the rest's, and either failing fails the target.
test: $(STAMP)
	$(PY) -m mypy
	@mkdir -p build
	@$(PY) -m pytest -q -m browser -p no:cacheprovider --basetemp=build/pytest-browser \
	    > build/browser-tests.log 2>&1 & \
	browser=$$!; \
	$(PY) -m pytest -q -n auto -m "not browser"; rest=$$?; \
	wait $$browser; status=$$?; \
	echo "== tests that drive Chromium =="; cat build/browser-tests.log; \
	test $$rest -eq 0 && test $$status -eq 0

bench: $(STAMP)
	$(PY) bench/run.py

docs: $(STAMP)
	$(PY) -m pipeline.cli.docs README.md

clean:
	rm -rf $(VENV) build/*/ .pytest_cache .mypy_cache .hypothesis
