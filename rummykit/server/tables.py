"""The table server's core: tables of seats around one referee's game each, with no web in it.

A :class:`Hub` holds many :class:`Table` objects. Each table holds its :class:`Game` alone:
a seat learns only what :meth:`Game.observation` gives it, as protocol v1 messages
(``decide`` when the seat is to act, ``update`` otherwise — a program ignores a type it
doesn't know). Every action is checked by the referee, stored (:class:`~rummykit.server.store.Store`)
and only then applied and acknowledged; a table is brought back after a restart by
replaying its stored actions on a game dealt from its stored seed.

Seats are ``human`` (a learner or a program joins with the table's code, gets a seat token
and gets the seat back with it) or a computer level. An optional move clock and an
"away" timeout let a computer player take an absent learner's turn (said in the table's
log); a table with no learner connected is kept for ``keep_empty`` seconds, then closed,
its record kept.

>>> from rummykit.server.store import Store
>>> hub = Hub(Store("sqlite://"), now=lambda: 100.0)
>>> table = hub.create(TableSettings.from_dict({"variant": "rommi", "seats": ["human", "easy"]}))
>>> seat, token = hub.join(table.code, None, "Ana")
>>> seat, len(token) > 20, hub.message_for(table, 0)["type"] in ("decide", "update")
(0, True, True)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from rummykit.agents.protocol import decide_message
from rummykit.ai.agents import Agent
from rummykit.ai.levels import AGENTS, make_agent
from rummykit.cards import parse_card, sort_cards
from rummykit.errors import RummykitError
from rummykit.explain import Verdict
from rummykit.game.actions import Action
from rummykit.game.match import Match
from rummykit.game.saved import FORMAT_VERSION, POSITION_FORMAT
from rummykit.game.state import Game
from rummykit.messages import render
from rummykit.server.store import Store, StoredTable, StoreError
from rummykit.variants import VariantError
from rummykit.variants import variant as get_variant

__all__ = [
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "HUMAN",
    "Hub",
    "Refused",
    "Table",
    "TableSettings",
    "new_code",
    "schema",
    "seat_position",
]

LOG = logging.getLogger("rummykit.tables")

HUMAN = "human"
"""The kind of a seat a learner (or a program over the network) joins."""

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The letters of a table code: no 0/O or 1/I to mix up when a teacher reads it out."""

