"""The saved-game form, as versioned JSON (never pickle): read and checked field by field
into the parts a game is built from, and written from a game's setup and actions.

:mod:`rummykit.game.state` builds its games from these parts (``Game.load``,
``Game.from_position``); :mod:`rummykit.game.record` is the public face of both.

>>> read_record({"format": "rummykit-game", "version": 99})
Traceback (most recent call last):
...
rummykit.game.record.RecordError: this file is version 99 of the game format; rummykit reads version 1
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from rummykit.cards import JOKER, Card, CardParseError, as_cards
from rummykit.errors import RummykitError
from rummykit.game._round import State, Turn
from rummykit.game.actions import Action, ActionParseError
from rummykit.game.facts import Drew, TableMeld
from rummykit.melds import IllegalMeld, Meld, make_meld, meld_layouts
from rummykit.messages import render
from rummykit.variants import Variant, VariantError
from rummykit.variants import variant as get_variant

if TYPE_CHECKING:  # typing_extensions: Required and Unpack for keywords on Python 3.10
    from typing_extensions import Required, Unpack

__all__ = [
    "FORMAT_VERSION",
    "Parts",
    "Position",
    "ReadRecord",
    "RecordError",
    "Recorded",
    "dumps",
    "parse_json",
    "position_data",
    "position_of",
    "position_parts",
    "read_record",
    "record_of",
    "save",
]


class Recorded(Protocol):
    """What saving reads of a game: how it was set up, and the actions played since."""

    @property
    def setup(self) -> dict[str, Any]: ...
    @property
    def actions(self) -> list[tuple[int, Action]]: ...


@dataclass(frozen=True)
class Parts:
    """What a game is built from: its rules, seats, seed, dealer, the round's state, the
    random source, its setup as saved and the match scores so far."""

    rules: Variant
    players: int
    seed: int
    dealer: int
    state: State
    rng: random.Random
    setup: dict[str, Any]
    scores: tuple[int, ...] | None


@dataclass(frozen=True)
class ReadRecord:
    """A record read and checked: how to start the game (``new`` keywords for a seeded deal,
    or the ``position``'s parts) and the actions to replay, each with its field and seat."""

    rules: Variant
    players: int
    new: dict[str, Any] | None
    position: Parts | None
    actions: tuple[tuple[str, int, Action], ...]


FORMAT_VERSION = 1
GAME_FORMAT = "rummykit-game"
POSITION_FORMAT = "rummykit-position"


class RecordError(RummykitError):
    """A saved game or position is malformed, tampered with, or replays an illegal move."""


RecordError.__module__ = "rummykit.game.record"  # its public home, where it is imported from


def _err(code: str, **params: object) -> RecordError:
    """The error ``code`` says; its ``field`` is the one the sentence names, if any."""
    field = params.get("field")
    return RecordError(render(code, **params), field=field if isinstance(field, str) else None)


# --- saving ------------------------------------------------------------------------------


def record_of(game: Recorded) -> dict[str, Any]:
    """The JSON-ready record of a game: its start (setup or position) and its actions."""
    start = dict(game.setup)
    fmt = POSITION_FORMAT if "position" in start else GAME_FORMAT
    return {
        "format": fmt,
        "version": FORMAT_VERSION,
        **start,
        "actions": [{"seat": seat, **action.to_dict()} for seat, action in game.actions],
    }


def dumps(game: Recorded, indent: int | None = None) -> str:
    """The game record as JSON text."""
    return json.dumps(record_of(game), ensure_ascii=False, indent=indent)


def save(game: Recorded, path: str) -> None:
    """Write the game record to a JSON file."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(game, indent=1))


def position_of(
    rules: Variant,
    players: int,
    seed: int | None,
    dealer: int,
    match_scores: tuple[int, ...],
    state: State,
    rng: random.Random,
) -> dict[str, Any]:
    """The full current state as data (hands, stock, table, …) — the position form.

    It includes the turn in progress (provisional moves, what they oblige, what Undo can
    take back) and the state of the game's random source, so a loaded position plays on
    exactly as the original would. :meth:`Game.snapshot <rummykit.game.state.Game.snapshot>`
    calls it with the game's own ``state`` and ``rng`` (the internal API of
    :mod:`rummykit.game._round`): this module reads no private attribute of a game.
    """
    return {
        "variant": rules.base or rules.name,
        "options": rules.changes(),
        "players": players,
        "seed": seed,
        "dealer": dealer,
        **_state_dict(state),
        "match_scores": list(match_scores),
        "rng": _rng_state(rng),
        "result": state.result.to_dict() if state.result else None,
    }


def _state_dict(s: State, *, with_steps: bool = True) -> dict[str, Any]:
    t = s.turn
    turn: dict[str, Any] = {
        "drew": t.drew,
        "taken": str(t.taken) if t.taken else None,
        "cut_taken": str(t.cut_taken) if t.cut_taken else None,
        "cut_attempted": t.cut_attempted,
        "discard_attempted": t.discard_attempted,
        "meld_points": t.meld_points,
        "new_melds": list(t.new_melds),
        "placed": [str(c) for c in t.placed],
        "melded": [str(c) for c in t.melded],
        "laid_off": t.laid_off,
        "exchanged": list(t.exchanged),
        "joker_moves": list(t.joker_moves),
    }
    if with_steps:
        turn["steps"] = [
            {"kind": kind, "state": _state_dict(before, with_steps=False)}
            for kind, before in t.steps
        ]
    return {
        "hands": [[str(c) for c in h] for h in s.hands],
        "stock": [str(c) for c in s.stock],
        "discard": [str(c) for c in s.discard],
        "table": [tm.to_dict() for tm in s.table],
        "cut_card": str(s.cut_card) if s.cut_card else None,
        "current": s.current,
        "phase": s.phase,
        "drew": t.drew,
        "opened": list(s.opened),
        "turns": list(s.turns),
        "drawn": list(s.drawn),
        "reshuffled": s.reshuffled,
        "quiet_turns": s.quiet_turns,
        "turn": turn,
    }


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _set_rng(rng: random.Random, value: object) -> None:
    ok = (
        isinstance(value, list)
        and len(value) == 3
        and isinstance(value[1], list)
        and len(value[1]) == 625
        and all(isinstance(x, int) and not isinstance(x, bool) for x in value[1])
    )
    if not ok:
        raise _bad("position.rng", "record_expect_rng")
    assert isinstance(value, list)
    try:
        rng.setstate((value[0], tuple(value[1]), value[2]))
    except (TypeError, ValueError) as exc:
        raise _bad("position.rng", "record_expect_rng") from exc


# --- loading -----------------------------------------------------------------------------


def parse_json(text: str) -> object:
    """The data of a record's JSON text, or a :class:`RecordError` saying where it breaks."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _err("record_not_json", error=str(exc)) from exc


