"""Predict-then-check exercises: the learner answers, the engine explains.

Each exercise shows a position and asks one question; :meth:`Exercise.check` reads the
answer and returns :class:`Feedback` — right or wrong, and why, in the engine's own
sentences (the meld checks' :class:`~rummykit.explain.Verdict`, the solver's plans, the
referee's scoring lines). A wrong answer is told what it got wrong:

>>> exercise = OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"])
>>> print(exercise.prompt)
What are A♥ 2♥ 3♥ + Q♠ Q♦ Q♣ worth toward the opening (H8)?
>>> print(exercise.check(36))
✘ You said 36, but you counted the ace as 1: toward the opening an ace is worth 10, below the 2 as above the king (H8). A♥ 2♥ 3♥: 15. Q♠ Q♦ Q♣: 30. Your melds total 45; opening needs 51 — 6 more. Add a meld, or take these back. (H8)
>>> exercise.check("45").correct
True

An answer that can't be read raises :class:`AnswerError`, naming what is accepted:

>>> MeldKind("K♠ A♠ 2♠").check("maybe")
Traceback (most recent call last):
...
rummykit.exercises.AnswerError: 'maybe' is not an answer here: answer run, set or no meld

A :class:`Quiz` keeps each student's tally; a :class:`Worksheet` prints (answer key on its
own page). Everything has a stable ``repr`` and an HTML view.
"""

from __future__ import annotations

from rummykit.exercises.base import AnswerError, Exercise, Feedback
from rummykit.exercises.computer import AgentCheck, PredictMove
from rummykit.exercises.hands import BestDiscard, DeadwoodValue, GoOut
from rummykit.exercises.intervals import ReadInterval
from rummykit.exercises.jokers import FreeJoker
from rummykit.exercises.layoffs import LayoffTarget
from rummykit.exercises.melds import MELD_REASONS as MELD_REASONS
from rummykit.exercises.melds import MeldKind, MeldReason
from rummykit.exercises.opening import FindOpening, OpeningValue
from rummykit.exercises.quiz import Quiz, Tally
from rummykit.exercises.referee import TurnCanEnd, WhatHappens
from rummykit.exercises.scoring import MatchWinner, RoundScore
from rummykit.exercises.seeded import KINDS as KINDS
from rummykit.exercises.seeded import (
    available,
    kinds_for,
    make_exercises,
    random_meld,
    random_table,
)
from rummykit.exercises.worksheet import Worksheet

__all__ = [
    "AgentCheck",
    "AnswerError",
    "BestDiscard",
    "DeadwoodValue",
    "Exercise",
    "Feedback",
    "FindOpening",
    "FreeJoker",
    "GoOut",
    "LayoffTarget",
    "MatchWinner",
    "MeldKind",
    "MeldReason",
    "OpeningValue",
    "PredictMove",
    "Quiz",
    "ReadInterval",
    "RoundScore",
    "Tally",
    "TurnCanEnd",
    "WhatHappens",
    "Worksheet",
    "available",
    "kinds_for",
    "make_exercises",
    "random_meld",
    "random_table",
]
