"""The card table at a served table: the Table widget drawing one seat of a game the table server holds.

:class:`RemoteTable` is the :class:`~rummykit.widgets.table.Table` the learners know — the
same page, buttons and explanations — for a seat joined by table code. The game is the
server's: each message the server sends the seat carries the seat's own position (its hand,
the table, the turn in progress, the cards it can't see replaced by placeholders), and the
widget loads that as a mirror game, so every button still says what it would do and why
not, in the referee's words, before anything is sent. An allowed move is sent to the server;
the table changes when the server's update comes back; a refusal from the server is shown
as the server's verdict.

A learner joins in one call, in JupyterLab and in the JupyterLite site alike (:func:`join`
picks the connection the runtime has: tornado's client on a desktop Python, the browser's
WebSocket in Pyodide)::

    from rummykit.widgets.remote import join

    table = await join("ws://SERVER:8765/ws", "K7QXM2PA", "Ana")
    table

The widget itself imports nothing of the server: it is given a client — an object with
``seat``, ``welcome``, ``last``, ``on_message`` and an ``act`` coroutine, as
:class:`rummykit.server.client.TableClient` made with ``mirror=True`` — whose messages
are read in the background (``client.listen()``)::

    client = TableClient("ws://SERVER:8765/ws", "K7QXM2PA", name="Ana", mirror=True)
    await client.connect()
    table = RemoteTable(client)
    asyncio.ensure_future(client.listen())
    table
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol

from rummykit.agents.protocol import read_observation
from rummykit.ai import Agent
from rummykit.ai.trace import agent_name
from rummykit.cards import Card
from rummykit.game import Game
from rummykit.game.actions import Action
from rummykit.game.facts import Event
from rummykit.game.observation import Observation
from rummykit.game.scoring import RoundResult
from rummykit.messages import render
from rummykit.voice import event_text
from rummykit.widgets.table import Table
from rummykit.widgets.view import Control, sorted_hand

__all__ = ["SEATS_FILE", "RemoteTable", "SeatClient", "join", "keep_token", "kept_token"]

_CONTROLS: tuple[str, ...] = ("draw", "take_discard", "take_cut", "undo", "return_cut")
_CONTROLS += ("discard", "meld", "hint", "clear", "next_round")
"""The controls a table has (``Table._controls``): once the round is over, each says so."""


class SeatClient(Protocol):
    """What :class:`RemoteTable` needs of a connection to a served table."""

    seat: int | None
    welcome: dict[str, Any] | None
    last: dict[str, Any] | None
    on_message: Callable[[dict[str, Any]], None] | None

    def act(
        self, action: Action, trace: dict[str, Any] | None = None
    ) -> Coroutine[Any, Any, None]: ...


class RemoteTable(Table):
    """The Table widget for one seat of a served table (see the module's text)."""

    def __init__(
        self, client: SeatClient, *, language: str | None = None, four_colour: bool | None = None
    ) -> None:
        if client.last is None or client.welcome is None or client.seat is None:
            raise ValueError(render("tables_client_not_connected"))
        position = client.last.get("position")
        if position is None:
            raise ValueError(render("tables_widget_no_mirror"))
        self.client = client
        self.remote_pending = False
        self.over = False
        self.final: Observation | None = None
        """The seat's view of the table once the round is over (the server sends no position
        then): the page is drawn from it, the mirror game being the position before the end."""
        self.round_result: RoundResult | None = None
        """How the round ended, as the server said at its end."""
        self.tasks: set[asyncio.Future[None]] = set()
        self._events_seen = len(client.last["observation"]["history"])
        welcome = client.welcome
        self.kinds = [str(kind) for kind in welcome.get("seats", [])]
        names = self._named(client.seat, client.last.get("names"))
        super().__init__(
            game=Game.load(json.dumps(position)),
            seat=client.seat,
            ai_delay=0,
            names=names or None,
            show_reasoning=False,  # the other seats are the server's: no reasoning to show
            language=language,
            four_colour=four_colour,
        )
        self.code = str(welcome.get("table", ""))
        # the log's other column: learners as well as computers play the other seats
        other = render("tables_widget_other_moves", None, self.language)
        self.labels = {**self.labels, "ai_moves_plain": str(other)}
        client.on_message = self.receive

    def _named(self, seat: int, names: object) -> list[str]:
        """Each seat's name on the page: "You"; "Seat N (Ana)", a learner by the name the
        server says they gave (``names``; "Seat N" while the seat is free); a computer
        "Seat N (easy AI)", as the local Table names it. The seat's number stays in every
        name: the log's and the scoring's sentences say "Seat N"."""
        given = names if isinstance(names, list) else []
        out = []
        for n, kind in enumerate(self.kinds):
            name = given[n].strip()[:40] if n < len(given) and isinstance(given[n], str) else ""
            if n == seat:
                out.append(str(render("widget_you")))
            elif kind != "human":
                out.append(str(render("widget_ai_name", seat=n, level=agent_name(kind))))
            elif name:
                out.append(str(render("tables_seat_learner", seat=n, name=name)))
            else:
                out.append(str(render("tables_seat_name", seat=n)))
        return out

    def _agents(self, ai: Any) -> list[Agent | None]:
        return [None] * self.players  # every other seat is the server's

    def __repr__(self) -> str:
        return f"RemoteTable('{self.variant_name}', players={self.players}, seat={self.seat}, table='{getattr(self, 'code', '')}')"

    def act(self, action: Action, *, pending: dict[str, Any] | None = None) -> bool:
        """Check the learner's move on the mirror; an allowed one goes to the server (the
        table changes when the server's update comes back), a refused one is shown now."""
        verdict = self.game.check(action, self.seat)
        if not verdict.ok or self.remote_pending or self.over:
            if self.remote_pending or self.over:
                self._guide("tables_widget_over" if self.over else "tables_widget_waiting")
                self._refresh()
                return False
            return super().act(action, pending=pending)  # the mirror refuses: nothing is sent
        self.remote_pending = True
        self.verdict = None
        self.pending = None
        self.selected = []
        task = asyncio.ensure_future(self.client.act(action))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        self._refresh()
        return True

    # --- once the round is over: the server's last view, every control said to be done ------

    def _seen(self) -> Observation:
        return self.final if self.final is not None else super()._seen()

    @property
    def hand_order(self) -> list[Card]:
        if self.final is not None:
            return sorted_hand(self.final.hand, self.sort_by)
        return super().hand_order

    def _status(self) -> str:
        if self.final is None:
            return super()._status()
        if self.round_result is None:  # a server that sends no result
            return render("tables_widget_over")
        return f"{self._round_winner(self.round_result)} {render('tables_widget_one_round')}"

    def _result(self) -> RoundResult | None:
        return self.round_result if self.final is not None else super()._result()

    def _over(self) -> Control:
        return Control(False, render("tables_widget_over"))

    def _controls(self, chosen: list[Card]) -> dict[str, Control]:
        if self.final is None:
            return super()._controls(chosen)
        return {name: self._over() for name in _CONTROLS}

    def _meld_controls(self, chosen: list[Card], index: int) -> dict[str, Control]:
        if self.final is None:
            return super()._meld_controls(chosen, index)
        out = {"layoff": self._over()}
        if any(c.is_joker for c in self.final.table[index].meld.cards):
            out["exchange"] = self._over()
        return out

    def _cut_range(self) -> dict[str, int] | None:
        return None if self.final is not None else super()._cut_range()

    def _hint(self) -> None:
        if self.final is not None:
            self.hint_text = render("tables_widget_over")
            return
        super()._hint()

    def step_ai(self) -> bool:
        return False  # the server plays the computer seats

    def next_round(self) -> None:
        self._guide("tables_widget_one_round")
        self._refresh()

    def receive(self, message: dict[str, Any]) -> None:
        """One message from the server: the table moved, the move was refused, or a line of
        the table's log."""
        kind = message.get("type")
        if kind in ("decide", "update"):
            self.remote_pending = False
            if self.kinds and message.get("names") is not None:  # a learner sat down
                self.names = self._named(self.seat, message["names"])
            history = message["observation"]["history"]
            for event in history[self._events_seen :]:
                said = event_text(Event(event["seat"], event["code"], event["params"]), self.seat)
                self._logged(int(event["seat"]), str(said))
            if len(history) > self._events_seen:
                self.announcement = self.moves[-1]["text"]
            self._events_seen = len(history)
            if message.get("position") is not None:
                self.game = Game.load(json.dumps(message["position"]))
            elif message["observation"]["phase"] == "over":  # the server sends none then
                self.over = True
                self.final = read_observation(message)
                result = message.get("result")
                self.round_result = RoundResult.from_wire(result) if result else None
                self.selected = []
                self._guide("tables_widget_over")
            # else another seat's turn the server can't mirror for this seat yet: the table
            # as it was until that turn ends, the log up to date
            self._refresh()
        elif kind in ("verdict", "error"):
            self.remote_pending = False
            self.alert = str(message.get("message", ""))
            self.announcement = ""
            self._refresh()
        elif kind == "notice":
            self.announcement = str(message.get("message", ""))
            self._logged(int(message.get("seat", self.seat)), self.announcement)
            self._refresh()


SEATS_FILE = ".rummykit-seats.json"
"""Where a page in the JupyterLite site keeps its seat tokens, beside the notebook: Python
runs in a worker there, which a reload ends, and the site's own storage keeps this file."""


def kept_token(url: str, code: str, folder: Path | None = None) -> str | None:
    """The seat token kept for table ``code`` at ``url`` (:func:`keep_token`), if any.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> keep_token("ws://s/ws", "k7qxm2pa", "t0k3n", folder)
    >>> kept_token("ws://s/ws", " K7QXM2PA ", folder), kept_token("ws://t/ws", "K7QXM2PA", folder)
    ('t0k3n', None)
    """
    path = (folder or Path.cwd()) / SEATS_FILE
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or not ours to read
        return None
    found = kept.get(f"{url} {code.strip().upper()}") if isinstance(kept, dict) else None
    return found if isinstance(found, str) else None


def keep_token(url: str, code: str, token: str, folder: Path | None = None) -> None:
    """Keep ``token`` as this page's seat at table ``code`` (a file that can't be written
    keeps nothing: the learner can still pass ``token=``)."""
    path = (folder or Path.cwd()) / SEATS_FILE
    try:
        kept = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        if not isinstance(kept, dict):
            kept = {}
        kept[f"{url} {code.strip().upper()}"] = token
        path.write_text(json.dumps(kept, indent=1), encoding="utf-8")
    except (OSError, ValueError):
        return


async def join(
    url: str,
    code: str,
    name: str,
    *,
    token: str | None = None,
    timeout: float = 20.0,
    language: str | None = None,
    four_colour: bool | None = None,
) -> RemoteTable:
    """The learner's seat at the served table ``code``, as the card table: connected to the
    table server at ``url`` (``ws://SERVER:8765/ws``; ``wss://…`` from a page served over
    https), its messages read in the background; with the seat ``token`` of an earlier
    join (``table.client.token``), that seat back. In a browser page (the JupyterLite site)
    the browser's WebSocket carries it, elsewhere tornado's client; either way a refusal
    (no such table, every seat taken, no server there) is a
    :class:`~rummykit.server.seat.TableClosed` with the server's or the browser's sentence.

    In the browser the page keeps its seat's token beside the notebook (:data:`SEATS_FILE`),
    so the same call after a reload gets the same seat back (a kept token the table no
    longer knows is dropped, and the seat asked for anew)."""
    from rummykit.runtime import in_browser
    from rummykit.server.seat import SeatConnection, TableClosed, join_seat

    browser = in_browser()
    kept = kept_token(url, code) if browser and token is None else None

    def connection(given: str | None) -> SeatConnection:
        if browser:
            from rummykit.server.browser import BrowserTableClient

            return BrowserTableClient(url, code, name=name, token=given, mirror=True)
        from rummykit.server.client import TableClient

        return TableClient(url, code, name=name, token=given, mirror=True)

    client = connection(token or kept)
    try:
        await join_seat(client, timeout)
    except TableClosed:
        if kept is None:
            raise
        client = connection(None)  # the kept token is of a closed or another table
        await join_seat(client, timeout)
    if browser and client.token is not None:
        keep_token(url, code, client.token)
    table = RemoteTable(client, language=language, four_colour=four_colour)
    listening = asyncio.ensure_future(client.listen())
    table.tasks.add(listening)
    listening.add_done_callback(table.tasks.discard)
    return table
