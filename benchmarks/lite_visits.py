"""A student's first and second visit to the JupyterLite site: bytes and time to the first verdict.

``lite/serve.py`` (as ``make lite-serve`` runs it, sending the precompressed files) serves
``build/lite`` (``make lite`` first) on a free 127.0.0.1 port, with ``--log`` counting the
bytes of every body it sends. Debian's Chromium, launched as ``tests/browser`` does, opens
notebook 01 in a fresh browser context (nothing cached), runs its first cell (the imports:
Pyodide, IPython, rummykit's wheels) and its first ``check_meld`` cell: the **first visit**.
Then the page is closed and the same notebook opened again in the same context, as a student
does the next lesson: the **second visit**, with what the browser kept. For each: seconds from
the page's request to the verdict shown, and the bytes the server sent. Runs ``--runs`` times.

The machine may be shared: read the load average printed with it.

Run:  .venv/bin/python benchmarks/lite_visits.py [--runs 2]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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


def sent(log: Path) -> int:
    return sum(int(line.rsplit(" ", 1)[1]) for line in log.read_text().splitlines())


def visit(context: Any, url: str, log: Path) -> tuple[float, int]:
    """Open notebook 01, run the imports and the first verdict: (seconds, bytes sent)."""
    before = sent(log)
    page = context.new_page()
    page.set_default_timeout(BOOT)
    started = time.monotonic()
    page.goto(f"{url}lab/index.html?path={NOTEBOOK}", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook .jp-CodeCell")
    page.get_by_text(re.compile(r"Python \(Pyodide\) \| Idle")).wait_for(timeout=BOOT)
    cells = code_cells("01_melds.ipynb")
    first = next(i for i, c in enumerate(cells) if "print(check_meld(" in "".join(c["source"]))
    run_cell(page, 0)
    run_cell(page, first)
    seconds = time.monotonic() - started
    page.close()
    return seconds, sent(log) - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    if not (SITE / "index.html").is_file():
        raise SystemExit("no site in build/lite: run make lite first")
    from playwright.sync_api import sync_playwright

    print(f"uptime: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "sent.log"
        log.touch()
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, str(ROOT / "lite" / "serve.py"), str(SITE), f"--port={port}",
             f"--log={log}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            time.sleep(1)
            url = f"http://127.0.0.1:{port}/"
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for run in range(args.runs):
                    context = browser.new_context(viewport={"width": 1280, "height": 1000})
                    first = visit(context, url, log)
                    second = visit(context, url, log)
                    context.close()
                    print(
                        f"run {run + 1}: first visit {first[0]:.1f} s, {first[1] / 1e6:.1f} MB; "
                        f"second visit {second[0]:.1f} s, {second[1] / 1e6:.2f} MB "
                        f"(time {second[0] / first[0]:.2f} of the first)"
                    )
                browser.close()
        finally:
            _stop(server)
    print(f"uptime: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
