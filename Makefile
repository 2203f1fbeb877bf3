# rummykit — the two commands a newcomer needs: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: lab test lint typecheck unit venv docs bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -c "import sys; assert sys.version_info >= (3, 10), 'rummykit needs Python 3.10 or newer'"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip 2>&1 | grep -v "is ignored" || true
	$(PIP) install -e '.[test]' 2>&1 | grep -v "is ignored" || true
	$(BIN)/python -c "import rummykit, pytest, nbval, ipywidgets"
	touch $(STAMP)

venv: $(STAMP)

## make lab: create .venv, install rummykit and open the tutorial notebooks in JupyterLab
lab: venv
	$(BIN)/jupyter lab notebooks/

## make test: lint, type-check and run every test (unit, property, doctests, notebooks)
test: venv lint typecheck unit

lint: venv
	$(BIN)/ruff check rummykit tests
	$(BIN)/ruff format --check rummykit tests

typecheck: venv
	$(BIN)/mypy
	$(BIN)/python -c "import rummykit, sys; bad = [m for m in ('ipywidgets', 'anywidget', 'IPython', 'traitlets') if m in sys.modules]; assert not bad, f'import rummykit pulled in {bad}'"

unit: venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis docs/_build
