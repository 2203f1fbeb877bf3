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

import asyncio
import os
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

import ipywidgets as widgets

from rummykit.ai.agents import LEVELS
from rummykit.messages import render
from rummykit.variants import VARIANTS
from rummykit.widgets.table import Table

__all__ = ["CARDS_VARIABLE", "LEVEL_VARIABLE", "TABLES_VARIABLE", "VARIANT_VARIABLE", "ClassTable"]

VARIANT_VARIABLE = "RUMMYKIT_CLASS_VARIANT"
"""The environment variable that names the variant a student's page starts with."""

LEVEL_VARIABLE = "RUMMYKIT_CLASS_LEVEL"
"""The environment variable that names the computer's level a student's page starts with."""

CARDS_VARIABLE = "RUMMYKIT_CLASS_CARDS"
"""The environment variable that says whether the computer's cards are ``open`` (its reasoning
names them) or ``closed``."""


TABLES_VARIABLE = "RUMMYKIT_TABLES_URL"
"""The environment variable holding the table server's WebSocket address, set by
``rummykit classroom --tables`` (:data:`rummykit.server.beside.URL_VARIABLE`): when it is set,
the page has a table-code box."""

_TABLE_CODE = re.compile(r"[A-Z0-9]{4,32}")

Joiner = Callable[[str, str], Awaitable[Any]]
"""How the page joins a served table: ``join(code, name)`` → a connected seat client with
its first view (:func:`rummykit.server.client.join_table` at the server's address)."""


class ClassTable(widgets.VBox):
    """Two menus (variant, computer's level), a *New game* button, and the Table under them;
    with ``join`` (``rummykit classroom --tables``), a table-code box that turns the Table
    into the learner's seat at a served table (:class:`~rummykit.widgets.remote.RemoteTable`).
    """

    def __init__(
        self,
        variant_name: str = "hungarian",
        level: str = "normal",
        *,
        seed: int | None = None,
        open_cards: bool = True,
        join: Joiner | None = None,
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
        self.join = join
        self.client: Any = None
        """The seat's connection once the learner joined a served table."""
        self.tasks: set[asyncio.Future[None]] = set()
        boxes: list[widgets.Widget] = [controls]
        if join is not None:
            self._code = widgets.Text(
                description=render("class_table_code"), placeholder="K7QXM2PA"
            )
            self._name = widgets.Text(description=render("class_table_name"))
            self._join = widgets.Button(description=render("class_table_join"))
            self._join.on_click(lambda _button: self.join_table(self._code.value, self._name.value))
            self._said = widgets.Label(value="")
            boxes.append(widgets.HBox([self._code, self._name, self._join]))
            boxes.append(self._said)
        # ipywidgets' constructors carry no annotations (see pyproject's mypy section)
        super().__init__([*boxes, self.table])  # type: ignore[no-untyped-call]

    @classmethod
    def from_environment(cls) -> ClassTable:
        """The page as the teacher set it up: variant, level and cards from the environment
        (:data:`VARIANT_VARIABLE`, :data:`LEVEL_VARIABLE`, :data:`CARDS_VARIABLE`), else
        Hungarian Rummy against normal, cards open.

        >>> ClassTable.from_environment()
        ClassTable('hungarian', level='normal')
        """
        url = os.environ.get(TABLES_VARIABLE)
        join: Joiner | None = None
        if url:  # rummykit classroom --tables: the table server runs beside the page

            def join(code: str, name: str) -> Awaitable[Any]:
                from rummykit.server.client import join_table

                return join_table(url, code, name)

        return cls(
            os.environ.get(VARIANT_VARIABLE, "hungarian"),
            os.environ.get(LEVEL_VARIABLE, "normal"),
            open_cards=os.environ.get(CARDS_VARIABLE, "open") != "closed",
            join=join,
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
        self._show(old)

    def _show(self, old: Table) -> None:
        self.children = (*self.children[:-1], self.table)
        old.close()  # type: ignore[no-untyped-call]

    def join_table(self, code: str, name: str = "") -> asyncio.Future[None] | None:
        """Join the served table of ``code`` (what *Join* does): the Table below becomes the
        learner's seat there; a code that can't be one, or a server's refusal, is said under
        the box. Returns the joining task (None when the code was refused at once)."""
        wanted = "".join(code.split()).upper()
        if self.join is None or not _TABLE_CODE.fullmatch(wanted):
            self._said.value = render("class_table_bad_code", code=code.strip()[:40])
            return None
        if not name.strip():
            self._said.value = render("class_table_need_name")
            return None
        self._said.value = render("class_table_joining", table=wanted)
        task = asyncio.ensure_future(self._joined(wanted, name.strip()[:40]))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def _joined(self, code: str, name: str) -> None:
        from rummykit.widgets.remote import RemoteTable

        assert self.join is not None
        try:
            client = await self.join(code, name)
        except Exception as exc:  # the server's sentence (no such table, all seats taken)
            self._said.value = render("class_table_join_failed", table=code, error=str(exc))
            return
        if self.client is not None:
            await self.client.close()  # the seat stays its learner's: the token keeps it
        self.client = client
        old = self.table
        self.table = RemoteTable(client, four_colour=old.four_colour)
        self._show(old)
        self._said.value = render("class_table_joined", table=code, seat=client.seat)
        listening = asyncio.ensure_future(client.listen())
        self.tasks.add(listening)
        listening.add_done_callback(self.tasks.discard)
