"""A student's first and second visit to the JupyterLite site: bytes and time to the first verdict.

``lite/serve.py`` (as ``make lite-serve`` runs it, sending the precompressed files) serves
``build/lite`` (``make lite`` first) on a free 127.0.0.1 port, with ``--log`` counting the
bytes of every body it sends. Debian's Chromium, launched as ``tests/browser`` does, opens
notebook 01 in a fresh browser context (nothing cached), runs its first cell (the imports:
Pyodide, IPython, rummykit's wheels) and its first ``check_meld`` cell: the **first visit**.
Then the page is closed and the same notebook opened again in the same context, as a student
does the next lesson: the **second visit**, with what the browser kept. For each: seconds from
the page's request to the verdict shown, and the bytes the server sent, and where the seconds
went: the page's shell (JupyterLab drawn), Python started in the kernel's worker (Pyodide's
runtime and standard library: its first "Loading" message), the kernel's packages loading
(piplite's install of IPython, jedi, …), the kernel idle (IPython imported), the imports cell
done (rummykit's wheels loaded), the verdict. Runs ``--runs`` times.

The browser keeps what it fetched in a profile on disk, as a student's does (a fresh one each
run): Chromium keeps compiled JavaScript and WebAssembly only there, not in an in-memory
("incognito") context; ``--incognito`` measures in such a context instead.

``--mbit N`` gives the student a link of N Mbit/s (school wifi shared by a class: 300 Mbit/s
for 30 students is 10 each): the server is then ``lite/serve.py``'s handler in this process,
every body it sends paced through one shared budget of N Mbit/s, as one student's share of the
network would (the browser's six connections together). Without it, 127.0.0.1 at full speed.

The machine may be shared: read the load average printed with it.

Run:  .venv/bin/python benchmarks/lite_visits.py [--runs 2] [--mbit 10] [--site DIR] [--incognito]

``--site`` compares two builds: run it for each, one after the other, several times.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser.test_lite import code_cells, run_cell  # noqa: E402
from tests.browser.test_table_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    _free_port,
    _stop,
)

SITE = ROOT / "build" / "lite"
NOTEBOOK = "notebooks/01_melds.ipynb"
BOOT = 600_000  # ms
VIEW = {"width": 1280, "height": 1000}


def sent(log: Path) -> int:
    return sum(int(line.rsplit(" ", 1)[1]) for line in log.read_text().splitlines())


def visit(context: Any, url: str, log: Path) -> tuple[float, int, str]:
    """Open notebook 01, run the imports and the first verdict: (seconds, bytes sent, where
    the seconds went)."""
    before = sent(log)
    page = context.new_page()
    page.set_default_timeout(BOOT)
    loading: list[float] = []  # when the worker's Pyodide said "Loading …" (packages)
    page.on(
        "console",
        lambda m: (
            loading.append(time.monotonic() - started) if m.text.startswith("Loading ") else None
        ),
    )
    started = time.monotonic()
    page.goto(f"{url}lab/index.html?path={NOTEBOOK}", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook .jp-CodeCell")
    shell = time.monotonic() - started
    page.get_by_text(re.compile(r"Python \(Pyodide\) \| Idle")).wait_for(timeout=BOOT)
    idle = time.monotonic() - started
    cells = code_cells("01_melds.ipynb")
    first = next(i for i, c in enumerate(cells) if "print(check_meld(" in "".join(c["source"]))
    run_cell(page, 0)
    imports = time.monotonic() - started
    run_cell(page, first)
    seconds = time.monotonic() - started
    page.close()
    python = f"Python started {loading[0]:.1f}, " if loading else ""
    packages = f"packages loading {loading[1]:.1f}, " if len(loading) > 1 else ""
    steps = f"shell {shell:.1f}, {python}{packages}kernel idle {idle:.1f}, imports {imports:.1f}"
    return seconds, sent(log) - before, steps


def load_serve() -> Any:
    """``lite/serve.py`` as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("lite_serve", ROOT / "lite" / "serve.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Link:
    """One student's share of the network: bodies leave at most ``rate`` bytes a second, all
    connections together, in 16 KB pieces."""

    def __init__(self, mbit: float) -> None:
        self.rate = mbit * 1e6 / 8
        self.lock = threading.Lock()
        self.free_at = time.monotonic()

    def copy(self, source: BinaryIO, target: BinaryIO) -> None:
        while piece := source.read(16384):
            with self.lock:
                start = max(time.monotonic(), self.free_at)
                self.free_at = start + len(piece) / self.rate
                done = self.free_at
            time.sleep(max(0.0, done - time.monotonic()))
            target.write(piece)


@contextmanager
def paced_server(mbit: float, log: Path) -> Iterator[str]:
    """lite/serve.py's handler in a thread of this process, its bodies paced by a :class:`Link`."""
    serve = load_serve()
    link = Link(mbit)

    class Paced(serve.SiteHandler):  # type: ignore[misc,name-defined]
        def copyfile(self, source: BinaryIO, outputfile: BinaryIO) -> None:
            link.copy(source, outputfile)

    handler = functools.partial(Paced, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    with server, open(log, "a", encoding="utf-8") as written:
        server.log = written  # type: ignore[attr-defined]  # what SiteHandler._note writes to
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield f"http://127.0.0.1:{server.server_port}/"
        finally:
            server.shutdown()


@contextmanager
def full_speed_server(log: Path) -> Iterator[str]:
    """``lite/serve.py`` as ``make lite-serve`` runs it, on a free port."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "lite" / "serve.py"), str(SITE), f"--port={port}",
         f"--log={log}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        time.sleep(1)
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(server)


def main() -> int:
    global SITE  # what the servers serve: --site
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--mbit", type=float, help="the student's link, Mbit/s (default: none)")
    parser.add_argument("--site", type=Path, default=SITE, help="the site (default: build/lite)")
    parser.add_argument(
        "--incognito", action="store_true", help="an in-memory browser context, not a profile"
    )
    args = parser.parse_args()
    SITE = args.site
    if not (SITE / "index.html").is_file():
        raise SystemExit(f"no site in {SITE}: run make lite first")
    from playwright.sync_api import sync_playwright

    print(f"uptime: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "sent.log"
        log.touch()
        serving = paced_server(args.mbit, log) if args.mbit else full_speed_server(log)
        link = f"a {args.mbit:g} Mbit/s link" if args.mbit else "127.0.0.1 at full speed"
        with serving as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for run in range(args.runs):
                context = (
                    browser.new_context(viewport=VIEW)
                    if args.incognito
                    else p.chromium.launch_persistent_context(
                        Path(tmp) / f"profile-{run}",
                        executable_path=str(CHROMIUM),
                        args=CHROMIUM_ARGS,
                        viewport=VIEW,
                    )
                )
                first = visit(context, url, log)
                second = visit(context, url, log)
                context.close()
                print(
                    f"run {run + 1} ({link}): first visit {first[0]:.1f} s, "
                    f"{first[1] / 1e6:.1f} MB ({first[2]}); second visit {second[0]:.1f} s, "
                    f"{second[1] / 1e6:.2f} MB ({second[2]}); the second took "
                    f"{second[0] / first[0]:.2f} of the first"
                )
            browser.close()
    print(f"uptime: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