_GAME_FIELDS = frozenset(
    {"format", "version", "variant", "options", "players", "seed", "dealer", "cut"}
    | {"choose_cut", "match_scores", "actions"}
)
_POSITION_RECORD_FIELDS = frozenset({"format", "version", "position", "actions"})
_STATE_FIELDS = frozenset(
    {"hands", "stock", "discard", "table", "cut_card", "current", "phase", "drew", "opened"}
    | {"turns", "drawn", "reshuffled", "quiet_turns", "turn"}
)
_POSITION_FIELDS = _STATE_FIELDS | {
    "variant",
    "options",
    "players",
    "seed",
    "dealer",
    "match_scores",
    "rng",
    "result",
}
_TABLE_FIELDS = frozenset({"owner", "kind", "cards", "represents", "start", "joker_as"})
_TURN_FIELDS = frozenset(
    {"drew", "taken", "cut_taken", "cut_attempted", "discard_attempted", "meld_points"}
    | {"new_melds", "placed", "melded", "laid_off", "exchanged", "joker_moves", "steps"}
)
_STEP_KINDS = ("discard", "cut_card", "meld", "layoff", "exchange")
_DREW: tuple[Drew, ...] = ("stock", "discard", "cut_card", "start")


def read_record(data: object) -> ReadRecord:
    """Read record data (as from ``json.load``): everything is checked before a game is
    built — an unknown or missing field, a value of the wrong type or out of range, and a
    position that could not happen under the rules are each a :class:`RecordError` naming
    the field. The caller's data is copied, never kept. Whether the actions are legal is
    found by replaying them (:meth:`Game.load <rummykit.game.state.Game.load>`).
    """
    if not isinstance(data, dict):
        raise _err("record_not_object")
    data = copy.deepcopy(data)  # keep no reference into the caller's dict
    fmt = data.get("format")
    if fmt not in (GAME_FORMAT, POSITION_FORMAT):
        raise _err("record_bad_format", found=fmt, choices=f"{GAME_FORMAT}, {POSITION_FORMAT}")
    if data.get("version") != FORMAT_VERSION or isinstance(data.get("version"), bool):
        raise _err("record_bad_version", found=data.get("version"), version=FORMAT_VERSION)
    _known(data, _GAME_FIELDS if fmt == GAME_FORMAT else _POSITION_RECORD_FIELDS, "")
    body = data.get("position") if fmt == POSITION_FORMAT else data
    if not isinstance(body, dict):
        raise _bad("position", "record_expect_object")
    rules = _variant_of(body)
    players = _int(body, "players", rules.players_min, rules.players_max)
    new: dict[str, Any] | None = None
    position: Parts | None = None
    if fmt == GAME_FORMAT:
        seed = _seed(data)
        dealer = _int(data, "dealer", 0, players - 1)
        cut = data.get("cut")
        if cut is not None and (not isinstance(cut, int) or isinstance(cut, bool)):
            raise _bad("cut", "record_expect_whole_or_null")
        choose_cut = data.get("choose_cut", False)
        if not isinstance(choose_cut, bool):
            raise _bad("choose_cut", "record_expect_bool")
        new = {
            "seed": seed,
            "dealer": dealer,
            "cut": cut,
            "choose_cut": choose_cut,
            "match_scores": _scores(data, players),
        }
    else:
        _known(body, _POSITION_FIELDS, "position.")
        if body.get("result") is not None:
            raise _bad("position.result", "record_expect_no_result")
        position = position_parts(body, rules)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise _bad("actions", "record_expect_list")
    read: list[tuple[str, int, Action]] = []
    for number, item in enumerate(actions, 1):
        field = f"actions[{number - 1}]"
        if not isinstance(item, dict):
            raise _bad(field, "record_expect_object")
        seat = item.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise _bad(f"{field}.seat", "record_expect_range", low=0, high=players - 1)
        try:
            action = Action.from_dict({k: v for k, v in item.items() if k != "seat"})
        except ActionParseError as exc:
            raise _err("record_bad_action", field=field, number=number, error=str(exc)) from exc
        read.append((field, seat, action))
    return ReadRecord(rules, players, new, position, tuple(read))


