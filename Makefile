# bocage: the human entry points. `make demo` runs the pipeline on the bundled sample,
# `make test` the test suite but its slow part (`make test-slow`; CI runs both), `make
# bench` prints benchmark ratios.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PYTHON ?= $(shell tools/find-python)

.PHONY: setup demo test test-slow typecheck bench docs clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "make: no Python 3.12+ found (see tools/find-python)"; exit 2; }
	@# Debian and Ubuntu ship venv's pip bootstrap (ensurepip) apart: python3 -m venv then
	@# fails half-way, leaving a .venv without pip. Say what to install before trying.
	@$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { \
	  v=$$($(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	  echo "make: $(PYTHON) cannot make a virtual environment: its venv module or ensurepip is missing."; \
	  echo "      On Debian or Ubuntu: sudo apt install python$$v-venv (then make again)"; \
	  exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	# pywargame: an independent VASSAL module reader for the tests. Its declared
	# requirements (docs and ImageMagick tooling) are not needed by pywargame.vassal.
	$(PY) -m pip install --quiet --no-deps 'pywargame==0.8.0'
	@touch $(STAMP)

# The bundled sample: an illustrative Omaha sector (maps/demo, counters/demo) and a
# simulated scan of its printed map (maps/demo/scan.jpg), through every stage. The steps
# are bocage's own (`bocage demo`, which runs the same from an installed wheel on any OS);
# each prints the command it runs, in $(DEMO)/ on a copy of the sample ($(DEMO)/sample/).
BOCAGE := $(VENV)/bin/bocage
DEMO   := build/demo
demo: $(STAMP)
	$(BOCAGE) demo $(DEMO)

# ruff (the rules in pyproject.toml) and mypy first: a lint or type error fails at once,
# then the tests on every core (pytest-xdist: they share no files or ports). `make test`
# leaves out the tests marked `slow` (each reads a whole map with the terrain learner, or
# runs a whole command end to end: seconds to a minute each); `make test-slow` runs them,
# and CI runs both. There the tests that drive the studio in Chromium (marked `browser`)
# run in a process of their own beside the rest, with a temporary folder of their own
# (two runs cleaning one would collide); their output follows the rest's, and either
# failing fails the target.
test: $(STAMP)
	$(PY) -m ruff check
	$(PY) -m mypy
	$(PY) -m pytest -q -n auto -m "not slow"

test-slow: $(STAMP)
	@mkdir -p build
	@$(PY) -m pytest -q -m "slow and browser" -p no:cacheprovider \
	    --basetemp=build/pytest-browser > build/browser-tests.log 2>&1 & \
	browser=$$!; \
	$(PY) -m pytest -q -n auto -m "slow and not browser"; rest=$$?; \
	wait $$browser; status=$$?; \
	echo "== tests that drive the studio in Chromium =="; cat build/browser-tests.log; \
	test $$rest -eq 0 && test $$status -eq 0

bench: $(STAMP)
	$(PY) bench/run.py

docs: $(STAMP)
	$(PY) -m pipeline.cli.docs README.md

clean:
	rm -rf $(VENV) build/*/ .pytest_cache .mypy_cache .hypothesis
