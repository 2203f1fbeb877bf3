"""The JupyterLite site in a real browser, offline: the tutorials run with nothing installed.

``make lite`` builds the site into ``build/lite`` (``make test`` builds it before the tests;
run alone, this module builds it when it is missing). ``lite/serve.py`` serves it on
127.0.0.1 and Debian's Chromium opens it with **every request that isn't to 127.0.0.1 aborted**
(and logged: any such request fails the test). Chromium also resolves no host name but
127.0.0.1's, so nothing a worker asks for can leave either.

The site carries the lessons' student edition. What a class does: notebook 01's first
``check_meld`` cell gives the verdict the notebook shows on the desktop; 04's table draws and a click on the stock adds a card to the hand; 06
runs to the end with no error and nothing on stderr. Screenshots go to
``test-output/browser/lite-*.png``; the times (page shell, kernel boot, first verdict) are
printed, not asserted: the machine is shared.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rummykit.grading.editions import student_edition
from rummykit.messages import render

from . import axe
from .test_table_browser import (
    LOCAL,
    OUTPUT,
    ROOT,
    _free_port,
    _stop,
    _unavailable,
    hand,
    keep_local,
    launch_chromium,
    playwright_api,  # noqa: F401 (the fixture)
    start_server,
    wait_for_my_turn,
    wait_for_server,
)

SITE = ROOT / "build" / "lite"
SENT = OUTPUT / "lite-sent.log"  # lite/serve.py's --log: each file sent and its bytes
# bytes a first visit may transfer, to the first verdict, as issue 30 asks: 9.9 MB measured
# (24.4 MB with no precompressed files; 13.7 MB with them while the wheels were deflated)
FIRST_VISIT = 12_000_000
NOTEBOOKS = ROOT / "notebooks"
BUILD_TIME = 1800  # s: a first build downloads Pyodide and the wheels
BOOT = 600_000  # ms for the page, Pyodide and the first imports (a shared, slow machine)
RUN_06 = 900_000  # ms for notebook 06 to run to the end in the browser
RESOLVE_NOTHING_ELSE = "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"


@pytest.fixture(scope="module")
def site() -> Path:
    """The built site: ``make test``'s, or built here when there is none."""
    if not (SITE / "index.html").exists():
        done = subprocess.run(
            ["make", "lite"], cwd=ROOT, capture_output=True, text=True, timeout=BUILD_TIME
        )
        if done.returncode:
            _unavailable(f"`make lite` failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return SITE


@pytest.fixture(scope="module")
def site_url(site: Path) -> Iterator[str]:
    """``lite/serve.py`` (what ``make lite-serve`` runs) on 127.0.0.1 at a free port."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    log_path = OUTPUT / "lite-serve.log"
    SENT.unlink(missing_ok=True)
    command = [sys.executable, str(ROOT / "lite" / "serve.py"), str(site), f"--port={port}"]
    process = start_server([*command, f"--log={SENT}"], log_path)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_server(process, url + "jupyter-lite.json", log_path)
        yield url
    finally:
        _stop(process)


@pytest.fixture(scope="module")
def offline_browser(playwright_api: Any) -> Iterator[Any]:  # noqa: F811
    """Chromium that can resolve no host but 127.0.0.1."""
    with launch_chromium(playwright_api, RESOLVE_NOTHING_ELSE) as chromium:
        yield chromium


@pytest.fixture
def lite(offline_browser: Any, site_url: str) -> Iterator[Any]:
    """Open a notebook of the site in a fresh page: ``lite("notebooks/01_melds.ipynb")``."""
    contexts: list[Any] = []
    outside: list[str] = []  # requests that tried to leave 127.0.0.1: there must be none

    def opener(path: str) -> Any:
        context = offline_browser.new_context(viewport={"width": 1280, "height": 1000})
        contexts.append(context)
        keep_local(context, outside)
        context.on(
            "request",
            lambda r: None if r.url.startswith(LOCAL) else outside.append(r.url),
        )
        page = context.new_page()
        page.set_default_timeout(BOOT)
        started = time.monotonic()
        page.goto(f"{site_url}lab/index.html?path={path}", wait_until="domcontentloaded")
        page.wait_for_selector(".jp-Notebook .jp-CodeCell")
        page.started = started  # type: ignore[attr-defined]
        page.shell = time.monotonic()  # type: ignore[attr-defined]
        print(f"{path}: page shell {page.shell - started:.1f} s")
        # the notebook's kernel starts with the page: Pyodide, then IPython, in a worker
        page.get_by_text(re.compile(r"Python \(Pyodide\) \| Idle")).wait_for(timeout=BOOT)
        print(f"{path}: kernel boot {time.monotonic() - page.shell:.1f} s after the shell")
        return page

    try:
        yield opener
        assert not outside, f"requests that tried to leave 127.0.0.1: {sorted(set(outside))}"
    finally:
        for context in contexts:
            context.close()


# --- helpers -----------------------------------------------------------------------------------


def code_cells(notebook: str) -> list[dict[str, Any]]:
    """The code cells of a lesson as the site carries it: its student edition."""
    lesson = json.loads((NOTEBOOKS / notebook).read_text())
    cells: list[dict[str, Any]] = student_edition(lesson)["cells"]
    return [c for c in cells if c["cell_type"] == "code"]


def stored_text(cell: dict[str, Any]) -> str:
    """What the cell printed when the notebook was run on the desktop (nbval keeps it so)."""
    return "".join(
        "".join(o["text"]) for o in cell["outputs"] if o["output_type"] == "stream"
    ).strip()


def run_cell(page: Any, index: int) -> Any:
    """Run the index-th code cell (a click in its editor, Shift+Enter); its cell, when done."""
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(index)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    prompt = cell.locator(".jp-InputArea-prompt")
    deadline = time.monotonic() + BOOT / 1000
    while not re.search(r"\[\d+\]", prompt.text_content() or ""):  # "[*]:" until done
        if time.monotonic() > deadline:
            shot(page, f"failed-cell-{index}")
            pytest.fail(f"code cell {index} did not finish in {BOOT // 1000} s")
        page.wait_for_timeout(500)
    return cell


def errors_shown(page: Any) -> list[str]:
    """Tracebacks and stderr text in the notebook's outputs (DOM text: cells scrolled out of
    view are not drawn)."""
    found: list[str] = page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    ).all_text_contents()
    return found


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(OUTPUT / f"lite-{name}.png"))


# --- the tests ---------------------------------------------------------------------------------


def test_lite_site_holds_everything_and_points_nowhere_else(site: Path) -> None:
    """The lock lists exactly the wheels present (sha256 checked), rummykit among them, built
    from this tree; the kernel loads Pyodide from the site and never falls back to PyPI; the
    notebooks are this tree's (a stale build: run ``make lite``)."""
    pyodide = site / "static" / "pyodide"
    packages = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    for name, entry in packages.items():
        wheel = pyodide / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], name
        assert set(entry["depends"]) <= set(packages), (name, entry["depends"])
    assert sorted(p.name for p in pyodide.glob("*.whl")) == sorted(
        e["file_name"] for e in packages.values()
    )
    assert packages["rummykit"]["imports"] == ["rummykit"]
    # the zips are stored, for brotli to pack whole, and sent packed (lite/build.py's stored)
    for archive in [*pyodide.glob("*.whl"), pyodide / "python_stdlib.zip"]:
        with zipfile.ZipFile(archive) as packed:
            kinds = {member.compress_type for member in packed.infolist()}
        assert kinds == {zipfile.ZIP_STORED}, archive.name
        for suffix in (".br", ".gz"):
            smaller = archive.with_name(archive.name + suffix)
            assert smaller.stat().st_size < archive.stat().st_size / 2, smaller.name
    assert {"ipywidgets", "anywidget"} <= set(packages["rummykit"]["depends"])
    # what the kernel imports when it starts is bytecode in place of its source
    # (lite/py_compile_zips.py), each wheel's RECORD listing exactly its files, with their hashes
    compiled = 0
    for archive in sorted(pyodide.glob("*.whl")):
        with zipfile.ZipFile(archive) as wheel:
            names = set(wheel.namelist())
            record = next(n for n in names if n.endswith(".dist-info/RECORD"))
            lines = [line.rsplit(",", 2) for line in wheel.read(record).decode().splitlines()]
            assert {name for name, _, _ in lines} == names, archive.name
            for name, digest, size in lines:
                if name.endswith(".pyc"):
                    data = wheel.read(name)
                    assert name.removesuffix("c") not in names, name
                    assert (digest, size) == (wheel_hash(data), str(len(data))), name
                    compiled += 1
    with zipfile.ZipFile(pyodide / packages["ipython"]["file_name"]) as wheel:
        assert "IPython/core/interactiveshell.pyc" in wheel.namelist()
    with zipfile.ZipFile(pyodide / "python_stdlib.zip") as stdlib:
        names = set(stdlib.namelist())
    assert "asyncio/base_events.pyc" in names and "asyncio/base_events.py" not in names
    assert compiled > 300
    with zipfile.ZipFile(pyodide / packages["rummykit"]["file_name"]) as wheel:
        for module in sorted((ROOT / "rummykit").rglob("*.py")):
            name = module.relative_to(ROOT).as_posix()
            assert wheel.read(name) == module.read_bytes(), f"{name} changed: run make lite"
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    for path in [site / "jupyter-lite.json", *site.glob("*/jupyter-lite.json")]:
        assert "http" not in path.read_text(), f"{path} names another server"
    for notebook in sorted(NOTEBOOKS.rglob("*.ipynb")):
        copy = site / "files" / notebook.relative_to(ROOT)
        student = student_edition(json.loads(notebook.read_text(encoding="utf-8")))
        assert json.loads(copy.read_text(encoding="utf-8")) == student, (
            f"{copy} is not this tree's student edition: run make lite"
        )
    assert (site / "files" / "docs" / "rules.md").is_file()


