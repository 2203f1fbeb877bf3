"""The JupyterLite site on a school network: served over plain http from another computer's
address, the page says what is lost and that https fixes it; ``lite/serve.py`` sends the
precompressed files with cache headers.

A LAN address over plain http is reproduced on this machine by a host name, ``school.test``,
that Chromium resolves to 127.0.0.1: browsers treat 127.0.0.0/8 and ``localhost`` as secure
contexts (an alias on the loopback range would hide the problem), any other name as an
ordinary http origin, as a school's 192.168.x.y is. No packet leaves 127.0.0.1.
"""

from __future__ import annotations

import email.utils
import gzip
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.messages import render

from .test_lite import site  # noqa: F401 (the fixture)
from .test_table_browser import (  # noqa: F401
    OUTPUT,
    ROOT,
    _free_port,
    _stop,
    launch_chromium,
    playwright_api,
    start_server,
    wait_for_server,
)

SCHOOL = "school.test"


@pytest.fixture(scope="module")
def served(site: Any) -> Iterator[int]:  # noqa: F811
    """``lite/serve.py`` on a free port, as ``make lite-serve`` runs it; the port."""
    OUTPUT.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    log = OUTPUT / "lite-serve-network.log"
    process = start_server(
        [sys.executable, str(ROOT / "lite" / "serve.py"), str(site), f"--port={port}"], log
    )
    try:
        wait_for_server(process, f"http://127.0.0.1:{port}/jupyter-lite.json", log)
        yield port
    finally:
        _stop(process)


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def test_serve_sends_precompressed_files_with_cache_headers(site: Any, served: int) -> None:  # noqa: F811
    wasm = site / "static" / "pyodide" / "pyodide.asm.wasm"
    url = f"http://127.0.0.1:{served}/static/pyodide/pyodide.asm.wasm"
    assert (wasm.parent / (wasm.name + ".gz")).is_file()
    assert (wasm.parent / (wasm.name + ".br")).is_file()
    status, headers, body = get(url, **{"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and headers["Content-Encoding"] == "br"
    assert headers["Content-Type"] == "application/wasm"
    assert int(headers["Content-Length"]) == len(body) < wasm.stat().st_size / 2
    assert headers["Cache-Control"] == "no-cache" and headers["Vary"] == "Accept-Encoding"
    status, headers, body = get(url, **{"Accept-Encoding": "gzip"})
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == wasm.read_bytes()
    status, headers, body = get(url)  # a client that accepts no encoding
    assert "Content-Encoding" not in headers and body == wasm.read_bytes()
    # a second visit asks whether the file changed: it hasn't
    modified = email.utils.formatdate(wasm.stat().st_mtime, usegmt=True)
    status, headers, body = get(url, **{"If-Modified-Since": modified, "Accept-Encoding": "br"})
    assert status == 304 and body == b""
    # a wheel is stored uncompressed (lite/build.py's stored): sent as brotli packed it whole,
    # the very wheel once unpacked (Pyodide checks its sha256 against the lock)
    wheel = next((site / "static" / "pyodide").glob("rummykit-*.whl"))
    status, headers, body = get(
        f"http://127.0.0.1:{served}/static/pyodide/{wheel.name}", **{"Accept-Encoding": "br"}
    )
    assert headers["Content-Encoding"] == "br" and len(body) < wheel.stat().st_size / 4
    status, headers, body = get(
        f"http://127.0.0.1:{served}/static/pyodide/{wheel.name}", **{"Accept-Encoding": "gzip"}
    )
    assert headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == wheel.read_bytes()


@pytest.mark.parametrize("host", [SCHOOL, "127.0.0.1"])
def test_over_http_from_a_lan_address_the_page_says_what_is_lost(
    served: int,
    playwright_api: Any,  # noqa: F811
    host: str,
) -> None:
    rules = f"--host-resolver-rules=MAP {SCHOOL} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    with launch_chromium(playwright_api, rules) as chromium:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto(f"http://{host}:{served}/lab/index.html", wait_until="domcontentloaded")
        page.wait_for_selector("#jp-main-dock-panel, .jp-LabShell", timeout=180_000)
        secure = page.evaluate("window.isSecureContext")
        worker = page.evaluate("'serviceWorker' in navigator")
        banner = page.get_by_test_id("rk-insecure")
        if host == SCHOOL:
            assert secure is False and worker is False  # what the browser gives such a page
            assert render("lite_insecure_banner", language="en") in banner.inner_text()
            page.screenshot(path=str(OUTPUT / "lite-http-banner.png"))
            page.get_by_role("button", name="Close this message").click()
            assert banner.count() == 0
        else:
            assert secure is True and worker is True and banner.count() == 0
        context.close()


def test_make_lite_serve_takes_host_and_port_and_builds_only_when_out_of_date() -> None:
    import subprocess

    def plan(*extra: str) -> tuple[int, str]:
        done = subprocess.run(
            ["make", "--no-print-directory", *extra], cwd=ROOT, capture_output=True, text=True
        )
        return done.returncode, done.stdout

    lines = plan("-n", "lite-serve", "HOST=0.0.0.0", "PORT=9123")[1].splitlines()
    assert lines[-1].endswith("lite/serve.py build/lite --host 0.0.0.0 --port 9123")
    assert plan("-n", "lite-serve")[1].splitlines()[-1].endswith("--host 127.0.0.1 --port 8000")
    up_to_date = plan("-q", "build/.lite-built")[0] == 0
    builds = any("$(MAKE) lite" in line or "make lite" in line for line in lines)
    assert builds is not up_to_date  # rebuilt exactly when a source is newer than the site
