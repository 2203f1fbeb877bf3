"""A seat at a served table from Python: join by table code, receive the seat's messages, answer decides.

:class:`TableClient` speaks protocol v1 over the table server's WebSocket (tornado's
client, on asyncio: in a Jupyter kernel it runs on the kernel's own loop); the protocol
itself — hello, welcome, decide, action, the wire log — is
:class:`~rummykit.server.seat.SeatConnection`'s, shared with the browser's client
(:class:`~rummykit.server.browser.BrowserTableClient`, the JupyterLite site). It keeps the
seat token the server gives, so :meth:`TableClient.connect` again — after a reload, a lost
connection, a server restart — gets the same seat back, and it keeps every message it
received (:attr:`TableClient.received`: the seat's whole wire log). :meth:`TableClient.play`
lets any agent play the seat; :meth:`TableClient.act` sends one action, as the Table
widget does when a learner clicks.

    client = TableClient("ws://127.0.0.1:8765/ws", "K7QX2MPA", name="Ana")
    await client.connect()
    await client.play(make_agent("easy"))      # until the round is over
"""

from __future__ import annotations

import asyncio

import tornado.websocket

from rummykit.messages import render
from rummykit.server.seat import SeatConnection, TableClosed, join_seat

__all__ = ["TableClient", "TableClosed", "join_table"]


class TableClient(SeatConnection):
    """One seat's connection to a table server, over tornado's WebSocket client."""

    transport_errors = (tornado.websocket.WebSocketError,)
    _socket: tornado.websocket.WebSocketClientConnection | None = None

    async def _open(self) -> None:
        self._socket = await tornado.websocket.websocket_connect(self.url)

    async def _write(self, text: str) -> None:
        if self._socket is None:
            raise TableClosed(render("tables_client_not_connected"))
        try:
            await self._socket.write_message(text)
        except tornado.websocket.WebSocketClosedError as exc:
            raise TableClosed(render("tables_client_closed")) from exc

    async def _read(self, timeout: float | None) -> str | None:
        if self._socket is None:
            return None
        read = self._socket.read_message()
        text = await (asyncio.wait_for(read, timeout) if timeout else read)
        return text if text is None or isinstance(text, str) else text.decode()

    def _shut(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


async def join_table(url: str, code: str, name: str, timeout: float = 20.0) -> TableClient:
    """A seat at table ``code`` for a page: connected with ``mirror=True`` (every message
    carries the seat's own position, as :class:`~rummykit.widgets.remote.RemoteTable`
    needs), with its first view received; :class:`TableClosed` with the server's sentence
    when it refuses (no such table, every seat taken)."""
    return await join_seat(TableClient(url, code, name=name, mirror=True), timeout)