def refused_action(
    field: str, number: int, seat: int, action: Action, why: Sequence[str]
) -> RecordError:
    """The error of a saved action the referee refuses on replay (``number`` from 1), ``why``
    its reasons' sentences: the action and the reasons are said in the error's language."""
    return _err(
        "record_illegal_action", field=field, number=number, seat=seat, action=action, why=why
    )


def bad_setup(error: str) -> RecordError:
    """The error of a setup the referee can't deal (a cut out of range, …)."""
    return _err("record_bad_setup", field="cut", error=error)


def _bad(field: str, expect: str, **params: object) -> RecordError:
    """``'field' must be …``: the field by its path, what it must be from a template."""
    return _err("record_bad_field", field=field, expected=render(expect, **params))


def _known(data: dict[str, Any], fields: frozenset[str], where: str) -> None:
    unknown = sorted(str(k) for k in data if k not in fields)
    if unknown:
        raise _err(
            "record_unknown_field",
            field=f"{where}{unknown[0]}",
            choices=", ".join(sorted(fields)),
        )


def _seed(data: dict[str, Any], where: str = "") -> int | None:
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _bad(f"{where}seed", "record_expect_whole_or_null")
    return seed


def _variant_of(data: dict[str, Any]) -> Variant:
    name = data.get("variant")
    options = data.get("options", {})
    if not isinstance(name, str):
        raise _bad("variant", "record_expect_variant")
    if not isinstance(options, dict):
        raise _bad("options", "record_expect_object")
    try:
        return get_variant(name, **options)
    except VariantError as exc:
        field = "variant" if name.strip().lower() not in ("hungarian", "rommi") else "options"
        raise _err("record_bad_setup", field=field, error=exc.message) from exc
    except TypeError as exc:  # option names that are not strings
        raise _bad("options", "record_expect_object") from exc


