"""What the rendered notebook pages need to draw their widgets, shipped with the site.

myst-nb's default loads require.js and the HTML widget manager from CDNs, so without internet
every widget is an empty box. Here the build fetches pinned npm packages once (``npm pack``
when npm is installed, else the same tarball from the npm registry over HTTPS), checks each
against the integrity hash npm publishes, keeps them in ``docs/_vendor/`` (git-ignored: later
builds need no network), and writes into ``docs/_widgets/rummykit-widgets/`` (git-ignored,
copied to the site's ``_static``):

- ``require.js`` (requirejs) and ``embed-amd.js`` (@jupyter-widgets/html-manager, with the
  Font Awesome fonts it refers to), the two files myst-nb would fetch;
- ``anywidget.js``, anywidget's AMD front end from the installed ``anywidget`` package (the
  version the notebooks were saved with), which draws the Table and the stepper's slider from
  their saved state;
- ``config.js``, which tells require.js where that module is;
- ``mermaid/``: mermaid's ES module build (``mermaid.esm.min.mjs`` and its chunks), which
  sphinxcontrib-mermaid loads from a CDN unless told where it is (``mermaid_use_local`` in
  conf.py): the diagrams draw offline.

A module the site doesn't ship is asked for on the site's own host (and isn't found) instead
of a CDN, so a page never reaches outside.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import shutil
import subprocess
import tarfile
import urllib.request
from pathlib import Path

DOCS = Path(__file__).resolve().parent
VENDOR = DOCS / "_vendor"
STATIC = DOCS / "_widgets"
FOLDER = "rummykit-widgets"

PACKAGES = {
    # name@version: (tarball URL, npm's sha512 integrity)
    "@jupyter-widgets/html-manager@1.0.15": (
        "https://registry.npmjs.org/@jupyter-widgets/html-manager/-/html-manager-1.0.15.tgz",
        "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
    ),
    # the version sphinxcontrib-mermaid 2.1 asks its CDN for
    "mermaid@11.12.1": (
        "https://registry.npmjs.org/mermaid/-/mermaid-11.12.1.tgz",
        "sha512-UlIZrRariB11TY1RtTgUWp65tphtBv4CSq7vyS2ZZ2TgoMjs2nloq+wFqxiwcxlhHUvs7DPGgMjs2aeQxz5h9g==",
    ),
    "requirejs@2.3.8": (
        "https://registry.npmjs.org/requirejs/-/requirejs-2.3.8.tgz",
        "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
    ),
}

CONFIG_JS = """\
// rummykit's docs: the widget modules come with the site, never from a CDN.
(function () {
  var here = document.currentScript.src.replace(/[^/]*$/, "");
  var paths = { anywidget: here + "anywidget" };
  // the modules embed-amd.js defines find their fonts beside the module's path: put that here
  ["@jupyter-widgets/base", "@jupyter-widgets/base7", "@jupyter-widgets/controls",
   "@jupyter-widgets/controls7", "@jupyter-widgets/html-manager",
   "@jupyter-widgets/html-manager/dist/libembed-amd"].forEach(function (name) {
    paths[name] = here + name.replace(/\\W/g, "-");
  });
  window.requirejs.config({ paths: paths });
})();
"""

NOT_SHIPPED = "./widget-modules-not-shipped/"
"""Where the widget manager looks for a module the site doesn't ship: the page's own host."""


class WidgetAssetsError(RuntimeError):
    """A file the widgets need could not be fetched or did not match its published hash."""


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _tarball(spec: str) -> Path:
    """The package's tarball in ``docs/_vendor/``, fetched once and checked against its hash."""
    url, integrity = PACKAGES[spec]
    path = VENDOR / url.rsplit("/", 1)[1]
    if path.is_file() and _integrity(path.read_bytes()) == integrity:
        return path
    VENDOR.mkdir(exist_ok=True)
    npm = shutil.which("npm")
    try:
        if npm:
            subprocess.run(
                [npm, "pack", spec, "--pack-destination", str(VENDOR), "--silent"],
                check=True,
                capture_output=True,
                timeout=300,
            )
            packed = VENDOR / (spec.lstrip("@").replace("/", "-").replace("@", "-") + ".tgz")
            if packed != path and packed.is_file():
                packed.replace(path)
        else:
            with urllib.request.urlopen(url, timeout=120) as answer:
                path.write_bytes(answer.read())
    except (OSError, subprocess.SubprocessError) as error:
        raise WidgetAssetsError(
            f"the docs need {spec} from the npm registry to draw widgets offline, and it could "
            f"not be fetched ({error}); build once with internet, or put {path.name} in {VENDOR}"
        ) from error
    if not path.is_file() or _integrity(path.read_bytes()) != integrity:
        path.unlink(missing_ok=True)
        raise WidgetAssetsError(
            f"{path.name} does not match the integrity npm publishes for {spec}"
        )
    return path


