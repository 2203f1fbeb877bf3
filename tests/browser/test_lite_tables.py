"""Joining a served table from the JupyterLite site, in a real browser: Python in the page
(Pyodide) connects with the browser's own WebSocket, and the learner's clicks are moves the
table server records.

``rummykit tables`` runs on 127.0.0.1 (as tests/tables/conftest.py's ``Served`` starts it);
``lite/serve.py`` serves ``build/lite`` (built by ``make lite``: it must be this tree's, which
tests/browser/test_lite.py checks) and Chromium opens it with every request that isn't to
127.0.0.1 aborted. A notebook's first cell is replaced by the one call a learner types,
``await join(URL, CODE, NAME)``; the card table draws the seat the server gave, a click on
the stock and a discard are the server's, in its record. Screenshots go to
``test-output/browser/lite-tables-*.png``.

A site served over https may open only ``wss://`` connections: the same site served over
https (a certificate made here with ``openssl``, Chromium told to accept it) as
``school.test``, a name resolved to 127.0.0.1 (a loopback address would count as secure and
hide the block), refuses ``ws://``, and ``join`` says so in rummykit's sentence.
"""

from __future__ import annotations

import functools
import http.server
import importlib.util
import json
import re
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_lite import (  # noqa: F401 (fixtures)
    BOOT,
    errors_shown,
    lite,
    offline_browser,
    shot,
    site,
    site_url,
)
from .test_table_browser import (  # noqa: F401
    CHROMIUM,
    CHROMIUM_ARGS,
    OUTPUT,
    ROOT,
    hand,
    playwright_api,
    wait_for_my_turn,
)

pytest.importorskip("tornado")
pytest.importorskip("sqlalchemy")

from rummykit.messages import render
from tests.tables.conftest import Served

SCHOOL = "school.test"


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Served]:
    """``rummykit tables`` on 127.0.0.1, a free port, computer players moving at once."""
    server = Served(str(tmp_path / "tables.db"))
    try:
        yield server
    finally:
        log = server.stop()
        (OUTPUT / "lite-tables-server.log").write_text(log)


def type_and_run(page: Any, index: int, code: str) -> Any:
    """Replace the index-th code cell's text with ``code`` and run it; its cell, when done."""
    cell = page.locator(".jp-Notebook .jp-CodeCell").nth(index)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    prompt = cell.locator(".jp-InputArea-prompt")
    deadline = time.monotonic() + BOOT / 1000
    while not re.search(r"\[\d+\]", prompt.text_content() or ""):
        if time.monotonic() > deadline:
            shot(page, f"tables-cell-{index}")
            pytest.fail(f"the cell did not finish in {BOOT // 1000} s")
        page.wait_for_timeout(500)
    return cell


