"""A variant's rules on one printed page, in the learner's language: every rule by its id,
grouped as a class meets them, a few melds drawn, and how to type cards and moves.

The sentences are the catalogue's (``rule_H4``, ``command_meld`` …), so a handout reads in
any language rummykit speaks, with the cards and moves a learner types in that language:

>>> sheet = handout("rommi", "fi")
>>> sheet
Handout('rommi', 'fi')
>>> "R3" in sheet.html() and 'lang="fi"' in sheet.html()
True

``rummykit notebooks`` writes one per variant beside the lessons (``handout-hungarian.html``,
``handout-rommi.html``); open one in a browser and print it.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

from rummykit.cards import as_cards
from rummykit.drawing import cards_html
from rummykit.game.actions import Action, Discard, Draw, LayOff, PlayMeld, Undo
from rummykit.language import resolve, within
from rummykit.melds import check_meld
from rummykit.messages import render
from rummykit.variants import Variant
from rummykit.variants import variant as named_variant

__all__ = ["GROUPS", "Handout", "handout"]

GROUPS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "H": (
        ("handout_section_game", ("H1", "H2", "H14")),
        ("handout_section_deal", ("H3",)),
        ("handout_section_melds", ("H4", "H5")),
        ("handout_section_turn", ("H6", "H7")),
        ("handout_section_opening", ("H8", "H9")),
        ("handout_section_cut_card", ("H10",)),
        ("handout_section_jokers", ("H11",)),
        ("handout_section_scoring", ("H12", "H13", "H15")),
    ),
    "R": (
        ("handout_section_game", ("R1", "R9", "R12")),
        ("handout_section_deal", ("R2",)),
        ("handout_section_melds", ("R3",)),
        ("handout_section_turn", ("R4", "R5", "R6")),
        ("handout_section_scoring", ("R7", "R8", "R10", "R11")),
    ),
}
"""Each rulebook's rules, grouped by the heading they go under on the page (every rule once)."""

_EXAMPLES: dict[str, tuple[str, ...]] = {
    "H": ("5♥ 6♥ 7♥", "9♠ 9♥ 9♦", "🃏 Q♣ K♣", "K♠ A♠ 2♠"),
    "R": ("Q♥ K♥ A♥", "9♠ 9♥ 9♦", "A♥ 2♥ 3♥"),
}

_STYLE = """
.rk-handout { font-family: system-ui, sans-serif; max-width: 48rem; font-size: 11pt; line-height: 1.3; }
.rk-handout h1 { font-size: 1.4em; margin: 0 0 0.3rem; }
.rk-handout h2 { font-size: 1.05em; margin: 0.6rem 0 0.2rem; }
.rk-handout p, .rk-handout li { margin: 0.1rem 0; }
.rk-handout .rk-rule-id { font-weight: bold; display: inline-block; min-width: 2.4em; }
.rk-handout .rk-examples { display: flex; gap: 0.8rem; margin: 0.3rem 0; }
.rk-handout .rk-example svg { height: 2.6rem; width: auto; }
.rk-handout .rk-example { flex: 1 1 0; }
.rk-handout .rk-example p { font-size: 0.8em; }
.rk-handout table { border-collapse: collapse; font-size: 0.95em; }
.rk-handout td { padding: 0.05rem 0.6rem 0.05rem 0; vertical-align: top; }
.rk-handout code { font-family: ui-monospace, monospace; }
@media print {
  @page { size: A4; margin: 10mm; }
  .rk-handout { max-width: none; color: #000; font-size: 9.5pt; }
  .rk-handout h2 { margin: 0.35rem 0 0.1rem; }
  .rk-handout svg.rk-card text { fill: #000 !important; }
  .rk-handout svg.rk-card rect { stroke: #000 !important; }
}
"""


@dataclass(frozen=True)
class Handout:
    """One variant's rules on a page, in one language; ``html()`` is the page to print."""

    variant: Variant
    language: str

    def __repr__(self) -> str:
        return f"Handout({self.variant.name!r}, {self.language!r})"

    def _moves(self) -> list[tuple[Action, str]]:
        seven = as_cards("7♥")
        moves: list[tuple[Action, str]] = [
            (Draw("stock"), "handout_move_draw"),
            (Draw("discard"), "handout_move_take"),
        ]
        if self.variant.cut_card:
            moves.append((Draw("cut_card"), "handout_move_cut"))
        moves += [
            (PlayMeld(as_cards("5♥ 6♥ 7♥")), "handout_move_meld"),
            (LayOff(seven, 1), "handout_move_layoff"),
            (Discard(as_cards("9♠")[0]), "handout_move_discard"),
            (Undo(), "handout_move_undo"),
        ]
        return moves

    def _body(self) -> str:
        book = self.variant.rulebook
        parts = [f"<h1>{escape(render('handout_title', variant=self.variant.title))}</h1>"]
        for heading, rules in GROUPS[book]:
            parts.append(f"<h2>{escape(render(heading))}</h2>")
            for rule in rules:
                parts.append(
                    f'<p><span class="rk-rule-id">{rule}</span> '
                    f"{escape(render(f'rule_{rule}'))}</p>"
                )
            if heading == "handout_section_melds":
                parts.append('<div class="rk-examples">')
                for cards in _EXAMPLES[book]:
                    verdict = check_meld(cards, self.variant)
                    said = verdict.failures[0] if verdict.failures else verdict.reasons[0]
                    parts.append(
                        '<div class="rk-example">'
                        f"{cards_html(verdict.cards or as_cards(cards), verdict.highlighted)}"
                        f"<p>{'✔' if verdict.ok else '✘'} {escape(said.message)}</p></div>"
                    )
                parts.append("</div>")
        parts.append(f"<h2>{escape(render('handout_section_typing'))}</h2>")
        parts.append(f"<p>{escape(render('handout_cards'))}</p>")
        rows = "".join(
            f"<tr><td><code>{escape(action.typed())}</code></td><td>{escape(render(code))}</td></tr>"
            for action, code in self._moves()
        )
        parts.append(f"<table>{rows}</table>")
        return "".join(parts)

    def _repr_html_(self) -> str:
        with within(self.language):
            return f'<style>{_STYLE}</style><div class="rk-handout">{self._body()}</div>'

    def html(self) -> str:
        """The handout as a whole HTML page, ready to print from the browser (one A4 page)."""
        with within(self.language):
            title = escape(render("handout_title", variant=self.variant.title))
            return (
                f'<!DOCTYPE html><html lang="{self.language}"><head><meta charset="utf-8">'
                f"<title>{title}</title></head><body>{self._repr_html_()}</body></html>"
            )

    def save(self, path: str | Path) -> Path:
        """Write :meth:`html` to ``path`` and return it."""
        target = Path(path)
        target.write_text(self.html(), encoding="utf-8")
        return target


def handout(variant: Variant | str, language: str | None = None) -> Handout:
    """The one-page rules of ``variant`` in ``language`` (default: the current one).

    >>> handout("hungarian", "pt").variant.title
    'Hungarian Rummy'
    """
    rules = named_variant(variant) if isinstance(variant, str) else variant
    return Handout(rules, resolve(language))
