"""How cards, melds and verdicts look in a notebook: the public drawing functions, typed.

The drawing itself lives in :mod:`rummykit.drawing`, below every model, so that a
:class:`~rummykit.cards.Card` or a :class:`~rummykit.explain.Verdict` can show itself
without importing this module back; this module sits above them and takes what a learner
types (``"K♠ A♠ 2♠"``) as well as cards. The default deck is red and black;
:data:`options` switches to four colours (♠ black, ♥ red, ♦ blue, ♣ green).

>>> html = cards_html("K♠ A♠ 2♠", highlighted="A♠")
>>> html.count("<svg"), html.count("(at fault)")
(3, 1)
>>> 'aria-label="king of spades"' in card_svg("K♠")
True
"""

from __future__ import annotations

from rummykit import drawing
from rummykit.cards import CardsLike, as_cards
from rummykit.drawing import DisplayOptions as DisplayOptions
from rummykit.drawing import card_back_svg as card_back_svg
from rummykit.drawing import options as options
from rummykit.drawing import suit_colour as suit_colour
from rummykit.explain import Verdict

_FROM_DRAWING = ["DisplayOptions", "card_back_svg", "options", "suit_colour"]
__all__ = [*_FROM_DRAWING, "card_svg", "cards_html", "verdict_html"]


def card_svg(card: CardsLike, *, highlight: bool = False, width: int | None = None) -> str:
    """One card (a :class:`~rummykit.cards.Card` or its text) as an inline SVG.

    A highlighted card gets a thick dashed outline and a ``!`` badge (not colour alone).

    >>> card_svg("Q♦", width=40).startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    """
    (one,) = as_cards(card)
    return drawing.card_svg(one, highlight=highlight, width=width)


def cards_html(cards: CardsLike, highlighted: CardsLike = ()) -> str:
    """A row of SVG cards; cards in ``highlighted`` are marked."""
    return drawing.cards_html(as_cards(cards), as_cards(highlighted))


def verdict_html(verdict: Verdict) -> str:
    """The verdict's cards, the offending ones highlighted, then every reason with its rule id.

    The same HTML as ``verdict._repr_html_()``:

    >>> from rummykit.melds import check_meld
    >>> verdict = check_meld("5♥ 🃏 🃏")
    >>> verdict_html(verdict) == verdict._repr_html_()
    True
    """
    return drawing.verdict_html(verdict)
