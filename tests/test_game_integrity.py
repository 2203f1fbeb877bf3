"""An agent can't change what others see (issue 12): an observation holds copies or
read-only views, so whatever an agent does to it, the game and every other seat's view stay
as they were."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from referee_helpers import opened_table, play

from rummykit.game import Event, Game, Observation


def _vandalise(value: Any, depth: int = 0) -> int:
    """Try to change everything reachable from ``value``; return how many changes took."""
    if depth > 6 or isinstance(value, (str, int, float, bool, type(None))):
        return 0
    took = 0
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for spec in dataclasses.fields(value):
            inner = getattr(value, spec.name)
            took += _vandalise(inner, depth + 1)
            try:
                setattr(value, spec.name, None)
                took += 1
            except (dataclasses.FrozenInstanceError, AttributeError, TypeError):
                pass
    elif isinstance(value, Mapping):
        for key in list(value):
            took += _vandalise(value[key], depth + 1)
            try:
                value[key] = "vandal"  # type: ignore[index]
                took += 1
            except TypeError:
                pass
    elif isinstance(value, (list, tuple)):
        for item in value:
            took += _vandalise(item, depth + 1)
        if isinstance(value, list):
            value.append("vandal")
            took += 1
    return took


def _public(game: Game) -> dict[str, Any]:
    return {
        "snapshot": game.snapshot(),
        "events": [e.to_dict() for e in game.events],
        "history": [str(e) for e in game.events],
        "views": [json.dumps(game.observation(s).to_dict()) for s in range(game.players)],
    }


def _games() -> list[Game]:
    out = []
    for variant, players, seed in (("hungarian", 3, 2), ("rommi", 4, 5), ("hungarian", 2, 9)):
        game = Game.new(variant, players=players, seed=seed)
        rng = random.Random(seed)
        for _ in range(25):
            legal = game.legal_actions()
            plain = [a for a in legal if a.kind in ("draw", "discard", "meld", "layoff")]
            game.play(rng.choice(plain or legal))
            if game.is_over:
                break
        out.append(game)
    exchange = opened_table("6h 9s 2d", [(1, "Js Qs Ks"), (1, "5h Jk 7h")])
    play(exchange, "exchange 6h from 2", "lay off Jk onto 1 as 10s")
    out.append(exchange)
    return out


@pytest.mark.parametrize("game", _games(), ids=lambda g: repr(g))
def test_an_agent_vandalising_its_observation_changes_nothing_else(game: Game) -> None:
    before = _public(game)
    for seat in range(game.players):
        observation = game.observation(seat)
        _vandalise(observation)
        assert _public(game) == before, f"seat {seat} changed what others see"


def test_the_history_is_read_only() -> None:
    game = _games()[-1]
    observation: Observation = game.observation(1)
    event = observation.history[0]
    assert event is game.events[0]  # shared safely: nothing in it can change
    with pytest.raises(TypeError):
        event.params["card"] = "A♠"  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.code = "discard"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        observation.history[1].params["cards"].append("A♠")  # tuples, not lists
    assert str(game.events[0]) == "Seat 0 exchanged 6♥ for the joker in meld 2."


def test_events_keep_their_json_form_and_equality() -> None:
    event = Event(1, "meld", {"cards": ["5♥", "6♥", "7♥"], "index": 2})
    assert event.to_dict() == {
        "seat": 1,
        "code": "meld",
        "params": {"cards": ["5♥", "6♥", "7♥"], "index": 2},
    }
    assert event == Event(1, "meld", {"cards": ("5♥", "6♥", "7♥"), "index": 2})
    assert str(event) == "Seat 1 laid down 5♥ 6♥ 7♥ (meld 3)."
    params = {"cards": ["5♥"], "index": 0}
    built = Event(0, "layoff", params)
    params["cards"].append("6♥")  # the caller's dict and list are not kept
    assert built.params["cards"] == ("5♥",)
