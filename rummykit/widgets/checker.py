"""Pick cards from a deck palette and see the meld Verdict live, the rule cited.

>>> checker = MeldChecker("rommi", cards="A♥ 2♥ 3♥")
>>> checker
MeldChecker('rommi', cards='A♥ 2♥ 3♥')
>>> checker.verdict.codes
('ace_low_not_allowed',)
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as widgets

from rummykit.cards import JOKER, RANKS, SUITS, Card, CardParseError, as_cards
from rummykit.explain import Verdict
from rummykit.language import check_language, speaks_own_language
from rummykit.melds import check_meld
from rummykit.messages import render
from rummykit.variants import VARIANTS, VariantError, variant

__all__ = ["MeldChecker"]


class MeldChecker(widgets.VBox):
    """A deck palette, the chosen cards, and the live verdict with offending cards marked."""

    @speaks_own_language
    def __init__(
        self, variant_name: str = "hungarian", cards: str = "", *, language: str | None = None
    ) -> None:
        self.language = None if language is None else check_language(language)
        self._variant = widgets.Dropdown(
            options=list(VARIANTS), value=variant_name, description=render("checker_variant")
        )
        self._text = widgets.Text(
            value=cards, description=render("checker_cards"), placeholder="K♠ A♠ 2♠"
        )
        self._out = widgets.HTML()
        rows = []
        for suit in SUITS:
            rows.append(widgets.HBox([self._palette_button(Card(rank, suit)) for rank in RANKS]))
        rows.append(
            widgets.HBox(
                [
                    self._palette_button(JOKER),
                    self._tool("checker_undo", self.remove_last),
                    self._tool("checker_clear", self.clear),
                ]
            )
        )
        self._variant.observe(lambda _c: self.update(), names="value")
        self._text.observe(lambda _c: self.update(), names="value")
        self.verdict: Verdict | None = None
        # ipywidgets' constructors carry no annotations (see pyproject's mypy section)
        super().__init__([widgets.HBox([self._variant, self._text]), *rows, self._out])  # type: ignore[no-untyped-call]
        self.update()

    def _palette_button(self, card: Card) -> widgets.Button:
        button = widgets.Button(
            description=str(card),
            tooltip=card.label,
            layout=widgets.Layout(width="54px", padding="0px"),  # "10♥" fits, never "1…"
            style={"text_color": "#c8102e" if card.is_red else "#1a1a1a"},
        )
        button.on_click(lambda _b: self.add(card))
        return button

    def _tool(self, code: str, action: Callable[[], None]) -> widgets.Button:
        button = widgets.Button(description=render(code))
        button.on_click(lambda _b: action())
        return button

    def __repr__(self) -> str:
        return f"MeldChecker('{self._variant.value}', cards='{self._text.value.strip()}')"

    @property
    def cards(self) -> str:
        """The cards being checked, as text."""
        return str(self._text.value).strip()

    @property
    @speaks_own_language
    def help(self) -> str:
        """What to do, naming the buttons as they are labelled."""
        return render("checker_empty", undo=render("checker_undo"), clear=render("checker_clear"))

    def add(self, card: Card) -> None:
        """Add a card from the palette."""
        self._text.value = f"{self.cards} {card}".strip()

    def remove_last(self) -> None:
        """Take the last card away."""
        self._text.value = " ".join(self.cards.split()[:-1])

    def clear(self) -> None:
        """Start again with no cards."""
        self._text.value = ""

    @speaks_own_language
    def update(self) -> None:
        """Check the cards and show the verdict."""
        if not self.cards:
            self.verdict = None
            self._out.value = f"<p>{html.escape(self.help)}</p>"
            return
        try:
            rules = variant(self._variant.value)
            cards = as_cards(self.cards)
        except (CardParseError, VariantError) as error:
            self.verdict = None
            self._out.value = f"<p><b>{html.escape(str(error))}</b></p>"
            return
        self.verdict = check_meld(cards, rules)
        self._out.value = self.verdict._repr_html_()
