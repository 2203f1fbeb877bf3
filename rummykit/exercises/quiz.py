"""A quiz: numbered exercises that keep each student's tally, exported for a class report."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, ClassVar

from rummykit.exercises.base import AnswerError, Exercise, Feedback
from rummykit.exercises.worksheet import Worksheet
from rummykit.messages import render

__all__ = ["Quiz", "Tally"]

# --- quizzes and worksheets -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tally:
    """One student's record: answers checked, and how many were right."""

    right: int = 0
    asked: int = 0

    def __str__(self) -> str:
        return render("exercise_tally", right=self.right, asked=self.asked)


@dataclass
class Quiz:
    """Numbered exercises (from 1) that keep each student's tally.

    The tally counts a student's **first** answer to each exercise: trying again shows the
    feedback again but doesn't change the tally (an answer that can't be read is not an
    answer, and doesn't count either).

    >>> from rummykit.exercises import MeldKind, OpeningValue
    >>> quiz = Quiz([MeldKind("K♠ A♠ 2♠"), OpeningValue(["7♥ 8♥ 9♥", "10♠ 10♦ 10♣"])])
    >>> quiz.check(1, "no", student="Ana").correct, quiz.check(2, 54, student="Ana").correct
    (True, True)
    >>> quiz.check(2, 44, student="Ben").correct, quiz.check(2, 54, student="Ben").correct
    (False, True)
    >>> quiz
    Quiz(exercises=2, students={'Ana': Tally(right=2, asked=2), 'Ben': Tally(right=0, asked=1)})

    :meth:`to_json` exports the first answers, for :func:`rummykit.class_report`.
    """

    exercises: list[Exercise]
    title: str = ""
    tallies: dict[str, Tally] = field(default_factory=dict)
    answers: dict[str, dict[int, Feedback]] = field(default_factory=dict)
    first: dict[str, dict[int, Feedback]] = field(default_factory=dict)
    tries: dict[str, dict[int, int]] = field(default_factory=dict)

    FORMAT: ClassVar[str] = "rummykit-quiz"
    VERSION: ClassVar[int] = 1

    def __post_init__(self) -> None:
        self.exercises = list(self.exercises)

    def exercise(self, number: int) -> Exercise:
        """Exercise ``number`` (from 1)."""
        if not 1 <= number <= len(self.exercises):
            raise AnswerError(render("exercise_no_such", number=number, count=len(self.exercises)))
        return self.exercises[number - 1]

    def check(self, number: int, answer: object, student: str = "") -> Feedback:
        """Check ``student``'s answer to exercise ``number``; their first answer to it
        counts in their tally.

        An answer that can't be read raises :class:`AnswerError` and is not counted."""
        feedback = self.exercise(number).check(answer)
        self.answers.setdefault(student, {})[number] = feedback
        tries = self.tries.setdefault(student, {})
        tries[number] = tries.get(number, 0) + 1
        first = self.first.setdefault(student, {})
        if number not in first:
            first[number] = feedback
            tally = self.tallies.get(student, Tally())
            self.tallies[student] = Tally(tally.right + feedback.correct, tally.asked + 1)
        return feedback

    def tally(self, student: str = "") -> Tally:
        """A student's tally so far (first answers)."""
        return self.tallies.get(student, Tally())

    def worksheet(self) -> Worksheet:
        """These exercises as a printable worksheet with its answer key."""
        return Worksheet(self.exercises, self.title)

    def to_dict(self) -> dict[str, Any]:
        """The quiz and every student's first answers, JSON-ready (for a class report).

        >>> from rummykit.exercises import MeldKind
        >>> quiz = Quiz([MeldKind("K♠ A♠ 2♠")], "Melds")
        >>> _ = quiz.check(1, "run", student="Ana")
        >>> data = quiz.to_dict()
        >>> data["answers"][0]["student"], data["answers"][0]["correct"], data["answers"][0]["rules"]
        ('Ana', False, ['H4'])
        """
        from rummykit.messages import get_language

        return {
            "format": self.FORMAT,
            "version": self.VERSION,
            "title": self.title,
            "language": get_language(),
            "exercises": [
                {  # no answer here: a student's export must not be an answer key
                    "number": number,
                    "kind": exercise.kind,
                    "prompt": exercise.prompt,
                    "rules": list(exercise.rules),
                }
                for number, exercise in enumerate(self.exercises, start=1)
            ],
            "answers": [
                {
                    "student": student,
                    "number": number,
                    "tries": self.tries.get(student, {}).get(number, 1),
                    **feedback.to_dict(),
                }
                for student, answers in self.first.items()
                for number, feedback in sorted(answers.items())
            ],
        }

    def to_json(self, indent: int | None = 1) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write :meth:`to_json` to ``path`` (a ``.json`` file) and return it."""
        target = Path(path)
        target.write_text(self.to_json() + "\n", encoding="utf-8")
        return target

    def __repr__(self) -> str:
        return f"Quiz(exercises={len(self.exercises)}, students={self.tallies!r})"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<li>{escape(student or render('exercise_student'))}: {escape(str(t))}</li>"
            for student, t in self.tallies.items()
        )
        return self.worksheet()._repr_html_(key=False) + (f"<ul>{rows}</ul>" if rows else "")
