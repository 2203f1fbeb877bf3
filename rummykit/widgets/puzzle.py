"""Widgets for the teaching tools: a puzzle (answer, feedback, next) and a quiz.

>>> from rummykit.widgets.puzzle import PuzzleWidget
>>> box = PuzzleWidget("discard", seed=4)
>>> box
PuzzleWidget(kinds=['discard'], seed=4, grade=1, tally='0 right out of 0')
>>> box.answer(box.puzzle.solution).correct
True
>>> box.next(); box.puzzle.seed
5

Every judgement is the checker's own :class:`~rummykit.exercises.Feedback`; an answer that
can't be read shows the checker's error, naming what is accepted.
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from rummykit.exercises import AnswerError, Feedback, Quiz, Worksheet
from rummykit.language import check_language, speaks_own_language
from rummykit.messages import render
from rummykit.puzzles import KINDS, Puzzle, make_puzzle

__all__ = ["PuzzleWidget", "QuizWidget"]


class QuizWidget(widgets.VBox):
    """A quiz, one exercise at a time: answer box, Check, feedback, back and next, and the
    student's tally (kept in the :class:`~rummykit.exercises.Quiz`: their first answer to
    each question counts). **Export** saves the answers as JSON for the class report
    (:func:`rummykit.class_report`)."""

    @speaks_own_language
    def __init__(self, quiz: Quiz, student: str = "", *, language: str | None = None) -> None:
        self.language = None if language is None else check_language(language)
        self.quiz = quiz
        self.student = student
        self.number = 1
        self.feedback: Feedback | None = None
        self._question = widgets.HTML()
        self._box = widgets.Text(placeholder=render("exercise_answer_line"))
        self._check = widgets.Button(description=render("quiz_check"))
        self._back = widgets.Button(description=render("quiz_back"))
        self._forward = widgets.Button(description=render("quiz_next"))
        self._feedback = widgets.HTML()
        self._tally = widgets.HTML()
        self._export = widgets.Button(description=render("quiz_export"))
        self._saved = widgets.HTML()
        self._check.on_click(lambda _b: self.answer(self._box.value))
        self._back.on_click(lambda _b: self.go(self.number - 1))
        self._forward.on_click(lambda _b: self.next())
        self._export.on_click(lambda _b: self.export())
        super().__init__(  # type: ignore[no-untyped-call]
            [
                self._question,
                widgets.HBox([self._box, self._check]),
                self._feedback,
                widgets.HBox([self._back, self._forward]),
                widgets.HBox([self._tally, self._export, self._saved]),
            ]
        )
        self.go(1)

    def __repr__(self) -> str:
        return (
            f"QuizWidget(exercises={len(self.quiz.exercises)}, number={self.number}, "
            f"student={self.student!r}, tally='{self.quiz.tally(self.student)}')"
        )

    @property
    def current(self) -> Any:
        """The exercise shown."""
        return self.quiz.exercise(self.number)

    @speaks_own_language
    def _draw(self) -> None:
        title = render("quiz_title", number=self.number, total=len(self.quiz.exercises))
        self._question.value = f"<h4>{html.escape(title)}</h4>{self.current._repr_html_()}"
        self._tally.value = html.escape(str(self.quiz.tally(self.student)))

    @speaks_own_language
    def go(self, number: int) -> None:
        """Show exercise ``number`` (clamped to the quiz)."""
        self.number = max(1, min(number, len(self.quiz.exercises)))
        self.feedback = None
        self._feedback.value = ""
        self._box.value = ""
        self._draw()

    @speaks_own_language
    def next(self) -> None:
        """The next exercise."""
        self.go(self.number + 1)

    @speaks_own_language
    def export(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save the quiz's answers as JSON (default: ``quiz-<student>.json`` in the notebook's
        folder) for the class report, and say where."""
        name = re.sub(r"[^\w-]+", "-", self.student).strip("-") or "student"
        target = self.quiz.save(path if path is not None else f"quiz-{name}.json")
        self._saved.value = html.escape(render("quiz_exported", path=str(target)))
        return target

    @speaks_own_language
    def answer(self, text: object) -> Feedback | None:
        """Check an answer, count it in the tally if it is the student's first to this
        question, and show the feedback (or, in one line, why the answer can't be read)."""
        try:
            self.feedback = self.quiz.check(self.number, text, student=self.student)
        except AnswerError as error:
            self.feedback = None
            self._feedback.value = f'<p class="rk-answer-error">{html.escape(str(error))}</p>'
            return None
        self._feedback.value = self.feedback._repr_html_()
        self._draw()
        return self.feedback

    def worksheet(self) -> Worksheet:
        """The quiz as a printable worksheet with its key."""
        return self.quiz.worksheet()


class PuzzleWidget(QuizWidget):
    """Puzzles one after another, drawn from ``seed`` on (Next makes the next one)."""

    @speaks_own_language
    def __init__(
        self,
        kinds: str | Sequence[str] = KINDS,
        seed: int = 0,
        grade: int = 1,
        variant: str | None = None,
        student: str = "",
        *,
        language: str | None = None,
    ) -> None:
        self.language = None if language is None else check_language(language)
        self.kinds = [kinds] if isinstance(kinds, str) else list(kinds)
        self.seed = seed
        self.grade = grade
        self.variant = variant
        self.puzzles: list[Puzzle] = [self._make(0)]
        super().__init__(Quiz([self.puzzles[0].exercise]), student, language=language)

    def _make(self, i: int) -> Puzzle:
        return make_puzzle(self.kinds[i % len(self.kinds)], self.seed + i, self.grade, self.variant)

    def __repr__(self) -> str:
        return (
            f"PuzzleWidget(kinds={self.kinds}, seed={self.seed}, grade={self.grade}, "
            f"tally='{self.quiz.tally(self.student)}')"
        )

    @property
    def puzzle(self) -> Puzzle:
        """The puzzle shown."""
        return self.puzzles[self.number - 1]

    @speaks_own_language
    def _draw(self) -> None:
        super()._draw()
        self._question.value = (
            f"<h4>{html.escape(render('quiz_title', number=self.number, total=len(self.puzzles)))}"
            f"</h4>{self.puzzle._repr_html_()}"
        )

    @speaks_own_language
    def next(self) -> None:
        """The next puzzle (made from the next seed when needed)."""
        if self.number == len(self.puzzles):
            made = self._make(len(self.puzzles))
            self.puzzles.append(made)
            self.quiz.exercises.append(made.exercise)
        self.go(self.number + 1)
