"""The card table as plain data for the browser: what one seat sees, ready to draw.

The widgets never decide anything: this module turns a seat's :class:`Observation`, the
last :class:`Verdict` and the engine's answers about each control into a JSON-ready dict
that the ES module draws. Card pictures are the same SVG that :mod:`rummykit.display` draws
in notebooks; they go to the browser once per table (:func:`deck_view`), so an update names
cards by their text and stays small.

The learner is "You" everywhere: :func:`~rummykit.voice.in_second_person` words the
engine's reasons and events about the learner's seat with the ``widget_you_…`` templates.

>>> from rummykit.game import Game
>>> status_text(Game.new("rommi", players=2, seed=1).turn_status())
'Your turn: draw from the stock or the discard pile.'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from rummykit import display
from rummykit.cards import Card, sort_cards
from rummykit.display import card_back_svg, card_svg
from rummykit.explain import Verdict
from rummykit.game.observation import Observation
from rummykit.messages import Series, in_language, render
from rummykit.variants import Variant
from rummykit.voice import event_text, in_second_person, status_text

__all__ = [
    "Control",
    "card_name",
    "card_view",
    "deck_view",
    "event_text",
    "in_second_person",
    "sorted_hand",
    "status_text",
    "table_view",
    "verdict_view",
]


def card_view(card: Card, *, highlight: bool = False, selected: bool = False) -> dict[str, Any]:
    """One card for the browser: its text and words for screen readers. Its picture is in
    the deck sheet (:func:`deck_view`), except a card at fault, which carries its own."""
    out: dict[str, Any] = {
        "text": str(card),
        "label": card.label,
        "name": card_name(card),
        "selected": selected,
        "highlight": highlight,
    }
    if highlight:
        out["svg"] = card_svg(card, highlight=True)
    return out


def card_name(card: Card) -> str:
    """The card's accessible name: its words, after the rank its picture shows when the words
    don't already start with it, so that a speech user who says what they see finds the
    button, and a name that goes on after a caption ("Discard pile · 8: Q, queen of spades")
    holds the words shown in their order (WCAG 2.5.3).

    >>> card_name(Card("Q♠")), card_name(Card("10♥"))
    ('Q, queen of spades', '10 of hearts')
    """
    corner = render("card_joker_corner") if card.is_joker else card.rank_letter
    label = card.label
    if label.casefold().split()[:1] == [corner.casefold()]:
        return label
    return render("widget_card_name", corner=corner, label=label)


def deck_view(variant: Variant, four_colour: bool) -> dict[str, str]:
    """Every card's picture, keyed by its text, and the back (``"back"``): sent once."""
    with _colours(four_colour):
        sheet = {str(c): card_svg(c) for c in sort_cards(set(variant.deck()))}
        sheet["back"] = card_back_svg()
    return sheet


def sorted_hand(hand: tuple[Card, ...], by: str) -> list[Card]:
    """The hand sorted by suit (♠♥♦♣ then rank) or by rank (then suit); jokers last."""
    if by == "rank":
        return sorted(hand, key=lambda c: (c.is_joker, c.rank, c.sort_key()))
    return list(sort_cards(hand))


