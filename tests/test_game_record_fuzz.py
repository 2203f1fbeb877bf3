"""A fuzz test of the record loader (issue 13): random mutations of valid game records and
positions — a field dropped, duplicated, retyped, truncated or set out of range — either load
into a game that can go on, or are refused with a :class:`RecordError` naming the field.

Never another exception, never a game that loads and then breaks or gets stuck.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest
from referee_helpers import opened_table, play

from rummykit.game import Game, RecordError, from_position
from rummykit.game.record import dumps, load

MUTATIONS_PER_BASE = 150


def _position(game: Game) -> dict[str, Any]:
    return {"format": "rummykit-position", "version": 1, "position": game.snapshot()}


def _game_record(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(game))
    return data


def _bases() -> list[tuple[str, dict[str, Any]]]:
    """Valid records in many states: mid-turn with provisional moves, after an exchange, with
    the cut card or the discard taken, seeded records with actions, both variants."""
    out: list[tuple[str, dict[str, Any]]] = []
    exchange = opened_table(
        "Jk Qc Kc 10s 10d 10h 6h 2d", [(1, "5h Jk 7h"), (1, "4s 4h 4d Jk")], opened=[False, True]
    )
    play(exchange, "meld Jk Qc Kc as Jc", "meld 10s 10d 10h", "exchange 6h from 1")
    out.append(("exchange", _position(exchange)))
    cut = from_position(
        "hungarian",
        hands=["7h 8h 5c 6d", "3c 4c 5c 8d"],
        discard="5s",
        cut_card="9h",
        opened=[True, True],
    )
    play(cut, "take cut", "meld 7h 8h 9h")
    out.append(("cut card taken", _position(cut)))
    take = from_position(
        "hungarian",
        hands=["8d 9d 2s Kc", "3c 4c 5c 8h"],
        discard="5s 10d",
        table=[(1, "5d 6d 7d")],
        opened=[True, True],
    )
    play(take, "take discard")
    out.append(("discard taken", _position(take)))
    rommi = from_position(
        "rommi", hands=["Qs Ks As 2h 3h", "4c 5c 6c"], discard="5s", table=[(1, "7d 8d 9d")]
    )
    play(rommi, "draw", "meld Qs Ks As")
    out.append(("rommi mid-turn", _position(rommi)))
    for variant, players, seed in (("hungarian", 3, 4), ("rommi", 3, 2)):
        game = Game.new(variant, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(30):
            if game.is_over:
                break
            legal = game.legal_actions()
            plain = [a for a in legal if a.kind in ("draw", "discard", "meld", "layoff")]
            game.play(rng.choice(plain or legal))
        assert not game.is_over
        out.append((f"{variant} record", _game_record(game)))
        out.append((f"{variant} position", _position(game)))
    return out


BASES = _bases()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            if key != "rng":  # 625 numbers of random state: mutated as a whole only
                out += _paths(item, (*prefix, key))
            else:
                out.append((*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


def _retype(value: Any, rng: random.Random) -> Any:
    choices: list[Any] = [None, True, False, 0, -1, 1, 3.5, "", "x", "K♠", "🃏", [], {}, ["K♠"]]
    choices += [{"a": 1}, "stock", "play", 10**9, [1, 2], "seat"]
    return rng.choice([c for c in choices if c != value or type(c) is not type(value)])


def _out_of_range(value: Any, rng: random.Random) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return rng.choice([-1, value + 1, value - 1, 4, 5, 99, 2**40])
    if isinstance(value, str):
        return rng.choice(["1♠", "K♠", "🃏", "A♥", value + value, value[:1], "over", "cut"])
    return _retype(value, rng)


def mutate(record: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """One random mutation; returns the changed record and the path it changed."""
    changed = copy.deepcopy(record)
    path = rng.choice(_paths(changed))
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    leaf = path[-1]
    value = parent[leaf]
    how = rng.choice(["drop", "duplicate", "retype", "truncate", "out_of_range", "extra"])
    if how == "drop":
        del parent[leaf]
    elif how == "duplicate":
        if isinstance(parent, list):
            parent.insert(leaf, copy.deepcopy(value))
        else:
            parent[f"{leaf}_copy"] = copy.deepcopy(value)
    elif how == "retype":
        parent[leaf] = _retype(value, rng)
    elif how == "truncate":
        if isinstance(value, (list, str)) and value:
            parent[leaf] = value[: rng.randrange(len(value))]
        elif isinstance(value, dict) and value:
            del value[rng.choice(list(value))]
        else:
            parent[leaf] = _retype(value, rng)
    elif how == "out_of_range":
        parent[leaf] = _out_of_range(value, rng)
    else:  # an unknown field beside the real ones
        target = value if isinstance(value, dict) else parent
        if isinstance(target, dict):
            target["surprise"] = 1
        else:
            parent[leaf] = _out_of_range(value, rng)
    return changed, path


#: A game record's setup: a changed deal makes a later action illegal, and the refusal names
#: that action (the first place where the record stops making sense).
_SETUP = {"seed", "dealer", "cut", "choose_cut", "options", "variant", "players", "match_scores"}


def _names(path: tuple[Any, ...], record: dict[str, Any]) -> set[str]:
    """Words by which a message may name the mutated field: any key on its path."""
    words = {str(key) for key in path if isinstance(key, str)}
    words |= {f"{key}_copy" for key in words} | {"surprise"}
    if record["format"] == "rummykit-game" and path[0] in _SETUP:
        words.add("'actions[")
    return words


def _still_playable(game: Game) -> None:
    assert game.all_cards() == Counter(game.variant.deck())
    if not game.is_over:
        legal = game.legal_actions()
        assert legal, "a loaded game with no legal action"
        for action in legal[:20]:
            assert game.check(action).ok
    str(game.turn_status())
    game.observation(game.current)
    if not game.is_over:  # a finished round is not resumed from a position
        again = load(_position(game))
        assert again.snapshot() == game.snapshot()


@pytest.mark.parametrize(("name", "base"), BASES, ids=[name for name, _ in BASES])
def test_a_mutated_record_loads_or_is_refused_naming_the_field(
    name: str, base: dict[str, Any]
) -> None:
    _still_playable(load(copy.deepcopy(base)))  # the base itself is valid
    rng = random.Random(name)
    refused = 0
    for _ in range(MUTATIONS_PER_BASE):
        changed, path = mutate(base, rng)
        try:
            game = load(changed)
        except RecordError as error:
            message = str(error)
            assert any(word in message for word in _names(path, base)), (path, message)
            refused += 1
            continue
        except Exception as error:  # pragma: no cover - the failure being tested for
            raise AssertionError(f"{path}: {type(error).__name__}: {error}") from error
        try:
            _still_playable(game)
        except Exception as error:  # pragma: no cover
            raise AssertionError(f"{path} loaded, then: {type(error).__name__}: {error}") from error
    assert refused > MUTATIONS_PER_BASE // 3  # the mutations do bite
