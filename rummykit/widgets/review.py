"""The mistake review as a widget: one mistake at a time, the position as the stepper shows it.

>>> from rummykit.game import Game, parse_action
>>> game = Game.new("rommi", players=2, seed=3)
>>> game.play(parse_action("draw"))
(Event(seat=1, code='draw_stock'),)
>>> ReviewWidget(game, seat=game.current)  # doctest: +ELLIPSIS
ReviewWidget(seat=1, mistakes=..., position=0)

Each mistake is its one sentence — the move, the better one, why, and the cost — with the
computer's whole reasoning one click away, shown as :class:`~rummykit.widgets.AIStepper`
shows a decision (the hand, the discard pile, the table, the trace, what was played
instead).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from rummykit.language import check_language, speaks_own_language
from rummykit.messages import render
from rummykit.mistakes import Review, review
from rummykit.widgets.stepper import Step, decision_html

__all__ = ["ReviewWidget"]


class ReviewWidget(widgets.VBox):
    """Next/previous through a round's mistakes, costliest first."""

    @speaks_own_language
    def __init__(
        self, source: Any, seat: int = 0, level: str = "hard", *, language: str | None = None
    ) -> None:
        self.language = None if language is None else check_language(language)
        self.review: Review = source if isinstance(source, Review) else review(source, seat, level)
        # the stepper's view of a decision, for the positions of the mistakes
        self.steps = [
            Step(i, m.seat, m.observation, m.decision, m.played)
            for i, m in enumerate(self.review.mistakes)
        ]
        self._html = widgets.HTML()
        self._title = widgets.HTML()
        self._prev = widgets.Button(description=render("review_previous"))
        self._next = widgets.Button(description=render("review_next"))
        self._prev.on_click(lambda _b: self.go(self.review.position - 1))
        self._next.on_click(lambda _b: self.go(self.review.position + 1))
        head = widgets.HTML(f"<p><b>{html.escape(self.review.headline)}</b></p>")
        super().__init__([head, widgets.HBox([self._prev, self._title, self._next]), self._html])  # type: ignore[no-untyped-call]
        self.go(0)

    def __repr__(self) -> str:
        return (
            f"ReviewWidget(seat={self.review.seat}, mistakes={len(self.review.mistakes)}, "
            f"position={self.review.position})"
        )

    @speaks_own_language
    def go(self, position: int) -> None:
        """Show mistake number ``position`` (from 0, clamped)."""
        total = len(self.review.mistakes)
        if not total:
            self._title.value = ""
            self._html.value = ""
            return
        self.review.position = max(0, min(position, total - 1))
        mistake = self.review.current
        assert mistake is not None
        self._title.value = html.escape(
            render("review_position", number=self.review.position + 1, total=total)
        )
        stepper_view = decision_html(self.steps[self.review.position], len(self.steps))
        why = html.escape(render("review_why_more"))
        self._html.value = (
            f"<p>{html.escape(mistake.sentence)}</p>"
            f"<details><summary>{why}</summary>{stepper_view}</details>"
        )
        self._prev.disabled = self.review.position == 0
        self._next.disabled = self.review.position == total - 1