def _int(data: dict[str, Any], key: str, low: int, high: int, where: str = "") -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(f"{where}{key}", "record_expect_range", low=low, high=high)
    return value


def _scores(data: dict[str, Any], players: int, where: str = "") -> tuple[int, ...] | None:
    scores = data.get("match_scores")
    if scores is None:
        return None
    if (
        not isinstance(scores, list)
        or len(scores) != players
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores)
    ):
        raise _bad(f"{where}match_scores", "record_expect_wholes", count=players)
    return tuple(scores)


def _cards(value: object, what: str) -> tuple[Card, ...]:
    if not isinstance(value, (list, str)) or (
        isinstance(value, list) and not all(isinstance(c, str) for c in value)
    ):
        raise _bad(what, "record_expect_cards")
    try:
        return as_cards(value)
    except CardParseError as exc:
        raise _err("record_bad_cards", field=what, error=str(exc)) from exc


def _card(value: object, what: str) -> Card | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _bad(what, "record_expect_card")
    found = _cards(value, what)
    if len(found) != 1:
        raise _bad(what, "record_expect_card")
    return found[0]


def _bool(data: dict[str, Any], key: str, default: bool, where: str) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _bad(f"{where}{key}", "record_expect_bool")
    return value


def _bools(
    data: dict[str, Any], key: str, players: int, default: list[bool], where: str = ""
) -> list[bool]:
    value = data.get(key, default)
    if (
        not isinstance(value, list)
        or len(value) != players
        or not all(isinstance(x, bool) for x in value)
    ):
        raise _bad(f"{where}{key}", "record_expect_bools", count=players)
    return list(value)


# --- positions made by hand --------------------------------------------------------------


class Position(TypedDict, total=False):
    """A position set up by hand, as :func:`position_data` takes it: only ``hands`` is
    required (see :func:`rummykit.game.record.from_position` for what each one means)."""

    hands: Required[Sequence[str | Iterable[Card | str]]]
    stock: str | Iterable[Card | str] | None
    discard: str | Iterable[Card | str]
    table: Iterable[
        tuple[int, str | Iterable[Card | str]] | tuple[int, str | Iterable[Card | str], str]
    ]
    cut_card: str | Card | None
    current: int
    phase: str
    opened: Sequence[bool] | None
    turns: Sequence[int] | None
    seed: int | None
    dealer: int | None
    match_scores: Sequence[int] | None


_POSITION_KEYWORDS = [
    "hands",
    "stock",
    "discard",
    "table",
    "cut_card",
    "current",
    "phase",
    "opened",
    "turns",
    "seed",
    "dealer",
    "match_scores",
]