def test_a_learner_joins_a_served_table_from_the_lite_site(
    tables: Served,
    lite: Any,  # noqa: F811
    playwright_api: Any,  # noqa: F811 (fixtures)
) -> None:
    expect = playwright_api.expect
    code = tables.create(variant="rommi", seats=["human", "easy"])
    page = lite("notebooks/04_play.ipynb")
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    cell = type_and_run(
        page,
        0,
        "import sys\n"
        "from rummykit.widgets.remote import join\n"
        f'table = await join("{tables.ws}", "{code.lower()}", "Ana")\n'
        "print(sys.platform, type(table.client).__name__, table.client.seat)\n"
        "table\n",
    )
    said = cell.locator(".jp-OutputArea-output").first.inner_text()
    assert not errors_shown(page), errors_shown(page)
    # Python ran in the page, and the browser's WebSocket carried the seat
    assert said.strip() == "emscripten BrowserTableClient 0", said
    view = tables.api(f"/api/tables/{code}")[1]
    assert view["seats"][0]["name"] == "Ana" and view["seats"][0]["connected"] is True
    page.wait_for_selector(".rk-table [data-testid=stock]", timeout=BOOT)
    # the hand drawn is the server's hand for this seat
    opened = tables.api(f"/api/tables/{code}?open=1")[1]
    wait_for_my_turn(page, expect)
    opened = tables.api(f"/api/tables/{code}?open=1")[1]
    assert sorted(hand(page)) == sorted(opened["hands"][0])
    before = len(hand(page))
    position = opened["position"]
    shot(page, "tables-joined")

    # a click on the stock: the browser sends it, the server takes it, the page shows it
    page.get_by_test_id("stock").click()
    expect(page.locator("[data-testid^='hand-']")).to_have_count(before + 1, timeout=60_000)
    record = tables.api(f"/api/tables/{code}/record")[1]
    mine = [a for a in record["actions"] if a["seat"] == 0]
    assert mine and mine[-1]["type"] == "draw", mine
    assert mine[-1]["source"] == "stock"

    # a discard: the turn ends at the server, the computer plays, the learner's turn again
    dropped = hand(page)[0]
    page.get_by_test_id("hand-0").drag_to(page.get_by_test_id("discard-pile"))
    # (the page says "your turn" until the server's update comes back: wait for the server)
    for _ in range(600):
        record = tables.api(f"/api/tables/{code}/record")[1]
        mine = [a for a in record["actions"] if a["seat"] == 0]
        if mine[-1]["type"] != "draw" and record["actions"][-1]["seat"] != 0:
            break
        time.sleep(0.1)
    wait_for_my_turn(page, expect)
    record = tables.api(f"/api/tables/{code}/record")[1]
    mine = [a for a in record["actions"] if a["seat"] == 0]
    assert mine[-1]["type"] == "discard", mine
    assert mine[-1]["card"] == dropped
    assert {a["seat"] for a in record["actions"][position:]} == {0, 1}
    shot(page, "tables-played")
    assert not errors_shown(page)
    assert sockets == [tables.ws], sockets  # one connection, straight to the table server
    print(json.dumps({"actions": len(record["actions"]), "console": messages[-5:]}))

    # the page is reloaded (a new worker: Python starts again, nothing in memory); the same
    # cell sits in the same seat, from the token the page kept beside the notebook (the
    # table's one learner's seat: without it, the join would be refused as full)
    page.reload(wait_until="domcontentloaded")
    page.get_by_text(re.compile(r"Python \(Pyodide\) \| Idle")).wait_for(timeout=BOOT)
    cell = type_and_run(
        page,
        0,
        "from rummykit.widgets.remote import join\n"
        f'table = await join("{tables.ws}", "{code}", "Ana")\n'
        "print(table.client.seat, len(table.view_hand))\n",
    )
    said = cell.locator(".jp-OutputArea-output").first.inner_text()
    assert not errors_shown(page), errors_shown(page)
    view = tables.api(f"/api/tables/{code}?open=1")[1]
    assert said.split() == ["0", str(len(view["hands"][0]))], said
    assert view["seats"][0]["connected"] is True and view["seats"][0]["name"] == "Ana"


@pytest.fixture
def https_site(site: Path, tmp_path: Path) -> Iterator[int]:  # noqa: F811
    """``lite/serve.py``'s handler serving the site over https as ``school.test``; the port."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", key, "-out", cert, "-subj", f"/CN={SCHOOL}",
         "-addext", f"subjectAltName=DNS:{SCHOOL}"],
        check=True, capture_output=True,
    )  # fmt: skip
    spec = importlib.util.spec_from_file_location("lite_serve", ROOT / "lite" / "serve.py")
    assert spec is not None and spec.loader is not None
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    handler = functools.partial(serve.SiteHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_a_site_served_over_https_is_told_to_ask_for_wss(
    https_site: int,
    tables: Served,
    offline_browser: Any,  # noqa: F811
) -> None:
    code = tables.create(variant="rommi", seats=["human", "easy"])
    rules = f"--host-resolver-rules=MAP {SCHOOL} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    chromium = offline_browser.browser_type.launch(
        executable_path=str(CHROMIUM), args=[*CHROMIUM_ARGS, rules]
    )
    try:
        context = chromium.new_context(
            ignore_https_errors=True, viewport={"width": 1280, "height": 1000}
        )
        page = context.new_page()
        page.set_default_timeout(BOOT)
        page.goto(
            f"https://{SCHOOL}:{https_site}/lab/index.html?path=notebooks/04_play.ipynb",
            wait_until="domcontentloaded",
        )
        page.wait_for_selector(".jp-Notebook .jp-CodeCell")
        page.get_by_text(re.compile(r"Python \(Pyodide\) \| Idle")).wait_for(timeout=BOOT)
        assert page.evaluate("window.isSecureContext") is True
        url = f"ws://{SCHOOL}:{tables.http.split(':')[1]}/ws"
        cell = type_and_run(
            page,
            0,
            "from rummykit.widgets.remote import join\n"
            "try:\n"
            f'    await join("{url}", "{code}", "Ana")\n'
            "except ConnectionError as refused:\n"
            "    print(type(refused).__name__, refused)\n",
        )
        said = cell.locator(".jp-OutputArea-output").first.inner_text().strip()
        shot(page, "tables-https")
        assert said == "TableClosed " + render("tables_client_needs_wss", url=url), said
        assert tables.api(f"/api/tables/{code}")[1]["seats"][0]["name"] is None  # no seat taken
        context.close()
    finally:
        chromium.close()
