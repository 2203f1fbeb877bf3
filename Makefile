# rummykit — the two commands a newcomer needs: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: lab lab-command classroom test lint typecheck unit venv docs notebooks bench clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -c "import sys; assert sys.version_info >= (3, 10), 'rummykit needs Python 3.10 or newer'"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip 2>&1 | grep -v "is ignored" || true
	$(PIP) install -e '.[test,docs]' 2>&1 | grep -v "is ignored" || true
	$(BIN)/python -c "import rummykit, pytest, nbval, ipywidgets, sphinx, myst_nb, furo, sphinxcontrib.mermaid"
	touch $(STAMP)

venv: $(STAMP)

## make lab: create .venv, install rummykit and open the tutorial notebooks in JupyterLab
## (as root too, as in classroom containers and on CI machines: Jupyter then wants --allow-root)
LAB_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)
LAB      := jupyter lab $(LAB_ROOT) notebooks/
lab: venv
	$(BIN)/$(LAB) $(LAB_ARGS)

# the command `make lab` runs, after $(BIN)/ (tests/test_lab.py starts it and stops it)
lab-command:
	@echo '$(LAB)'

## make classroom: serve the card table to a class with Voilà (kernels of closed pages culled);
## e.g. make classroom CLASSROOM_ARGS="--ip 0.0.0.0 --port 8866" for the class network
classroom: venv
	$(BIN)/rummykit classroom $(CLASSROOM_ARGS)

## make bench: every benchmark in benchmarks/, one after another (minutes; not part of make test)
bench: venv
	for script in benchmarks/*.py; do echo "== $$script"; $(BIN)/python "$$script" $(BENCH_ARGS) || exit 1; done

## make test: lint, type-check, run every test (unit, property, doctests, notebooks), build the docs
test: venv lint typecheck unit docs

lint: venv
	$(BIN)/ruff check rummykit tests benchmarks
	$(BIN)/ruff format --check rummykit tests benchmarks

typecheck: venv
	$(BIN)/mypy
	$(BIN)/python -c "import rummykit, sys; bad = [m for m in ('ipywidgets', 'anywidget', 'IPython', 'traitlets') if m in sys.modules]; assert not bad, f'import rummykit pulled in {bad}'"

unit: venv
	$(BIN)/python -m pytest $(PYTEST_ARGS)

## make docs: the documentation site in docs/_build/html (warnings are errors)
docs: venv
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html

## make notebooks: re-run every notebook and store its outputs (after changing what they print)
notebooks: venv
	for nb in notebooks/*.ipynb; do \
	  $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.store_widget_state=True --ExecutePreprocessor.record_timing=False \
	    --ClearMetadataPreprocessor.enabled=True --ClearMetadataPreprocessor.clear_notebook_metadata=False \
	    --ClearMetadataPreprocessor.preserve_cell_metadata_mask=tags \
	    "$$nb" || exit 1; \
	done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis docs/_build docs/notebooks docs/_widgets docs/_vendor
