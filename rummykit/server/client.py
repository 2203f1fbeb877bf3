"""A seat at a served table from Python: join by table code, receive the seat's messages, answer decides.

:class:`TableClient` speaks protocol v1 over the table server's WebSocket (tornado's
client, on asyncio: in a Jupyter kernel it runs on the kernel's own loop). It keeps the seat
token the server gives, so :meth:`TableClient.connect` again — after a reload, a lost
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
import contextlib
import json
from collections.abc import Callable
from typing import Any

import tornado.websocket

from rummykit.agents.protocol import PROTOCOL_VERSION, decode, encode, read_observation
from rummykit.ai.agents import Agent
from rummykit.errors import Said
from rummykit.game.actions import Action, parse_action
from rummykit.game.observation import Observation
from rummykit.messages import render

__all__ = ["TableClient", "TableClosed", "join_table"]


class TableClosed(Said, ConnectionError):
    """The server closed the seat's connection (or refused the hello: the server's sentence)."""


class TableClient:
    """One seat's connection to a table server."""

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
        self._socket: tornado.websocket.WebSocketClientConnection | None = None

    async def connect(self) -> dict[str, Any]:
        """Connect and say hello (with the seat token once there is one); the welcome."""
        self._socket = await tornado.websocket.websocket_connect(self.url)
        hello: dict[str, Any] = {
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "name": self.name,
            "variants": ["hungarian", "rommi"],
            "table": self.code,
        }
        if self.token is not None:
            hello["token"] = self.token
        if self.mirror:
            hello["mirror"] = True
        await self.send(hello)
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
        if self._socket is None:
            raise TableClosed(render("tables_client_not_connected"))
        await self._socket.write_message(encode(message).decode().rstrip("\n"))

    async def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message from the server (:class:`TableClosed` when the connection ends)."""
        if self._socket is None:
            raise TableClosed(render("tables_client_not_connected"))
        read = self._socket.read_message()
        text = await (asyncio.wait_for(read, timeout) if timeout else read)
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
        if self._socket is not None:
            with contextlib.suppress(tornado.websocket.WebSocketClosedError):
                await self.send({"type": "bye"})
            self._socket.close()
            self._socket = None

    def __repr__(self) -> str:
        return f"<TableClient {self.code} seat={self.seat} {json.dumps(self.url)}>"


async def join_table(url: str, code: str, name: str, timeout: float = 20.0) -> TableClient:
    """A seat at table ``code`` for a page: connected with ``mirror=True`` (every message
    carries the seat's own position, as :class:`~rummykit.widgets.remote.RemoteTable`
    needs), with its first view received; :class:`TableClosed` with the server's sentence
    when it refuses (no such table, every seat taken)."""
    client = TableClient(url, code, name=name, mirror=True)
    try:
        await asyncio.wait_for(client.connect(), timeout)
        while client.last is None:
            message = await client.receive(timeout)
            if message["type"] == "error":
                raise TableClosed(str(message.get("message")))
    except TableClosed:  # the server's own sentence (a ConnectionError: before OSError)
        await client.close()
        raise
    except (OSError, asyncio.TimeoutError, tornado.websocket.WebSocketError) as exc:
        await client.close()
        raise TableClosed(
            render("tables_client_unreachable", url=url, error=str(exc) or type(exc).__name__)
        ) from exc
    return client
