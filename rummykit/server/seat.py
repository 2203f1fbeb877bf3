"""A seat's side of protocol v1 at a served table, written once for every way of carrying it.

:class:`SeatConnection` is everything a seat's client does — the hello (with the seat
token once there is one), the welcome, reading the server's messages and keeping the seat's
whole wire log, answering a decide, letting an agent play — over four transport methods a
subclass gives: open the connection, send a text, read the next text, shut it.
:class:`~rummykit.server.client.TableClient` carries it over tornado's WebSocket client (a
desktop Python: JupyterLab, a script), :class:`~rummykit.server.browser.BrowserTableClient`
over the browser's own WebSocket (Pyodide: the JupyterLite site). This module imports
neither: only the standard library and rummykit's protocol, so it loads in a browser page.

:func:`join_seat` connects a client as a page needs it: its first view received, every way of
failing said as :class:`TableClosed` with a sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any, TypeVar

from rummykit.agents.protocol import PROTOCOL_VERSION, decode, encode, read_observation
from rummykit.ai.agents import Agent
from rummykit.errors import Said
from rummykit.game.actions import Action, parse_action
from rummykit.game.observation import Observation
from rummykit.messages import render

__all__ = ["SeatConnection", "TableClosed", "hello_for", "join_seat"]


class TableClosed(Said, ConnectionError):
    """The server closed the seat's connection (or refused the hello: the server's sentence)."""


def hello_for(
    name: str, code: str, token: str | None = None, mirror: bool = False
) -> dict[str, Any]:
    """The hello a seat says first: its name, the table's code, the token that gets its seat back.

    >>> hello_for("Ana", "K7QXM2PA", token="t0k3n", mirror=True)["token"]
    't0k3n'
    >>> sorted(hello_for("Ana", "K7QXM2PA"))
    ['name', 'protocol', 'table', 'type', 'variants']
    """
    hello: dict[str, Any] = {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "name": name,
        "variants": ["hungarian", "rommi"],
        "table": code,
    }
    if token is not None:
        hello["token"] = token
    if mirror:
        hello["mirror"] = True
    return hello


class SeatConnection:
    """One seat's connection to a table server, whatever carries it (see the module's text).

    A subclass gives :meth:`_open`, :meth:`_write`, :meth:`_read` and :meth:`_shut`, and in
    ``transport_errors`` the exceptions its transport raises when the server can't be reached.
    """

    transport_errors: tuple[type[BaseException], ...] = ()
    """What the transport raises when the server can't be reached (said by :func:`join_seat`)."""

    def __init__(
        self,
        url: str,
        code: str,
        name: str = "learner",
        token: str | None = None,
        *,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        mirror: bool = False,
    ) -> None:
        self.url = url
        self.code = code.strip().upper()
        self.name = name
        self.token = token
        self.seat: int | None = None
        self.welcome: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None
        """The latest decide or update: the seat's view of the table now."""
        self.received: list[dict[str, Any]] = []
        self.on_message = on_message
        self.mirror = mirror
        """Whether every decide and update carries the seat's own position (for a page that
        checks moves before it sends them: the Table widget's RemoteTable)."""
        self.connected = False

    # --- the transport: what a subclass gives ------------------------------------------

    async def _open(self) -> None:
        """Open the connection to ``self.url``."""
        raise NotImplementedError

    async def _write(self, text: str) -> None:
        """Send one text message (:class:`TableClosed` when the connection is gone)."""
        raise NotImplementedError

    async def _read(self, timeout: float | None) -> str | None:
        """The next text message, None when the connection ended."""
        raise NotImplementedError

    def _shut(self) -> None:
        """Close the connection (nothing to say: :meth:`close` said bye)."""
        raise NotImplementedError

    # --- protocol v1 -------------------------------------------------------------------

    async def connect(self) -> dict[str, Any]:
        """Connect and say hello (with the seat token once there is one); the welcome."""
        await self._open()
        self.connected = True
        await self.send(hello_for(self.name, self.code, self.token, self.mirror))
        while True:
            message = await self.receive()
            if message["type"] == "welcome":
                self.welcome = message
                self.seat = int(message["seat"])
                self.token = str(message["token"])
                return message
            if message["type"] == "error":
                raise TableClosed(str(message.get("message")))

    async def send(self, message: dict[str, Any]) -> None:
        if not self.connected:
            raise TableClosed(render("tables_client_not_connected"))
        await self._write(encode(message).decode().rstrip("\n"))

    async def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message from the server (:class:`TableClosed` when the connection ends)."""
        if not self.connected:
            raise TableClosed(render("tables_client_not_connected"))
        text = await self._read(timeout)
        if text is None:
            raise TableClosed(render("tables_client_closed"))
        message = decode(text)
        self.received.append(message)
        if message["type"] in ("decide", "update"):
            self.last = message
        if self.on_message is not None:
            self.on_message(message)
        return message

    @property
    def observation(self) -> Observation | None:
        """The seat's latest observation (None before the first)."""
        return None if self.last is None else read_observation(self.last)

    @property
    def my_turn(self) -> bool:
        return self.last is not None and self.last["type"] == "decide"

    @property
    def over(self) -> bool:
        return self.last is not None and self.last["observation"]["phase"] == "over"

    async def act(self, action: Action | str, trace: dict[str, Any] | None = None) -> None:
        """Answer the latest decide with ``action`` (an Action or its text, e.g. ``"draw"``)."""
        if self.last is None:
            raise TableClosed(render("tables_client_not_connected"))
        chosen = parse_action(action, "en") if isinstance(action, str) else action
        message: dict[str, Any] = {
            "type": "action",
            "id": self.last["id"],
            "action": chosen.to_dict(),
        }
        if trace is not None:
            message["trace"] = trace
        await self.send(message)

    async def play(self, agent: Agent, timeout: float = 60.0, rounds: int = 1) -> None:
        """Let ``agent`` play the seat until ``rounds`` rounds are over (or the server says
        bye): at a table that plays a match, the next round comes ``between_rounds`` after."""
        finished: set[int] = set()
        while True:
            if self.over:
                assert self.last is not None
                finished.add(int(self.last.get("round", 1)))
                if len(finished) >= rounds:
                    return
                if (await self.receive(timeout))["type"] == "bye":
                    return
            elif self.my_turn:
                assert self.last is not None
                answered = self.last["id"]
                decision = agent.decide(read_observation(self.last))
                await self.act(decision.action)
                while True:  # until the answer is taken (a new position) or refused
                    message = await self.receive(timeout)
                    if message["type"] == "verdict":
                        raise TableClosed(str(message["message"]))
                    if message["type"] == "bye":
                        return
                    if message["type"] == "error" and message.get("reason") == "tables_rate":
                        await asyncio.sleep(0.25)  # over the server's rate: say it again
                        await self.act(decision.action)
                    elif message["type"] == "error" and message.get("reason") != "tables_stale":
                        raise TableClosed(str(message.get("message")))
                    if message["type"] in ("decide", "update") and message["id"] != answered:
                        break
            else:
                message = await self.receive(timeout)
                if message["type"] == "bye":
                    return

    async def listen(self) -> None:
        """Read messages until the connection ends (each goes to ``on_message``): what a
        page runs in the background, e.g. ``asyncio.ensure_future(client.listen())``."""
        with contextlib.suppress(TableClosed):
            while True:
                message = await self.receive()
                if message["type"] == "bye":
                    return

    async def close(self) -> None:
        """Say bye and close the connection (the seat stays the learner's: the token keeps it)."""
        if self.connected:
            with contextlib.suppress(TableClosed, *self.transport_errors):
                await self.send({"type": "bye"})
            self.connected = False
            self._shut()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.code} seat={self.seat} {json.dumps(self.url)}>"


Client = TypeVar("Client", bound=SeatConnection)


async def join_seat(client: Client, timeout: float = 20.0) -> Client:
    """``client`` connected, with its first view received: what a page needs before it draws
    the seat (make the client with ``mirror=True`` for
    :class:`~rummykit.widgets.remote.RemoteTable`). :class:`TableClosed` with the server's
    sentence when it refuses (no such table, every seat taken), or with
    ``tables_client_unreachable``'s when the server can't be reached."""
    failures: tuple[type[BaseException], ...] = (
        OSError,
        asyncio.TimeoutError,
        *client.transport_errors,
    )
    try:
        await asyncio.wait_for(client.connect(), timeout)
        while client.last is None:
            message = await client.receive(timeout)
            if message["type"] == "error":
                raise TableClosed(str(message.get("message")))
    except TableClosed:  # the server's own sentence (a ConnectionError: before OSError)
        await client.close()
        raise
    except failures as exc:
        await client.close()
        raise TableClosed(
            render(
                "tables_client_unreachable", url=client.url, error=str(exc) or type(exc).__name__
            )
        ) from exc
    return client
