"""The seat client of a browser page (Pyodide, the JupyterLite site), without a browser: the
browser's ``WebSocket`` and Pyodide's ``create_proxy`` are stood in for (``js`` and
``pyodide.ffi`` in ``sys.modules``) by a WebSocket that behaves as the browser's — events
fired later, on the event loop; ``send`` refused unless open; ``new`` refusing ``ws://`` from
an ``https:`` page — carried by tornado's client to a real ``rummykit tables``. The page is a
browser one as tests/test_lite_runtime.py makes it (``sys.platform``), so
``rummykit.widgets.remote.join`` picks this client; tests/browser/test_lite_tables.py joins
from a real JupyterLite page."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
import tornado.websocket

from rummykit.messages import render
from rummykit.server.browser import BrowserTableClient
from rummykit.server.client import TableClient
from rummykit.server.seat import TableClosed, hello_for, join_seat
from rummykit.widgets.remote import RemoteTable, join
from tests.tables.conftest import ROOT, Served, play_out


class JsException(Exception):
    """What Pyodide raises when a JavaScript call throws."""


class Proxy:
    """``pyodide.ffi.create_proxy``'s proxy: callable until destroyed, destroyed once."""

    made: ClassVar[list[Proxy]] = []

    def __init__(self, function: Callable[[Any], None]) -> None:
        self.function = function
        self.destroyed = False
        Proxy.made.append(self)

    def __call__(self, event: Any) -> None:
        assert not self.destroyed, "the browser called a destroyed proxy"
        self.function(event)

    def destroy(self) -> None:
        assert not self.destroyed, "a proxy destroyed twice"
        self.destroyed = True


