"""The page a student gets from ``rummykit classroom``: a choice of variant and level, the Table.

The teacher's choices (``rummykit classroom --variant rommi --level easy``) reach the page's
kernel as environment variables and are where the menus start; each new game is dealt from a
fresh seed, so every student plays their own hand.

>>> page = ClassTable("rommi", "easy", seed=5)
>>> page
ClassTable('rommi', level='easy')
>>> page.table
Table('rommi', players=2, seat=0, ai=['easy'], seed=5)
>>> page.choose("hungarian", "hard", seed=6)
>>> page.table
Table('hungarian', players=2, seat=0, ai=['hard'], seed=6)
"""

from __future__ import annotations

import os
import random

import ipywidgets as widgets

from rummykit.ai.agents import LEVELS
from rummykit.messages import render
from rummykit.variants import VARIANTS
from rummykit.widgets.table import Table

__all__ = ["CARDS_VARIABLE", "LEVEL_VARIABLE", "VARIANT_VARIABLE", "ClassTable"]

VARIANT_VARIABLE = "RUMMYKIT_CLASS_VARIANT"
"""The environment variable that names the variant a student's page starts with."""

LEVEL_VARIABLE = "RUMMYKIT_CLASS_LEVEL"
"""The environment variable that names the computer's level a student's page starts with."""

CARDS_VARIABLE = "RUMMYKIT_CLASS_CARDS"
"""The environment variable that says whether the computer's cards are ``open`` (its reasoning
names them) or ``closed``."""


class ClassTable(widgets.VBox):
    """Two menus (variant, computer's level), a *New game* button, and the Table under them."""

    def __init__(
        self,
        variant_name: str = "hungarian",
        level: str = "normal",
        *,
        seed: int | None = None,
        open_cards: bool = True,
    ) -> None:
        self.open_cards = open_cards
        """Whether the computer's reasoning names its cards (``rummykit classroom --cards``)."""
        self._variant = widgets.Dropdown(
            options=[(rules.title, name) for name, rules in VARIANTS.items()],
            value=variant_name,
            description=render("class_variant"),
        )
        self._level = widgets.Dropdown(
            options=list(LEVELS), value=level, description=render("class_level")
        )
        self._new = widgets.Button(description=render("class_new_game"))
        self._new.on_click(lambda _button: self.choose(self._variant.value, self._level.value))
        self.table = self._deal(variant_name, level, seed)
        controls = widgets.HBox([self._variant, self._level, self._new])
        # ipywidgets' constructors carry no annotations (see pyproject's mypy section)
        super().__init__([controls, self.table])  # type: ignore[no-untyped-call]

    @classmethod
    def from_environment(cls) -> ClassTable:
        """The page as the teacher set it up: variant, level and cards from the environment
        (:data:`VARIANT_VARIABLE`, :data:`LEVEL_VARIABLE`, :data:`CARDS_VARIABLE`), else
        Hungarian Rummy against normal, cards open.

        >>> ClassTable.from_environment()
        ClassTable('hungarian', level='normal')
        """
        return cls(
            os.environ.get(VARIANT_VARIABLE, "hungarian"),
            os.environ.get(LEVEL_VARIABLE, "normal"),
            open_cards=os.environ.get(CARDS_VARIABLE, "open") != "closed",
        )

    def __repr__(self) -> str:
        return f"ClassTable('{self.table.variant_name}', level='{self._level.value}')"

    def _deal(
        self, variant_name: str, level: str, seed: int | None, four_colour: bool | None = None
    ) -> Table:
        """A table for the page: the computer's reasoning as the teacher chose, and its note
        about open cards in words for a student, who can't run code (the Table's own note
        says how to make a table with them hidden).

        >>> ClassTable(seed=1, open_cards=False).table.show_reasoning
        False
        >>> ClassTable(seed=1).table.labels["reasoning_note"]
        "The computer's reasoning shows its cards: open-cards teaching, as your teacher chose."
        """
        seed = random.randrange(2**31) if seed is None else seed
        table = Table(
            variant_name,
            players=2,
            ai=level,
            seed=seed,
            four_colour=four_colour,
            show_reasoning=self.open_cards,
        )
        table.labels = {**table.labels, "reasoning_note": render("class_reasoning_note")}
        return table

    def choose(self, variant_name: str, level: str, *, seed: int | None = None) -> None:
        """A new game with these rules against this level (what *New game* does)."""
        self._variant.value, self._level.value = variant_name, level
        # the learner's settings (the four-colour deck) carry over to the new game
        old = self.table
        self.table = self._deal(variant_name, level, seed, old.four_colour)
        self.children = (self.children[0], self.table)
        old.close()  # type: ignore[no-untyped-call]
