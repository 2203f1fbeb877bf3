"""Build the JupyterLite site: rummykit's tutorials in a browser, nothing installed, offline.

    .venv-lite/bin/python lite/build.py [--output build/lite] [--cache build/lite-cache]
                                        [--zips stored|deflated]

(``make lite`` creates ``.venv-lite`` from ``lite/requirements.txt`` and runs this.)

Everything the site needs is in the output folder, so any static web host can serve it and a
school network needs to allow that host only:

- the JupyterLab/Notebook app of ``jupyterlite-core`` and the labextensions installed in the
  build environment (the Pyodide kernel, the ipywidgets and anywidget front-ends);
- Pyodide itself in ``static/pyodide/``: the runtime from the npm package ``pyodide`` (its full
  release tarball, which would hold the package wheels, is not used), the pure-Python wheels
  the kernel loads at boot downloaded from PyPI at the versions of Pyodide's lock, and the
  wheels of rummykit and its widget libraries. ``pyodide-lock.json`` is rewritten to list
  exactly these files (with their own sha256: Pyodide repackages, PyPI's files differ), so
  ``import rummykit`` loads them with no ``%pip``, and the kernel's PyPI fallback is off;
- the tutorial notebooks (``notebooks/**/*.ipynb``, translations included) as their student
  edition (rummykit.grading.editions: no answers, no stored feedback, no teacher's notes), and
  the rule pages they refer to, in ``notebooks/`` and ``docs/`` as in the repository.

Downloads are kept in the cache folder: a second build needs no network.
"""

from __future__ import annotations

import argparse
import email.parser
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

from packaging.requirements import Requirement  # installed with jupyterlab

ROOT = Path(__file__).resolve().parent.parent

PYODIDE_VERSION = "314.0.6"  # what jupyterlite-pyodide-kernel 0.8.6 expects
PYODIDE_SHA256 = "d78ac549b28a2a58600cd06f44e017024151775f8c6b2d73fab1475400d38ea2"  # npm tarball
PYODIDE_RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")

# What the kernel loads at boot (micropip, then piplite installs ipykernel's shim, comm,
# pyodide-kernel, jedi and ipython): these and everything they depend on in Pyodide's lock,
# at the lock's versions.
BOOT = ("micropip", "packaging", "ipython", "jedi", "typing-extensions")

# Not in Pyodide's lock; added as lock entries. Their versions match the build environment's
# labextensions (lite/requirements.txt), so the widget front-ends and the kernel agree.
EXTRA = {
    "comm": "0.2.3",
    "ipywidgets": "8.1.9",
    "anywidget": "0.11.0",
    "psygnal": "0.16.1",
    "ipython-pygments-lexers": "1.1.1",  # IPython 9 needs it; Pyodide's lock leaves it out
}
# Requirements a wheel declares that the browser does without: the kernel ships its own
# widgetsnbextension shim, and the front-end half comes from the build's labextensions
# (jupyterlab_widgets' wheel is that labextension's files, 0.17 MB a first visit would fetch).
NOT_IN_BROWSER = {"widgetsnbextension", "jupyterlab-widgets"}
# rummykit's core needs nothing; its widgets (imported lazily by the notebooks) need these,
# so importing rummykit loads them too.
RUMMYKIT_DEPENDS = ["ipywidgets", "anywidget"]

# The pages of docs/ every site carries (the notebooks name them: `docs/rules.md`); the build
# adds any other page of docs/ a notebook names or links to (a translation's, say).
RULE_DOCS = ("rules.md", "reasons.md")
DOC_REFERENCE = re.compile(r"docs/[\w/-]+\.md")

# How Pyodide answers environment markers (``sys_platform != "emscripten"`` and the like).
PYODIDE_MARKERS = {
    "sys_platform": "emscripten",
    "platform_system": "Emscripten",
    "platform_machine": "wasm32",
    "os_name": "posix",
    "python_version": "3.14",
    "python_full_version": "3.14.2",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "extra": "",
}

KERNEL_SETTINGS = "@jupyterlite/pyodide-kernel-extension:kernel"

