"""rummykit — learn and teach rummy: explainable rule checks, a referee, AI opponents, widgets.

>>> import rummykit
>>> verdict = rummykit.check_meld("K♠ A♠ 2♠")
>>> verdict.ok, verdict.codes, verdict.failures[0].rule
(False, ('run_wraps',), 'H4')
>>> rummykit.check_meld("A♥ 2♥ 3♥", rummykit.variant("rommi")).codes
('ace_low_not_allowed',)

``import rummykit`` needs only the standard library and imports next to nothing: each public
name's module is imported the first time the name is used. The widgets live in
``rummykit.widgets`` and are imported only when you ask for them.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any

    from rummykit.cards import Card, CardParseError, Cards, make_deck, parse_card, parse_cards
    from rummykit.explain import Reason, Verdict
    from rummykit.game import *  # noqa: F403 - the referee's names, as it exports them
    from rummykit.grading.report import class_report
    from rummykit.leagues import league
    from rummykit.melds import (
        IllegalMeld,
        Meld,
        check_layoff,
        check_meld,
        check_opening,
        make_meld,
        meld_readings,
    )
    from rummykit.messages import get_language, set_language
    from rummykit.mistakes import review
    from rummykit.solver import (
        best_arrangement,
        best_opening,
        can_go_out,
        layoff_options,
        min_deadwood,
        min_deadwood_many,
    )
    from rummykit.variants import HUNGARIAN, ROMMI, VARIANTS, Variant, VariantError, variant

_HOME = {
    **dict.fromkeys(
        ("Card", "CardParseError", "Cards", "make_deck", "parse_card", "parse_cards"),
        "rummykit.cards",
    ),
    **dict.fromkeys(("Reason", "Verdict"), "rummykit.explain"),
    # the referee, its actions and the events it hands out
    **dict.fromkeys(
        "Action ActionParseError Cut Discard Draw Event ExchangeJoker Game IllegalAction LayOff Match PlayMeld ReturnCutCard Undo parse_action".split(),  # noqa: SIM905
        "rummykit.game",
    ),
    "league": "rummykit.leagues",
    # what a class got right and wrong (nbgrader and quiz exports): rummykit.grading.report
    "class_report": "rummykit.grading.report",
    # from the sentences' module, so that a refusal of an unknown language is a sentence
    **dict.fromkeys(("get_language", "set_language"), "rummykit.messages"),
    **dict.fromkeys(
        (
            "IllegalMeld",
            "Meld",
            "check_layoff",
            "check_meld",
            "check_opening",
            "make_meld",
            "meld_readings",
        ),
        "rummykit.melds",
    ),
    # rummykit.review(record, seat=0) is the review function; its module is rummykit.mistakes
    "review": "rummykit.mistakes",
    **dict.fromkeys(
        (
            "best_arrangement",
            "best_opening",
            "can_go_out",
            "layoff_options",
            "min_deadwood",
            "min_deadwood_many",
        ),
        "rummykit.solver",
    ),
    **dict.fromkeys(
        ("HUNGARIAN", "ROMMI", "VARIANTS", "Variant", "VariantError", "variant"),
        "rummykit.variants",
    ),
}
"""Where each public name lives: its module is imported the first time the name is used."""


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use (``import rummykit`` itself stays light)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'rummykit' has no attribute {name!r}")
    value = getattr(__import__(home, fromlist=(name,)), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})


__version__ = "0.1.0"

__all__ = [
    "HUNGARIAN",
    "ROMMI",
    "VARIANTS",
    "Action",
    "ActionParseError",
    "Card",
    "CardParseError",
    "Cards",
    "Cut",
    "Discard",
    "Draw",
    "Event",
    "ExchangeJoker",
    "Game",
    "IllegalAction",
    "IllegalMeld",
    "LayOff",
    "Match",
    "Meld",
    "PlayMeld",
    "Reason",
    "ReturnCutCard",
    "Undo",
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
    "class_report",
    "get_language",
    "layoff_options",
    "league",
    "make_deck",
    "make_meld",
    "meld_readings",
    "min_deadwood",
    "min_deadwood_many",
    "parse_action",
    "parse_card",
    "parse_cards",
    "review",
    "set_language",
    "variant",
]