def position_data(
    variant: str | Variant = "hungarian", **position: Unpack[Position]
) -> tuple[dict[str, Any], Variant]:
    """The position data of a game set up by hand for a lesson (read by
    :func:`position_parts` like a loaded file), and its rules.

    >>> data, rules = position_data("rommi", hands=["5♥ 6♥ 7♥ K♠", "2♣ 3♣ 9♦"], discard="8♥")
    >>> data["hands"], data["dealer"], rules.name
    ([['5♥', '6♥', '7♥', 'K♠'], ['2♣', '3♣', '9♦']], 1, 'rommi')
    >>> position_data("rommi", hand=["5♥ 6♥ 7♥"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: from_position() got an unexpected keyword argument 'hand'; it takes hands, ...
    """
    for name in position:
        if name not in _POSITION_KEYWORDS:
            raise TypeError(
                f"from_position() got an unexpected keyword argument {name!r}; "
                f"it takes {', '.join(_POSITION_KEYWORDS)}"
            )
    if "hands" not in position:
        raise TypeError("from_position() missing required keyword argument: 'hands'")
    hands = position["hands"]
    stock = position.get("stock")
    discard = position.get("discard", ())
    table = position.get("table", ())
    cut_card = position.get("cut_card")
    current = position.get("current", 0)
    phase = position.get("phase", "draw")
    opened = position.get("opened")
    turns = position.get("turns")
    seed = position.get("seed", 0)
    dealer = position.get("dealer")
    match_scores = position.get("match_scores")
    rules = get_variant(variant)
    data: dict[str, Any] = {
        "hands": [[str(c) for c in as_cards(h)] for h in hands],
        "stock": None if stock is None else [str(c) for c in as_cards(stock)],
        "discard": [str(c) for c in as_cards(discard)],
        "table": [
            {
                "owner": item[0],
                "cards": [str(c) for c in as_cards(item[1])],
                "joker_as": str(item[2]) if len(item) > 2 else None,
            }
            for item in table
        ],
        "cut_card": str(cut_card) if cut_card else None,
        "current": current,
        "phase": phase,
        "players": len(hands),
        "seed": seed,
        "dealer": dealer if dealer is not None else (current - 1) % len(hands),
    }
    if opened is not None:
        data["opened"] = list(opened)
    if turns is not None:
        data["turns"] = list(turns)
    if match_scores is not None:
        data["match_scores"] = list(match_scores)
    return data, rules


def position_parts(data: dict[str, Any], rules: Variant) -> Parts:
    """The parts of a game from position data, checked that it could happen under the rules."""
    where = "position."
    _known(data, _POSITION_FIELDS, where)
    players = _int(data, "players", rules.players_min, rules.players_max, where)
    seed = _seed(data, where)
    if seed is None:  # H15's reshuffle must replay the same: choose a seed and keep it
        seed = random.SystemRandom().randrange(2**32)
        data = {**data, "seed": seed}
    state = _parse_state(data, rules, players, seed, where)
    if state.phase == "over":
        raise _bad(f"{where}phase", "record_expect_unfinished")
    dealer = (
        _int(data, "dealer", 0, players - 1, where)
        if data.get("dealer") is not None
        else (state.current - 1) % players
    )
    rng = random.Random(seed)
    if data.get("rng") is not None:
        _set_rng(rng, data["rng"])
    scores = _scores(data, players, where)
    setup = {"position": position_data_clean(data, rules, state.stock)}
    return Parts(rules, players, seed, dealer, state, rng, setup, scores)


def _table_meld(item: object, field: str, rules: Variant, players: int) -> TableMeld:
    if not isinstance(item, dict):
        raise _bad(field, "record_expect_object")
    _known(item, _TABLE_FIELDS, f"{field}.")
    owner = _int(item, "owner", 0, players - 1, f"{field}.")
    cards = _cards(item.get("cards"), f"{field}.cards")
    represents = item.get("represents")
    if represents is not None and (
        not isinstance(represents, list)
        or len(represents) != len(cards)
        or not all(r is None or isinstance(r, str) for r in represents)
    ):
        raise _bad(f"{field}.represents", "record_expect_represents", count=len(cards))
    reps = [_card(r, f"{field}.represents") for r in represents] if represents else None
    joker_as = item.get("joker_as")
    joker: Card | tuple[Card, ...] | None
    if joker_as is None and reps:  # every joker's saved meaning (a set's open joker: none)
        joker = tuple(r for c, r in zip(cards, reps) if c.is_joker and r is not None) or None
    elif isinstance(joker_as, list):
        joker = tuple(c for c in (_card(j, f"{field}.joker_as") for j in joker_as) if c)
    else:
        joker = _card(joker_as, f"{field}.joker_as")
    try:
        meld = make_meld(cards, rules, joker)
    except IllegalMeld as exc:
        raise _err("record_bad_meld", field=field, error=str(exc)) from exc
    kind = item.get("kind")
    if kind is not None and kind not in ("run", "set"):
        raise _bad(f"{field}.kind", "record_expect_kind")
    start = item.get("start")
    if start is not None and (not isinstance(start, int) or isinstance(start, bool)):
        raise _bad(f"{field}.start", "record_expect_whole_or_null")
    if meld.is_run and start is not None and start != meld.start:  # A-…-K or 2-…-A
        same = [m for m in meld_layouts(cards, rules) if m.start == start]
        if not same:
            raise _bad(f"{field}.start", "record_expect_start", start=meld.start)
        meld = same[0]
    if kind is not None and kind != meld.kind:
        raise _bad(f"{field}.kind", "record_expect_kind_is", kind=meld.kind)
    if not meld.is_run and reps is not None:
        meld = _set_as_saved(meld, cards, reps, field)
    return TableMeld(owner, meld)


