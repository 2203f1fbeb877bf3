"""rummykit — learn and teach rummy: explainable rule checks, a referee, AI opponents, widgets.

>>> import rummykit
>>> verdict = rummykit.check_meld("K♠ A♠ 2♠")
>>> verdict.ok, verdict.codes, verdict.failures[0].rule
(False, ('run_wraps',), 'H4')
>>> rummykit.check_meld("A♥ 2♥ 3♥", rummykit.variant("rommi")).codes
('ace_low_not_allowed',)

``import rummykit`` needs only the standard library; the widgets live in
``rummykit.widgets`` and are imported only when you ask for them.
"""

from rummykit.cards import Card, CardParseError, Cards, make_deck, parse_card, parse_cards
from rummykit.explain import Reason, Verdict
from rummykit.game import Game, IllegalAction, Match
from rummykit.melds import (
    IllegalMeld,
    Meld,
    check_layoff,
    check_meld,
    check_opening,
    make_meld,
    meld_readings,
)
from rummykit.review import review  # rummykit.review(record, seat=0): the function
from rummykit.solver import (
    best_arrangement,
    best_opening,
    can_go_out,
    layoff_options,
    min_deadwood,
)
from rummykit.variants import HUNGARIAN, ROMMI, VARIANTS, Variant, VariantError, variant

__version__ = "0.1.0"

__all__ = [
    "HUNGARIAN",
    "ROMMI",
    "VARIANTS",
    "Card",
    "CardParseError",
    "Cards",
    "Game",
    "IllegalAction",
    "IllegalMeld",
    "Match",
    "Meld",
    "Reason",
    "Variant",
    "VariantError",
    "Verdict",
    "__version__",
    "best_arrangement",
    "best_opening",
    "can_go_out",
    "check_layoff",
    "check_meld",
    "check_opening",
    "layoff_options",
    "make_deck",
    "make_meld",
    "meld_readings",
    "min_deadwood",
    "parse_card",
    "parse_cards",
    "review",
    "variant",
]
