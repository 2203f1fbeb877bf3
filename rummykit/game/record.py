"""Saved games as versioned JSON — never pickle — validated when loaded.

Two forms. A **game record** is the setup (variant, options, players, seed, dealer, cut) and
the actions played; replaying them reproduces every state. A **position** is a table set up
by hand for a lesson (hands, stock, discard pile, melds, whose turn, phase), optionally
followed by actions.

>>> from rummykit.game import Game, Draw
>>> game = Game.new("rommi", players=2, seed=5)
>>> game.play(Draw("stock"))
>>> text = dumps(game)
>>> again = loads(text)
>>> again.snapshot() == game.snapshot()
True
>>> loads('{"format": "rummykit-game", "version": 99}')
Traceback (most recent call last):
...
rummykit.game.record.RecordError: this file is version 99 of the game format; rummykit reads version 1
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rummykit.cards import JOKER, Card, CardParseError, as_cards, parse_card
from rummykit.game.actions import Action, ActionParseError
from rummykit.melds import IllegalMeld, make_meld, meld_layouts
from rummykit.messages import render
from rummykit.variants import Variant, VariantError
from rummykit.variants import variant as get_variant

if TYPE_CHECKING:
    from rummykit.game.state import Game, TableMeld, _State, _Turn

__all__ = ["FORMAT_VERSION", "RecordError", "dumps", "from_position", "load", "loads", "save"]

FORMAT_VERSION = 1
GAME_FORMAT = "rummykit-game"
POSITION_FORMAT = "rummykit-position"


class RecordError(ValueError):
    """A saved game or position is malformed, tampered with, or replays an illegal move."""


def _err(code: str, **params: object) -> RecordError:
    return RecordError(render(code, **params))


# --- saving ------------------------------------------------------------------------------


def record_of(game: Game) -> dict[str, Any]:
    """The JSON-ready record of a game: its start (setup or position) and its actions."""
    start = dict(game.setup)
    fmt = POSITION_FORMAT if "position" in start else GAME_FORMAT
    return {
        "format": fmt,
        "version": FORMAT_VERSION,
        **start,
        "actions": [{"seat": seat, **action.to_dict()} for seat, action in game.actions],
    }


def dumps(game: Game, indent: int | None = None) -> str:
    """The game record as JSON text."""
    return json.dumps(record_of(game), ensure_ascii=False, indent=indent)


def save(game: Game, path: str) -> None:
    """Write the game record to a JSON file."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps(game, indent=1))


def position_of(game: Game) -> dict[str, Any]:
    """The full current state as data (hands, stock, table, …) — the position form.

    It includes the turn in progress (provisional moves, what they oblige, what Undo can
    take back) and the state of the game's random source, so a loaded position plays on
    exactly as the original would.
    """
    return {
        "variant": game.variant.base or game.variant.name,
        "options": game.variant.changes(),
        "players": game.players,
        "seed": game.seed,
        "dealer": game.dealer,
        **_state_dict(game._state),
        "match_scores": list(game.match_scores),
        "rng": _rng_state(game._rng),
        "result": game._state.result.to_dict() if game._state.result else None,
    }


