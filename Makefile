# rummykit — the two commands a newcomer needs: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: lab lab-command classroom test lint typecheck unit venv docs notebooks bench clean pot po-update po-init mo lite lite-serve

$(STAMP): pyproject.toml Makefile hatch_build.py
	$(PYTHON) -c "import sys; assert sys.version_info >= (3, 10), 'rummykit needs Python 3.10 or newer'"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip 2>&1 | grep -v "is ignored" || true
	$(PIP) install -e '.[test,docs]' 2>&1 | grep -v "is ignored" || true
	$(BIN)/python -c "import rummykit, pytest, nbval, ipywidgets, sphinx, myst_nb, furo, sphinxcontrib.mermaid"
	$(BIN)/python -c "import tornado, sqlalchemy, psycopg"  # rummykit tables and its PostgreSQL test
	touch $(STAMP)

# the compiled catalogues (rummykit/locale/*/LC_MESSAGES/rummykit.mo, not in git) are remade
# whenever a .po changes, so the dev tree and make test read the translations as they are now
PO_FILES := $(wildcard rummykit/locale/*/LC_MESSAGES/rummykit.po)
MO_FILES := $(PO_FILES:.po=.mo)
$(MO_FILES): %.mo: %.po rummykit/pofiles.py
	$(PYTHON) -c "import sys; sys.path.insert(0, 'rummykit'); import pofiles; pofiles.compile_all()"

venv: $(STAMP) $(MO_FILES)

## make mo: compile the translations (.po) into the .mo files rummykit reads at run time
mo: $(MO_FILES)

## make pot: rummykit/locale/rummykit.pot from the English templates in rummykit/messages.py
pot:
	PYTHONPATH=. $(PYTHON) -m rummykit.pofiles pot

## make po-update: merge the .pot into every language's .po (new sentences come in empty,
## changed ones are marked fuzzy and keep their old translation, removed ones go)
po-update: pot
	PYTHONPATH=. $(PYTHON) -m rummykit.pofiles update

## make po-init LANG=xx: start the catalogue of a new language from the .pot
po-init: pot
	PYTHONPATH=. $(PYTHON) -m rummykit.pofiles init $(LANG)

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

## make test: lint, type-check, build the JupyterLite site, run every test (unit, property,
## doctests, notebooks, browser), build the docs
test: venv mo lint typecheck lite unit docs

lint: venv
	$(BIN)/ruff check rummykit tests benchmarks lite
	$(BIN)/ruff format --check rummykit tests benchmarks lite

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
	for nb in notebooks/*.ipynb notebooks/*/*.ipynb; do \
	  [ -e "$$nb" ] || continue; \
	  $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.store_widget_state=True --ExecutePreprocessor.record_timing=False \
	    --ClearMetadataPreprocessor.enabled=True --ClearMetadataPreprocessor.clear_notebook_metadata=False \
	    --ClearMetadataPreprocessor.preserve_cell_metadata_mask=tags \
	    "$$nb" || exit 1; \
	done

## make lite: the JupyterLite site in build/lite — the tutorials in a browser, nothing installed,
## offline — from pinned versions (lite/requirements.txt, lite/build.py) in its own .venv-lite;
## downloads are kept in build/lite-cache, so a rebuild needs no network
LITE_VENV  := .venv-lite
LITE_STAMP := $(LITE_VENV)/.installed-stamp
LITE_PORT  ?= 8000
$(LITE_STAMP): lite/requirements.txt
	$(PYTHON) -m venv $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip --disable-pip-version-check -q install -r lite/requirements.txt
	touch $(LITE_STAMP)

lite: $(LITE_STAMP)
	$(LITE_VENV)/bin/python lite/build.py --output build/lite --cache build/lite-cache

## make lite-serve: serve build/lite on http://127.0.0.1:$(LITE_PORT)/ (make lite-serve LITE_PORT=9000)
lite-serve: lite
	$(PYTHON) lite/serve.py build/lite --port $(LITE_PORT)

## make axe: axe-core, the accessibility engine the browser tests run, at the version they pin,
## fetched once with npm into build/axe-cache (sha256 checked; the tests fetch it when missing)
.PHONY: axe
axe:
	$(PYTHON) tests/browser/axe.py

clean:
	rm -rf $(VENV) $(LITE_VENV) build/lite .pytest_cache .mypy_cache .ruff_cache .hypothesis docs/_build docs/notebooks docs/_widgets docs/_vendor
