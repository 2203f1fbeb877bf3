"""The tournament exercise: does a result's confidence interval show that one player is
stronger.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rummykit.errors import RummykitError
from rummykit.exercises.answers import answer_words, says
from rummykit.exercises.base import Exercise, Feedback, bad_answer, make_feedback
from rummykit.messages import render
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["ReadInterval"]


@dataclass(frozen=True, repr=False)
class ReadInterval(Exercise):
    """A tournament's result: does it show that one player is stronger? Answer yes or no.

    Yes only when the 95% confidence interval of the difference leaves zero out on that
    player's side (:class:`~rummykit.tournament.Comparison`):

    >>> from rummykit.tournament import Comparison
    >>> exercise = ReadInterval(Comparison("hard", "normal", 1.45, (-0.02, 2.92), None), 120)
    >>> print(exercise.prompt)
    After 120 rounds, hard − normal is +1.45 points per round, with the 95% interval [-0.02, +2.92]. Does this show that hard is stronger than normal?
    >>> print(exercise.check("yes"))
    ✘ You said yes, but the answer is no. The interval holds zero: these rounds can't tell which of the two is stronger.
    """

    kind: ClassVar[str] = "read_interval"
    comparison: Any
    games: int
    variant: Variant = HUNGARIAN

    def __init__(self, comparison: Any, games: int) -> None:
        if comparison.ci is None:
            raise RummykitError(render("exercise_interval_none"))
        object.__setattr__(self, "comparison", comparison)
        object.__setattr__(self, "games", int(games))
        object.__setattr__(self, "variant", HUNGARIAN)

    def __repr__(self) -> str:
        c = self.comparison
        return f"ReadInterval({c.first!r}, {c.second!r}, games={self.games})"

    @property
    def shows(self) -> bool:
        """Whether the interval shows the first player stronger."""
        return bool(self.comparison.better == self.comparison.first)

    @property
    def prompt(self) -> str:
        c = self.comparison
        return render(
            "exercise_interval_prompt",
            games=self.games,
            first=c.first,
            second=c.second,
            difference=f"{c.difference:+.2f}",
            low=f"{c.ci[0]:+.2f}",
            high=f"{c.ci[1]:+.2f}",
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_yes_no")

    @property
    def answer(self) -> str:
        return render("exercise_yes" if self.shows else "exercise_no")

    @property
    def solution(self) -> str:
        return "yes" if self.shows else "no"

    @property
    def explanation(self) -> tuple[str, ...]:
        c = self.comparison
        if c.better is None:
            return (render("exercise_interval_holds_zero"),)
        return (render("exercise_interval_leaves_zero", better=c.better),)

    def _judge(self, answer: object) -> Feedback:
        words = answer_words(answer)
        if says(words, "yes"):
            given = True
        elif says(words, "no"):
            given = False
        else:
            raise bad_answer(answer, self.accepts)
        said = render("exercise_yes" if given else "exercise_no")
        return make_feedback(
            given == self.shows,
            said,
            self.answer,
            render("exercise_number_right", given=said),
            render("exercise_number_wrong", given=said, expected=self.answer),
            self.explanation,
        )
