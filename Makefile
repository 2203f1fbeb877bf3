# rummykit — the two commands a newcomer needs: `make lab` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
PIP    := $(BIN)/python -m pip --disable-pip-version-check -q

.PHONY: lab lab-venv lab-command classroom wheelhouse test lint typecheck unit venv docs notebooks bench clean pot po-update po-init mo lite lite-serve

# make lab installs what a learner needs (the notebook extra); make test and make docs add
# the test and docs tools on top
LAB_STAMP := $(VENV)/.lab-stamp
$(LAB_STAMP): pyproject.toml Makefile hatch_build.py
	$(PYTHON) -c "import sys; assert sys.version_info >= (3, 10), 'rummykit needs Python 3.10 or newer'"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip 2>&1 | grep -v "is ignored" || true
	$(PIP) install -e '.[notebook]' 2>&1 | grep -v "is ignored" || true
	$(BIN)/python -c "import rummykit, ipywidgets, anywidget, jupyterlab"
	touch $(LAB_STAMP)

$(STAMP): $(LAB_STAMP)
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

lab-venv: $(LAB_STAMP) $(MO_FILES)

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
# rooted at the repository (the lessons link to docs/), opening the notebooks' README
LAB      := jupyter lab $(LAB_ROOT) notebooks/README.md
lab: lab-venv
	$(BIN)/$(LAB) $(LAB_ARGS)

# the command `make lab` runs, after $(BIN)/ (tests/test_lab.py starts it and stops it)
lab-command:
	@echo '$(LAB)'

## make classroom: serve the card table to a class with Voilà (kernels of closed pages culled);
## e.g. make classroom CLASSROOM_ARGS="--ip 0.0.0.0 --port 8866" for the class network
CLASSROOM_STAMP := $(VENV)/.classroom-stamp
$(CLASSROOM_STAMP): $(LAB_STAMP)
	$(PIP) install -e '.[notebook,classroom]' 2>&1 | grep -v "is ignored" || true
	touch $(CLASSROOM_STAMP)

classroom: $(CLASSROOM_STAMP) $(MO_FILES)
	$(BIN)/rummykit classroom $(CLASSROOM_ARGS)

## make wheelhouse: every wheel rummykit[notebook] and rummykit[classroom] need, for this Python
## and platform, in build/wheelhouse (WHEELHOUSE=DIR for another folder): copy it to machines
## without internet and install there with
##   pip install --no-index --find-links wheelhouse "rummykit[notebook,classroom]"
WHEELHOUSE ?= build/wheelhouse
wheelhouse:
	$(PYTHON) -m pip --disable-pip-version-check wheel -q --wheel-dir $(WHEELHOUSE) '.[notebook,classroom]'
	@echo "$$(ls $(WHEELHOUSE) | wc -l) wheels in $(WHEELHOUSE)"

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
LITE_PORT  ?= $(or $(PORT),8000)
LITE_HOST  ?= $(or $(HOST),127.0.0.1)
# stored: wheels packed for the .br/.gz files (a first visit 9.9 MB); deflated: for a host that
# sends only the plain files (docs/lite.md)
LITE_ZIPS  ?= stored
# what the site is built from: lite-serve rebuilds it only when one of these changed
LITE_SOURCES := $(shell git ls-files rummykit notebooks lite docs/rules.md docs/reasons.md pyproject.toml hatch_build.py 2>/dev/null)
LITE_BUILT := build/.lite-built
$(LITE_STAMP): lite/requirements.txt
	$(PYTHON) -m venv $(LITE_VENV)
	$(LITE_VENV)/bin/python -m pip --disable-pip-version-check -q install -r lite/requirements.txt
	touch $(LITE_STAMP)

lite: $(LITE_STAMP)
	$(LITE_VENV)/bin/python lite/build.py --output build/lite --cache build/lite-cache --zips $(LITE_ZIPS)
	touch $(LITE_BUILT)

$(LITE_BUILT): $(LITE_STAMP) $(LITE_SOURCES)
	$(MAKE) lite

## make lite-serve: serve build/lite on http://127.0.0.1:8000/, built first only if out of date
## (make lite-serve HOST=0.0.0.0 PORT=9000 for the class network: see docs/lite.md on https)
lite-serve: $(LITE_BUILT)
	$(PYTHON) lite/serve.py build/lite --host $(LITE_HOST) --port $(LITE_PORT)

## make axe: axe-core, the accessibility engine the browser tests run, at the version they pin,
## fetched once with npm into build/axe-cache (sha256 checked; the tests fetch it when missing)
.PHONY: axe
axe:
	$(PYTHON) tests/browser/axe.py

clean:
	rm -rf $(VENV) $(LITE_VENV) build/lite .pytest_cache .mypy_cache .ruff_cache .hypothesis docs/_build docs/notebooks docs/_widgets docs/_vendor