def _state_dict(s: _State, *, with_steps: bool = True) -> dict[str, Any]:
    t = s.turn
    turn: dict[str, Any] = {
        "drew": t.drew,
        "taken": str(t.taken) if t.taken else None,
        "cut_taken": str(t.cut_taken) if t.cut_taken else None,
        "cut_attempted": t.cut_attempted,
        "discard_attempted": t.discard_attempted,
        "meld_points": t.meld_points,
        "new_melds": list(t.new_melds),
        "placed": sorted(str(c) for c in t.placed),
        "melded": sorted(str(c) for c in t.melded),
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
        raise _err("record_bad_field", field="rng", expected="a saved random state")
    assert isinstance(value, list)
    try:
        rng.setstate((value[0], tuple(value[1]), value[2]))
    except (TypeError, ValueError) as exc:
        raise _err("record_bad_field", field="rng", expected="a saved random state") from exc


# --- loading -----------------------------------------------------------------------------


def loads(text: str) -> Game:
    """Read a game record or position from JSON text, validating everything."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _err("record_not_json", error=str(exc)) from exc
    return load(data)


def load(data: object) -> Game:
    """Rebuild a game from record data (as from ``json.load``), replaying its actions."""
    from rummykit.game.state import Game, IllegalAction

    if not isinstance(data, dict):
        raise _err("record_not_object")
    fmt = data.get("format")
    if fmt not in (GAME_FORMAT, POSITION_FORMAT):
        raise _err("record_bad_format", found=fmt, choices=f"{GAME_FORMAT}, {POSITION_FORMAT}")
    if data.get("version") != FORMAT_VERSION:
        raise _err("record_bad_version", found=data.get("version"), version=FORMAT_VERSION)
    body = data.get("position") if fmt == POSITION_FORMAT else data
    if not isinstance(body, dict):
        raise _err("record_bad_field", field="position", expected="an object")
    rules = _variant_of(body)
    players = _int(body, "players", rules.players_min, rules.players_max)
    seed = body.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _err("record_bad_field", field="seed", expected="a whole number or null")
    if fmt == GAME_FORMAT:
        dealer = _int(data, "dealer", 0, players - 1)
        cut = data.get("cut")
        if cut is not None and (not isinstance(cut, int) or isinstance(cut, bool)):
            raise _err("record_bad_field", field="cut", expected="a whole number or null")
        try:
            game = Game.new(
                rules,
                players,
                seed,
                dealer=dealer,
                cut=cut,
                choose_cut=bool(data.get("choose_cut", False)),
                match_scores=_scores(data, players),
            )
        except (VariantError, ValueError) as exc:
            raise RecordError(str(exc)) from exc
    else:
        game = from_position_data(body, rules)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise _err("record_bad_field", field="actions", expected="a list")
    for number, item in enumerate(actions, 1):
        if not isinstance(item, dict) or not isinstance(item.get("seat"), int):
            raise _err("record_bad_action", number=number, error="each action needs a seat")
        try:
            action = Action.from_dict({k: v for k, v in item.items() if k != "seat"})
        except ActionParseError as exc:
            raise _err("record_bad_action", number=number, error=str(exc)) from exc
        try:
            game.play(action, item["seat"])
        except IllegalAction as exc:
            raise _err(
                "record_illegal_action",
                number=number,
                seat=item["seat"],
                action=str(action),
                why=" ".join(r.message for r in exc.verdict.failures),
            ) from exc
    return game


def _variant_of(data: dict[str, Any]) -> Variant:
    name = data.get("variant")
    options = data.get("options", {})
    if not isinstance(name, str) or not isinstance(options, dict):
        raise _err("record_bad_field", field="variant", expected="a variant name and options")
    try:
        return get_variant(name, **options)
    except VariantError as exc:
        raise RecordError(str(exc)) from exc


def _int(data: dict[str, Any], key: str, low: int, high: int) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _err("record_bad_field", field=key, expected=f"a whole number from {low} to {high}")
    return value


def _scores(data: dict[str, Any], players: int) -> tuple[int, ...] | None:
    scores = data.get("match_scores")
    if scores is None:
        return None
    if (
        not isinstance(scores, list)
        or len(scores) != players
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in scores)
    ):
        raise _err("record_bad_field", field="match_scores", expected=f"{players} whole numbers")
    return tuple(scores)


def _cards(value: object, what: str) -> tuple[Card, ...]:
    if not isinstance(value, (list, str)) or (
        isinstance(value, list) and not all(isinstance(c, str) for c in value)
    ):
        raise _err("record_bad_field", field=what, expected="a list of cards")
    try:
        return as_cards(value)
    except CardParseError as exc:
        raise _err("record_bad_cards", field=what, error=str(exc)) from exc


def _bools(data: dict[str, Any], key: str, players: int, default: list[bool]) -> list[bool]:
    value = data.get(key, default)
    if (
        not isinstance(value, list)
        or len(value) != players
        or not all(isinstance(x, bool) for x in value)
    ):
        raise _err("record_bad_field", field=key, expected=f"{players} true/false values")
    return value


# --- positions made by hand --------------------------------------------------------------


def from_position(
    variant: str | Variant = "hungarian",
    *,
    hands: Sequence[str | Iterable[Card | str]],
    stock: str | Iterable[Card | str] | None = None,
    discard: str | Iterable[Card | str] = (),
    table: Iterable[
        tuple[int, str | Iterable[Card | str]] | tuple[int, str | Iterable[Card | str], str]
    ] = (),
    cut_card: str | Card | None = None,
    current: int = 0,
    phase: str = "draw",
    opened: Sequence[bool] | None = None,
    turns: Sequence[int] | None = None,
    seed: int | None = 0,
    dealer: int | None = None,
    match_scores: Sequence[int] | None = None,
) -> Game:
    """A game set up by hand for a lesson — validated like a loaded file.

    ``stock`` (top card last) defaults to every card not placed elsewhere, shuffled with
    ``seed``; ``table`` holds ``(owner, cards)`` or ``(owner, cards, joker_as)``. In
    Hungarian, ``turns`` says how many turns each seat has had (H9 forbids opening on the
    first), and ``opened`` who has opened.

    >>> game = from_position("rommi", hands=["5♥ 6♥ 7♥ K♠", "2♣ 3♣ 9♦"], discard="8♥")
    >>> game.current, game.phase, game.stock_size
    (0, 'draw', 44)
    """
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
    return from_position_data(data, rules)


def from_position_data(data: dict[str, Any], rules: Variant) -> Game:
    """Build a game from position data, checking that it could happen under the rules."""
    from rummykit.game.state import Game

    players = _int(data, "players", rules.players_min, rules.players_max)
    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise _err("record_bad_field", field="seed", expected="a whole number or null")
    if seed is None:  # H15's reshuffle must replay the same: choose a seed and keep it
        seed = random.SystemRandom().randrange(2**32)
        data = {**data, "seed": seed}
    state = _parse_state(data, rules, players, seed)
    if state.phase == "over":
        raise _err(
            "record_bad_field",
            field="phase",
            expected="draw or play (a finished round can't be resumed)",
        )
    dealer = (
        _int(data, "dealer", 0, players - 1) if "dealer" in data else (state.current - 1) % players
    )
    rng = random.Random(seed)
    if data.get("rng") is not None:
        _set_rng(rng, data["rng"])
    setup = {"position": position_data_clean(data, rules, state.stock)}
    return Game(rules, players, seed, dealer, state, rng, setup, _scores(data, players))


def _table_meld(item: object, i: int, rules: Variant, players: int) -> TableMeld:
    from rummykit.game.state import TableMeld

    if not isinstance(item, dict):
        raise _err("record_bad_field", field=f"table[{i}]", expected="an object")
    owner = _int(item, "owner", 0, players - 1)
    cards = _cards(item.get("cards"), f"table[{i}].cards")
    represents = item.get("represents")
    joker_as = item.get("joker_as")
    if joker_as is None and isinstance(represents, list):
        jokers = [r for c, r in zip(cards, represents) if c.is_joker and r]
        joker_as = jokers[0] if jokers else None
    if joker_as is not None and not isinstance(joker_as, str):
        raise _err("record_bad_field", field=f"table[{i}].joker_as", expected="a card")
    try:
        meld = make_meld(cards, rules, parse_card(joker_as) if joker_as else None)
    except (IllegalMeld, CardParseError) as exc:
        raise _err("record_bad_meld", index=i, error=str(exc)) from exc
    start = item.get("start")
    if isinstance(start, int) and meld.is_run and start != meld.start:  # A-…-K or 2-…-A
        same = [m for m in meld_layouts(cards, rules) if m.start == start]
        if not same:
            raise _err("record_bad_meld", index=i, error=f"no layout starts at {start}")
        meld = same[0]
    return TableMeld(owner, meld)


def _parse_state(
    data: dict[str, Any], rules: Variant, players: int, seed: int, *, nested: bool = False
) -> _State:
    """Validate and build the state part of a position (hands, piles, table, turn)."""
    from rummykit.game.state import _State

    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or len(hands_data) != players:
        raise _err("record_bad_field", field="hands", expected=f"{players} hands")
    hands = [list(_cards(h, f"hands[{i}]")) for i, h in enumerate(hands_data)]
    discard = list(_cards(data.get("discard", []), "discard"))
    table_data = data.get("table", [])
    if not isinstance(table_data, list):
        raise _err("record_bad_field", field="table", expected="a list of melds")
    table: list[TableMeld] = [
        _table_meld(item, i, rules, players) for i, item in enumerate(table_data)
    ]
    cut = data.get("cut_card")
    if cut is not None and not isinstance(cut, str):
        raise _err("record_bad_field", field="cut_card", expected="a card or null")
    cut_card = _cards(cut, "cut_card")[0] if cut else None
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
        raise _err(code, card=over[0], copies=deck[over[0]], variant=rules.title)
    if data.get("stock") is None and not nested:
        rest = sorted((deck - placed).elements(), key=Card.sort_key)
        random.Random(seed).shuffle(rest)
        stock = rest
    else:
        stock = list(_cards(data.get("stock"), "stock"))
        total = placed + Counter(stock)
        if total != deck:
            missing = deck - total
            extra = total - deck
            card = next(iter(missing or extra))
            raise _err(
                "record_cards_unaccounted",
                card=card,
                problem="missing" if missing else "there too often",
                count=len(rules.deck()),
            )
    current = _int(data, "current", 0, players - 1)
    phase = data.get("phase", "draw")
    if phase not in ("draw", "play", "over"):
        raise _err("record_bad_field", field="phase", expected="draw, play or over")
    opened = _bools(data, "opened", players, [rules.opening_threshold == 0] * players)
    turns_value = data.get("turns", [1] * players)
    if (
        not isinstance(turns_value, list)
        or len(turns_value) != players
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in turns_value)
    ):
        raise _err("record_bad_field", field="turns", expected=f"{players} whole numbers")
    drawn = _bools(data, "drawn", players, [t > 0 for t in turns_value])
    drew = data.get("drew", "stock" if phase == "play" else None)
    if drew not in (None, "stock", "discard", "cut_card", "start"):
        raise _err("record_bad_field", field="drew", expected="stock, discard, cut_card or start")
    quiet = data.get("quiet_turns", 0)
    if not isinstance(quiet, int) or isinstance(quiet, bool) or quiet < 0:
        raise _err("record_bad_field", field="quiet_turns", expected="a whole number")
    state = _State(
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
        turn=_parse_turn(
            data.get("turn"), drew if phase == "play" else None, rules, players, seed, nested
        ),
        reshuffled=bool(data.get("reshuffled", False)),
        quiet_turns=quiet,
    )
    return state


def _parse_turn(
    data: object, drew: str | None, rules: Variant, players: int, seed: int, nested: bool
) -> _Turn:
    """The turn in progress: what was drawn, provisional moves and what Undo can restore."""
    from rummykit.game.state import _Turn

    if data is None:
        return _Turn(drew=drew)
    if not isinstance(data, dict):
        raise _err("record_bad_field", field="turn", expected="an object")

    def card(key: str) -> Card | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise _err("record_bad_field", field=f"turn.{key}", expected="a card or null")
        return _cards(value, f"turn.{key}")[0]

    def ints(key: str) -> list[int]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value
        ):
            raise _err("record_bad_field", field=f"turn.{key}", expected="whole numbers")
        return list(value)

    points = data.get("meld_points", 0)
    if not isinstance(points, int) or isinstance(points, bool):
        raise _err("record_bad_field", field="turn.meld_points", expected="a whole number")
    turn = _Turn(
        drew=data.get("drew", drew),
        taken=card("taken"),
        cut_taken=card("cut_taken"),
        cut_attempted=bool(data.get("cut_attempted", False)),
        discard_attempted=bool(data.get("discard_attempted", False)),
        meld_points=points,
        new_melds=ints("new_melds"),
        placed=list(_cards(data.get("placed", []), "turn.placed")),
        melded=list(_cards(data.get("melded", []), "turn.melded")),
        laid_off=bool(data.get("laid_off", False)),
        exchanged=ints("exchanged"),
    )
    moves = data.get("joker_moves")
    if moves is None:  # older saves: jokers laid down this turn replay the freed ones
        moves = ["freed"] * len(turn.exchanged) + ["placed"] * turn.placed.count(JOKER)
    if not isinstance(moves, list) or not all(m in ("freed", "placed") for m in moves):
        raise _err("record_bad_field", field="turn.joker_moves", expected="freed or placed")
    turn.joker_moves = list(moves)
    steps = data.get("steps", [])
    if nested or not steps:
        return turn
    if not isinstance(steps, list):
        raise _err("record_bad_field", field="turn.steps", expected="a list")
    for i, step in enumerate(steps):
        if not isinstance(step, dict) or not isinstance(step.get("state"), dict):
            raise _err("record_bad_field", field=f"turn.steps[{i}]", expected="a saved move")
        before = _parse_state(step["state"], rules, players, seed, nested=True)
        before.turn.steps = list(turn.steps)
        turn.steps.append((str(step.get("kind")), before))
    return turn


def position_data_clean(data: dict[str, Any], rules: Variant, stock: list[Card]) -> dict[str, Any]:
    """The position as it will be saved: explicit stock, variant and options."""
    clean = {k: v for k, v in data.items() if k not in ("actions", "format", "version", "position")}
    clean["stock"] = [str(c) for c in stock]
    clean["variant"] = rules.base or rules.name
    clean["options"] = rules.changes()
    return clean
