"""Cards drawn as SVG in plain HTML from their rank, suit and label, below every model.

This module imports no model: it draws anything shaped like a card (a ``rank_letter``, a
``suit``, a ``label``, ``is_joker``) and anything shaped like a verdict, so
:class:`~rummykit.cards.Card` and :class:`~rummykit.explain.Verdict` show themselves in a
notebook by calling down into it (the way ``chess.svg`` draws a board without the board
importing back). :mod:`rummykit.display` is the public face of the same functions.

Rank and suit are always written on the card, so colour is never the only cue. The default
deck is red and black; :data:`options` switches to four colours (♠ black, ♥ red, ♦ blue,
♣ green).

>>> from rummykit.cards import Card
>>> html = card_svg(Card("K♠"))
>>> 'aria-label="king of spades"' in html and ">K<" in html
True
>>> options.four_colour = True; "#1f5fbf" in card_svg(Card("Q♦")); options.four_colour = False
True
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Protocol

from rummykit.messages import render

__all__ = [
    "DisplayOptions",
    "Drawable",
    "Judged",
    "card_back_svg",
    "card_svg",
    "cards_html",
    "options",
    "suit_colour",
    "verdict_html",
]


class Drawable(Protocol):
    """What drawing a card needs: the letter of a card's rank, its suit, label and whether it is a joker."""

    @property
    def rank_letter(self) -> str: ...
    @property
    def suit(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def is_joker(self) -> bool: ...


class _Finding(Protocol):
    @property
    def message(self) -> str: ...
    @property
    def rule(self) -> str | None: ...
    @property
    def failing(self) -> bool: ...


class Judged(Protocol):
    """What drawing a verdict needs: its cards, the ones at fault, ``ok`` and its reasons."""

    @property
    def cards(self) -> Sequence[Drawable]: ...
    @property
    def highlighted(self) -> Collection[Drawable]: ...
    @property
    def ok(self) -> bool: ...
    @property
    def reasons(self) -> Sequence[_Finding]: ...


@dataclass
class DisplayOptions:
    """Display settings for notebook output."""

    four_colour: bool = False
    card_width: int = 56


options = DisplayOptions()
"""The settings in force; change ``options.four_colour`` for a four-colour deck."""

_TWO_COLOURS = {"♠": "#1a1a1a", "♣": "#1a1a1a", "♥": "#c8102e", "♦": "#c8102e"}
_FOUR_COLOURS = {"♠": "#1a1a1a", "♥": "#c8102e", "♦": "#1f5fbf", "♣": "#1a7f37"}
_JOKER_COLOUR = "#6b2fa3"
_HIGHLIGHT = "#d9480f"
_REFUSED_TEXT = "#b93c0b"  # the words of a refusal: 5.6:1 on white (WCAG AA asks 4.5:1)


def suit_colour(suit: str, four_colour: bool | None = None) -> str:
    """The ink for a suit under the current (or given) colour scheme.

    >>> suit_colour("♦"), suit_colour("♦", four_colour=True)
    ('#c8102e', '#1f5fbf')
    """
    scheme = (
        _FOUR_COLOURS
        if (options.four_colour if four_colour is None else four_colour)
        else _TWO_COLOURS
    )
    return scheme.get(suit, _JOKER_COLOUR)


def card_svg(card: Drawable, *, highlight: bool = False, width: int | None = None) -> str:
    """One card as an inline SVG with an ``aria-label``; a highlighted card gets a thick
    dashed outline and a ``!`` badge (not colour alone)."""
    w = width or options.card_width
    h = round(w * 1.4)
    colour = suit_colour(card.suit)
    label = render("card_at_fault", label=card.label) if highlight else card.label
    rank = render("card_joker_corner") if card.is_joker else card.rank_letter
    centre = "🃏" if card.is_joker else card.suit
    border = (
        f'<rect x="2" y="2" width="96" height="136" rx="9" fill="none" stroke="{_HIGHLIGHT}" '
        'stroke-width="6" stroke-dasharray="10 5"/>'
        f'<circle cx="86" cy="14" r="11" fill="{_HIGHLIGHT}"/>'
        '<text x="86" y="20" font-size="17" font-weight="bold" text-anchor="middle" '
        'fill="white">!</text>'
        if highlight
        else ""
    )
    corner_size = 16 if card.is_joker else 26
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="{w}" '
        f'height="{h}" role="img" aria-label="{escape(label)}" class="rk-card">'
        f"<title>{escape(str(card))}</title>"
        '<rect x="3" y="3" width="94" height="134" rx="8" fill="white" stroke="#555" '
        'stroke-width="2"/>'
        f'<text x="10" y="{8 + corner_size}" font-size="{corner_size}" font-family="sans-serif" '
        f'font-weight="bold" fill="{colour}">{escape(rank)}</text>'
        + (
            ""
            if card.is_joker
            else f'<text x="10" y="58" font-size="22" fill="{colour}">{card.suit}</text>'
        )
        + f'<text x="50" y="112" font-size="46" text-anchor="middle" fill="{colour}">'
        f"{centre}</text>" + border + "</svg>"
    )


def card_back_svg(width: int | None = None) -> str:
    """The back of a card (for hidden hands and the stock)."""
    w = width or options.card_width
    h = round(w * 1.4)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="{w}" '
        f'height="{h}" aria-hidden="true" class="rk-card-back">'
        '<rect x="3" y="3" width="94" height="134" rx="8" fill="#2b4c7e" stroke="#555" '
        'stroke-width="2"/><rect x="12" y="12" width="76" height="116" rx="5" fill="none" '
        'stroke="#f2e6c9" stroke-width="3" stroke-dasharray="6 4"/></svg>'
    )


def cards_html(cards: Iterable[Drawable], highlighted: Iterable[Drawable] = ()) -> str:
    """A row of SVG cards; cards in ``highlighted`` are marked."""
    marked = set(highlighted)
    parts = [card_svg(c, highlight=c in marked) for c in cards]
    return (
        '<div class="rk-cards" style="display:flex;gap:4px;flex-wrap:wrap;align-items:flex-end">'
        + "".join(parts)
        + "</div>"
    )


def verdict_html(verdict: Judged) -> str:
    """The cards, the offending ones highlighted, then every reason with its rule id."""
    mark = render("label_valid" if verdict.ok else "label_invalid")
    colour = "#1a7f37" if verdict.ok else _REFUSED_TEXT
    items = "".join(
        f"<li>{'<b>' if r.failing else ''}{escape(r.message)}{'</b>' if r.failing else ''}"
        + (f' <span class="rk-rule">({escape(r.rule)})</span>' if r.rule else "")
        + "</li>"
        for r in verdict.reasons
    )
    return (
        '<div class="rk-verdict" role="group">'
        + cards_html(verdict.cards, verdict.highlighted)
        + f'<div style="color:{colour};font-weight:bold">{mark}</div>'
        + f'<ul aria-live="polite">{items}</ul></div>'
    )
