"""The card table as plain data for the browser: what one seat sees, ready to draw.

The widgets never decide anything: this module turns a seat's :class:`Observation`, the
last :class:`Verdict` and the AI's traces into a JSON-ready dict that the ES module draws.
Card pictures are the same SVG that :mod:`rummykit.display` draws in notebooks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rummykit import display
from rummykit.cards import Card, sort_cards
from rummykit.display import card_back_svg, card_svg
from rummykit.explain import Verdict
from rummykit.game.observation import Observation
from rummykit.messages import render

__all__ = ["card_view", "sorted_hand", "table_view", "verdict_view"]


def card_view(card: Card, *, highlight: bool = False, selected: bool = False) -> dict[str, Any]:
    """One card for the browser: its text, words for screen readers, and its picture."""
    return {
        "text": str(card),
        "label": card.label,
        "svg": card_svg(card, highlight=highlight),
        "highlight": highlight,
        "selected": selected,
        "joker": card.is_joker,
    }


def sorted_hand(hand: tuple[Card, ...], by: str) -> list[Card]:
    """The hand sorted by suit (♠♥♦♣ then rank) or by rank (then suit); jokers last."""
    if by == "rank":
        return sorted(hand, key=lambda c: (c.is_joker, c.rank, c.sort_key()))
    return list(sort_cards(hand))


def verdict_view(verdict: Verdict | None) -> dict[str, Any] | None:
    """A refusal or an explanation for the message panel."""
    if verdict is None:
        return None
    return {
        "ok": verdict.ok,
        "text": str(verdict),
        "reasons": [
            {"code": r.code, "rule": r.rule, "message": r.message, "failing": r.failing}
            for r in verdict.reasons
        ],
        "cards": [card_view(c, highlight=c in verdict.highlighted) for c in _shown(verdict)],
    }


def _shown(verdict: Verdict) -> list[Card]:
    """The verdict's cards to show. A refusal lists each failing reason's cards one after
    another, so the same card comes up again and again: show each card as many times as
    one reason needs it (two identical cards stay two), in order of first appearance."""
    per_reason = [Counter(r.cards) for r in verdict.reasons]
    if Counter(verdict.cards) != sum(per_reason, Counter()):
        return list(verdict.cards)
    most: Counter[Card] = Counter()
    for count in per_reason:
        most |= count
    return [c for c in dict.fromkeys(verdict.cards) for _ in range(most[c])]


@contextmanager
def _colours(four_colour: bool) -> Iterator[None]:
    """Draw the cards in this table's colour scheme (the display option is global)."""
    before = display.options.four_colour
    display.options.four_colour = four_colour
    try:
        yield
    finally:
        display.options.four_colour = before


def table_view(
    obs: Observation,
    *,
    hand_order: list[Card],
    selected: list[int],
    verdict: Verdict | None,
    names: list[str],
    announcement: str,
    ai_log: list[dict[str, Any]],
    result_lines: list[str],
    hint: str,
    match_over: bool,
    four_colour: bool,
    pending: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything the table widget draws, for seat ``obs.seat``."""
    with _colours(four_colour):
        highlighted = verdict.highlighted if verdict is not None and not verdict.ok else frozenset()
        legal = obs.legal_actions
        kinds = {a.kind for a in legal}
        sources = {a.source for a in legal if a.kind == "draw"}  # type: ignore[attr-defined]
        v = obs.variant
        status = (
            str(obs.status)
            if obs.status is not None
            else render("widget_waiting", seat=obs.current, name=names[obs.current])
        )
        opening = ""
        if v.opening_threshold and not obs.opened[obs.seat]:
            points = obs.turn.meld_points if obs.my_turn else 0
            opening = render("widget_opening", points=points, threshold=v.opening_threshold)
        return {
            "seat": obs.seat,
            "variant": v.title,
            "phase": obs.phase,
            "current": obs.current,
            "my_turn": obs.my_turn,
            "names": names,
            "hand": [
                card_view(c, highlight=c in highlighted, selected=i in selected)
                for i, c in enumerate(hand_order)
            ],
            "opponents": [
                {
                    "seat": s,
                    "name": names[s],
                    "count": obs.hand_sizes[s],
                    "opened": obs.opened[s],
                    "to_act": obs.current == s,
                    "back": card_back_svg(),
                    "label": render(
                        "widget_opponent_label", name=names[s], count=obs.hand_sizes[s]
                    ),
                }
                for s in range(obs.players)
                if s != obs.seat
            ],
            "melds": [
                {
                    "index": i,
                    "owner": tm.owner,
                    "owner_name": names[tm.owner],
                    "kind": tm.meld.kind,
                    "cards": [card_view(c) for c in tm.meld.cards],
                    "jokers": [
                        render(
                            "widget_joker_is",
                            card=rep if rep else "/".join(map(str, tm.meld.missing_suits())),
                        )
                        for c, rep in zip(tm.meld.cards, tm.meld.represents)
                        if c.is_joker
                    ],
                    "label": render(
                        "widget_meld_label", index=i + 1, owner=names[tm.owner], cards=tm.meld.cards
                    ),
                }
                for i, tm in enumerate(obs.table)
            ],
            "discard_top": card_view(obs.discard_top) if obs.discard_top else None,
            "discard_count": len(obs.discard_pile),
            "stock_count": obs.stock_size,
            "stock_back": card_back_svg(),
            "cut_card": card_view(obs.cut_card) if obs.cut_card else None,
            "scores": list(obs.scores),
            "status": status,
            "opening": opening,
            "can": {
                "draw": "stock" in sources,
                "take_discard": "discard" in sources,
                "take_cut": "cut_card" in sources,
                "discard": "discard" in kinds,
                "meld": obs.my_turn and obs.phase == "play",
                "layoff": "layoff" in kinds or (obs.my_turn and obs.phase == "play"),
                "exchange": "exchange" in kinds,
                "undo": "undo" in kinds,
                "return_cut": "return_cut" in kinds,
                "next_round": obs.phase == "over" and not match_over,
            },
            "verdict": verdict_view(verdict),
            "joker_choices": _joker_choices(verdict),
            "pending": pending,
            "announcement": announcement,
            "ai_log": ai_log,
            "result": result_lines,
            "hint": hint,
            "match_over": match_over,
            "four_colour": four_colour,
            "labels": {k: render(f"widget_{k}") for k in _LABELS},
        }


def _joker_choices(verdict: Verdict | None) -> list[str]:
    """When a joker's meaning is open, the cards it may stand for (offered as buttons)."""
    if verdict is None:
        return []
    for r in verdict.failures:
        if r.code == "joker_ambiguous":
            return [str(c) for c in r.params.get("choices", ())]  # type: ignore[attr-defined]
    return []


_LABELS = (
    "selected",
    "stock",
    "discard_pile",
    "cut_card",
    "your_hand",
    "table",
    "draw_button",
    "take_discard_button",
    "take_cut_button",
    "discard_button",
    "meld_button",
    "layoff_hint",
    "exchange_button",
    "undo_button",
    "return_cut_button",
    "hint_button",
    "clear_button",
    "sort_suit",
    "sort_rank",
    "next_round_button",
    "ai_moves",
    "scores",
    "round_over",
    "match_over_title",
    "no_melds",
)