def _set_as_saved(meld: Meld, cards: tuple[Card, ...], reps: list[Card | None], field: str) -> Meld:
    """A set keeps the order it was saved in (a card handed in for a joker stays in the
    joker's place), once the saved meanings are checked to be the meld's own."""
    if Counter(cards) != Counter(meld.cards) or Counter(map(str, reps)) != Counter(
        map(str, meld.represents)
    ):
        raise _bad(f"{field}.represents", "record_expect_represents", count=len(cards))
    for card, rep in zip(cards, reps):
        if not card.is_joker and rep != card:
            raise _bad(f"{field}.represents", "record_expect_represents", count=len(cards))
    return replace(meld, cards=tuple(cards), represents=tuple(reps))


def _parse_state(
    data: dict[str, Any],
    rules: Variant,
    players: int,
    seed: int,
    where: str,
    *,
    nested: bool = False,
) -> State:
    """Validate and build the state part of a position (hands, piles, table, turn)."""
    _known(data, _STATE_FIELDS if nested else _POSITION_FIELDS, where)
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or len(hands_data) != players:
        raise _bad(f"{where}hands", "record_expect_hands", count=players)
    hands = [list(_cards(h, f"{where}hands[{i}]")) for i, h in enumerate(hands_data)]
    discard = list(_cards(data.get("discard", []), f"{where}discard"))
    table_data = data.get("table", [])
    if not isinstance(table_data, list):
        raise _bad(f"{where}table", "record_expect_melds")
    table: list[TableMeld] = [
        _table_meld(item, f"{where}table[{i}]", rules, players) for i, item in enumerate(table_data)
    ]
    cut_card = _card(data.get("cut_card"), f"{where}cut_card")
    if cut_card is not None and not rules.cut_card:
        raise _bad(f"{where}cut_card", "record_expect_no_cut_card", variant=rules.title)
    placed: Counter[Card] = Counter()
    for h in hands:
        placed.update(h)
    placed.update(discard)
    for tm in table:
        placed.update(tm.meld.cards)
    if cut_card is not None:
        placed[cut_card] += 1
    deck = Counter(rules.deck())
    over = [c for c, n in placed.items() if n > deck[c]]
    if over:
        code = "record_too_many" if deck[over[0]] else "record_not_in_deck"
        raise _err(
            code, field=where or "position", card=over[0], copies=deck[over[0]], variant=rules.title
        )
    if data.get("stock") is None and not nested:
        rest = sorted((deck - placed).elements(), key=Card.sort_key)
        random.Random(seed).shuffle(rest)
        stock = rest
    else:
        stock = list(_cards(data.get("stock"), f"{where}stock"))
        total = placed + Counter(stock)
        if total != deck:
            missing = deck - total
            extra = total - deck
            card = next(iter(missing or extra))
            raise _err(
                "record_cards_unaccounted",
                field=f"{where}stock",
                where=where,
                card=card,
                problem=render("record_missing" if missing else "record_too_often"),
                count=len(rules.deck()),
            )
    current = _int(data, "current", 0, players - 1, where)
    phase = data.get("phase", "draw")
    if phase not in ("draw", "play", "over"):
        raise _bad(f"{where}phase", "record_expect_phase")
    opened = _bools(data, "opened", players, [rules.opening_threshold == 0] * players, where)
    if rules.opening_threshold == 0 and not all(opened):
        raise _bad(f"{where}opened", "record_expect_all_opened", variant=rules.title)
    turns_value = data.get("turns", [1] * players)
    if (
        not isinstance(turns_value, list)
        or len(turns_value) != players
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in turns_value)
    ):
        raise _bad(f"{where}turns", "record_expect_wholes", count=players)
    drawn = _bools(data, "drawn", players, [t > 0 for t in turns_value], where)
    drew = data.get("drew", "stock" if phase == "play" else None)
    if phase == "draw" and drew is not None:
        raise _bad(f"{where}drew", "record_expect_no_draw")
    if phase == "play" and drew not in _DREW:
        raise _bad(f"{where}drew", "record_expect_drew")
    if drew == "start" and (not rules.starter_extra or turns_value[current] != 0):
        raise _bad(f"{where}drew", "record_expect_drew")
    quiet = data.get("quiet_turns", 0)
    if not isinstance(quiet, int) or isinstance(quiet, bool) or quiet < 0:
        raise _bad(f"{where}quiet_turns", "record_expect_whole")
    if phase != "over" and not hands[current]:
        raise _bad(f"{where}hands[{current}]", "record_expect_cards_to_act")
    state = State(
        hands=hands,
        stock=stock,
        discard=discard,
        table=table,
        cut_card=cut_card,
        current=current,
        phase=phase,
        opened=opened,
        turns=list(turns_value),
        drawn=drawn,
        turn=Turn(),
        reshuffled=_bool(data, "reshuffled", False, where),
        quiet_turns=quiet,
    )
    state.turn = _parse_turn(data.get("turn"), state, drew, rules, seed, where, nested)
    return state