# What a kernel imports when it starts (pyodide-kernel: IPython, jedi, comm, micropip): these
# modules, and the standard library's they import, are compiled to bytecode at build time
# (compile_bytecode). rummykit and the widget libraries are not: a lesson's cells import them
# (rummykit's modules lazily), compiling them takes a fraction of the kernel's start, and
# their bytecode would take a first visit past 12 MB.
STARTUP_PACKAGES = ("micropip", "ipython", "jedi", "comm")
STARTUP_MODULES = ("micropip", "IPython", "jedi", "comm")


def canonical(name: str) -> str:
    """A distribution name as the lock keys it (PEP 503): ``Prompt_Toolkit`` -> ``prompt-toolkit``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True, cwd=cwd, env=env)


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# --- downloads (cached) ------------------------------------------------------------------------


def fetch_pyodide(cache: Path) -> Path:
    """The npm package pyodide@PYODIDE_VERSION, from the npm registry (checked by its sha256)."""
    tarball = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tarball.exists():
        cache.mkdir(parents=True, exist_ok=True)
        run("npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", cache)
    if sha256(tarball) != PYODIDE_SHA256:
        sys.exit(f"{tarball} is not the pyodide {PYODIDE_VERSION} this build pins: delete it")
    return tarball


def read_lock(tarball: Path) -> dict[str, object]:
    with tarfile.open(tarball) as tar:
        member = tar.extractfile("package/pyodide-lock.json")
        assert member is not None
        lock: dict[str, object] = json.load(member)
    return lock


def boot_closure(packages: dict[str, dict[str, object]]) -> list[str]:
    """BOOT and everything they depend on, by the lock's own ``depends``."""
    seen: list[str] = []
    todo = list(BOOT)
    while todo:
        name = canonical(todo.pop())
        if name in seen:
            continue
        seen.append(name)
        depends = packages[name]["depends"]
        assert isinstance(depends, list)
        todo.extend(depends)
    return sorted(seen)


def fetch_wheels(pins: dict[str, str], wheels: Path) -> dict[str, Path]:
    """Pure-Python wheels for Python 3.14 from PyPI, one per pin, downloaded once."""
    wheels.mkdir(parents=True, exist_ok=True)

    def cached() -> dict[str, Path]:
        found = {}
        for path in wheels.glob("*.whl"):
            name, version = path.name.split("-")[:2]
            if pins.get(canonical(name)) == version:
                found[canonical(name)] = path
        return found

    missing = [f"{name}=={version}" for name, version in pins.items() if name not in cached()]
    if missing:
        run(
            sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--python-version", "3.14", "--platform", "any",
            "--implementation", "py", "--abi", "none", "--dest", wheels, *missing,
        )  # fmt: skip
    found = cached()
    if absent := sorted(set(pins) - set(found)):
        sys.exit(f"no pure wheel downloaded for {absent}")
    return found


def build_rummykit(into: Path) -> Path:
    """rummykit's wheel, built from this tree (dated by the last commit: reproducible)."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": commit_time()}
    run(
        sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "--wheel-dir", into, ROOT, env=env,
    )  # fmt: skip
    return next(into.glob("rummykit-*.whl"))


def commit_time() -> str:
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True
        )
        return out.stdout.strip() or "315532800"
    except OSError:
        return "315532800"  # 1980-01-01, the earliest date a zip holds


# --- the lock ----------------------------------------------------------------------------------


def wheel_facts(path: Path) -> tuple[str, str, list[str], list[str]]:
    """A wheel's (name, version, top-level imports, required distributions without extras)."""
    with zipfile.ZipFile(path) as whl:
        names = whl.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(whl.read(meta_name).decode())
    imports = sorted(
        {
            n.split("/")[0].removesuffix(".py")
            for n in names
            if not n.split("/")[0].endswith((".dist-info", ".data"))
            and (n.endswith(".py") or "/" in n)
        }
    )
    requires = []
    for line in meta.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(PYODIDE_MARKERS):
            requires.append(canonical(req.name))
    return meta["Name"], meta["Version"], imports, requires


