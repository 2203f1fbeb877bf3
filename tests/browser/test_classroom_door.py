"""``rummykit classroom``'s door, on loopback: what starts a kernel and what doesn't.

One server (``--code``, ``--max-students 5``, short culling) on a free 127.0.0.1 port; its
kernels are counted among its own child processes. 30 bare GETs and 30 HEADs (a link preview,
an uptime monitor, a crawler) start none; a wrong code starts none; six students type the
code at once: five tables and one "the class is full" page; another address (127.0.0.2) that
sends five wrong codes gets a "wait" page for its sixth, even the right one, while
127.0.0.1's students are let in; a reload keeps the table and
starts no second kernel; the five pages closed, the kernels are gone within the cull
interval. No page logs a warning or an error in the console, and the teacher's terminal
shows no warning. Prints the figures. (Chromium and Playwright as in ``test_table_browser``.)
"""

from __future__ import annotations

import html
import http.client
import http.cookiejar
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import urllib.response
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.messages import render

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


def _post_from(address: str, url: str, code: str, cookie: str, token: str) -> tuple[int, Any]:
    """The code form sent from ``address`` (another computer, as the server sees it)."""
    where = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        where.hostname, where.port, timeout=30, source_address=(address, 0)
    )
    body = urllib.parse.urlencode({"code": code, "_xsrf": token})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
    connection.request("POST", where.path, body=body, headers=headers)
    answer = connection.getresponse()
    page = answer.read().decode("utf-8")
    connection.close()
    return answer.status, (answer.getheader("Retry-After"), page)


def test_wrong_codes_from_one_address_get_a_wait_page(server: Server) -> None:
    """Five wrong codes within a minute from 127.0.0.2: the sixth code from there is not read
    (429, Retry-After, a sentence that says to wait), the right one neither; 127.0.0.1 is still
    let in; no kernel starts."""
    other = "127.0.0.2"
    where = urllib.parse.urlsplit(server.url)
    connection = http.client.HTTPConnection(
        where.hostname, where.port, timeout=30, source_address=(other, 0)
    )
    connection.request("GET", where.path)
    answer = connection.getresponse()
    page = answer.read().decode("utf-8")
    connection.close()
    cookie = "; ".join(c.split(";")[0] for c in answer.headers.get_all("Set-Cookie") or [])
    token = html.unescape(re.search(r'name="_xsrf" value="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    for attempt in range(5):
        status, (_, page) = _post_from(other, server.url, f"WRONG-{attempt}", cookie, token)
        assert status == 403 and "That is not the class code" in page
    for code in ("WRONG-5", CODE):
        status, (retry, page) = _post_from(other, server.url, code, cookie, token)
        assert status == 429, code
        assert retry is not None and 1 <= int(retry) <= 60
        shown = html.unescape(re.search(r'data-testid="class-wait">([^<]+)<', page).group(1))  # type: ignore[union-attr]
        assert shown == render("class_page_wait", seconds=int(retry), language="en")
        assert "That is not the class code" not in page
    # 127.0.0.1 is another address: its right code still opens the door
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(server.url, timeout=30).read().decode("utf-8")
    token = html.unescape(re.search(r'name="_xsrf" value="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    form = urllib.parse.urlencode({"code": CODE, "_xsrf": token}).encode()
    request = urllib.request.Request(server.url, data=form)
    with urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect()).open(
        request, timeout=30
    ) as answer:
        assert answer.status == 302
    assert any(c.name == "rummykit-seat" for c in jar)
    assert server.kernels() == 0  # a seat, but no table asked for: no kernel


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Keep the door's redirect as the answer (following it would ask for a table)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None

    def http_error_302(self, req: Any, fp: Any, code: int, msg: str, headers: Any) -> Any:
        return urllib.response.addinfourl(fp, headers, req.full_url, code)


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