def _parse_turn(
    data: object,
    s: State,
    drew: Drew | None,
    rules: Variant,
    seed: int,
    where: str,
    nested: bool,
) -> Turn:
    """The turn in progress: what was drawn, provisional moves and what Undo can restore —
    each checked against the position it belongs to."""
    w = f"{where}turn."
    if data is None:
        if s.phase == "play" and drew in ("discard", "cut_card"):
            raise _bad(f"{w}drew", "record_expect_turn")
        return Turn(drew=drew)
    if not isinstance(data, dict):
        raise _bad(f"{where}turn", "record_expect_object")
    _known(data, _TURN_FIELDS, w)
    turn_drew = data.get("drew", drew)
    if turn_drew != drew:
        raise _bad(f"{w}drew", "record_expect_same_drew", drew=drew)

    def ints(key: str) -> list[int]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) and 0 <= x < len(s.table) for x in value
        ):
            raise _bad(f"{w}{key}", "record_expect_meld_indices", count=len(s.table))
        return list(value)

    play = s.phase == "play"
    taken = _card(data.get("taken"), f"{w}taken")
    cut_taken = _card(data.get("cut_taken"), f"{w}cut_taken")
    new_melds = ints("new_melds")
    exchanged = ints("exchanged")
    points = data.get("meld_points", 0)
    if not isinstance(points, int) or isinstance(points, bool):
        raise _bad(f"{w}meld_points", "record_expect_whole")
    placed = list(_cards(data.get("placed", []), f"{w}placed"))
    melded = list(_cards(data.get("melded", []), f"{w}melded"))
    moves = data.get("joker_moves")
    if moves is None:  # older saves: jokers laid down this turn replay the freed ones
        moves = ["freed"] * len(exchanged) + ["placed"] * placed.count(JOKER)
    if not isinstance(moves, list) or not all(m in ("freed", "placed") for m in moves):
        raise _bad(f"{w}joker_moves", "record_expect_joker_moves")
    turn = Turn(
        drew=drew,
        taken=taken,
        cut_taken=cut_taken,
        cut_attempted=_bool(data, "cut_attempted", False, w),
        discard_attempted=_bool(data, "discard_attempted", False, w),
        meld_points=points,
        new_melds=new_melds,
        placed=placed,
        melded=melded,
        laid_off=_bool(data, "laid_off", False, w),
        exchanged=exchanged,
        joker_moves=list(moves),
    )
    moved = new_melds or exchanged or placed or melded or turn.laid_off or taken or cut_taken
    if not play and moved:
        raise _bad(f"{where}phase", "record_expect_phase_play")
    # what the turn says was done must be on the table, in the hand, and add up
    if len(set(new_melds)) != len(new_melds) or any(
        s.table[i].owner != s.current for i in new_melds
    ):
        raise _bad(f"{w}new_melds", "record_expect_own_melds", seat=s.current)
    # lay-offs onto this turn's melds add to them without counting toward the opening (H8)
    if not 0 <= points <= sum(s.table[i].meld.points(rules) for i in new_melds):
        raise _bad(f"{w}meld_points", "record_expect_meld_points")
    on_table: Counter[Card] = Counter()
    for tm in s.table:
        on_table.update(tm.meld.cards)
    gone = Counter(placed) - on_table  # only jokers freed by an exchange leave the table
    if Counter(melded) - Counter(placed) or set(gone) - {JOKER} or gone[JOKER] > len(exchanged):
        raise _bad(f"{w}placed", "record_expect_placed")
    if moves.count("freed") != len(exchanged) or moves.count("placed") > placed.count(JOKER):
        raise _bad(f"{w}joker_moves", "record_expect_joker_moves")
    held = Counter(s.hands[s.current]) + Counter(placed)
    if taken is not None and (drew != "discard" or not held[taken]):
        raise _bad(f"{w}taken", "record_expect_taken")
    if cut_taken is not None and (drew != "cut_card" or not held[cut_taken] or s.cut_card):
        raise _bad(f"{w}cut_taken", "record_expect_cut_taken")
    if drew == "cut_card" and cut_taken is None:
        raise _bad(f"{w}cut_taken", "record_expect_cut_taken")
    steps = data.get("steps", [])
    if nested:
        return turn
    if not isinstance(steps, list):
        raise _bad(f"{w}steps", "record_expect_list")
    for i, step in enumerate(steps):
        field = f"{w}steps[{i}]"
        if not isinstance(step, dict) or not isinstance(step.get("state"), dict):
            raise _bad(field, "record_expect_step")
        _known(step, frozenset({"kind", "state"}), f"{field}.")
        kind = step.get("kind")
        if kind not in _STEP_KINDS:
            raise _bad(f"{field}.kind", "record_expect_step_kind", choices=", ".join(_STEP_KINDS))
        before = _parse_state(
            step["state"], rules, len(s.hands), seed, f"{field}.state.", nested=True
        )
        if before.current != s.current:
            raise _bad(
                f"{field}.state.current", "record_expect_range", low=s.current, high=s.current
            )
        if (before.phase == "draw") != (kind in ("discard", "cut_card")):
            raise _bad(f"{field}.state.phase", "record_expect_step_phase", kind=kind)
        before.turn.steps = list(turn.steps)
        turn.steps.append((kind, before))
    kinds = [kind for kind, _ in turn.steps]
    if taken is not None and "discard" not in kinds:
        raise _bad(f"{w}taken", "record_expect_taken_step")
    if cut_taken is not None and "cut_card" not in kinds:
        raise _bad(f"{w}cut_taken", "record_expect_cut_step")
    if drew in ("stock", "start") and any(k in ("discard", "cut_card") for k in kinds):
        raise _bad(f"{w}steps", "record_expect_steps_drew", drew=drew)
    return turn


def position_data_clean(data: dict[str, Any], rules: Variant, stock: list[Card]) -> dict[str, Any]:
    """The position as it will be saved: explicit stock, variant and options."""
    clean = {k: v for k, v in data.items() if k not in ("actions", "format", "version", "position")}
    clean["stock"] = [str(c) for c in stock]
    clean["variant"] = rules.base or rules.name
    clean["options"] = rules.changes()
    return clean
