"""How cards, melds and verdicts look in a notebook: SVG cards in plain HTML.

All rendering lives here; the models' ``_repr_html_`` methods call into this module. Rank
and suit are always written on the card, so colour is never the only cue. The default deck
is red and black; :data:`options` switches to four colours (♠ black, ♥ red, ♦ blue,
♣ green).

>>> html = card_svg(Card("K♠"))
>>> 'aria-label="king of spades"' in html and ">K<" in html
True
>>> options.four_colour = True; "#1f5fbf" in card_svg(Card("Q♦")); options.four_colour = False
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from rummykit.cards import Card
from rummykit.messages import render

if TYPE_CHECKING:
    from rummykit.explain import Verdict

__all__ = [
    "DisplayOptions",
    "card_back_svg",
    "card_svg",
    "cards_html",
    "options",
    "verdict_html",
]


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


def suit_colour(suit: str, four_colour: bool | None = None) -> str:
    """The ink for a suit under the current (or given) colour scheme."""
    scheme = (
        _FOUR_COLOURS
        if (options.four_colour if four_colour is None else four_colour)
        else _TWO_COLOURS
    )
    return scheme.get(suit, _JOKER_COLOUR)


def card_svg(card: Card, *, highlight: bool = False, width: int | None = None) -> str:
    """One card as an inline SVG with an ``aria-label``; a highlighted card gets a thick
    dashed outline and a ``!`` badge (not colour alone)."""
    w = width or options.card_width
    h = round(w * 1.4)
    colour = suit_colour(card.suit)
    label = card.label + (" (at fault)" if highlight else "")
    rank = "JOKER" if card.is_joker else card.rank_name
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


def cards_html(cards: Iterable[Card], highlighted: Iterable[Card] = ()) -> str:
    """A row of SVG cards; cards in ``highlighted`` are marked."""
    marked = set(highlighted)
    parts = [card_svg(c, highlight=c in marked) for c in cards]
    return (
        '<div class="rk-cards" style="display:flex;gap:4px;flex-wrap:wrap;align-items:flex-end">'
        + "".join(parts)
        + "</div>"
    )


def verdict_html(verdict: Verdict) -> str:
    """The cards, the offending ones highlighted, then every reason with its rule id."""
    mark = render("label_valid" if verdict.ok else "label_invalid")
    colour = "#1a7f37" if verdict.ok else _HIGHLIGHT
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
