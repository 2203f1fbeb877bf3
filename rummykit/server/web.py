"""The table server on the network: ``rummykit tables``, tornado serving the seats' WebSockets and the teacher's API.

Why tornado: it is the web server Jupyter itself runs on (jupyter_server, Voilà), so a school
that has JupyterLab has it already and its WebSocket and HTTP come from a well-kept library
with no framing written here; it runs on asyncio, and the server's work per message is small
(the referee's check, one database write, the seats' messages). The database writes run in
one worker thread, so a slow disk or PostgreSQL never stalls the other tables' messages
while it keeps each table's actions in order; the computer players think in another.

A seat's connection (``/ws``) speaks protocol v1 (docs/agents.md): the client says
``hello`` with the table ``code`` (and the seat ``token`` it was given, to get its seat
back); the server answers ``welcome`` with the seat and its token, then ``decide`` when the
seat is to act and ``update`` after every accepted action; the client answers a decide with
``action`` (its ``id``); a refused action gets the referee's ``verdict``; ``notice`` says a
line of the table's log. The teacher's API is HTTP with the teacher code as a bearer token:
``POST /api/tables`` creates tables, ``GET /api/tables`` shows every table's public view,
``GET /api/tables/CODE?open=1`` a table's with its open cards,
``GET /api/tables/CODE/record`` its game record, ``POST /api/tables/CODE/close`` closes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import logging
import secrets
import signal
import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.httputil
import tornado.ioloop
import tornado.netutil
import tornado.web
import tornado.websocket

from rummykit.agents.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    decode,
    encode,
    read_answer,
    read_hello,
    verdict_message,
    welcome_message,
)
from rummykit.messages import render
from rummykit.server import DEFAULT_PORT
from rummykit.server.page import page_context, page_language
from rummykit.server.store import DEFAULT_LEASE, SCHEMA_VERSION, Store, StoredTable, StoreError
from rummykit.server.tables import NEXT_ROUND, Hub, Refused, Table, TableSettings

__all__ = [
    "DEFAULT_PORT",
    "Limits",
    "TablesServer",
    "make_app",
    "tables_command",
    "trusted_proxies",
]

LOG = logging.getLogger("rummykit.tables")

_HERE = Path(__file__).resolve().parent

MAX_PER_SEAT = 3
"""Connections one seat may have at once (a learner's tabs): a new one closes the oldest."""

MAX_MESSAGE = 64 * 1024
"""The largest WebSocket message a client may send (bytes): an action is far smaller."""


MAX_PER_ADDRESS = 100
"""WebSocket connections one network address may hold at once by default: a class of 30
behind one school router, each with a few tabs, stays under it; one machine opening
connections by the thousand does not."""

CLOSE_TOO_MANY = 1013
"""The WebSocket close code of a connection over its address's cap ("try again later")."""


class Limits:
    """Per-connection limits: ``rate`` messages a second on average, bursts of ``burst``;
    ``strikes`` refusals (garbage, forged, over the rate) before the connection is closed;
    ``hello_within`` seconds to say hello; ``per_address`` connections one address may
    hold at once."""

    def __init__(
        self,
        rate: float = 10.0,
        burst: int = 30,
        strikes: int = 20,
        hello_within: float = 10.0,
        per_address: int = MAX_PER_ADDRESS,
    ) -> None:
        self.rate, self.burst, self.strikes, self.hello_within = rate, burst, strikes, hello_within
        self.per_address = per_address


class _Bucket:
    """A token bucket: ``take`` is False when the connection is over its rate."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.last = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class TablesServer:
    """The hub with its connections: sends each seat its messages, runs the computers,
    keeps the clocks, closes empty tables."""

    def __init__(
        self,
        hub: Hub,
        teacher_code: str,
        *,
        limits: Limits | None = None,
        pace: float = 0.5,
        language: str | None = None,
        proxies: frozenset[str] = frozenset(),
    ) -> None:
        self.hub = hub
        self.teacher_code = teacher_code
        self.limits = limits or Limits()
        self.pace = pace
        self.language = language
        self.db = ThreadPoolExecutor(1, thread_name_prefix="rummykit-db")
        self.ai = ThreadPoolExecutor(1, thread_name_prefix="rummykit-ai")
        self.locks: dict[str, asyncio.Lock] = {}
        self.running: set[str] = set()
        self.tasks: set[asyncio.Future[None]] = set()
        self.teacher_failures: dict[str, list[float]] = {}
        self.addresses: dict[str, int] = {}  # open WebSocket connections per address
        self.leasing = False
        self.last_lease = time.monotonic()
        self.proxies = proxies
        """The reverse proxies whose X-Real-IP / X-Forwarded-For are believed (``--trusted-proxy``)."""

    def client_address(self, request: tornado.httputil.HTTPServerRequest) -> str:
        """The address a request counts as: the learner's, as tornado read it from the
        X-Real-IP or X-Forwarded-For header (``xheaders``), when the connection comes from a
        trusted proxy; otherwise the connection's own address, whatever headers it sent."""
        peer = _peer(request)
        if peer is not None and peer in self.proxies:
            return request.remote_ip or peer
        return peer or request.remote_ip or "?"

    def settle(self, request: tornado.httputil.HTTPServerRequest) -> None:
        """Make ``request.remote_ip`` the address the request counts as (before a handler
        reads it): a client that is no trusted proxy gets nothing from its X- headers."""
        trusted = _peer(request) in self.proxies
        request.remote_ip = self.client_address(request)
        if self.proxies and not trusted:
            request.protocol = "http"  # the server speaks no TLS itself: its X-Scheme is ignored

    def lock(self, table: Table) -> asyncio.Lock:
        found = self.locks.get(table.code)
        if found is None:
            found = self.locks[table.code] = asyncio.Lock()
        return found

    def say(self, code: str, **params: object) -> str:
        return str(render(code, None, self.language, **params))

    # --- sending -----------------------------------------------------------------------

    def broadcast(self, table: Table) -> None:
        """Every connected seat gets its own message for the table's position."""
        for n, seat in enumerate(table.seats):
            texts: dict[bool, str] = {}
            for connection in list(seat.connections):
                assert isinstance(connection, SeatSocket)
                kind = connection.mirror
                if kind not in texts:
                    texts[kind] = encode(self.hub.message_for(table, n, kind)).decode()
                connection.send_text(texts[kind])

    def tell(self, table: Table, line: tuple[int, str, dict[str, Any], float]) -> None:
        seat, code, params, _ = line
        data = encode(
            {
                "type": "notice",
                "seat": seat,
                "code": code,
                "params": params,
                "message": self.say(code, seat=seat, **params),
            }
        ).decode()
        for place in table.seats:
            for connection in list(place.connections):
                _send(connection, data)

    # --- acting ------------------------------------------------------------------------

    async def act(self, conn: SeatSocket, data: dict[str, Any]) -> None:
        """A seat's answer: checked, stored, applied, then every seat told."""
        table, seat = conn.table, conn.seat
        assert table is not None and seat is not None
        for key, mine in (("seat", seat), ("table", table.code)):
            if key in data and data[key] != mine:
                raise Refused(
                    "tables_forged",
                    forged=True,
                    field=key,
                    value=json.dumps(data[key])[:40],
                    mine=json.dumps(mine),
                )
        ident = data.get("id")
        if not isinstance(ident, int) or isinstance(ident, bool) or ident != table.position:
            raise Refused("tables_stale", got=json.dumps(ident)[:20], position=table.position)
        try:
            action, _ = read_answer(data, ident)
        except ProtocolError as exc:
            raise Refused("tables_bad_message", error=str(exc)) from exc
        async with self.lock(table):
            verdict = self.hub.check(table, seat, ident, action)
            if verdict is not None:
                conn.send(verdict_message(table.position, verdict))
                return
            await self._store(table, seat, action)
        self.broadcast(table)
        self.kick(table)

    async def _store(self, table: Table, seat: int, action: Any) -> None:
        """Store, then apply (the caller holds the table's lock)."""
        loop = asyncio.get_running_loop()
        position, form, now = table.position, action.to_dict(), self.hub.now()
        await loop.run_in_executor(
            self.db, self.hub.store.append_action, table.code, position, seat, form, now
        )
        self.hub.apply(table, seat, action)

    async def _deal(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        try:
            async with self.lock(table):
                if not self.hub.next_round_due(table):
                    return
                row = (table.code, table.position, -1, {"type": NEXT_ROUND}, self.hub.now())
                await loop.run_in_executor(self.db, self.hub.store.append_action, *row)
                self.hub.dealt(table)
            self.broadcast(table)
        except StoreError as exc:
            LOG.error("table %s: %s", table.code, exc)
        finally:
            self.running.discard(table.code)
        self.kick(table)

    def kick(self, table: Table) -> None:
        """Start the table's computer player if one is due (at most one task per table)."""
        if table.code in self.running or self.hub.computer_due(table) is None:
            return
        self.running.add(table.code)
        task = asyncio.ensure_future(self._computers(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _computers(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                due = self.hub.computer_due(table)
                if due is None or table.status != "open":
                    return
                if self.pace:
                    await asyncio.sleep(self.pace)
                due = self.hub.computer_due(table)
                if due is None:
                    return
                seat, why = due
                line = self.hub.take_over(table, seat, why)
                if line is not None:
                    self.tell(table, line)
                    self.broadcast(table)  # the learner's decide becomes an update
                position = table.position
                obs = table.game.observation(seat)
                decision = await loop.run_in_executor(self.ai, table.agent(seat).decide, obs)
                async with self.lock(table):
                    if table.position != position or table.status != "open":
                        continue  # the learner moved meanwhile: think again
                    action = decision.action
                    if self.hub.check(table, seat, position, action) is not None:
                        action = obs.legal_actions[0]  # never stalls a table
                    await self._store(table, seat, action)
                self.broadcast(table)
        except StoreError as exc:
            LOG.error("table %s: %s", table.code, exc)
        except Exception:
            LOG.exception("table %s: the computer player failed", table.code)
        finally:
            self.running.discard(table.code)

    def tick(self) -> None:
        """Every quarter second: clocks run out, absent learners' turns are taken, the next
        round is dealt, empty tables close."""
        for table in list(self.hub.tables.values()):
            if self.hub.next_round_due(table) and table.code not in self.running:
                self.running.add(table.code)
                task = asyncio.ensure_future(self._deal(table))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            self.kick(table)
        for table in self.hub.sweep():
            self.locks.pop(table.code, None)
        if not self.leasing and time.monotonic() - self.last_lease >= self.hub.store.lease / 3:
            self.leasing = True
            task = asyncio.ensure_future(self._leases())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _leases(self) -> None:
        """Renew this server's leases and take over the tables of a server that stopped
        (several servers on one database: docs/tables.md); a table another server took
        over is let go, its seats told."""
        loop = asyncio.get_running_loop()
        known = set(self.hub.tables)
        try:
            held, taken = await loop.run_in_executor(self.db, self.hub.leases, known)
            lost, came = self.hub.settle(known, held, taken)
            for table in lost:
                self.locks.pop(table.code, None)
                for seat in table.seats:
                    for connection in list(seat.connections):
                        assert isinstance(connection, SeatSocket)
                        connection.refuse(Refused("tables_lease_lost", table=table.code), True)
            for table in came:
                self.kick(table)
        except StoreError as exc:
            LOG.error("%s", exc)
        except Exception:
            LOG.exception("the leases could not be kept")
        finally:
            self.last_lease = time.monotonic()
            self.leasing = False

    # --- the teacher -------------------------------------------------------------------

    async def elsewhere(self, code: str) -> StoredTable | None:
        """Table ``code`` as the database holds it when it is open and this server doesn't
        play it (another server of the school does, on the same database); else None."""
        if code in self.hub.tables:
            return None
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(self.db, self.hub.store.table, code)
        return stored if stored is not None and stored.status != "closed" else None

    def is_teacher(self, handler: tornado.web.RequestHandler) -> bool:
        said = handler.request.headers.get("Authorization", "")
        ip = handler.request.remote_ip or "?"
        now = time.monotonic()
        recent = [t for t in self.teacher_failures.get(ip, []) if now - t < 60]
        if len(recent) >= 10:
            raise tornado.web.HTTPError(429)
        good = said.startswith("Bearer ") and hmac.compare_digest(
            said[7:].strip().encode(), self.teacher_code.encode()
        )
        if said and not good:
            recent.append(now)
            LOG.warning("refused from %s: %s", ip, self.say("tables_bad_teacher_code"))
        self.teacher_failures[ip] = recent
        return good


def _peer(request: tornado.httputil.HTTPServerRequest) -> str | None:
    """The address of the connection itself (tornado's connection context keeps it, whatever
    ``xheaders`` made of ``remote_ip``)."""
    context = getattr(request.connection, "context", None)
    address = getattr(context, "address", None)
    return str(address[0]) if isinstance(address, tuple) and address else None


def trusted_proxies(text: str) -> frozenset[str]:
    """The addresses of ``--trusted-proxy`` (``ADDRESS[,ADDRESS]``), each as tornado writes a
    connection's address; ValueError (its sentence) for one that is not an IP address.

    >>> sorted(trusted_proxies(" 10.0.0.2, ::1 ,"))
    ['10.0.0.2', '::1']
    >>> trusted_proxies("proxy.school")
    Traceback (most recent call last):
    ...
    ValueError: --trusted-proxy 'proxy.school' is not an IP address: give the proxy's address, e.g. 10.0.0.2 (several separated by commas)
    """
    found = set()
    for part in text.split(","):
        if part.strip():
            try:
                found.add(str(ipaddress.ip_address(part.strip())))
            except ValueError:
                raise ValueError(render("tables_cli_bad_proxy", value=part.strip()[:60])) from None
    return frozenset(found)


def _send(connection: object, data: str) -> None:
    assert isinstance(connection, SeatSocket)
    connection.send_text(data)


class SeatSocket(tornado.websocket.WebSocketHandler):
    """One seat's connection: hello, then answers; everything it may not do refused."""

    def initialize(self, server: TablesServer) -> None:
        self.server = server
        self.table: Table | None = None
        self.seat: int | None = None
        self.strikes = 0
        self.over_rate = 0  # messages refused over the rate in a row
        self.bucket = _Bucket(server.limits.rate, server.limits.burst)
        self.hello_timer: object | None = None
        self.mirror = False  # the page asked for its own position with every message
        self.address = "?"
        self.counted = False  # whether this connection counts against its address's cap

    def prepare(self) -> None:
        self.server.settle(self.request)

    def check_origin(self, origin: str) -> bool:
        # A seat is claimed with its token, never with a cookie: a page of another origin
        # (JupyterLab, the JupyterLite site, the classroom page) may connect, and gains
        # nothing without a code or a token.
        return True

    def open(self, *args: str, **kwargs: str) -> None:
        self.address = self.request.remote_ip or "?"
        most = self.server.limits.per_address
        if self.server.addresses.get(self.address, 0) >= most:
            LOG.warning(
                "refused from %s: %s",
                self.address,
                self.server.say("tables_too_many_connections", count=most),
            )
            self.send(
                {
                    "type": "error",
                    "code": "error",
                    "reason": "tables_too_many_connections",
                    "message": self.server.say("tables_too_many_connections", count=most),
                }
            )
            self.close(CLOSE_TOO_MANY, "tables_too_many_connections")
            return
        self.server.addresses[self.address] = self.server.addresses.get(self.address, 0) + 1
        self.counted = True
        loop = tornado.ioloop.IOLoop.current()
        self.hello_timer = loop.call_later(self.server.limits.hello_within, self._no_hello)

    def _no_hello(self) -> None:
        if self.table is None:
            self.refuse(
                Refused("tables_no_hello", seconds=self.server.limits.hello_within), close=True
            )

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(encode(message).decode())

    def send_text(self, data: str) -> None:
        with contextlib.suppress(tornado.websocket.WebSocketClosedError):
            self.write_message(data.rstrip("\n"))

    def refuse(self, refused: Refused, close: bool = False, strike: bool = True) -> None:
        message = render(refused.code, None, self.server.language, **refused.params)
        where = f"{self.table.code}/{self.seat}" if self.table is not None else "-"
        if refused.forged:
            LOG.warning("refused from %s (%s): %s", self.request.remote_ip, where, message)
        self.strikes += strike
        self.send(
            {"type": "error", "code": "error", "reason": refused.code, "message": str(message)}
        )
        if close or self.strikes >= self.server.limits.strikes:
            self.close(1008, refused.code[:100])

    async def on_message(self, message: str | bytes) -> None:
        if self.close_code is not None:
            return
        if not self.bucket.take():  # a polite client waits and is heard again; a flood is closed
            self.over_rate += 1
            rate = Refused("tables_rate", rate=self.server.limits.rate)
            self.refuse(rate, close=self.over_rate > 3, strike=False)
            return
        self.over_rate = 0
        try:
            if isinstance(message, bytes):
                raise Refused("tables_bad_message", error=self.server.say("tables_binary"))
            try:
                data = decode(message, limits=True)
            except ProtocolError as exc:
                raise Refused("tables_bad_message", error=str(exc)) from exc
            kind = data["type"]
            if self.table is None:
                self.hello(data)
            elif kind == "action":
                await self.server.act(self, data)
            elif kind == "bye":
                self.close(1000)
            elif kind == "hello":
                raise Refused("tables_hello_twice")
            # anything else: a later protocol's message, ignored as protocol v1 says
        except Refused as refused:
            self.refuse(refused, close=self.table is None)  # no seat: no second try
        except StoreError as exc:
            LOG.error("%s", exc)
            self.send(
                {"type": "error", "code": "error", "reason": "tables_store", "message": str(exc)}
            )

    def hello(self, data: dict[str, Any]) -> None:
        try:
            name, _variants, version = read_hello(data)
        except ProtocolError as exc:
            raise Refused("tables_bad_message", error=str(exc)) from exc
        hub = self.server.hub
        table = hub.table(data.get("table"))
        seat, token = hub.join(table.code, data.get("token"), name)
        self.table, self.seat = table, seat
        self.mirror = data.get("mirror") is True
        others = list(table.seats[seat].connections)
        for old in others[: max(0, len(others) - MAX_PER_SEAT + 1)]:
            assert isinstance(old, SeatSocket)  # the oldest tabs of the seat give way
            old.refuse(Refused("tables_seat_elsewhere", max=MAX_PER_SEAT), close=True)
        back = hub.connect(table, seat, self)
        if self.hello_timer is not None:
            tornado.ioloop.IOLoop.current().remove_timeout(self.hello_timer)
        self.send(
            welcome_message(
                version,
                table.seats[seat].name or name,
                table=table.code,
                seat=seat,
                token=token,
                players=table.game.players,
                seats=[s.kind for s in table.seats],
                clock=table.settings.clock,
            )
        )
        for line in table.notices[-20:]:
            seat_n, code, params, _ = line
            self.send(
                {
                    "type": "notice",
                    "seat": seat_n,
                    "code": code,
                    "params": params,
                    "message": self.server.say(code, seat=seat_n, **params),
                }
            )
        self.send(hub.message_for(table, seat, self.mirror))
        if back is not None:
            self.server.tell(table, back)
            self.server.broadcast(table)

    def on_close(self) -> None:
        if self.counted:
            self.counted = False
            left = self.server.addresses.get(self.address, 1) - 1
            if left > 0:
                self.server.addresses[self.address] = left
            else:
                self.server.addresses.pop(self.address, None)
        if self.hello_timer is not None:
            tornado.ioloop.IOLoop.current().remove_timeout(self.hello_timer)
        if self.table is not None and self.seat is not None:
            self.server.hub.disconnect(self.table, self.seat, self)


class _Api(tornado.web.RequestHandler):
    def initialize(self, server: TablesServer) -> None:
        self.server = server

    def prepare(self) -> None:
        self.server.settle(self.request)

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")

    def reply(self, data: object, status: int = 200) -> None:
        self.set_status(status)
        self.finish(json.dumps(data, ensure_ascii=False))

    def refuse(self, status: int, code: str, **params: object) -> None:
        self.reply({"error": code, "message": self.server.say(code, **params)}, status)

    def teacher(self) -> bool:
        if self.server.is_teacher(self):
            return True
        self.refuse(403, "tables_bad_teacher_code")
        return False

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        code = "tables_too_many_tries" if status_code == 429 else "tables_http_error"
        self.finish(
            json.dumps({"error": code, "message": self.server.say(code, status=status_code)})
        )


class TablesHandler(_Api):
    """``GET /api/tables``: every table's public view (``?open=1``: with its hands);
    ``POST``: new tables (teacher only)."""

    async def get(self) -> None:
        if not self.teacher():
            return
        hub = self.server.hub
        open_cards = self.get_argument("open", "") in ("1", "true", "yes")
        here = [hub.public_view(t, open_cards) for t in hub.tables.values()]
        # and the tables the school's other servers play on the same database (none when
        # this server is the only one): watched, never played, from what the store holds
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(
            self.server.db, hub.store.open_tables_except, set(hub.tables)
        )
        elsewhere = [hub.public_view(t, open_cards, here=False) for t in hub.elsewhere(stored)]
        self.reply({"tables": here + elsewhere})

    def post(self) -> None:
        if not self.teacher():
            return
        if len(self.request.body) > MAX_MESSAGE:
            return self.refuse(413, "tables_too_big", limit=MAX_MESSAGE)
        try:
            data = json.loads(self.request.body or b"{}")
            count = data.pop("count", 1) if isinstance(data, dict) else 1
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 50:
                raise Refused(
                    "tables_bad_setting", name="count", value=json.dumps(count), expected="1–50"
                )
            settings = TableSettings.from_dict(data)
        except Refused as refused:  # a ValueError too: first
            return self.refuse(400, refused.code, **refused.params)
        except ValueError as exc:
            return self.refuse(400, "tables_bad_json", error=str(exc))
        tables = [self.server.hub.create(settings) for _ in range(count)]
        for table in tables:
            self.server.kick(table)
        self.reply({"tables": [self.server.hub.public_view(t) for t in tables]}, 201)


class TableHandler(_Api):
    """``GET /api/tables/CODE``: a table's public view (``?open=1``: its hands, teacher only)."""

    async def get(self, code: str) -> None:
        hub = self.server.hub
        table = hub.tables.get(code)
        here = table is not None
        if table is None:  # another server of the school may play it
            stored = await self.server.elsewhere(code)
            table = hub.elsewhere([stored])[0] if stored is not None else None
        if table is None:
            LOG.warning(
                "refused from %s: %s",
                self.request.remote_ip,
                self.server.say("tables_no_such_table", table=code[:16]),
            )
            return self.refuse(404, "tables_no_such_table", table=code[:16])
        open_cards = self.get_argument("open", "") in ("1", "true", "yes")
        if open_cards and not self.teacher():
            return
        self.reply(hub.public_view(table, open_cards, here=here))


class RecordHandler(_Api):
    """``GET /api/tables/CODE/record``: the table's game record (teacher only)."""

    def get(self, code: str) -> None:
        if not self.teacher():
            return
        table = self.server.hub.tables.get(code)
        number = self.get_argument("round", "")
        if table is not None and number.isdigit() and 1 <= int(number) <= table.match.round_number:
            text: str | None = table.match.rounds[int(number) - 1].to_json()
        else:
            text = table.game.to_json() if table is not None else self.server.hub.store.record(code)
        if text is None:
            return self.refuse(404, "tables_no_such_table", table=code[:16])
        self.finish(text)


class CloseHandler(_Api):
    """``POST /api/tables/CODE/close``: close a table now, its record kept (teacher only)."""

    async def post(self, code: str) -> None:
        if not self.teacher():
            return
        table = self.server.hub.tables.get(code)
        if table is None:
            if await self.server.elsewhere(code) is not None:
                return self.refuse(409, "tables_played_elsewhere", table=code[:16])
            return self.refuse(404, "tables_no_such_table", table=code[:16])
        for seat in table.seats:
            for connection in list(seat.connections):
                assert isinstance(connection, SeatSocket)
                connection.send({"type": "bye"})
                connection.close(1000)
        self.server.hub.close(table)
        self.reply({"closed": code})


class TeacherPage(tornado.web.RequestHandler):
    """``GET /teacher``: the teacher's page (``?lang=pt``), from ``templates/teacher.html``;
    it holds no table and no code: its script asks the teacher's API with the code typed in."""

    def initialize(self, server: TablesServer) -> None:
        self.server = server

    def prepare(self) -> None:
        self.server.settle(self.request)

    def set_default_headers(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
            "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        )

    def get(self) -> None:
        language = page_language(self.get_argument("lang", "")[:16], self.server.language)
        self.render("teacher.html", **page_context(language))


class HealthHandler(_Api):
    def get(self) -> None:
        self.reply(
            {"ok": True, "tables": len(self.server.hub.tables), "protocol": PROTOCOL_VERSION}
        )


class _Application(tornado.web.Application):
    server: TablesServer | None = None

    def log_request(self, handler: tornado.web.RequestHandler) -> None:
        """tornado's access log, with the address the request counts as (any handler's)."""
        if self.server is not None:
            self.server.settle(handler.request)
        super().log_request(handler)


def make_app(server: TablesServer) -> tornado.web.Application:
    """The tornado application: the seats' WebSocket, the teacher's API and page."""
    args = {"server": server}
    app = _Application(
        [
            (r"/ws", SeatSocket, args),
            (r"/api/tables", TablesHandler, args),
            (r"/api/tables/([A-Za-z0-9]{1,32})", TableHandler, args),
            (r"/api/tables/([A-Za-z0-9]{1,32})/record", RecordHandler, args),
            (r"/api/tables/([A-Za-z0-9]{1,32})/close", CloseHandler, args),
            (r"/health", HealthHandler, args),
            (r"/teacher", TeacherPage, args),
            (r"/", tornado.web.RedirectHandler, {"url": "/teacher", "permanent": False}),
        ],
        template_path=str(_HERE / "templates"),
        static_path=str(_HERE / "static"),
        websocket_max_message_size=MAX_MESSAGE,
        websocket_ping_interval=20,
        websocket_ping_timeout=20,
    )
    app.server = server
    return app


def tables_command(
    ip: str,
    port: int,
    db: str,
    teacher_code: str | None,
    records: str | None = None,
    pace: float = 0.5,
    language: str | None = None,
    *,
    server_id: str | None = None,
    lease: float = DEFAULT_LEASE,
    per_address: int = MAX_PER_ADDRESS,
    trusted_proxy: str = "",
) -> int:
    """``rummykit tables``: restore the stored tables and serve until stopped (SIGINT, SIGTERM).

    ``server_id`` names this server in the database (default: the host's name and the port),
    so that the same server restarted gets its tables back at once; another server on the
    same database takes them over when this one has not renewed its lease for ``lease``
    seconds. ``trusted_proxy`` (``ADDRESS[,ADDRESS]``) names the reverse proxies whose
    X-Real-IP / X-Forwarded-For headers give a learner's address (tornado's ``xheaders``),
    believed on connections from those addresses only."""
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    for option, value in (("--lease", lease), ("--max-per-address", per_address)):
        if not value > 0:
            message = render("tables_cli_bad_number", option=option, value=value)
            print(render("cli_error", command="tables", message=message), file=sys.stderr)
            return 2
    try:
        proxies = trusted_proxies(trusted_proxy)
    except ValueError as exc:
        print(render("cli_error", command="tables", message=str(exc)), file=sys.stderr)
        return 2
    sockets = tornado.netutil.bind_sockets(port, ip)
    bound = sockets[0].getsockname()[1]
    try:
        store = Store(db, owner=server_id or f"{socket.gethostname()}:{bound}", lease=lease)
    except StoreError as exc:
        print(render("cli_error", command="tables", message=str(exc)), file=sys.stderr)
        return 2
    if store.migrated_from is not None:
        LOG.warning("%s", render("tables_db_migrated", old=store.migrated_from, new=SCHEMA_VERSION))
    hub = Hub(store, records=records)
    restored = hub.restore()
    code = teacher_code or secrets.token_urlsafe(12)
    limits = Limits(per_address=per_address)
    server = TablesServer(hub, code, pace=pace, language=language, limits=limits, proxies=proxies)

    async def main() -> None:
        # tornado reads X-Real-IP / X-Forwarded-For (skipping the proxies' own addresses in
        # a chain of them); TablesServer.settle believes it only from a trusted proxy
        http = tornado.httpserver.HTTPServer(
            make_app(server), xheaders=bool(proxies), trusted_downstream=sorted(proxies)
        )
        http.add_sockets(sockets)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        ticker = tornado.ioloop.PeriodicCallback(server.tick, 250)
        ticker.start()
        for table in hub.tables.values():
            server.kick(table)
        print(
            render(
                "tables_listening",
                url=f"http://{ip}:{bound}/",
                ws=f"ws://{ip}:{bound}/ws",
                db=store.kind,
                restored=restored,
            ),
            flush=True,
        )
        if teacher_code is None:
            print(render("tables_teacher_code", code=code), flush=True)
        if proxies:
            LOG.info("%s", render("tables_trusting_proxy", proxies=", ".join(sorted(proxies))))
        await stop.wait()
        ticker.stop()
        http.stop()

    asyncio.run(main())
    server.db.shutdown()
    with contextlib.suppress(StoreError):
        store.release()  # stopped politely: another server may take the tables over at once
    store.close()
    return 0
