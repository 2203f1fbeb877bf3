"""``rummykit classroom``'s door, on loopback: what starts a kernel and what doesn't.

One server (``--code``, ``--max-students 5``, short culling) on a free 127.0.0.1 port; its
kernels are counted among its own child processes. 30 bare GETs and 30 HEADs (a link preview,
an uptime monitor, a crawler) start none; a wrong code starts none; six students type the
code at once: five tables and one "the class is full" page; a reload keeps the table and
starts no second kernel; the five pages closed, the kernels are gone within the cull
interval. No page logs a warning or an error in the console, and the teacher's terminal
shows no warning. Prints the figures. (Chromium and Playwright as in ``test_table_browser``.)
"""

from __future__ import annotations

import html
import http.cookiejar
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from .test_table_browser import (  # noqa: F401 (fixtures)
    OUTPUT,
    PAGE_READY,
    ROOT,
    _free_port,
    _stop,
    browser,
    playwright_api,
    start_server,
    wait_for_voila,
)

CODE = "7B-RUMMY"
MOST = 5
CULL = (30, 15)  # --cull-timeout, --cull-interval: short, so the test can see the culling
TABLE = ".rk-table [data-testid=stock]"


class Server:
    def __init__(self, process: Any, url: str) -> None:
        self.process, self.url = process, url

    def kernels(self) -> int:
        import psutil

        count = 0
        for child in psutil.Process(self.process.pid).children(recursive=True):
            try:
                count += "ipykernel_launcher" in " ".join(child.cmdline())
            except psutil.NoSuchProcess:
                continue
        return count


@pytest.fixture(scope="module")
def server(playwright_api: Any) -> Iterator[Server]:  # noqa: F811
    OUTPUT.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "rummykit", "classroom", f"--port={port}"]
    command += [f"--code={CODE}", f"--max-students={MOST}", "--variant=rommi", "--level=easy"]
    command += [f"--cull-timeout={CULL[0]}", f"--cull-interval={CULL[1]}"]
    log = OUTPUT / "classroom-door.log"
    process = start_server(command, log, env)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for_voila(process, url, log)
        yield Server(process, url)
    finally:
        _stop(process)
    terminal = log.read_text(encoding="utf-8")
    warnings = [line for line in terminal.splitlines() if "WARNING" in line or "Traceback" in line]
    assert not warnings, warnings


def _request(url: str, method: str = "GET", **headers: str) -> tuple[int, str]:
    request = urllib.request.Request(url, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def test_bare_requests_and_a_wrong_code_start_no_kernel(server: Server) -> None:
    previews = [
        {"User-Agent": "Slackbot-LinkExpanding 1.0"},
        {"User-Agent": "Googlebot/2.1"},
        {"User-Agent": "UptimeRobot/2.0"},
    ]
    for i in range(30):
        status, page = _request(server.url, **previews[i % 3])
        assert status == 200 and 'name="code"' in page and "kernelId" not in page
        status, page = _request(server.url, "HEAD")
        assert status == 200 and page == ""
    assert server.kernels() == 0

    # a wrong code, sent as the form sends it (with the form's _xsrf token and cookie)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(server.url, timeout=30).read().decode("utf-8")
    token = html.unescape(re.search(r'name="_xsrf" value="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    for wrong in ("7B-RUMMZ", "", CODE + "X"):
        form = urllib.parse.urlencode({"code": wrong, "_xsrf": token}).encode()
        with pytest.raises(urllib.error.HTTPError) as refused:
            opener.open(server.url, data=form, timeout=30)
        assert refused.value.code == 403
        assert "That is not the class code" in refused.value.read().decode("utf-8")
    assert server.kernels() == 0
    assert not any(cookie.name == "rummykit-seat" for cookie in jar)


def test_five_tables_one_full_page_a_reload_and_the_culling(
    browser: Any,  # noqa: F811
    server: Server,
) -> None:
    said: list[str] = []
    contexts = [browser.new_context() for _ in range(MOST + 1)]
    pages = [context.new_page() for context in contexts]
    started = time.monotonic()
    for page in pages:
        page.on(
            "console", lambda m: said.append(m.text) if m.type in ("warning", "error") else None
        )
        page.on("pageerror", lambda error: said.append(str(error)))
        page.goto(server.url, wait_until="domcontentloaded", timeout=PAGE_READY)
    # the code typed in lower case, with spaces around: still the code
    for page in pages[:MOST]:
        page.get_by_label("Class code").fill(f" {CODE.lower()} ")
        page.get_by_role("button", name="Start my table").click(no_wait_after=True)
    for page in pages[:MOST]:
        page.wait_for_selector(TABLE, timeout=PAGE_READY)
    drawn = time.monotonic() - started
    assert server.kernels() == MOST
    last = pages[MOST]
    last.get_by_label("Class code").fill(CODE)
    last.get_by_role("button", name="Start my table").click()
    full = last.get_by_test_id("class-full")
    full.wait_for(timeout=PAGE_READY)
    assert "The class is full: 5 students at most" in full.inner_text()
    assert server.kernels() == MOST

    # a reload: the same game (the hand as it was after a draw), no second kernel
    page = pages[0]
    cards = page.locator("[data-testid^='hand-']").count()
    page.get_by_test_id("stock").click()
    page.wait_for_function(
        f"document.querySelectorAll(\"[data-testid^='hand-']\").length === {cards + 1}",
        timeout=PAGE_READY,
    )
    status = page.get_by_test_id("status").inner_text()
    page.reload(wait_until="domcontentloaded")
    page.wait_for_selector(TABLE, timeout=PAGE_READY)
    page.wait_for_function(
        f"document.querySelectorAll(\"[data-testid^='hand-']\").length === {cards + 1}",
        timeout=PAGE_READY,
    )
    assert page.get_by_test_id("status").inner_text() == status
    assert server.kernels() == MOST
    page.screenshot(path=str(OUTPUT / "classroom-reloaded.png"), full_page=True)

    # the pages close (as a tab does): the kernels go within the cull interval
    for page in pages:
        page.close(run_before_unload=True)
    closed = time.monotonic()
    while server.kernels() and time.monotonic() - closed < CULL[0] + 2 * CULL[1]:
        time.sleep(1)
    freed = time.monotonic() - closed
    for context in contexts:
        context.close()
    print(
        f"classroom door: {MOST} tables drawn {drawn:.1f} s after the pages opened; "
        f"kernels gone {freed:.1f} s after the pages closed (cull interval {CULL[1]} s)"
    )
    assert server.kernels() == 0
    assert freed <= CULL[1]
    # the full page's own status (503) is the one error Chromium logs: the page says it
    noise = [text for text in said if "status of 503 (Service Unavailable)" not in text]
    assert not noise, noise
