"""A worksheet to print: one block per exercise or puzzle, the answer key on its own page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from rummykit.messages import render

__all__ = ["Worksheet"]

_PRINT_CSS = Path(__file__).parent.with_name("print.css")  # rummykit/print.css


@dataclass
class Worksheet:
    """Exercises or puzzles to print: one block each, the answer key on its own page.

    ``html()`` is a whole page (open it in a browser and print); in a notebook the
    worksheet shows itself with the same style sheet.

    >>> from rummykit.exercises import MeldKind
    >>> sheet = Worksheet([MeldKind("9♠ 9♠ 9♥")], "Melds")
    >>> sheet
    Worksheet('Melds', items=1)
    >>> "break-before: page" in sheet.html()
    True
    """

    items: Sequence[Any]
    title: str = ""

    def __repr__(self) -> str:
        return f"Worksheet({self.title!r}, items={len(self.items)})"

    @staticmethod
    def style() -> str:
        """The print style sheet (black-and-white cards, one block per item, key apart)."""
        return _PRINT_CSS.read_text(encoding="utf-8")

    def _repr_html_(self, key: bool = True) -> str:
        title = escape(self.title or render("exercise_worksheet_title"))
        blocks = []
        for i, item in enumerate(self.items, 1):
            blocks.append(
                '<section class="rk-block">'
                f"<h3>{i}.</h3>{item._repr_html_()}"
                f'<div class="rk-answer-line">{escape(render("exercise_answer_line"))}</div>'
                "</section>"
            )
        parts = [
            f"<style>{self.style()}</style>",
            '<div class="rk-worksheet">',
            f"<h2>{title}</h2>",
        ]
        parts += blocks
        if key:
            entries = "".join(f"<li>{escape(item.key)}</li>" for item in self.items)
            parts.append(
                '<section class="rk-key">'
                f"<h2>{escape(render('exercise_key_title', title=title))}</h2>"
                f"<ol>{entries}</ol></section>"
            )
        parts.append("</div>")
        return "".join(parts)

    def html(self) -> str:
        """The worksheet as a whole HTML page, ready to print from the browser."""
        from rummykit.language import get_language

        title = escape(self.title or render("exercise_worksheet_title"))
        return (
            f'<!DOCTYPE html><html lang="{get_language()}"><head><meta charset="utf-8">'
            f"<title>{title}</title></head><body>{self._repr_html_()}</body></html>"
        )

    def save(self, path: str | Path) -> Path:
        """Write :meth:`html` to ``path`` and return it."""
        target = Path(path)
        target.write_text(self.html(), encoding="utf-8")
        return target
