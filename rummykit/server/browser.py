"""A seat at a served table from a browser page: protocol v1 over the browser's own WebSocket, from Pyodide.

In the JupyterLite site Python runs in the page (Pyodide), where tornado's client can't
open a socket; the browser can. :class:`BrowserTableClient` is
:class:`~rummykit.server.seat.SeatConnection` — the same hello, welcome, decide and action
as :class:`~rummykit.server.client.TableClient`, the same seat token — carried by the
browser's ``WebSocket`` (``js.WebSocket``, reached through Pyodide's ``pyodide.ffi``): the
browser's events put each text into an :class:`asyncio.Queue` that the seat reads on
Pyodide's event loop. Nothing here imports tornado; ``js`` and ``pyodide`` are imported when
a connection opens, so the module loads anywhere (and tests give it a stand-in ``js``).

A page served over ``https://`` may open only ``wss://`` connections (the browser blocks
``ws://`` as mixed content): the refusal is said in those words. Most learners join with
:func:`rummykit.widgets.remote.join`, which picks this client in a browser page.
"""

from __future__ import annotations

import asyncio
from typing import Any

from rummykit.messages import render
from rummykit.server.seat import SeatConnection, TableClosed

__all__ = ["OPEN", "BrowserTableClient"]

OPEN = 1
"""``WebSocket.OPEN``: the browser's ``readyState`` of a connection that can send."""

EVENTS = ("open", "message", "close")


class BrowserTableClient(SeatConnection):
    """One seat's connection to a table server, over the browser's WebSocket (Pyodide)."""

    _socket: Any = None
    _listeners: tuple[tuple[str, Any], ...] = ()

    async def _open(self) -> None:
        from js import WebSocket, location  # type: ignore[import-not-found]
        from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

        self._release()
        loop = asyncio.get_running_loop()
        opened: asyncio.Future[None] = loop.create_future()
        inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._inbox = inbox

        def on_open(event: Any) -> None:
            if not opened.done():
                opened.set_result(None)

        def on_message(event: Any) -> None:
            data = event.data
            inbox.put_nowait(data if isinstance(data, str) else "")  # the server sends text only

        def on_close(event: Any) -> None:
            inbox.put_nowait(None)
            if not opened.done():  # the browser says no more than "closed" (code 1006)
                error = f"WebSocket closed ({event.code})"
                opened.set_exception(
                    TableClosed(render("tables_client_unreachable", url=self.url, error=error))
                )

        try:
            socket = WebSocket.new(self.url)
        except Exception as exc:  # a JsException: a URL the browser won't open
            page = str(getattr(location, "protocol", ""))
            if page == "https:" and self.url.lower().startswith("ws:"):
                raise TableClosed(render("tables_client_needs_wss", url=self.url)) from exc
            error = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
            raise TableClosed(
                render("tables_client_unreachable", url=self.url, error=error)
            ) from exc
        listeners = tuple(
            (kind, create_proxy(handler))
            for kind, handler in zip(EVENTS, (on_open, on_message, on_close), strict=True)
        )
        for kind, proxy in listeners:
            socket.addEventListener(kind, proxy)
        self._socket, self._listeners = socket, listeners
        try:
            await opened
        except BaseException:  # refused, or given up on (a timeout): nothing is left behind
            self._shut()
            raise

    async def _write(self, text: str) -> None:
        if self._socket is None or self._socket.readyState != OPEN:
            raise TableClosed(render("tables_client_closed"))
        self._socket.send(text)

    async def _read(self, timeout: float | None) -> str | None:
        if self._socket is None:
            return None
        read = self._inbox.get()
        text = await (asyncio.wait_for(read, timeout) if timeout else read)
        if text is None:
            self._release()  # the connection ended: its handlers are let go
        return text

    def _shut(self) -> None:
        socket = self._socket
        self._release()
        if socket is not None:
            socket.close(1000)
            self._inbox.put_nowait(None)  # a listen() still reading ends

    def _release(self) -> None:
        """Take the handlers off the socket and free them (a proxy lives until destroyed)."""
        for kind, proxy in self._listeners:
            if self._socket is not None:
                self._socket.removeEventListener(kind, proxy)
            proxy.destroy()
        self._listeners = ()
        self._socket = None