def lock_entry(
    path: Path, depends: list[str], imports: list[str] | None = None
) -> dict[str, object]:
    name, version, top_level, _ = wheel_facts(path)
    return {
        "name": name,
        "version": version,
        "file_name": path.name,
        "install_dir": "site",
        "sha256": sha256(path),
        "package_type": "package",
        "imports": imports if imports is not None else top_level,
        "depends": sorted(depends),
        "unvendored_tests": False,
    }


def write_lock(
    lock: dict[str, object], boot: dict[str, Path], extra: dict[str, Path], rummykit: Path
) -> dict[str, object]:
    """Pyodide's lock, keeping only the packages this site holds, each with its real file."""
    packages = lock["packages"]
    assert isinstance(packages, dict)
    present = set(boot) | set(extra) | {"rummykit"}

    def depends(path: Path, known: list[str]) -> list[str]:
        """What the wheel requires (and the lock said), every one of them in the site."""
        _, _, _, requires = wheel_facts(path)
        if unknown := set(requires) - present - NOT_IN_BROWSER:
            sys.exit(f"{path.name} needs {sorted(unknown)}, which the site does not hold")
        return sorted({canonical(d) for d in known} | (set(requires) & present))

    kept: dict[str, object] = {}
    for name, path in boot.items():
        original = packages[name]
        entry = lock_entry(path, depends(path, original["depends"]), original["imports"])
        kept[name] = {**original, **entry}
    for name, path in extra.items():
        kept[name] = lock_entry(path, depends(path, []))
    kept["rummykit"] = lock_entry(rummykit, RUMMYKIT_DEPENDS, ["rummykit"])
    return {**lock, "packages": dict(sorted(kept.items()))}


# --- the site ----------------------------------------------------------------------------------


