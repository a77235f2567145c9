# Riposte: `make serve` builds and serves the site, `make test` runs every test.
# Both set up what they need on a fresh machine (Python 3.11+, Node 20+, make).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: all site serve test test-engine test-browser test-long lint bench clean

all: test

$(VENV)/.installed: requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

site: $(VENV)/.installed node_modules/.installed
	$(PY) tools/build_site.py

serve: site
	$(PY) tools/serve.py --port $(PORT)

lint: $(VENV)/.installed
	$(PY) -m ruff check engine tests bench tools web/bridge.py
	$(PY) -m mypy

test-engine: $(VENV)/.installed
	$(PY) -m pytest -m "not browser"

test-browser: site
	$(PY) tools/find_chromium.py --check
	$(PY) -m pytest -m browser

test: lint site
	$(PY) tools/find_chromium.py --check
	$(PY) -m pytest

test-long: $(VENV)/.installed
	HYPOTHESIS_PROFILE=long $(PY) -m pytest tests/test_properties.py

bench: $(VENV)/.installed
	$(PY) bench/engine_bench.py

clean:
	rm -rf _site build dist