def wheel_hash(data: bytes) -> str:
    """A file's hash as a wheel's RECORD writes it."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def sent() -> int:
    """Bytes ``lite/serve.py`` has sent so far (bodies, as compressed on the wire)."""
    return sum(int(line.rsplit(" ", 1)[1]) for line in SENT.read_text().splitlines())


def test_lite_first_verdict(lite: Any) -> None:
    """Notebook 01: the imports, then the first ``check_meld`` cell, as on the desktop; a
    first visit (a fresh browser profile) transfers at most :data:`FIRST_VISIT` bytes."""
    before = sent()
    page = lite("notebooks/01_melds.ipynb")
    cells = code_cells("01_melds.ipynb")
    first = next(i for i, c in enumerate(cells) if "print(check_meld(" in "".join(c["source"]))
    run_cell(page, 0)  # import rummykit ...: the kernel boots, the lock's wheels load
    print(f"01: imports done {time.monotonic() - page.started:.1f} s after opening")
    cell = run_cell(page, first)
    print(f"01: first verdict {time.monotonic() - page.started:.1f} s after opening")
    first_visit = sent() - before
    print(f"01: first visit transferred {first_visit / 1e6:.1f} MB (to the first verdict)")
    assert first_visit <= FIRST_VISIT
    shot(page, "01-verdict")
    shown = cell.locator(".jp-OutputArea-output").inner_text().strip()
    expected = stored_text(cells[first])
    if shown != expected and shown.replace(",", "") == expected.replace(",", ""):
        # JupyterLite 0.8.6 now and then joins quickly arriving prints with a comma (an
        # upstream quirk, described in docs/lite.md): the text is ours, its joins are not.
        # Said in the test's output, and the cell is run once more, which must then match.
        print(f"01: JupyterLite's stray-comma quirk seen: {shown!r}; running the cell again")
        cell = run_cell(page, first)
        shown = cell.locator(".jp-OutputArea-output").inner_text().strip()
    # as on the desktop, to the character
    assert shown == expected
    assert re.search(r"\(H4\)", shown)
    assert not errors_shown(page)


def test_lite_table_stock(lite: Any, playwright_api: Any) -> None:  # noqa: F811
    """Notebook 04: the Table draws; a click on the stock goes to Python and the hand grows."""
    expect = playwright_api.expect
    page = lite("notebooks/04_play.ipynb")
    assert "Table(" in "".join(code_cells("04_play.ipynb")[0]["source"])
    run_cell(page, 0)
    page.wait_for_selector(".rk-table [data-testid=stock]", timeout=BOOT)
    wait_for_my_turn(page, expect)
    before = len(hand(page))
    page.get_by_test_id("stock").click()
    expect(page.locator("[data-testid^='hand-']")).to_have_count(before + 1)
    expect(page.get_by_test_id("announcement")).to_have_text("You drew from the stock.")
    # what rummykit draws in the page (the notebook's outputs) passes axe; JupyterLab's own
    # interface doesn't (upstream: its toolbar buttons, its cell editors' names, its cell feed)
    axe.check(page, "the notebook outputs of a JupyterLite page", ".jp-OutputArea-output")
    shot(page, "04-drew")
    assert not errors_shown(page)


def test_lite_classroom_runs_to_the_end(lite: Any) -> None:
    """Notebook 06 (the student edition) with Run All: every cell runs, no traceback, up to
    the first exercise left for the student, whose cell says so in one line — where Run All
    stops, as it stops at any error; the charts draw without a plotting library; the
    tournament asked for 2 worker processes plays in the page and says so in rummykit's
    sentence."""
    page = lite("notebooks/06_classroom.ipynb")
    cells = code_cells("06_classroom.ipynb")
    blank = next(
        i
        for i, c in enumerate(cells)
        if "answer" in c["metadata"].get("tags", []) and 'answer = ""' in "".join(c["source"])
    )
    count = blank + 1
    page.locator(".jp-Notebook .jp-CodeCell").first.locator(".jp-InputArea-editor").click()
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    page.wait_for_function(
        """n => { const p = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea-prompt')];
                 const failed = [...document.querySelectorAll(
                   "[data-mime-type='application/vnd.jupyter.stderr']")].some(
                   e => /Traceback|Error/.test(e.textContent));
                 return failed || (p.length >= n && p.slice(0, n).every(e => /\\[\\d+\\]/.test(e.textContent))); }""",
        arg=count,
        timeout=RUN_06,
    )
    print(f"06: ran to the end {time.monotonic() - page.started:.1f} s after opening")
    said = render("browser_no_workers", workers=2)
    no_answer = render("exercise_no_answer", accepted=render("exercise_accepts_yes_no"))
    stderr = errors_shown(page)
    assert any(said in text for text in stderr), "the tournament said nothing about the page"
    assert any(no_answer in text for text in stderr), "the blank answer said nothing"
    assert all(
        (said in text or no_answer in text) and "Traceback" not in text for text in stderr
    ), stderr
    page.locator(
        "[data-mime-type='application/vnd.jupyter.stderr']"
    ).first.scroll_into_view_if_needed()
    shot(page, "06-tournament")
    charts = page.locator(".jp-OutputArea-output svg")
    assert charts.count() >= 2  # the standings and the narrowing, drawn as SVG
    charts.last.scroll_into_view_if_needed()
    shot(page, "06-end")
