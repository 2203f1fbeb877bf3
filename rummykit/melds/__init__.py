"""Meld checks that explain themselves: runs, sets, jokers, lay-offs and the opening.

>>> print(check_meld("5♥ 🃏 7♥"))
5♥ 🃏 7♥ is a run of hearts from 5 to 7. (H4) The joker stands for the 6♥. (H5) Worth 18 toward the opening. (H8)
>>> from rummykit import ROMMI
>>> check_meld("A♥ 2♥ 3♥", ROMMI).codes
('ace_low_not_allowed',)
>>> check_meld("🃏 2♥ 3♥").jokers
((Card('A♥'), Card('4♥')),)

Positions in a run go from 1 (an ace below the 2) to 14 (an ace above the king), so the
ace is the only card with two places; a run is a window of consecutive positions that never
holds both 1 and 14.
"""

from __future__ import annotations

from rummykit.melds.check import check_meld, make_meld
from rummykit.melds.layoffs import check_layoff, layoff_readings
from rummykit.melds.layoffs import laid_off_jokers as laid_off_jokers
from rummykit.melds.meld import MELD_KINDS, IllegalMeld, Meld, MeldKind
from rummykit.melds.opening import check_opening
from rummykit.melds.readings import (
    JokerAs,
    joker_meanings,
    meld_layouts,
    meld_readings,
    readings_with,
)
from rummykit.melds.readings import MeldLike as MeldLike
from rummykit.melds.wording import MeldSum, reading_phrase, variant_words

__all__ = [
    "MELD_KINDS",
    "IllegalMeld",
    "JokerAs",
    "Meld",
    "MeldKind",
    "MeldSum",
    "check_layoff",
    "check_meld",
    "check_opening",
    "joker_meanings",
    "layoff_readings",
    "make_meld",
    "meld_layouts",
    "meld_readings",
    "reading_phrase",
    "readings_with",
    "variant_words",
]