def stored(source: Path, target: Path) -> Path:
    """``source``, a zip (a wheel, Python's standard library), rewritten to ``target`` with
    every member *stored* (not deflated): the same files, names, order, dates and modes, so
    the same wheel to pip and Pyodide. Deflate packs each member alone; stored, the whole
    archive is one stream that brotli (:func:`precompress`) packs across members, with a far
    larger window: the site's zips cross the network in 5.3 MB instead of 9.0. Byte for byte
    the same on every build."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(source) as packed, zipfile.ZipFile(target, "w") as out:
        for member in packed.infolist():
            info = zipfile.ZipInfo(member.filename, member.date_time)
            info.external_attr = member.external_attr
            info.create_system = member.create_system
            info.compress_type = zipfile.ZIP_STORED
            out.writestr(info, packed.read(member))
    return target


def store_wheels(wheels: dict[str, Path], into: Path, zips: str) -> dict[str, Path]:
    """Each wheel rewritten by :func:`stored` into ``into`` (the lock hashes these); with
    ``zips="deflated"`` (``--zips deflated``), as downloaded."""
    if zips == "deflated":
        return wheels
    return {name: stored(path, into / path.name) for name, path in wheels.items()}


def stage_pyodide(
    tarball: Path, wheels: list[Path], lock: dict[str, object], into: Path, zips: str
) -> None:
    into.mkdir(parents=True)
    with tarfile.open(tarball) as tar:
        for name in PYODIDE_RUNTIME:
            member = tar.extractfile(f"package/{name}")
            assert member is not None
            (into / name).write_bytes(member.read())
    if zips == "stored":  # the standard library's zip, as the wheels, for brotli to pack whole
        stdlib = into / "python_stdlib.zip"
        stored(stdlib.rename(into / "python_stdlib.deflated"), stdlib)
        (into / "python_stdlib.deflated").unlink()
    for wheel in wheels:
        shutil.copy2(wheel, into / wheel.name)
    (into / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")


def compile_bytecode(pyodide: Path, lock: dict[str, object]) -> dict[str, object]:
    """Compile, with the site's own Python (Pyodide in Node: ``lite/py_compile.mjs``), the
    modules of :data:`STARTUP_MODULES` and all they import into bytecode beside their sources,
    inside the wheels and the standard library's zip (``lite/py_compile_zips.py``): every
    visit's kernel imports them without compiling them first. Returns the lock with the
    wheels' new sha256 (and writes it)."""
    packages = lock["packages"]
    assert isinstance(packages, dict)
    wheels = [pyodide / str(entry["file_name"]) for entry in packages.values()]
    run(
        "node", ROOT / "lite" / "py_compile.mjs", pyodide, ",".join(STARTUP_PACKAGES),
        ",".join(STARTUP_MODULES), *wheels, pyodide / "python_stdlib.zip",
    )  # fmt: skip
    for entry in packages.values():
        entry["sha256"] = sha256(pyodide / str(entry["file_name"]))
    (pyodide / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
    return lock


def referenced_docs(sources: list[Path]) -> list[Path]:
    """The pages of docs/ the notebooks name or link to (``docs/rules.md``,
    ``../../docs/pt/rules.md``), and that exist, and the pages of docs/ those link to, and so
    on: every relative link of the site leads to a page it holds."""
    sys.path.insert(0, str(ROOT))
    try:
        from rummykit.tutorials import links
    finally:
        sys.path.remove(str(ROOT))
    named = {ROOT / "docs" / name for name in RULE_DOCS}
    for source in sources:
        text = source.read_text(encoding="utf-8")
        named.update(ROOT / m for m in DOC_REFERENCE.findall(text))
        named.update((source.parent / target).resolve() for target in links(text))
    todo = sorted(path for path in named if path.is_file())
    found: set[Path] = set()
    while todo:
        page = todo.pop()
        if page in found or not page.is_relative_to(ROOT / "docs") or not page.is_file():
            continue
        found.add(page)
        if page.suffix == ".md":
            todo += [(page.parent / t).resolve() for t in links(page.read_text(encoding="utf-8"))]
    return sorted(found)


def student_notebook(source: Path) -> str:
    """A lesson as the site carries it: its student edition (no answers, no stored feedback,
    no teacher's notes), made by rummykit's own code from the source tree."""
    sys.path.insert(0, str(ROOT))
    try:
        from rummykit.grading.editions import student_edition
    finally:
        sys.path.remove(str(ROOT))
    lesson = json.loads(source.read_text(encoding="utf-8"))
    return json.dumps(student_edition(lesson), ensure_ascii=False, indent=1) + "\n"


def handouts() -> dict[Path, str]:
    """Each variant's rules on one page to print, beside each language's lessons
    (``notebooks/handout-rommi.html``, ``notebooks/fi/handout-rommi.html``), made by
    rummykit's own code from the source tree."""
    sys.path.insert(0, str(ROOT))
    try:
        from rummykit.handouts import handout
    finally:
        sys.path.remove(str(ROOT))
    out = {}
    for language, folder in (("en", "notebooks"), ("pt", "notebooks/pt"), ("fi", "notebooks/fi")):
        for name in ("hungarian", "rommi"):
            out[Path(folder) / f"handout-{name}.html"] = handout(name, language).html()
    return out


def stage_files(into: Path) -> list[Path]:
    """The notebooks (subfolders too: translations), as their student edition, the pages of
    docs/ they refer to, laid out as in the repository so that their relative links work, and
    the rules on one page to print beside each language's lessons."""
    notebooks = [
        path
        for path in sorted((ROOT / "notebooks").rglob("*"))
        if path.suffix in (".ipynb", ".md") and ".ipynb_checkpoints" not in path.parts
    ]
    sys.path.insert(0, str(ROOT))
    try:
        from rummykit.tutorials import relink
    finally:
        sys.path.remove(str(ROOT))
    sources = [*notebooks, *referenced_docs(notebooks)]
    carried = {
        path.relative_to(ROOT).as_posix(): path.relative_to(ROOT).as_posix() for path in sources
    }
    copied = []
    for source in sources:
        relative = source.relative_to(ROOT)
        target = into / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.suffix == ".ipynb":
            text = student_notebook(source)
        elif source.suffix == ".md":
            text = source.read_text(encoding="utf-8")
        else:
            shutil.copyfile(source, target)
            copied.append(relative)
            continue
        # a link to a file the site doesn't hold (the repository's README, say): plain words
        place = relative.as_posix()
        target.write_text(relink(text, place, place, carried), encoding="utf-8")
        copied.append(relative)
    for relative, page in handouts().items():
        (into / relative).write_text(page, encoding="utf-8")
        copied.append(relative)
    return copied


def lite_config(output: Path) -> dict[str, object]:
    return {
        "LiteBuildConfig": {
            "contents": ["files"],
            "output_dir": str(output),
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
        }
    }


def site_settings() -> dict[str, object]:
    """jupyter-lite.json: rummykit's name, the kernel's PyPI fallback off (nothing but this host)."""
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "rummykit",
            "litePluginSettings": {KERNEL_SETTINGS: {"disablePyPIFallback": True}},
        },
    }