CODE_LENGTH = 8
"""Letters in a table code: 32⁸ ≈ 10¹² codes, drawn with :mod:`secrets`."""


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of what a seat's connection carries: ``$defs``
    ``to_server`` and ``to_seat``, built on protocol v1's (:func:`rummykit.agents.protocol.schema`).

    >>> sorted(schema()["$defs"])[:4]
    ['error', 'hello', 'notice', 'to_seat']
    """
    text = resources.files(__package__).joinpath("tables.schema.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found


def new_code(length: int = CODE_LENGTH) -> str:
    """A fresh table code (unguessable: :func:`secrets.choice`)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def token_hash(token: str) -> str:
    """What the database keeps of a seat token: its SHA-256, never the token itself."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_position(game: Game, seat: int) -> dict[str, Any] | None:
    """``seat``'s own position as a saved position (:meth:`Game.load` reads it): its hand,
    the table, the piles and the turn in progress exactly, and in place of the cards it can't
    see (the other hands, the stock) the same cards sorted and dealt in order — a function of
    what the seat sees alone — with no seed and no random state. A mirror game loaded from it
    answers :meth:`Game.check` and :meth:`Game.legal_actions` for that seat as the real one
    does, so a page can say "why not" before it asks the server; a seat waiting while another
    plays gets the table as it stands. None once the round is over.

    >>> game = Game.new("rommi", players=2, seed=3)
    >>> me, other = game.current, 1 - game.current
    >>> mirror = Game.load(json.dumps(seat_position(game, me)))
    >>> mirror.legal_actions() == game.legal_actions(), mirror.hand(me) == game.hand(me)
    (True, True)
    >>> mirror.hand(other) == game.hand(other), mirror.seed
    (False, 0)
    """
    if game.is_over:
        return None
    snap = game.snapshot()
    turn = snap["turn"]
    # a card the acting player took from the discard pile, or the cut card, this turn: every
    # seat saw it go into that hand, and the position must show it there (H7, H10)
    seen_taken = (
        []
        if turn is None or game.current == seat
        else [card for card in (turn["taken"], turn["cut_taken"]) if card is not None]
    )

    def mask(state: dict[str, Any]) -> None:
        """Deal the cards ``state`` hides from the seat (the other hands, the stock), sorted,
        back into their places: which cards they are is what the seat can work out (the deck
        less what it saw then), and where each goes depends on nothing else."""
        shown: dict[int, list[str]] = {n: [] for n in range(len(state["hands"]))}
        hidden = list(state["stock"])
        for other, hand in enumerate(state["hands"]):
            if other == seat:
                continue
            hand = list(hand)
            if other == game.current:
                for card in seen_taken:
                    if card in hand:
                        hand.remove(card)
                        shown[other].append(card)
            hidden.extend(hand)
        cards = iter([str(c) for c in sort_cards(parse_card(t) for t in hidden)])
        for other, hand in enumerate(state["hands"]):
            if other != seat:
                state["hands"][other] = [
                    *shown[other],
                    *(next(cards) for _ in range(len(hand) - len(shown[other]))),
                ]
        state["stock"] = [next(cards) for _ in state["stock"]]

    if turn is not None and game.current != seat and not (turn["taken"] or turn["cut_taken"]):
        # the turn's undo history is the acting player's: a seat that waits gets the position
        # without it. A take from the discard pile or of the cut card is a step the position
        # must keep (H7, H10): its earlier states are masked each as it was (the cards
        # melded since were in the acting hand then, hidden).
        turn["steps"] = []
    for state in [snap, *(step["state"] for step in (turn or {}).get("steps", []))]:
        mask(state)
    snap.update(seed=0, rng=None, result=None)
    return {"format": POSITION_FORMAT, "version": FORMAT_VERSION, "position": snap, "actions": []}


class Refused(RummykitError):
    """A request the server refuses: a :class:`~rummykit.errors.RummykitError` made from a
    template code and its parameters (``render(language)`` says it in another language).

    ``forged`` marks what only a hostile or broken client sends (another seat's action, a
    token of another table): it is logged as a warning.

    >>> refused = Refused("tables_full", table="K7QXM2PA")
    >>> refused.code, refused.render("fi")
    ('tables_full', 'pöydän K7QXM2PA kaikki oppilaspaikat on varattu: pyydä opettajalta toinen pöytä')
    """

    def __init__(self, code: str, forged: bool = False, **params: object) -> None:
        super().__init__(render(code, **params))
        self.forged = forged


_SETTINGS_KEYS = frozenset(
    {"variant", "options", "seats", "clock", "takeover", "absent_after", "keep_empty", "seed"}
    | {"between_rounds"}
)

NEXT_ROUND = "next_round"
"""The type of the row the store keeps where a new round of the match was dealt."""


def _seconds(data: Mapping[str, Any], key: str, default: float | None) -> float | None:
    value = data.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 86_400:
        raise Refused(
            "tables_bad_setting",
            name=key,
            value=json.dumps(value),
            expected=render("tables_expects_seconds"),
        )
    return float(value)


@dataclass(frozen=True)
class TableSettings:
    """What the teacher chooses for a table.

    ``seats``: per seat ``"human"`` or a computer level (``easy``, ``normal``, ``hard``,
    ``greedy``); ``clock``: seconds a learner has for a turn before ``takeover`` plays it
    (None: no clock); ``absent_after``: seconds a learner may be disconnected on their turn
    before ``takeover`` plays for them (None: the table waits); ``keep_empty``: seconds a
    table with no learner connected is kept before it is closed; ``between_rounds``: seconds
    after a round before the next round of the match is dealt (None: the table plays one
    round).

    >>> TableSettings.from_dict({"seats": ["human", "robot"]})
    Traceback (most recent call last):
    ...
    rummykit.server.tables.Refused: seat 2 is 'robot': a seat is human or a computer level (easy, greedy, hard, normal)
    """

    variant: str = "hungarian"
    options: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[str, ...] = (HUMAN, HUMAN)
    clock: float | None = None
    takeover: str = "normal"
    absent_after: float | None = 60.0
    keep_empty: float = 1800.0
    seed: int | None = None
    between_rounds: float | None = None

    @classmethod
    def from_dict(cls, data: object) -> TableSettings:
        """Settings from JSON data (a teacher's request, or the database), every field checked."""
        if not isinstance(data, dict):
            raise Refused("tables_bad_settings", expected=render("protocol_expects_object"))
        unknown = sorted(set(data) - _SETTINGS_KEYS)
        if unknown:
            raise Refused(
                "tables_unknown_setting", name=unknown[0], known=", ".join(sorted(_SETTINGS_KEYS))
            )
        name = data.get("variant", "hungarian")
        options = data.get("options", {})
        if not isinstance(name, str) or not isinstance(options, dict):
            raise Refused(
                "tables_bad_setting",
                name="variant",
                value=json.dumps(name),
                expected="hungarian, rommi",
            )
        try:
            rules = get_variant(name, **options)
        except (VariantError, TypeError, ValueError) as exc:
            raise Refused("tables_bad_variant", error=str(exc)) from exc
        seats = data.get("seats", [HUMAN, HUMAN])
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise Refused(
                "tables_bad_setting",
                name="seats",
                value=json.dumps(seats),
                expected=render("tables_expects_seats"),
            )
        kinds = tuple(s.strip().lower() for s in seats)
        for n, kind in enumerate(kinds, 1):
            if kind != HUMAN and kind not in AGENTS:
                raise Refused(
                    "tables_bad_seat_kind", seat=n, value=kind, levels=", ".join(sorted(AGENTS))
                )
        try:
            rules.check_players(len(kinds))
        except VariantError as exc:
            raise Refused("tables_bad_variant", error=str(exc)) from exc
        takeover = data.get("takeover", "normal")
        if not isinstance(takeover, str) or takeover.strip().lower() not in AGENTS:
            raise Refused(
                "tables_bad_setting",
                name="takeover",
                value=json.dumps(takeover),
                expected=", ".join(sorted(AGENTS)),
            )
        seed = data.get("seed")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
        ):
            raise Refused(
                "tables_bad_setting",
                name="seed",
                value=json.dumps(seed),
                expected=render("tables_expects_seed"),
            )
        keep = _seconds(data, "keep_empty", 1800.0)
        return cls(
            variant=rules.base or rules.name,
            options=rules.changes(),
            seats=kinds,
            clock=_seconds(data, "clock", None),
            takeover=takeover.strip().lower(),
            absent_after=_seconds(data, "absent_after", 60.0),
            keep_empty=1800.0 if keep is None else keep,
            seed=seed,
            between_rounds=_seconds(data, "between_rounds", None),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form :meth:`from_dict` reads back."""
        return {
            "variant": self.variant,
            "options": dict(self.options),
            "seats": list(self.seats),
            "clock": self.clock,
            "takeover": self.takeover,
            "absent_after": self.absent_after,
            "keep_empty": self.keep_empty,
            "seed": self.seed,
            "between_rounds": self.between_rounds,
        }


@dataclass
class Seat:
    """One seat of a table: who sits there and whether they are connected."""

    kind: str
    token_hash: str | None = None
    name: str | None = None
    connections: dict[object, None] = field(default_factory=dict)  # oldest first
    away_since: float = 0.0

    @property
    def human(self) -> bool:
        return self.kind == HUMAN

    @property
    def connected(self) -> bool:
        return bool(self.connections)


@dataclass
class Table:
    """One table: its code, settings, the referee's game, its seats and its log."""

    code: str
    settings: TableSettings
    match: Match
    game: Game  # the round in play (the match's last)
    seats: list[Seat]
    created: float
    status: str = "open"  # open, over (the last round is over), closed
    stored: int = 0  # rows in the store: actions, and the deals of later rounds
    round_over_at: float = 0.0
    notices: list[tuple[int, str, dict[str, Any], float]] = field(default_factory=list)
    turn_started: float = 0.0
    turn_key: tuple[int, int] = (-1, -1)
    computer_turn: tuple[int, int] | None = None
    away: set[int] = field(default_factory=set)  # learners' seats the computer plays until back
    empty_since: float = 0.0
    agents: dict[int, Agent] = field(default_factory=dict)

    @property
    def position(self) -> int:
        """The number the next accepted action will have (1 for the first; the deal of a
        later round counts as one)."""
        return self.stored + 1

    @property
    def humans_connected(self) -> int:
        return sum(1 for s in self.seats if s.human and s.connected)

    def agent(self, seat: int) -> Agent:
        """The computer player of ``seat``: its level, or the takeover level for a learner's."""
        found = self.agents.get(seat)
        if found is None:
            kind = self.seats[seat].kind
            found = self.agents[seat] = make_agent(
                self.settings.takeover if kind == HUMAN else kind
            )
        return found


class Hub:
    """Every table of one server, with the store that keeps them.

    ``now`` is the clock (seconds); tests pass their own. Nothing here waits or does I/O
    but the store's writes: the web layer calls in, and sends what comes out.
    """

    def __init__(
        self, store: Store, now: Callable[[], float] = time.time, records: str | None = None
    ) -> None:
        self.store = store
        self.now = now
        self.records = records
        self.tables: dict[str, Table] = {}
        self.watched: dict[str, Table] = {}
        """The tables other servers play, as the teacher last looked (:meth:`elsewhere`)."""

    # --- creating and restoring --------------------------------------------------------

    def create(self, settings: TableSettings) -> Table:
        """A new table with a fresh code and a seeded deal, stored before it is returned."""
        seed = settings.seed if settings.seed is not None else secrets.randbits(63)
        settings = TableSettings(**{**settings.__dict__, "seed": seed})
        code = new_code()
        while code in self.tables or self.store.table(code) is not None:
            code = new_code()
        now = self.now()
        self.store.create_table(code, settings.to_dict(), list(settings.seats), now)
        table = self._table(code, settings, now)
        self.tables[code] = table
        LOG.info(
            "table %s created: %s, seats %s", code, settings.variant, ", ".join(settings.seats)
        )
        return table

    def _table(self, code: str, settings: TableSettings, created: float) -> Table:
        match = Match(settings.variant, len(settings.seats), settings.seed, **settings.options)
        game = match.new_round()
        now = self.now()
        table = Table(
            code, settings, match, game, [Seat(k, away_since=now) for k in settings.seats], created
        )
        table.empty_since = now
        self._turn_clock(table)
        return table

    def restore(self) -> int:
        """Bring back every table the store holds open, each at its stored position; the
        number of tables."""
        for stored in self.store.open_tables():
            if self.store.claim(stored.code):  # not one another server plays now
                self.tables[stored.code] = self._restored(stored)
        return len(self.tables)

    def leases(self, known: set[str]) -> tuple[set[str], list[StoredTable]]:
        """The store's half of keeping leases (no table of the hub is touched: the web layer
        runs it in its database thread): this server's leases renewed, and the tables no
        server holds taken over. Returns the codes of ``known`` this server still holds, and
        the tables taken over, to :meth:`settle`."""
        held = self.store.renew()
        taken = []
        for code in self.store.orphans():
            if code not in known and self.store.claim(code):
                stored = self.store.table(code)
                if stored is not None:
                    taken.append(stored)
        return known & held, taken

    def settle(
        self, known: set[str], held: set[str], taken: list[StoredTable]
    ) -> tuple[list[Table], list[Table]]:
        """The hub's half: the tables of ``known`` this server no longer holds (another
        server took them over: it stopped renewing, e.g. stalled) leave the hub, and the
        tables taken over come in at their stored positions. Returns (lost, taken)."""
        lost = [self.tables.pop(code) for code in sorted(known - held) if code in self.tables]
        for table in lost:
            LOG.warning("%s", render("tables_lease_lost", table=table.code))
        came = []
        for stored in taken:
            if stored.code not in self.tables:
                table = self.tables[stored.code] = self._restored(stored)
                came.append(table)
                LOG.info("%s", render("tables_taken_over", table=stored.code))
        return lost, came

    def _restored(self, stored: StoredTable) -> Table:
        table = self._replayed(stored)
        table.round_over_at = self.now()
        self._turn_clock(table)
        LOG.info("table %s restored at action %d", stored.code, table.position - 1)
        return table

    def _replayed(self, stored: StoredTable, table: Table | None = None) -> Table:
        """The table at its stored position: ``table`` (the same table at an earlier one)
        brought on by the actions it hasn't played, or a new one dealt and played."""
        if table is None or table.stored > len(stored.actions):
            settings = TableSettings.from_dict(stored.settings)
            table = self._table(stored.code, settings, stored.created)
        for n, (kind, hashed, name) in enumerate(stored.seats):
            table.seats[n].kind, table.seats[n].token_hash, table.seats[n].name = kind, hashed, name
        for seat, form in stored.actions[table.stored :]:
            if form.get("type") == NEXT_ROUND:
                table.game = table.match.new_round()
            else:
                table.game.play(Action.from_dict(form), seat)
            table.stored += 1
        table.notices = list(stored.notices)
        table.status = stored.status
        return table

    def elsewhere(self, stored: list[StoredTable]) -> list[Table]:
        """The tables other servers of the school play (``stored``: as the database holds
        them, :meth:`Store.open_tables_except` this hub's), each at its stored position, for
        the teacher to watch: this hub plays none of them (they are kept apart from
        :attr:`tables`, and brought on from where they were at the last look)."""
        tables = [self._replayed(s, self.watched.get(s.code)) for s in stored]
        self.watched = {t.code: t for t in tables}
        return tables

    # --- seats -------------------------------------------------------------------------

    def table(self, code: object) -> Table:
        """The open table of that code, or a refusal (logged: codes are not guessed)."""
        found = self.tables.get(code) if isinstance(code, str) else None
        if found is None or found.status == "closed":
            raise Refused("tables_no_such_table", forged=True, table=str(code)[:16])
        return found

    def join(self, code: object, token: object, name: str) -> tuple[int, str]:
        """Sit down at table ``code``: with a seat token, that seat back; without, the first
        free learner's seat and a new token. Returns the seat and its token."""
        table = self.table(code)
        if token is not None:
            hashed = token_hash(str(token))
            for n, seat in enumerate(table.seats):
                if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, hashed):
                    return n, str(token)
            raise Refused("tables_bad_token", forged=True, table=table.code)
        for n, seat in enumerate(table.seats):
            if seat.human and seat.token_hash is None:
                fresh = secrets.token_urlsafe(24)
                clean = " ".join(name.split())[:40] or render("tables_seat_name", seat=n)
                self.store.take_seat(table.code, n, token_hash(fresh), clean)
                seat.token_hash, seat.name = token_hash(fresh), clean
                return n, fresh
        raise Refused("tables_full", table=table.code)

    def connect(
        self, table: Table, seat: int, connection: object
    ) -> tuple[int, str, dict[str, Any], float] | None:
        """A connection now speaks for ``seat``. When the computer was playing the seat's
        turn, the learner takes it back: the log line that says so."""
        place = table.seats[seat]
        back = not place.connected
        place.connections[connection] = None
        table.empty_since = 0.0
        clocked = table.computer_turn is not None and table.computer_turn[0] == seat
        if back and (clocked or seat in table.away):
            table.computer_turn = None
            table.away.discard(seat)
            table.turn_started = self.now()  # a fresh clock for the rest of the turn
            return self.notice(table, seat, "tables_notice_back", name=place.name or "")
        return None

    def disconnect(self, table: Table, seat: int, connection: object) -> None:
        """A connection of ``seat`` closed."""
        place = table.seats[seat]
        place.connections.pop(connection, None)
        if not place.connected:
            place.away_since = self.now()
            if table.humans_connected == 0:
                table.empty_since = self.now()

    def notice(
        self, table: Table, seat: int, code: str, **params: Any
    ) -> tuple[int, str, dict[str, Any], float]:
        """Add a line to the table's log, stored; the line is returned for the web layer to send."""
        now = self.now()
        self.store.add_notice(table.code, len(table.notices) + 1, seat, code, params, now)
        line = (seat, code, params, now)
        table.notices.append(line)
        LOG.info("table %s: %s", table.code, render(code, seat=seat, **params))
        return line

    # --- acting ------------------------------------------------------------------------

    def check(self, table: Table, seat: int, ident: object, action: Action) -> Verdict | None:
        """Whether ``seat`` may play ``action`` as its answer to question ``ident``: None when
        it may, the referee's refusal when not; a stale or wrong question is refused."""
        if table.status != "open":
            raise Refused("tables_round_over", table=table.code)
        if ident != table.position:
            raise Refused("tables_stale", got=json.dumps(ident), position=table.position)
        if seat != table.game.current:
            raise Refused("tables_not_your_turn", seat=seat, current=table.game.current)
        verdict = table.game.check(action, seat)
        return None if verdict.ok else verdict

    def commit(self, table: Table, seat: int, action: Action) -> None:
        """Store ``action`` as the table's next, then play it (it was checked: it can't fail).
        A store that refuses raises :class:`~rummykit.server.store.StoreError` and nothing
        is played."""
        self.store.append_action(table.code, table.position, seat, action.to_dict(), self.now())
        self.apply(table, seat, action)

    def apply(self, table: Table, seat: int, action: Action) -> None:
        """Play an action already stored (the second half of :meth:`commit`)."""
        table.game.play(action, seat)
        table.stored += 1
        self._turn_clock(table)
        if table.game.is_over and table.status == "open":
            table.round_over_at = self.now()
            self._keep_round(table)
            if table.settings.between_rounds is None or table.match.is_over:
                table.status = "over"
                self.store.set_status(table.code, "over", self.now(), table.game.to_json())
            LOG.info("table %s: round %d is over", table.code, table.match.round_number)

    def _keep_round(self, table: Table) -> None:
        """Write a finished round's record to the records folder (``CODE-rN.json``)."""
        if self.records:
            import os

            os.makedirs(self.records, exist_ok=True)
            name = f"{table.code}-r{table.match.round_number}.json"
            with open(os.path.join(self.records, name), "w", encoding="utf-8") as f:
                f.write(table.game.to_json())

    def next_round_due(self, table: Table) -> bool:
        """Whether the table's next round is to be dealt now (``between_rounds`` after the
        last one ended, the match not over)."""
        wait = table.settings.between_rounds
        return (
            table.status == "open"
            and table.game.is_over
            and wait is not None
            and not table.match.is_over
            and self.now() - table.round_over_at >= wait
        )

    def deal(self, table: Table) -> None:
        """Deal the match's next round, stored first like an action."""
        self.store.append_action(table.code, table.position, -1, {"type": NEXT_ROUND}, self.now())
        self.dealt(table)

    def dealt(self, table: Table) -> None:
        """The second half of :meth:`deal`: the round dealt once its row is stored."""
        table.game = table.match.new_round()
        table.stored += 1
        table.computer_turn = None
        table.turn_key = (-1, -1)  # a new deal: a fresh clock whatever the seats' turns
        self._turn_clock(table)
        LOG.info("table %s: round %d dealt", table.code, table.match.round_number)

    def _turn_clock(self, table: Table) -> None:
        game = table.game
        key = (game.current, game.turns_taken[game.current])
        if key != table.turn_key:
            table.turn_key = key
            table.turn_started = self.now()
            table.computer_turn = None

    def computer_due(self, table: Table) -> tuple[int, str] | None:
        """Whether a computer plays the table's next decision now: (seat, why) — why is
        ``level`` (a computer's seat), ``clock`` (the learner's time ran out) or ``away``
        (the learner has been disconnected for ``absent_after`` seconds) — or None."""
        if table.status != "open" or table.game.is_over:
            return None
        seat = table.game.current
        place = table.seats[seat]
        if not place.human:
            return seat, "level"
        if table.computer_turn is not None and table.computer_turn[0] == seat:
            return seat, "taken"
        if seat in table.away and not place.connected:
            return seat, "taken"
        now = self.now()
        clock = table.settings.clock
        if clock is not None and now - table.turn_started >= clock:
            return seat, "clock"
        away = table.settings.absent_after
        since = max(place.away_since, table.turn_started)
        if away is not None and not place.connected and now - since >= away:
            return seat, "away"
        return None

    def next_deadline(self, table: Table) -> float | None:
        """When :meth:`computer_due` may next say yes for a learner's seat (None: no clock)."""
        if (
            table.status != "open"
            or table.game.is_over
            or not table.seats[table.game.current].human
        ):
            return None
        place = table.seats[table.game.current]
        times = []
        if table.settings.clock is not None:
            times.append(table.turn_started + table.settings.clock)
        if table.settings.absent_after is not None and not place.connected:
            times.append(max(place.away_since, table.turn_started) + table.settings.absent_after)
        return min(times) if times else None

    def take_over(
        self, table: Table, seat: int, why: str
    ) -> tuple[int, str, dict[str, Any], float] | None:
        """Note that the computer plays for a learner's seat — this turn (``clock``) or
        until the learner is back (``away``); the log line, said once."""
        if why == "away" and seat not in table.away:
            table.away.add(seat)
        elif why == "clock" and table.computer_turn is None:
            table.computer_turn = (seat, table.game.turns_taken[seat])
        else:
            return None
        return self.notice(
            table,
            seat,
            "tables_notice_clock" if why == "clock" else "tables_notice_away",
            name=table.seats[seat].name or "",
            level=table.settings.takeover,
            seconds=int(table.settings.clock or 0)
            if why == "clock"
            else int(table.settings.absent_after or 0),
        )

    def sweep(self) -> list[Table]:
        """Close every table that has had no learner connected for its ``keep_empty``
        seconds (its record kept); the tables closed."""
        now = self.now()
        closed = []
        for table in list(self.tables.values()):
            if table.humans_connected == 0 and now - table.empty_since >= table.settings.keep_empty:
                try:
                    self.close(table)
                except (
                    StoreError
                ) as exc:  # another server plays it now: it is that server's to close
                    LOG.warning("table %s: %s", table.code, exc)
                    continue
                closed.append(table)
        return closed

    def close(self, table: Table) -> None:
        """Close a table: its record stored (and written to the records folder), out of memory."""
        record = table.game.to_json()
        self.store.set_status(table.code, "closed", self.now(), record)
        table.status = "closed"
        self.tables.pop(table.code, None)
        if self.records:
            import os

            os.makedirs(self.records, exist_ok=True)
            with open(os.path.join(self.records, f"{table.code}.json"), "w", encoding="utf-8") as f:
                f.write(record)
        LOG.info("table %s closed; its record is kept", table.code)

    # --- what seats and the teacher see -----------------------------------------------

    def message_for(self, table: Table, seat: int, mirror: bool = False) -> dict[str, Any]:
        """What ``seat`` is sent now: ``decide`` (its turn: the legal actions in the
        observation) or ``update`` (the same fields, nothing to do). ``id`` is the table's
        position: the answer to a decide must carry it. With ``mirror`` (a page that asked
        for it in its hello), ``position`` is the seat's own position (:func:`seat_position`)."""
        game = table.game
        message = decide_message(game.observation(seat), table.position)
        if (
            seat != game.current
            or game.is_over
            or not table.seats[seat].human
            or table.computer_turn is not None
        ):
            message["type"] = "update"
        message["table"] = table.code
        message["round"] = table.match.round_number
        # the learners' names, as they gave them (a computer seat's is its level: null)
        message["names"] = [s.name if s.human else None for s in table.seats]
        if mirror:
            message["position"] = seat_position(game, seat)
        if game.result is not None:  # who won, and what each seat scores (H12, H13, R8, R10)
            message["result"] = game.result.to_wire()
        return message

    def public_view(
        self, table: Table, open_cards: bool = False, *, here: bool = True
    ) -> dict[str, Any]:
        """What anyone watching the table may see (no hand); with ``open_cards`` (the
        teacher code only) every seat's hand too. A table another server plays
        (:meth:`elsewhere`) is ``here: false``, and who is connected to it is that
        server's to know (``connected``: None)."""
        obs = table.game.observation(0).to_dict()
        for private in ("seat", "hand", "legal_actions", "status"):
            obs.pop(private, None)
        view: dict[str, Any] = {
            "code": table.code,
            "here": here,
            "status": table.status,
            "settings": {k: v for k, v in table.settings.to_dict().items() if k != "seed"},
            "position": table.position,
            "round": table.match.round_number,
            "totals": list(table.match.totals),
            "seats": [
                {
                    "kind": s.kind,
                    "name": s.name,
                    "taken": s.token_hash is not None,
                    "connected": s.connected if here else None,
                    "computer_playing": here
                    and (
                        n in table.away
                        or (table.computer_turn is not None and table.computer_turn[0] == n)
                    ),
                }
                for n, s in enumerate(table.seats)
            ],
            "game": obs,
            "log": [
                {
                    "seat": seat,
                    "code": code,
                    "params": params,
                    "at": at,
                    "message": str(render(code, seat=seat, **params)),
                }
                for seat, code, params, at in table.notices
            ],
        }
        if open_cards:
            view["hands"] = [
                [str(c) for c in table.game.hand(s)] for s in range(table.game.players)
            ]
        return view
