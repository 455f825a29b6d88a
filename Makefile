# One command each (see README.md): `make demo` runs the main job, `make test` the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint install browser clean
LAB_FLAGS := $(if $(HEADLESS),--no-browser,)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,llm]'
	# the llm strategy's SDK without its own dependencies (GLiNER, several GB of torch)
	$(BIN)/pip install --quiet --no-deps 'graphrag-sdk==1.4.0'
	touch $(STAMP)

install: $(STAMP)

# The main job: build the sample graph, answer a change-impact question in the
# terminal, then open the workbench: JupyterLab landing on the workbench as an app
# (Voila), the notebooks a link away (HEADLESS=1: print its URL instead).
demo: $(STAMP)
	$(BIN)/zehn demo
	$(BIN)/zehn lab --app $(LAB_FLAGS)

# Debian's Chromium for the browser tests (never `playwright install`).
browser:
	./scripts/install-browser.sh

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint browser
	$(BIN)/pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