def build(output: Path, cache: Path, zips: str = "stored") -> None:
    tarball = fetch_pyodide(cache)
    lock = read_lock(tarball)
    packages = lock["packages"]
    assert isinstance(packages, dict)
    boot_pins = {name: str(packages[name]["version"]) for name in boot_closure(packages)}
    with tempfile.TemporaryDirectory(prefix="rummykit-lite-") as tmp:
        lite_dir = Path(tmp)
        stored_wheels = lite_dir / "stored"
        boot = store_wheels(fetch_wheels(boot_pins, cache / "wheels"), stored_wheels, zips)
        extra = store_wheels(fetch_wheels(EXTRA, cache / "wheels"), stored_wheels, zips)
        built = build_rummykit(lite_dir / "dist")
        rummykit = store_wheels({"rummykit": built}, stored_wheels, zips)["rummykit"]
        new_lock = write_lock(lock, boot, extra, rummykit)
        stage_pyodide(
            tarball, [*boot.values(), *extra.values(), rummykit], new_lock,
            lite_dir / "static" / "pyodide", zips,
        )  # fmt: skip
        compile_bytecode(lite_dir / "static" / "pyodide", new_lock)
        files = stage_files(lite_dir / "files")
        (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(lite_config(output)))
        (lite_dir / "jupyter-lite.json").write_text(json.dumps(site_settings(), indent=1))
        if output.exists():
            shutil.rmtree(output)
        env = {**os.environ, "SOURCE_DATE_EPOCH": commit_time()}
        jupyter = Path(sys.executable).parent / "jupyter"
        # from the staging folder: jupyter lite keeps its task database in the working folder,
        # and a stale one would skip steps
        run(
            jupyter, "lite", "build", "--lite-dir", lite_dir, "--output-dir", output,
            f"--LiteBuildConfig.cache_dir={lite_dir / '.cache'}", cwd=lite_dir, env=env,
        )  # fmt: skip
    pages = add_banner(output)
    packed = precompress(output)
    site = [
        path for path in output.rglob("*") if path.is_file() and path.suffix not in (".gz", ".br")
    ]
    size = sum(path.stat().st_size for path in site)
    print(
        f"JupyterLite site in {output}: {len(site)} files ({size / 1e6:.1f} MB; {len(files)} "
        f"of them notebooks and pages), {packed} precompressed (.gz, .br), the http banner on "
        f"{pages} pages, Pyodide {PYODIDE_VERSION}"
    )