def verdict_view(
    verdict: Verdict | None, seat: int = -1, names: Sequence[str] = ()
) -> dict[str, Any] | None:
    """A refusal or an explanation for the message panel."""
    if verdict is None:
        return None
    reasons = [in_second_person(r, seat, names) for r in verdict.reasons]
    return {
        "ok": verdict.ok,
        "text": " ".join(str(r) for r in reasons),
        "reasons": [
            {"code": r.code, "rule": r.rule, "message": r.message, "failing": r.failing}
            for r in reasons
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


@dataclass(frozen=True, slots=True)
class Control:
    """What pressing a control would do now: allowed, or why not (the engine's words)."""

    enabled: bool
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"enabled": …, "why": …}``."""
        return {"enabled": self.enabled, "why": self.why}


@dataclass(frozen=True, slots=True)
class Scores:
    """The score bar and the sheet: totals so far and each finished round's points."""

    totals: tuple[int, ...]
    rounds: tuple[tuple[int, ...], ...]


def table_view(
    obs: Observation,
    *,
    hand_order: list[Card],
    selected: list[int],
    drawn: int | None,
    verdict: Verdict | None,
    names: list[str],
    status: str,
    announcement: str,
    alert: str,
    result_lines: list[str],
    scores: Scores,
    controls: Mapping[str, Control],
    melds: Sequence[Mapping[str, Control]],
    hint: str,
    match_over: bool,
    cut: dict[str, int] | None,
    pending: dict[str, Any] | None,
    log_count: int,
    seq: int,
) -> dict[str, Any]:
    """Everything the table widget draws for seat ``obs.seat``, pictures aside."""
    highlighted = verdict.highlighted if verdict is not None and not verdict.ok else frozenset()
    v = obs.variant
    opening = ""
    if v.opening_threshold and not obs.opened[obs.seat] and obs.phase != "over":
        points = obs.turn.meld_points if obs.my_turn else 0
        opening = render("widget_opening", points=points, threshold=v.opening_threshold)
    hand = []
    for i, c in enumerate(hand_order):
        card = card_view(c, highlight=c in highlighted, selected=i in selected)
        if i == drawn:
            card["drawn"] = True
        hand.append(card)
    return {
        "seq": seq,
        "seat": obs.seat,
        "variant": in_language(v.title),
        "phase": obs.phase,
        "current": obs.current,
        "my_turn": obs.my_turn,
        "names": names,
        "hand": hand,
        "players": [
            {
                "seat": s,
                "name": names[s],
                "count": obs.hand_sizes[s],
                "opened": bool(v.opening_threshold) and obs.opened[s],
                "to_act": obs.current == s and obs.phase != "over",
                "label": render("widget_opponent_label", name=names[s], count=obs.hand_sizes[s]),
            }
            for s in range(obs.players)
        ],
        "melds": [
            {
                "index": i,
                "number": i + 1,
                "owner": tm.owner,
                "kind": tm.meld.kind,
                "cards": [str(c) for c in tm.meld.cards],
                "jokers": [
                    render(
                        "widget_joker_is",
                        card=rep if rep else "/".join(map(str, tm.meld.missing_suits())),
                    )
                    for c, rep in zip(tm.meld.cards, tm.meld.represents)
                    if c.is_joker
                ],
                "label": render(
                    "widget_meld_label", number=i + 1, owner=names[tm.owner], cards=tm.meld.cards
                ),
                # for screen readers: the cards in words
                "name": render(
                    "widget_meld_label",
                    number=i + 1,
                    owner=names[tm.owner],
                    cards=Series(c.label for c in tm.meld.cards),
                ),
                **{k: c.to_dict() for k, c in melds[i].items()},
            }
            for i, tm in enumerate(obs.table)
        ],
        "discard_top": card_view(obs.discard_top) if obs.discard_top else None,
        "discard_count": len(obs.discard_pile),
        "stock_count": obs.stock_size,
        "cut_card": card_view(obs.cut_card) if obs.cut_card else None,
        "scores": list(scores.totals),
        "score_sheet": [list(r) for r in scores.rounds],
        "status": status,
        "opening": opening,
        "can": {k: c.enabled for k, c in controls.items()},
        "why": {k: c.why for k, c in controls.items() if not c.enabled},
        "verdict": verdict_view(verdict, obs.seat, names),
        "joker_choices": _joker_choices(verdict),
        "pending": pending,
        "announcement": announcement,
        "alert": alert,
        "result": result_lines,
        "hint": hint,
        "match_over": match_over,
        "cut": cut,
        "log_count": log_count,
    }


def _joker_choices(verdict: Verdict | None) -> list[dict[str, Any]]:
    """When a joker's meaning is open, the meanings it may take, offered as buttons: each a
    ``label`` in words and the ``joker_as`` to send back (a card, or with several jokers a
    whole reading: a card per joker)."""
    if verdict is None:
        return []
    for r in verdict.failures:
        if r.code != "joker_ambiguous":
            continue
        choices = r.params.get("choices", ())
        if not isinstance(choices, (tuple, list)):
            return []
        readings = r.params.get("readings")
        offered: list[dict[str, Any]] = []
        for i, choice in enumerate(choices):
            if isinstance(choice, Card):
                offered.append(
                    {"label": render("widget_joker_is", card=choice), "joker_as": str(choice)}
                )
            elif isinstance(choice, tuple) and isinstance(readings, tuple):
                offered.append({"label": readings[i], "joker_as": [str(c) for c in choice]})
        return offered
    return []


LABELS = (
    "you",
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
    "hint_why",
    "clear_button",
    "sort_suit",
    "sort_rank",
    "next_round_button",
    "ai_moves",
    "ai_moves_plain",
    "reasoning_note",
    "reasoning_hidden",
    "your_moves",
    "scores",
    "round_over",
    "match_over_title",
    "no_melds",
    "your_turn",
    "opened",
    "score_sheet",
    "round_column",
    "total_row",
    "cut_title",
    "cut_slider",
    "cut_button",
    "drawn",
    "no_moves",
    "settings",
    "four_colour",
)


def labels() -> dict[str, str]:
    """Every word the page shows that is not in a view: sent once per table."""
    return {k: render(f"widget_{k}") for k in LABELS}