class WebSocket:
    """The browser's WebSocket, as Pyodide shows it (``WebSocket.new(url)``), over tornado."""

    made: ClassVar[list[WebSocket]] = []
    page = "http:"  # the page's location.protocol

    @classmethod
    def new(cls, url: str) -> WebSocket:
        if url.startswith("ws:") and cls.page == "https:":
            raise JsException(
                "SecurityError: Failed to construct 'WebSocket': An insecure WebSocket "
                "connection may not be initiated from a page loaded over HTTPS."
            )
        if not url.startswith(("ws:", "wss:")):
            raise JsException(f"SyntaxError: The URL '{url}' is invalid.")
        return cls(url)

    def __init__(self, url: str) -> None:
        self.url = url
        self.readyState = 0  # CONNECTING
        self.listeners: dict[str, list[Any]] = {}
        self.sent: list[str] = []
        self.closed_with: int | None = None
        self.conn: tornado.websocket.WebSocketClientConnection | None = None
        self.task = asyncio.ensure_future(self._run())
        WebSocket.made.append(self)

    def addEventListener(self, kind: str, listener: Any) -> None:  # the DOM's name
        self.listeners.setdefault(kind, []).append(listener)

    def removeEventListener(self, kind: str, listener: Any) -> None:
        self.listeners[kind].remove(listener)

    def _fire(self, kind: str, **fields: Any) -> None:
        for listener in list(self.listeners.get(kind, [])):
            listener(types.SimpleNamespace(type=kind, **fields))

    async def _run(self) -> None:
        try:
            self.conn = await tornado.websocket.websocket_connect(self.url)
        except OSError:
            self.readyState = 3
            self._fire("error")
            self._fire("close", code=1006, reason="")
            return
        if self.readyState == 0:
            self.readyState = 1
            self._fire("open")
        while True:
            text = await self.conn.read_message()
            if text is None:
                break
            self._fire("message", data=text)
        self.readyState = 3
        self._fire("close", code=self.conn.close_code or 1006, reason=self.conn.close_reason or "")

    def send(self, text: str) -> None:
        if self.readyState != 1:
            raise JsException("InvalidStateError: Still in CONNECTING state.")
        assert isinstance(text, str)
        self.sent.append(text)
        assert self.conn is not None
        self.conn.write_message(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code
        self.readyState = 2
        if self.conn is not None:
            self.conn.close(code, reason)


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> type[WebSocket]:
    """A browser page: ``sys.platform`` as Pyodide's, its ``js`` and ``pyodide.ffi``; its
    notebook's folder (where ``join`` keeps seat tokens) a temporary one."""
    monkeypatch.chdir(tmp_path)
    location = types.SimpleNamespace(protocol="http:")
    js = types.ModuleType("js")
    js.WebSocket = WebSocket  # type: ignore[attr-defined]
    js.location = location  # type: ignore[attr-defined]
    ffi = types.ModuleType("pyodide.ffi")
    ffi.create_proxy = Proxy  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide")
    pyodide.ffi = ffi  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", pyodide)
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(WebSocket, "page", "http:")
    WebSocket.made, Proxy.made = [], []
    return WebSocket


def test_join_in_a_browser_page_plays_a_served_round_over_the_browsers_websocket(
    serve: Any, browser: type[WebSocket]
) -> None:
    """``join`` in a browser page: the browser's WebSocket carries the seat (tornado's client
    is never made), the widget draws the server's hand, and a whole round played by clicks
    is the server's record; closing lets every proxy go and ends the background reader."""
    server: Served = serve()
    code = server.create(variant="hungarian", seats=["human", "easy"])

    async def play() -> RemoteTable:
        table = await join(server.ws, code.lower(), "Ana")
        client = table.client
        assert isinstance(client, BrowserTableClient) and client.seat == 0
        assert len(browser.made) == 1 and browser.made[0].url == server.ws
        opened = server.api(f"/api/tables/{code}?open=1")[1]
        assert sorted(c["text"] for c in table.view_hand) == sorted(opened["hands"][0])
        await play_out(table)
        assert table.over
        assert isinstance(client, BrowserTableClient)
        await client.close()
        for _ in range(100):  # the reader join() started ends with the connection
            if not table.tasks:
                break
            await asyncio.sleep(0.01)
        assert not table.tasks
        return table

    table = asyncio.run(asyncio.wait_for(play(), 180))
    record = server.api(f"/api/tables/{code}/record")[1]
    assert {a["seat"] for a in record["actions"]} == {0, 1}
    mine = [a for a in record["actions"] if a["seat"] == 0]
    socket = browser.made[0]
    sent = [m for m in socket.sent if '"type":"action"' in m.replace(" ", "")]
    assert len(sent) == len(mine) > 0  # every click the browser sent is a move of the record
    assert socket.sent[-1].replace(" ", "") == '{"type":"bye"}' and socket.closed_with == 1000
    assert Proxy.made and all(p.destroyed for p in Proxy.made)
    assert all(not listeners for listeners in socket.listeners.values())
    assert table.seat == 0


def test_the_browser_client_says_what_the_tornado_client_says(
    serve: Any, browser: type[WebSocket]
) -> None:
    """The protocol's hello (written once, for both clients), the same seat back with the
    token, and the same sentence as tornado's client for a table that isn't there."""
    server: Served = serve()
    code = server.create(variant="rommi", seats=["human", "human"])

    async def both() -> None:
        first = await join_seat(BrowserTableClient(server.ws, code, name="Ana", mirror=True))
        back = BrowserTableClient(server.ws, code, name="Ana", token=first.token, mirror=True)
        assert (await back.connect())["seat"] == first.seat
        hello = json.loads(browser.made[0].sent[0])
        assert hello == hello_for("Ana", code, None, mirror=True)
        assert json.loads(browser.made[1].sent[0]) == {**hello, "token": first.token}
        for client in (first, back):
            await client.close()
        with pytest.raises(TableClosed) as wrong_tornado:
            await join_seat(TableClient(server.ws, "ZZZZZZZZ", name="Ana", mirror=True))
        with pytest.raises(TableClosed) as wrong_browser:
            await join_seat(BrowserTableClient(server.ws, "ZZZZZZZZ", name="Ana", mirror=True))
        assert str(wrong_browser.value) == str(wrong_tornado.value)
        assert "ZZZZZZZZ" in str(wrong_browser.value)

    asyncio.run(asyncio.wait_for(both(), 60))
    assert all(p.destroyed for p in Proxy.made)


def test_no_server_there_is_said_and_nothing_is_left_behind(browser: type[WebSocket]) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"ws://127.0.0.1:{port}/ws"

    async def nowhere() -> str:
        with pytest.raises(TableClosed) as refused:
            await join(url, "K7QXM2PA", "Ana", timeout=10)
        return str(refused.value)

    said = asyncio.run(nowhere())
    assert said == render("tables_client_unreachable", url=url, error="WebSocket closed (1006)")
    assert Proxy.made and all(p.destroyed for p in Proxy.made)


@pytest.mark.parametrize(
    ("page", "url", "code"),
    [
        ("https:", "ws://tables.school.example:8765/ws", "tables_client_needs_wss"),
        ("http:", "http://tables.school.example:8765/ws", "tables_client_unreachable"),
    ],
)
def test_a_url_the_browser_wont_open_is_said(
    browser: type[WebSocket], monkeypatch: pytest.MonkeyPatch, page: str, url: str, code: str
) -> None:
    """From a page served over https the browser opens no ``ws://`` (mixed content): the
    learner is told to ask for the ``wss://`` address; another URL the browser refuses is
    said with the browser's own words."""
    monkeypatch.setattr(browser, "page", page)
    monkeypatch.setattr(sys.modules["js"].location, "protocol", page)

    async def refused() -> str:
        with pytest.raises(TableClosed) as said:
            await join(url, "K7QXM2PA", "Ana")
        return str(said.value)

    said = asyncio.run(refused())
    if code == "tables_client_needs_wss":
        assert said == render(code, url=url) and "wss://" in said
    else:
        assert said == render(code, url=url, error=f"SyntaxError: The URL '{url}' is invalid.")
    assert browser.made == [] and Proxy.made == []


def test_a_closed_connection_refuses_to_send_and_a_reader_waiting_ends(
    serve: Any, browser: type[WebSocket]
) -> None:
    server: Served = serve()
    code = server.create(variant="rommi", seats=["human", "easy"])

    async def closing() -> None:
        client = await join_seat(BrowserTableClient(server.ws, code, name="Ana", mirror=True))
        reader = asyncio.ensure_future(client.listen())
        await asyncio.sleep(0.05)
        await client.close()
        await asyncio.wait_for(reader, 5)  # the reader was waiting: it ends
        with pytest.raises(TableClosed):
            await client.send({"type": "bye"})
        # the seat back with its token, through join as a notebook would (after a reload)
        back = await join(server.ws, code, "Ana", token=client.token)
        assert back.seat == client.seat and back.client.seat == client.seat
        assert isinstance(back.client, BrowserTableClient)
        await back.client.close()
        # the server closes a connection (the teacher closes the table): the client says so
        again = await join_seat(BrowserTableClient(server.ws, code, name="Ana", token=client.token))
        assert server.api(f"/api/tables/{code}/close", {})[0] == 200
        with pytest.raises(TableClosed):
            while True:
                await again.receive(10)
        assert all(p.destroyed for p in Proxy.made)  # let go when the server closed it

    asyncio.run(asyncio.wait_for(closing(), 60))


def test_the_browser_path_imports_no_tornado() -> None:
    """What a JupyterLite page imports to join — the widget's module, the browser's client,
    the protocol — loads without tornado (the site carries none)."""
    code = (
        "import sys\n"
        "import rummykit.widgets.remote, rummykit.server.browser, rummykit.server.seat\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tornado', 'sqlalchemy')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_a_reloaded_page_gets_its_seat_back_from_the_token_it_kept(
    serve: Any, browser: type[WebSocket], tmp_path: Path
) -> None:
    """In the browser ``join`` keeps the seat's token beside the notebook: the same call
    after a reload (a new interpreter: nothing in memory) sits in the same seat, not a
    second one; a kept token the table doesn't know (garbled, or another table's) is dropped
    and the seat asked for anew."""
    from rummykit.widgets.remote import SEATS_FILE, kept_token

    server: Served = serve()
    code = server.create(variant="rommi", seats=["human", "human"])
    other = server.create(variant="rommi", seats=["human", "easy"])

    async def visits() -> None:
        first = await join(server.ws, code, "Ana")
        seat, token = first.client.seat, first.client.token
        assert kept_token(server.ws, code) == token and (tmp_path / SEATS_FILE).exists()
        await first.client.close()  # the page is reloaded
        again = await join(server.ws, code.lower(), "Ana")
        assert again.client.seat == seat and again.client.token == token
        view = server.api(f"/api/tables/{code}")[1]
        assert [s["taken"] for s in view["seats"]] == [True, False]  # no second seat taken
        await again.client.close()
        # a kept token the other table doesn't know: dropped, a seat asked for anew
        saved = json.loads((tmp_path / SEATS_FILE).read_text())
        saved[f"{server.ws} {other}"] = "not-a-token"
        (tmp_path / SEATS_FILE).write_text(json.dumps(saved))
        fresh = await join(server.ws, other, "Ana")
        assert fresh.client.seat == 0 and kept_token(server.ws, other) == fresh.client.token
        await fresh.client.close()

    asyncio.run(asyncio.wait_for(visits(), 60))