BANNER = """<script>
(() => {
  // rummykit: over plain http from another computer (not a secure context) the browser
  // gives the site no service worker, and Python can't see the notebooks' folder: say so
  if (window.isSecureContext) return;
  const words = WORDS;
  const spoken = (navigator.language || "en").slice(0, 2).toLowerCase();
  const chosen = words[spoken] || words.en;
  const show = () => {
    const bar = document.createElement("div");
    bar.setAttribute("role", "alert");
    bar.dataset.testid = "rk-insecure";
    bar.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:100000;display:flex;"
      + "gap:1em;align-items:center;padding:.5em 1em;background:#fff3cd;color:#332600;"
      + "border-bottom:1px solid #b38f00;font:14px/1.4 system-ui,sans-serif";
    const text = document.createElement("span");
    text.textContent = chosen.text;
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "\u00d7";
    close.setAttribute("aria-label", chosen.close);
    close.onclick = () => bar.remove();
    bar.append(text, close);
    document.body.appendChild(bar);
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
  else show();
})();
</script>
"""
"""A note at the top of the app's pages when they are not in a secure context, in the
browser's language (English, Portuguese, Finnish: rummykit's templates)."""


def add_banner(site: Path) -> int:
    """Put :data:`BANNER` in the head of every page of the app (``lab/index.html``,
    ``notebooks/index.html``, …); return how many."""
    sys.path.insert(0, str(ROOT))
    try:
        from rummykit.messages import render
    finally:
        sys.path.remove(str(ROOT))
    words = {
        language: {
            "text": render("lite_insecure_banner", language=language),
            "close": render("lite_banner_close", language=language),
        }
        for language in ("en", "pt", "fi")
    }
    script = BANNER.replace("WORDS", json.dumps(words, ensure_ascii=True))
    count = 0
    for page in sorted(site.glob("*/index.html")):
        text = page.read_text(encoding="utf-8")
        if "<head>" in text and "rk-insecure" not in text:
            stat = page.stat()
            page.write_text(text.replace("<head>", "<head>\n" + script, 1), encoding="utf-8")
            os.utime(page, ns=(stat.st_atime_ns, stat.st_mtime_ns))
            count += 1
    return count


COMPRESSIBLE = {".js", ".mjs", ".css", ".html", ".json", ".wasm", ".svg", ".map", ".txt", ".md",
                ".ipynb", ".py", ".ico", ".ttf", ".eot", ".whl", ".zip"}  # fmt: skip
"""What gzip and brotli shrink (wheels and zips too: :func:`stored` leaves them uncompressed);
PNGs and woff2 fonts are compressed already."""


def precompress(site: Path) -> int:
    """Beside every compressible file of the site, its gzip (``.gz``) and brotli (``.br``)
    forms, where they save at least a tenth: ``lite/serve.py`` (and nginx's ``gzip_static`` /
    ``brotli_static``, Caddy's ``precompressed``) send them to browsers that accept them.
    Byte for byte the same on every build (no time stamps). Returns how many files were."""
    from concurrent.futures import ProcessPoolExecutor

    paths = [p for p in sorted(site.rglob("*")) if p.is_file() and p.suffix in COMPRESSIBLE]
    with ProcessPoolExecutor() as pool:  # brotli's best quality is slow: every core helps
        return sum(pool.map(_precompress_one, paths, chunksize=8))


def _precompress_one(path: Path) -> int:
    """Write ``path``'s .gz and .br forms (those that save a tenth); 1 if any was written."""
    import gzip

    import brotli  # type: ignore[import-not-found,unused-ignore]

    data = path.read_bytes()
    forms = {
        ".gz": gzip.compress(data, compresslevel=9, mtime=0),
        ".br": brotli.compress(data, quality=11, lgwin=24),  # a 16 MB window: a whole wheel
    }
    kept = 0
    for suffix, packed in forms.items():
        if len(packed) <= 0.9 * len(data):
            target = path.with_name(path.name + suffix)
            target.write_bytes(packed)
            stat = path.stat()
            os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # dated as the file
            kept = 1
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--output", type=Path, default=ROOT / "build" / "lite")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "lite-cache")
    parser.add_argument(
        "--zips",
        choices=("stored", "deflated"),
        default="stored",
        help="stored (the default): the wheels cross the network in 5.3 MB from a server that "
        "sends the .br files, 53 MB from one that sends only the plain files; deflated: 9.0 MB "
        "from either (for a host that can't send .gz/.br files)",
    )
    args = parser.parse_args()
    build(args.output.resolve(), args.cache.resolve(), args.zips)


if __name__ == "__main__":
    main()
