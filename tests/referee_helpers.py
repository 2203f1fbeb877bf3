"""Helpers shared by the rule-by-rule referee tests (H1–H15, R1–R12)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

from rummykit import Card
from rummykit.cards import as_cards
from rummykit.explain import CATALOGUE, Verdict
from rummykit.game import Action, Game, IllegalAction, from_position, parse_action
from rummykit.variants import Variant

#: Refusals that are the software's own helps: they cite no rule (the reason catalogue).
REFEREE_HELPS = frozenset(code for code, entry in CATALOGUE.items() if not entry.is_rule)


def opened_table(
    hand: str,
    table: Iterable[tuple[int, str] | tuple[int, str, str]] = (),
    variant: str | Variant = "hungarian",
    *,
    other: str = "3c 4c 5c 8h",
    **position: Any,
) -> Game:
    """Seat 0 to play, having drawn, both seats opened: the usual lesson for lay-offs and
    joker exchanges (``position`` overrides any of these)."""
    setup: dict[str, Any] = {"discard": "5s", "phase": "play", "opened": [True, True]}
    setup.update(position)
    return from_position(variant, hands=[hand, other], table=list(table), **setup)


def act(text: str) -> Action:
    """An action from the short text a learner types (``meld 7h 8h 9h``)."""
    return parse_action(text)


def play(game: Game, *moves: str) -> None:
    """Play moves written as text, one after another."""
    for move in moves:
        game.play(act(move))


def refuse(
    game: Game,
    move: str | Action,
    code: str,
    rule: str | None,
    names: Iterable[str] = (),
    seat: int | None = None,
) -> Verdict:
    """Assert the referee refuses ``move`` for ``code`` citing ``rule``, naming ``names``,
    and that the refusal changed nothing at all. ``rule=None``: the refusal is one of the
    software's own helps and cites no rule."""
    action = act(move) if isinstance(move, str) else move
    snapshot, record = game.snapshot(), game.to_json()
    state, events = game._state.clone(), list(game.events)
    verdict = game.check(action, seat)
    assert not verdict.ok
    assert code in verdict.codes, str(verdict)
    reason = next(r for r in verdict.failures if r.code == code)
    assert reason.rule == rule, str(verdict)
    text = str(verdict)
    if rule is None:
        assert not str(reason).endswith(")"), text
    else:
        assert f"({rule})" in text
    for card in as_cards(" ".join(names)):
        assert str(card) in text, f"{card} not named in: {text}"
    with pytest.raises(IllegalAction) as refused:
        game.play(action, seat)
    assert refused.value.verdict == verdict
    assert str(refused.value) == text
    assert game.snapshot() == snapshot
    assert game.to_json() == record
    assert game._state == state  # the turn in progress too (provisional moves, obligations)
    assert game.events == events
    if seat is None or seat == game.current:
        assert action not in game.legal_actions()
    return verdict


def allowed(game: Game, move: str) -> None:
    """Assert a move is allowed and listed, then play it."""
    action = act(move)
    verdict = game.check(action)
    assert verdict.ok, str(verdict)
    game.play(action)


def cards(text: str) -> tuple[Card, ...]:
    return as_cards(text)


def everything_accounted_for(game: Game) -> None:
    assert game.all_cards() == Counter(game.variant.deck())