def _extract(tarball: Path, members: dict[str, str], target: Path) -> None:
    """Copy ``package/<member>`` files out of an npm tarball, under new names."""
    with tarfile.open(tarball) as archive:
        for member, name in members.items():
            source = archive.extractfile(f"package/{member}")
            if source is None:
                raise WidgetAssetsError(f"{tarball.name} holds no {member}")
            (target / name).write_bytes(source.read())


def _anywidget_amd() -> Path:
    spec = importlib.util.find_spec("anywidget")
    if spec is None or spec.origin is None:
        raise WidgetAssetsError(
            "the docs need the anywidget package (pip install -e '.[docs]') to draw the Table"
        )
    return Path(spec.origin).parent / "nbextension" / "index.js"


MERMAID = f"{FOLDER}/mermaid/mermaid.esm.min.mjs"
"""Where mermaid's module is, under the site's ``_static`` (conf.py's ``mermaid_use_local``)."""


def _mermaid(target: Path) -> None:
    """mermaid's ES module and the chunks it imports (no source maps) into ``target``."""
    (target / "chunks" / "mermaid.esm.min").mkdir(parents=True)
    with tarfile.open(_tarball("mermaid@11.12.1")) as archive:
        for member in archive.getmembers():
            name = member.name.removeprefix("package/dist/")
            wanted = name == "mermaid.esm.min.mjs" or (
                name.startswith("chunks/mermaid.esm.min/") and name.endswith(".mjs")
            )
            source = archive.extractfile(member) if wanted and member.isfile() else None
            if source is not None:
                (target / name).write_bytes(source.read())


def build() -> dict[str, dict[str, str]]:
    """Write the files into ``docs/_widgets/rummykit-widgets/``; return myst-nb's
    ``nb_ipywidgets_js`` setting, which loads them, in order, on pages with widgets."""
    target = STATIC / FOLDER
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    manager = _tarball("@jupyter-widgets/html-manager@1.0.15")
    with tarfile.open(manager) as archive:
        fonts = [
            m.name.removeprefix("package/dist/")
            for m in archive.getmembers()
            if m.name.startswith("package/dist/") and m.name.endswith((".woff2", ".woff"))
        ]
    _extract(
        manager, {"dist/embed-amd.js": "embed-amd.js"} | {f"dist/{f}": f for f in fonts}, target
    )
    _extract(_tarball("requirejs@2.3.8"), {"require.js": "require.js"}, target)
    shutil.copyfile(_anywidget_amd(), target / "anywidget.js")
    (target / "config.js").write_text(CONFIG_JS, encoding="utf-8")
    _mermaid(target / "mermaid")
    return {
        f"{FOLDER}/require.js": {},
        f"{FOLDER}/config.js": {},
        f"{FOLDER}/embed-amd.js": {"data-jupyter-widgets-cdn": NOT_SHIPPED},
    }
