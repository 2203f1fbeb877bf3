"""Sphinx configuration for the rummykit documentation (``make docs``).

The notebooks are rendered from their stored outputs and widget state (nothing is executed
here): the build copies ``../notebooks/*.ipynb`` into ``docs/notebooks/`` (git-ignored), so the
notebooks stay where ``make lab`` opens them and the site always shows the tested versions.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))

import rummykit  # noqa: E402

project = "rummykit"
author = "The rummykit developers"
copyright = "the rummykit developers"
version = release = rummykit.__version__

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinxcontrib.mermaid",
]

exclude_patterns = [
    "_build",
    "_vendor",
    "_widgets",
    "Thumbs.db",
    ".DS_Store",
    "**.ipynb_checkpoints",
]
html_theme = "furo"
html_title = f"rummykit {release}"

# --- Markdown and notebooks ------------------------------------------------------------------

myst_heading_anchors = 3  # reasons.md links to #run_wraps and friends
myst_enable_extensions = ["colon_fence"]
myst_fence_as_directive = ["mermaid"]  # ```mermaid blocks draw as diagrams, here as on GitHub
nb_execution_mode = "off"  # show the outputs the notebooks store (nbval checks them in make test)
nb_merge_streams = True

# --- the widgets, drawn offline, with a static picture for readers without JavaScript --------

sys.path.insert(0, str(DOCS))
import widget_assets  # noqa: E402
import widget_fallback  # noqa: E402

# require.js, the HTML widget manager and anywidget's front end come with the site (fetched
# from the npm registry once, checked against npm's hashes, see widget_assets.py), never from
# a CDN; widgets.css hides each widget's static picture once the live widget has drawn
nb_ipywidgets_js = widget_assets.build()
html_static_path = ["_static", str(widget_assets.STATIC.relative_to(DOCS))]
html_css_files = ["widgets.css"]
# mermaid's module comes with the site too (widget_assets.py), never from a CDN
mermaid_use_local = widget_assets.MERMAID

# --- API reference ------------------------------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# --- the notebooks, copied in at build time --------------------------------------------------

NOTEBOOKS = ROOT / "notebooks"
COPIES = DOCS / "notebooks"
_IGNORE_MARK = re.compile(r"^# NBVAL_\w+\n?", flags=re.MULTILINE)


def copy_notebooks() -> list[str]:
    """Copy the notebooks into ``docs/notebooks/``, without nbval's marker comments, each
    widget output with its static picture (``widget_fallback.py``).

    Links from a notebook to ``../docs/page.md`` (right in JupyterLab) become ``../page.md``
    (right from ``docs/notebooks/``); the translations (``notebooks/pt/``, ``notebooks/fi/``)
    go to ``docs/notebooks/pt/`` … with their links to ``../../docs/`` made ``../../``.
    """
    if COPIES.exists():
        shutil.rmtree(COPIES)
    COPIES.mkdir()
    names = []
    for source in sorted([*NOTEBOOKS.glob("*.ipynb"), *NOTEBOOKS.glob("*/*.ipynb")]):
        relative = source.relative_to(NOTEBOOKS)
        notebook = json.loads(source.read_text(encoding="utf-8"))
        up = "../" * len(relative.parts)
        for cell in notebook.get("cells", []):
            text = "".join(cell.get("source", ""))
            if cell.get("cell_type") == "code":
                cell["source"] = _IGNORE_MARK.sub("", text)
            elif cell.get("cell_type") == "markdown":
                cell["source"] = text.replace(f"]({up}docs/", f"]({up}")
        widget_fallback.dealt_tables(notebook)  # a table stored before its deal, dealt
        widget_fallback.with_fallbacks(notebook)  # each widget output gets its static picture
        target = COPIES / relative
        target.parent.mkdir(exist_ok=True)
        target.write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        names.append(relative.with_suffix("").as_posix())
    return names


copy_notebooks()

# --- pages others are still writing: list them in a toctree only once they exist -------------

OPTIONAL_PAGES = ("actions", "ai", "performance", "lite")


def _drop_missing_pages(app: Any, docname: str, source: list[str]) -> None:
    """Leave out of the index's toctree the optional pages that don't exist yet, and turn a
    link to one of them, anywhere, into its plain words."""
    missing = [p for p in OPTIONAL_PAGES if not (DOCS / f"{p}.md").exists()]
    if not missing:
        return
    links = re.compile(rf"\[([^\]]+)\]\((?:{'|'.join(missing)})\.md(?:#[\w-]*)?\)")
    source[0] = links.sub(r"\1", source[0])
    if docname == "index":
        lines = source[0].splitlines(keepends=True)
        source[0] = "".join(line for line in lines if line.strip() not in missing)


def setup(app: Any) -> dict[str, Any]:
    app.connect("source-read", _drop_missing_pages)
    return {"parallel_read_safe": True}
