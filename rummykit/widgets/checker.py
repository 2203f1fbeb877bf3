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
from typing import Any

import anywidget
import ipywidgets as widgets
import traitlets

from rummykit.cards import JOKER, RANKS, SUITS, Card, CardParseError, as_cards
from rummykit.explain import Verdict
from rummykit.language import check_language, speaks_own_language
from rummykit.melds import check_meld
from rummykit.messages import render
from rummykit.variants import VARIANTS, VariantError, variant
from rummykit.widgets.view import card_name

__all__ = ["CardPalette", "MeldChecker"]


class CardPalette(anywidget.AnyWidget):
    """The deck as buttons, a row per suit: each shows its card (``A♠``) and is named in the
    learner's words (``A, ace of spades``), so a screen reader says a card, not a symbol.
    A click calls ``on_card`` with the card."""

    _esm = """
    function render({ model, el }) {
      const draw = () => {
        const group = document.createElement("div");
        group.className = "rk-palette";
        group.setAttribute("role", "group");
        group.setAttribute("aria-label", model.get("label"));
        for (const row of model.get("rows")) {
          const line = document.createElement("div");
          for (const card of row) {
            const button = document.createElement("button");
            button.type = "button";
            button.className = "rk-palette-card" + (card.red ? " rk-red" : "");
            button.textContent = card.text;
            button.setAttribute("aria-label", card.name);
            button.dataset.card = card.text;
            button.addEventListener("click", () => model.send({ type: "add", card: card.text }));
            line.append(button);
          }
          group.append(line);
        }
        el.replaceChildren(group);
      };
      model.on("change:rows", draw);
      model.on("change:label", draw);
      draw();
      return () => { model.off("change:rows", draw); model.off("change:label", draw); };
    }
    export default { render };
    """
    _css = """
    .rk-palette-card { width: 54px; margin: 2px; padding: 2px 0; font: inherit; color: #1a1a1a;
      background: white; border: 1px solid #555; border-radius: 3px; cursor: pointer; }
    .rk-palette-card.rk-red { color: #c8102e; }
    .rk-palette-card:focus-visible { outline: 3px solid #1f5fbf; outline-offset: 1px; }
    @media (prefers-contrast: more) { .rk-palette-card { border: 2px solid black; } }
    @media (forced-colors: active) { .rk-palette-card { border-color: ButtonText; } }
    """

    rows: traitlets.List[list[dict[str, Any]]] = traitlets.List().tag(sync=True)
    label = traitlets.Unicode("").tag(sync=True)

    def __init__(self, rows: list[list[Card]], label: str, on_card: Callable[[Card], None]) -> None:
        super().__init__()
        self.cards = {str(c): c for row in rows for c in row}
        self.rows = [
            [{"text": str(c), "name": card_name(c), "red": c.is_red} for c in row] for row in rows
        ]
        self.label = label
        self._on_card = on_card
        self.on_msg(self._message)  # type: ignore[no-untyped-call]  # ipywidgets' is unannotated

    def _message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("card") in self.cards:
            self._on_card(self.cards[content["card"]])


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
        self.palette = CardPalette(
            [[Card(rank, suit) for rank in RANKS] for suit in SUITS] + [[JOKER]],
            render("checker_palette"),
            self.add,
        )
        """The deck's buttons (a click adds the card)."""
        rows = [
            self.palette,
            widgets.HBox(
                [
                    self._tool("checker_undo", self.remove_last),
                    self._tool("checker_clear", self.clear),
                ]
            ),
        ]
        self._variant.observe(lambda _c: self.update(), names="value")
        self._text.observe(lambda _c: self.update(), names="value")
        self.verdict: Verdict | None = None
        # ipywidgets' constructors carry no annotations (see pyproject's mypy section)
        super().__init__([widgets.HBox([self._variant, self._text]), *rows, self._out])  # type: ignore[no-untyped-call]
        self.update()

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
