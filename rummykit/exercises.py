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

import json
import os
import random
import re
import unicodedata
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.cards import (
    JOKER,
    Card,
    CardsLike,
    as_cards,
    format_cards,
    parse_card,
)
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.explain import CATALOGUE, Reason, Verdict
from rummykit.melds import (
    IllegalMeld,
    Meld,
    MeldSum,
    check_layoff,
    check_meld,
    check_opening,
    make_meld,
    meld_readings,
    variant_words,
)
from rummykit.messages import TEMPLATES, join, render
from rummykit.solver import best_arrangement, can_go_out, min_deadwood
from rummykit.variants import HUNGARIAN, Variant
from rummykit.variants import variant as get_variant

if TYPE_CHECKING:
    from rummykit.game.actions import DrawSource

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


class AnswerError(RummykitError):
    """An answer could not be read; the message says, in one line, what this exercise accepts.

    In a notebook the message is all IPython shows of it — no traceback:

    >>> try:
    ...     MeldKind("K♠ A♠ 2♠").check("x45")
    ... except AnswerError as error:
    ...     error._render_traceback_()
    ["'x45' is not an answer here: answer run, set or no meld"]
    """

    def _render_traceback_(self) -> list[str]:
        """What IPython shows instead of a traceback: the one-line sentence."""
        return [str(self)]


def _bad(answer: object, accepted: str) -> AnswerError:
    if _blank(answer):
        return AnswerError(render("exercise_no_answer", accepted=accepted))
    return AnswerError(render("exercise_bad_answer", answer=_shown(answer), accepted=accepted))


def _blank(answer: object) -> bool:
    """Whether nothing was answered yet (``None``, ``...``, or only spaces)."""
    return answer is None or answer is Ellipsis or (isinstance(answer, str) and not answer.strip())


_SHOWN = 40  # characters of a long answer quoted back


def _shown(answer: object) -> str:
    """The answer as quoted back to the learner: one line, cut short when long."""
    if isinstance(answer, str):
        text = answer
    elif isinstance(answer, Card):
        text = str(answer)
    elif isinstance(answer, (tuple, list)) and all(isinstance(c, Card) for c in answer):
        text = format_cards(answer)
    else:
        try:
            text = repr(answer)
        except Exception:  # a learner's object whose repr fails: say what type it is
            text = type(answer).__name__
    text = " ".join(text.split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _variant(rules: Variant | str) -> Variant:
    return rules if isinstance(rules, Variant) else get_variant(rules)


def _variant_repr(rules: Variant) -> str:
    return repr(rules.base or rules.name) if not rules.changes() else repr(str(rules))


#: The house rules a question's wording names, so that two questions that differ only by one of
#: them don't read the same (a Rommi round scored with ``ace_high``, a Rommi turn with
#: ``discard_to_win``): every option :func:`~rummykit.melds.variant_words` can say in words.
_HOUSE_OPTIONS = (
    "ace_low",
    "ace_above_king",
    "jokers_per_meld",
    "ace_points",
    "ace_high",
    "face_points",
    "opening_threshold",
    "discard_to_win",
    "cut_card",
    "joker_exchange",
)


def _house_title(rules: Variant) -> str:
    """The variant's title with its house rules in words ("Rommi with aces worth 11")."""
    return variant_words(rules, _HOUSE_OPTIONS)


# --- feedback -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feedback:
    """What the checker says about one answer: right or wrong, and the sentences why.

    ``head`` is the verdict on the answer itself ("You said 45, but …"); ``lines`` are the
    engine's explanation of the position. ``bool(feedback)`` is ``feedback.correct``.

    As data, for a class report: ``rules`` are the rule ids the question is about, ``codes``
    the reason codes the answer turned on (the engine's reasons, or the slip a wrong number
    shows), ``kind`` the kind of exercise.

    >>> feedback = MeldKind("K♠ A♠ 2♠").check("run")
    >>> feedback.kind, feedback.codes, feedback.rules
    ('meld_kind', ('run_wraps',), ('H4',))
    """

    correct: bool
    given: str
    expected: str
    head: str
    lines: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()
    highlighted: frozenset[Card] = frozenset()
    codes: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    kind: str = ""
    others: tuple[str, ...] = ()  # the other right answers, when there are several
    detail: str = ""  # text to read after the sentences, as it is (a trace, say)

    def __bool__(self) -> bool:
        return self.correct

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the judgement, the sentences and what they are about.

        >>> OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"]).check(36).to_dict()["codes"]
        ['exercise_mistake_ace']
        """
        return {
            "kind": self.kind,
            "correct": self.correct,
            "given": self.given,
            "expected": self.expected,
            "message": self.message,
            "codes": list(self.codes),
            "rules": list(self.rules),
            "others": list(self.others),
        }

    @property
    def message(self) -> str:
        """The feedback as one paragraph: the mark, the verdict on the answer, the sentences."""
        mark = render("exercise_mark_right" if self.correct else "exercise_mark_wrong")
        return " ".join([f"{mark} {self.head}", *self.lines])

    def __str__(self) -> str:
        """The paragraph, then the :attr:`detail` (a trace) on the lines below."""
        return f"{self.message}\n{self.detail}" if self.detail else self.message

    def __repr__(self) -> str:
        return f"Feedback(correct={self.correct}, given={self.given!r}, expected={self.expected!r})"

    def _repr_html_(self) -> str:
        mark = render("exercise_mark_right" if self.correct else "exercise_mark_wrong")
        colour = "#1a7f37" if self.correct else "#b93c0b"  # 5.6:1 on white (WCAG AA)
        items = "".join(f"<li>{escape(line)}</li>" for line in self.lines)
        shown = cards_html(self.cards, self.highlighted) if self.cards else ""
        detail = f"<pre>{escape(self.detail)}</pre>" if self.detail else ""
        return (
            '<div class="rk-feedback" role="status">'
            f'<div style="color:{colour};font-weight:bold">{escape(mark)} {escape(self.head)}</div>'
            f"{shown}<ul>{items}</ul>{detail}</div>"
        )


def _feedback(
    right: bool,
    given: str,
    expected: str,
    head_right: str,
    head_wrong: str,
    lines: Iterable[str],
    cards: Sequence[Card] = (),
    highlighted: Iterable[Card] = (),
    codes: Iterable[str] = (),
) -> Feedback:
    return Feedback(
        right,
        given,
        expected,
        head_right if right else head_wrong,
        tuple(lines),
        tuple(cards),
        frozenset(highlighted),
        codes=tuple(codes),
    )


def _sentences(verdict: Verdict) -> tuple[str, ...]:
    return tuple(str(r) for r in verdict.reasons)


def _rules_of(reasons: Iterable[Reason]) -> tuple[str, ...]:
    """The rule ids these reasons cite, each once, in order."""
    return tuple(dict.fromkeys(r.rule for r in reasons if r.rule))


def _code_of(sentence: str) -> tuple[str, ...]:
    """The template code a rendered sentence was made from, if it remembers it."""
    code = getattr(sentence, "code", None)
    return (code,) if isinstance(code, str) else ()


# --- reading answers ------------------------------------------------------------------------

_DASHES = str.maketrans(dict.fromkeys("‐‑‒–—―−﹣－", "-"))
_QUOTES = "\"'“”‘’«»„‚`´"
_TRAILING = ".!?,;:…"


def _clean(text: str) -> str:
    """A typed answer without what doesn't change it: spaces, quotes around it, punctuation
    after it; every dash a hyphen (``"– 20."`` is ``"- 20"``)."""
    text = " ".join(text.translate(_DASHES).split())
    text = text.strip(_QUOTES + " ").rstrip(_TRAILING + " ").strip(_QUOTES + " ")
    return text


def _words(answer: object) -> str:
    """The answer as lower-case words: ``"Set."`` and ``"  set"`` are ``"set"``,
    ``"no-meld"`` is ``"no meld"``."""
    if not isinstance(answer, str):
        return ""
    text = _clean(unicodedata.normalize("NFKC", answer)).lower()
    return " ".join(text.replace("-", " ").split())


_NUMBER = re.compile(r"([+-]?)\s*([0-9]{1,7})(?:\s+(\w+))?")


def _read_int(answer: object, accepted: str = "") -> int:
    """A whole number from an int or from text: ``45``, ``"45 points"``, ``"– 20"``, ``"-20."``."""
    accepted = accepted or render("exercise_accepts_number")
    if isinstance(answer, bool):
        raise _bad(answer, accepted)
    if isinstance(answer, int):
        return answer
    if isinstance(answer, float) and answer.is_integer() and abs(answer) < 10**7:
        return int(answer)
    if isinstance(answer, str):
        text = _clean(unicodedata.normalize("NFKC", answer)).lower()
        m = _NUMBER.fullmatch(text)
        if m and (m.group(3) is None or _says(m.group(3), "points")):
            return int(m.group(1) + m.group(2))
    raise _bad(answer, accepted)


def _read_card(
    answer: object, choices: Sequence[Card], accepted: str = "", typed: object = None
) -> Card:
    """A card of ``choices`` from the answer (``typed``: what the learner typed, when
    ``answer`` is already a part of it, for the error message)."""
    accepted = accepted or render(
        "exercise_accepts_card", cards=format_cards(dict.fromkeys(choices))
    )
    shown = answer if typed is None else typed
    card: Card
    if isinstance(answer, Card):
        card = answer
    elif isinstance(answer, str):
        text = re.sub(r"^discard\s+", "", _clean(answer), flags=re.I)
        try:
            card = parse_card(text)
        except ValueError:
            raise _bad(shown, accepted) from None
    else:
        raise _bad(shown, accepted)
    if card not in choices:
        raise _bad(shown, accepted)
    return card


def _says(words: str, meaning: str) -> bool:
    """Whether a learner's (normalised) words mean ``meaning`` (yes, no, run, set): the
    English words always, and the current language's (``exercise_words_<meaning>``).

    >>> _says("y", "yes"), _says("group", "set"), _says("maybe", "no")
    (True, True, False)
    """
    code = f"exercise_words_{meaning}"
    accepted = f"{TEMPLATES[code]}|{render(code)}".split("|")
    return words in {_words(w) for w in accepted}


# --- the base -------------------------------------------------------------------------------


class Exercise(ABC):
    """A question about one position, with a checker that explains.

    Subclasses say what they show (:attr:`prompt`, :meth:`figure_html`), the right answer
    in words (:attr:`answer`), the explanation (:attr:`explanation`) and how an answer is
    judged (:meth:`check`).
    """

    kind: ClassVar[str] = "exercise"
    variant: Variant

    @property
    @abstractmethod
    def prompt(self) -> str:
        """The question, as a learner reads it."""

    @property
    @abstractmethod
    def accepts(self) -> str:
        """What an answer looks like (said when an answer can't be read)."""

    @property
    @abstractmethod
    def answer(self) -> str:
        """The right answer, in words."""

    @property
    @abstractmethod
    def explanation(self) -> tuple[str, ...]:
        """Why the answer is right: the engine's sentences."""

    @property
    @abstractmethod
    def solution(self) -> Any:
        """A right answer, in a form :meth:`check` reads (a word, a number, a card, a
        move): what an answer key's solution cell assigns."""

    @property
    def rules(self) -> tuple[str, ...]:
        """The rule ids this question is about (for a class report: what was missed)."""
        return ()

    @property
    def codes(self) -> tuple[str, ...]:
        """The reason codes of the position (what makes the right answer right)."""
        return ()

    def check(self, answer: object) -> Feedback:
        """Judge an answer: right or wrong, and why, in the engine's sentences.

        An answer that can't be read — any text, any object — raises :class:`AnswerError`,
        one line saying what this exercise accepts; never another error.
        """
        if _blank(answer):
            raise _bad(answer, self.accepts)
        try:
            feedback = self._judge(answer)
        except AnswerError:
            raise
        except (ValueError, TypeError, OverflowError):  # a card or an action that doesn't read
            raise _bad(answer, self.accepts) from None
        return replace(
            feedback,
            kind=self.kind,
            rules=feedback.rules or self.rules,
            codes=feedback.codes or self.codes,
        )

    @abstractmethod
    def _judge(self, answer: object) -> Feedback:
        """Read and judge an answer that is not blank (:meth:`check` does the rest)."""

    def figure_html(self) -> str:
        """The position drawn (cards as SVG)."""
        return ""

    @property
    def key(self) -> str:
        """The answer key entry: the answer and the explanation, in sentences."""
        answer = self.answer.rstrip(".")
        return " ".join([render("exercise_key", answer=answer), *self.explanation])

    def _repr_html_(self) -> str:
        prompt = "<br>".join(escape(line) for line in self.prompt.split("\n"))
        return (
            '<div class="rk-exercise">'
            f"<p><b>{prompt}</b></p>{self.figure_html()}"
            f'<p class="rk-accepts">{escape(self.accepts)}</p></div>'
        )


# --- meld kinds and reasons -----------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class MeldKind(Exercise):
    """Is this a run, a set, or no meld?

    >>> exercise = MeldKind("K♠ A♠ 2♠")
    >>> exercise
    MeldKind('K♠ A♠ 2♠', 'hungarian')
    >>> print(exercise.check("run"))
    ✘ You said a run, but K♠ A♠ 2♠ is no meld. K♠ A♠ 2♠ is not a valid meld in Hungarian Rummy. K♠ A♠ 2♠ wraps around the ace: in a run the ace goes below the 2 (A-2-3) or above the king (Q-K-A), never between them. (H4)
    """

    kind: ClassVar[str] = "meld_kind"
    cards: tuple[Card, ...]
    variant: Variant = HUNGARIAN

    def __init__(self, cards: CardsLike, variant: Variant | str = HUNGARIAN) -> None:
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "variant", _variant(variant))

    def __repr__(self) -> str:
        return f"MeldKind('{format_cards(self.cards)}', {_variant_repr(self.variant)})"

    @cached_property
    def verdict(self) -> Verdict:
        """The meld check's verdict on these cards."""
        return check_meld(self.cards, self.variant)

    @property
    def prompt(self) -> str:
        return render("exercise_kind_prompt", variant=self.variant.title, cards=self.cards)

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_kind")

    @staticmethod
    def _kind_word(kind: str | None) -> str:
        return render(f"exercise_kind_{kind or 'none'}")

    @cached_property
    def kinds(self) -> tuple[str, ...]:
        """Every kind of meld these cards make (a run, a set, or both when jokers let them be
        either: ``6♥ 🃏 🃏`` with two jokers a meld); none when they make no meld."""
        if not self.verdict.ok:
            return ()
        found = {"run" if m.is_run else "set" for m in meld_readings(self.cards, self.variant)}
        return tuple(k for k in ("run", "set") if k in found) or (self.verdict.kind or "run",)

    def _kinds_word(self) -> str:
        if not self.kinds:
            return self._kind_word(None)
        return join([self._kind_word(k) for k in self.kinds], "or")

    @property
    def answer(self) -> str:
        return self._kinds_word()

    @property
    def solution(self) -> str:
        return " or ".join(self.kinds) or "no meld"

    @property
    def explanation(self) -> tuple[str, ...]:
        return _sentences(self.verdict)

    @property
    def rules(self) -> tuple[str, ...]:
        return _rules_of(self.verdict.reasons)

    @property
    def codes(self) -> tuple[str, ...]:
        return self.verdict.codes

    def _read(self, answer: object) -> str | None:
        words = _words(answer)
        for lead in ("it is ", "it's ", "its ", "a ", "an "):
            words = words.removeprefix(lead)
        if _says(words, "run"):
            return "run"
        if _says(words, "set"):
            return "set"
        if _says(words, "no"):
            return None
        raise _bad(answer, self.accepts)

    def _judge(self, answer: object) -> Feedback:
        given = self._read(answer)
        verdict = self.verdict
        actual = self._kinds_word()
        said = self._kind_word(given)
        return _feedback(
            given in self.kinds if given else not self.kinds,
            said,
            actual,
            render("exercise_kind_right", cards=self.cards, kind=actual),
            render("exercise_kind_wrong", given=said, cards=self.cards, kind=actual),
            _sentences(verdict),
            verdict.cards or self.cards,
            verdict.highlighted,
        )

    def figure_html(self) -> str:
        return cards_html(self.cards)


#: The reasons a meld can fail for that a learner may pick: every code of the catalogue that
#: has a learner's sentence (``exercise_reason_<code>``).
MELD_REASONS = tuple(code for code in CATALOGUE if f"exercise_reason_{code}" in TEMPLATES)
_REASON_CHOICES = tuple(c for c in MELD_REASONS if c != "run_too_long")  # rare: not offered


@dataclass(frozen=True, repr=False)
class MeldReason(Exercise):
    """Valid or not — and if not, why? Answer the letter of one of the offered sentences
    (or ``valid``, or a reason code).

    The prompt shows the sentences, lettered. Beside the right one they are only sentences
    that are false of these cards, so that no option is a true statement marked wrong:

    >>> exercise = MeldReason("5♥ 6♥ 8♥")
    >>> print(exercise.prompt)
    Hungarian Rummy: is 5♥ 6♥ 8♥ a valid meld? If not, why not?
    a) It is a valid meld.
    b) One rank appears twice in the run.
    c) The run skips a card that no joker fills.
    d) The run turns the corner at the ace (K-A-2).
    e) A set can't hold that many cards.
    >>> exercise.check("c").correct, exercise.check("C.").correct, exercise.check("run_gap").correct
    (True, True, True)
    >>> print(exercise.check("d"))
    ✘ You said the run turns the corner at the ace (K-A-2), but 5♥ 6♥ 8♥ is not a valid meld in Hungarian Rummy. 5♥ 6♥ 8♥ skips the 7♥: the cards of a run follow one another. (H4)
    """

    kind: ClassVar[str] = "meld_reason"
    cards: tuple[Card, ...]
    variant: Variant = HUNGARIAN
    offered: tuple[str, ...] = ()

    def __init__(
        self,
        cards: CardsLike,
        variant: Variant | str = HUNGARIAN,
        offered: Sequence[str] | None = None,
    ) -> None:
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "variant", _variant(variant))
        if offered is None:
            offered = self._default_offer()
        unknown = [c for c in offered if c != "valid" and c not in MELD_REASONS]
        if unknown:
            raise RummykitError(
                render(
                    "exercise_unknown_code",
                    code=unknown[0],
                    choices=", ".join(("valid", *_REASON_CHOICES)),
                )
            )
        object.__setattr__(self, "offered", tuple(offered))

    def _default_offer(self) -> tuple[str, ...]:
        verdict = check_meld(self.cards, self.variant)
        right = verdict.codes[:1]
        pool = [
            c
            for c in _REASON_CHOICES
            if c not in verdict.codes and self._arises(c) and not self.plainly_true(c)
        ]
        rng = random.Random(f"{format_cards(self.cards)}|{self.variant.name}")
        picked = rng.sample(pool, min(3, len(pool)))
        return ("valid", *sorted({*right, *picked}))

    def _arises(self, code: str) -> bool:
        v = self.variant
        if code in ("too_many_jokers",):
            return v.jokers > 0
        if code == "jokers_not_allowed":
            return v.jokers == 0
        if code == "ace_low_not_allowed":
            return not v.ace_low
        if code == "ace_high_not_allowed":
            return not v.ace_above_king
        return True

    def plainly_true(self, code: str) -> bool:
        """Whether the sentence offered for ``code``, read word for word, is true of these
        cards (9♠ 9♠ 9♥ *are* of different suits, though that is not why they fail).

        >>> exercise = MeldReason("9♠ 9♠ 9♥")
        >>> exercise.plainly_true("run_suit_mismatch"), exercise.plainly_true("run_gap")
        (True, False)
        """
        cards = self.cards
        natural = [c for c in cards if not c.is_joker]
        jokers = len(cards) - len(natural)
        ranks = Counter(c.rank for c in natural)
        twice = any(n > 1 for n in Counter(natural).values())
        facts = {
            "valid": self.verdict.ok,
            "too_few_cards": len(cards) < 3,
            "identical_cards": twice,
            "not_in_deck": twice and self.variant.decks == 1,
            "set_rank_mismatch": len(ranks) > 1,
            "set_too_large": len(cards) > 4,
            "run_suit_mismatch": len({c.suit for c in natural}) > 1,
            "run_duplicate_rank": any(n > 1 for n in ranks.values()),
            "run_wraps": {1, 2, 13} <= set(ranks),
            "ace_low_not_allowed": {1, 2} <= set(ranks),
            "ace_high_not_allowed": {1, 13} <= set(ranks),
            "too_many_jokers": jokers > 1,
            "jokers_not_allowed": jokers > 0 and not self.variant.jokers,
            "run_too_long": len(cards) > 13,
        }
        return facts.get(code, code in self.verdict.codes)

    def __repr__(self) -> str:
        return f"MeldReason('{format_cards(self.cards)}', {_variant_repr(self.variant)})"

    @cached_property
    def verdict(self) -> Verdict:
        """The meld check's verdict on these cards."""
        return check_meld(self.cards, self.variant)

    @staticmethod
    def _sentence(code: str) -> str:
        return render(f"exercise_reason_{code}")

    @property
    def options(self) -> tuple[str, ...]:
        """The offered sentences, lettered."""
        return tuple(
            f"{chr(ord('a') + i)}) {self._sentence(code)}" for i, code in enumerate(self.offered)
        )

    @property
    def prompt(self) -> str:
        question = render("exercise_reason_prompt", variant=self.variant.title, cards=self.cards)
        return "\n".join([question, *self.options])

    @property
    def accepts(self) -> str:
        letters = [chr(ord("a") + i) for i in range(len(self.offered))]
        return render("exercise_accepts_reason", letters=join(letters))

    @property
    def solution(self) -> str:
        verdict = self.verdict
        code = verdict.codes[0] if verdict.codes else "valid"
        return chr(ord("a") + self.offered.index(code)) if code in self.offered else code

    @property
    def answer(self) -> str:
        verdict = self.verdict
        code = verdict.codes[0] if verdict.codes else "valid"
        if code in self.offered:
            letter = chr(ord("a") + self.offered.index(code))
            return f"{letter}) {self._sentence(code)}"
        return self._sentence(code)

    @property
    def explanation(self) -> tuple[str, ...]:
        return _sentences(self.verdict)

    @property
    def rules(self) -> tuple[str, ...]:
        return _rules_of(self.verdict.reasons)

    @property
    def codes(self) -> tuple[str, ...]:
        return self.verdict.codes

    def _read(self, answer: object) -> str:
        words = _words(answer).removesuffix(")")
        if len(words) == 1 and "a" <= words <= chr(ord("a") + len(self.offered) - 1):
            return self.offered[ord(words) - ord("a")]
        if words.isdigit() and 1 <= int(words) <= len(self.offered):
            return self.offered[int(words) - 1]
        if _says(words, "yes"):
            return "valid"
        code = words.replace(" ", "_")
        if code in MELD_REASONS or (code in CATALOGUE and code in self.verdict.codes):
            return code
        raise _bad(answer, self.accepts)

    def _judge(self, answer: object) -> Feedback:
        given = self._read(answer)
        verdict = self.verdict
        right = verdict.ok if given == "valid" else given in verdict.codes
        said = self._sentence(given)
        said = said[0].lower() + said[1:].rstrip(".")
        wrong = render("exercise_reason_wrong", given=said)
        if given != "valid" and not verdict.ok and self.plainly_true(given):
            wrong = render("exercise_reason_true_not_why", given=said)
        return _feedback(
            right,
            said,
            self.answer,
            render("exercise_reason_right", given=said),
            wrong,
            _sentences(verdict),
            verdict.cards or self.cards,
            verdict.highlighted,
        )

    def figure_html(self) -> str:
        return cards_html(self.cards)


# --- counting: the opening, a round, a match --------------------------------------------------


def _check_number(
    answer: object,
    expected: int,
    slips: Sequence[tuple[int, str]],
    lines: tuple[str, ...],
    cards: tuple[Card, ...] = (),
) -> Feedback:
    """Judge a number; a wrong one that a known slip explains is told that slip."""
    given = _read_int(answer)
    slip = next((s for n, s in slips if n == given), None)
    wrong = render("exercise_number_wrong", given=given, expected=expected)
    codes: tuple[str, ...] = ()
    if slip is not None and given != expected:
        wrong = render("exercise_number_slip", given=given, slip=slip)
        codes = _code_of(slip)
    return _feedback(
        given == expected,
        str(given),
        str(expected),
        render("exercise_number_right", given=given),
        wrong,
        lines,
        cards,
        codes=codes,
    )


def _melds_of(melds: Iterable[Meld | CardsLike], variant: Variant) -> tuple[Meld, ...]:
    out = []
    for item in melds:
        if isinstance(item, Meld):
            out.append(item)
            continue
        try:
            out.append(make_meld(item, variant))
        except IllegalMeld as bad:
            raise ValueError(str(bad)) from None
    return tuple(out)


def _joker_values(melds: Sequence[Meld], variant: Variant) -> list[tuple[Card, int]]:
    """What each joker stands for, and its value toward the opening."""
    out = []
    for meld in melds:
        for card, rep in zip(meld.cards, meld.represents, strict=False):
            if card.is_joker:
                stands = rep if rep is not None else Card(meld.rank, meld.missing_suits()[0].suit)
                out.append((stands, variant.card_value(stands)))
    return out


@dataclass(frozen=True, repr=False)
class OpeningValue(Exercise):
    """What are these melds worth toward the opening (H8)? Answer a number.

    >>> exercise = OpeningValue(["5♥ 🃏 7♥", "K♠ K♦ K♣"])
    >>> print(exercise.check(62))
    ✘ You said 62, but you counted the joker as 20: toward the opening a joker is worth the card it stands for, here the 6♥, worth 6 (H5). 5♥ 🃏 7♥: 18. K♠ K♦ K♣: 30. Your melds total 48; opening needs 51 — 3 more. Add a meld, or take these back. (H8)
    """

    kind: ClassVar[str] = "opening_value"
    melds: tuple[Meld, ...]
    variant: Variant = HUNGARIAN

    def __init__(
        self, melds: Iterable[Meld | CardsLike], variant: Variant | str = HUNGARIAN
    ) -> None:
        rules = _variant(variant)
        if not rules.opening_threshold:
            raise RummykitError(render("exercise_no_opening", variant=rules.title))
        object.__setattr__(self, "variant", rules)
        object.__setattr__(self, "melds", _melds_of(melds, rules))

    def __repr__(self) -> str:
        melds = ", ".join(repr(str(m)) for m in self.melds)
        return f"OpeningValue([{melds}], {_variant_repr(self.variant)})"

    @cached_property
    def verdict(self) -> Verdict:
        """The opening check's verdict on these melds."""
        return check_opening(self.melds, self.variant)

    @cached_property
    def total(self) -> int:
        """The melds' value toward the opening."""
        return sum(m.points(self.variant) for m in self.melds)

    @property
    def prompt(self) -> str:
        return render(
            "exercise_opening_prompt",
            melds=MeldSum(m.cards for m in self.melds),
            rule=self.variant.rule("opening"),
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_number")

    @property
    def answer(self) -> str:
        return str(self.total)

    @property
    def solution(self) -> int:
        return int(self.total)

    @property
    def explanation(self) -> tuple[str, ...]:
        return _sentences(self.verdict)

    @property
    def rules(self) -> tuple[str, ...]:
        jokers = any(c.is_joker for m in self.melds for c in m.cards)
        cited = (*_rules_of(self.verdict.reasons), self.variant.rule("opening"))
        return tuple(dict.fromkeys((*cited, *([self.variant.rule("joker")] if jokers else ()))))

    def mistakes(self) -> list[tuple[int, str]]:
        """Totals a learner reaches by a common slip, each with the sentence that names it."""
        v, melds, total = self.variant, self.melds, self.total
        out: list[tuple[int, str]] = []
        aces = sum(
            1
            for m in melds
            for card, rep in zip(m.cards, m.represents, strict=False)
            if (rep or card).rank == 1 and not card.is_joker
        )
        if aces and v.ace_value != 1:
            out.append(
                (
                    total - aces * (v.ace_value - 1),
                    render("exercise_mistake_ace", value=v.ace_value, rule=v.rule("opening")),
                )
            )
        for stands, value in _joker_values(melds, v):
            for counted in (v.joker_points, 0):
                if counted != value:
                    out.append(
                        (
                            total - value + counted,
                            render(
                                "exercise_mistake_joker",
                                counted=counted,
                                card=stands,
                                value=value,
                                rule=v.rule("joker"),
                            ),
                        )
                    )
        faces = [
            (rep or card).rank
            for m in melds
            for card, rep in zip(m.cards, m.represents, strict=False)
            if (rep or card).rank > 10 and not card.is_joker
        ]
        if faces:
            extra = sum(r - v.face_points for r in faces)
            out.append(
                (
                    total + extra,
                    render("exercise_mistake_faces", value=v.face_points, rule=v.rule("opening")),
                )
            )
        if len(melds) > 1:
            for m in melds:
                out.append(
                    (
                        total - m.points(v),
                        render("exercise_mistake_left_out", meld=m, points=m.points(v)),
                    )
                )
        return [(n, s) for n, s in out if n != total]

    def _judge(self, answer: object) -> Feedback:
        cards = tuple(c for m in self.melds for c in m.cards)
        return _check_number(answer, self.total, self.mistakes(), self.explanation, cards)

    def figure_html(self) -> str:
        return "".join(cards_html(m.cards) for m in self.melds)


def _position(variant: Variant, **position: Any) -> Any:
    from rummykit.game.record import from_position

    return from_position(variant, **position)


@dataclass(frozen=True, repr=False)
class RoundScore(Exercise):
    """The scoring of a round: one seat goes out, what does ``seat`` score (H12, H13; R8)?

    ``hands[winner]`` is what the winner still holds: the melds of ``lays_down`` (laid this
    turn) and the last card, which it discards. The referee plays it out and scores it.

    >>> exercise = RoundScore(["5♣", "K♠ 7♥ 🃏", "2♦ 3♦"], winner=0, seat=1, opened=[True, True, False])
    >>> print(exercise.prompt)
    Hungarian Rummy: Seat 0 goes out by discarding 5♣. Seat 1 has opened and holds K♠ 7♥ 🃏. Seat 2 has not opened and holds 2♦ 3♦. What does seat 1 score for this round?
    >>> print(exercise.check(17))
    ✘ You said 17, but a joker left in hand costs 20 (H13). Seat 0 went out: -10. (H12) Seat 1 holds K♠ 7♥ 🃏: 37. (H13) Seat 2 never opened: a flat 100. (H13)
    """

    kind: ClassVar[str] = "round_score"
    hands: tuple[tuple[Card, ...], ...]
    winner: int
    seat: int
    opened: tuple[bool, ...]
    lays_down: tuple[tuple[Card, ...], ...]
    variant: Variant = HUNGARIAN

    def __init__(
        self,
        hands: Sequence[CardsLike],
        *,
        winner: int = 0,
        seat: int | None = None,
        opened: Sequence[bool] | None = None,
        lays_down: Sequence[CardsLike] = (),
        variant: Variant | str = HUNGARIAN,
    ) -> None:
        rules = _variant(variant)
        cards = tuple(as_cards(h) for h in hands)
        rules.check_players(len(cards))
        if not 0 <= winner < len(cards):
            raise RummykitError(render("bad_seat", seat=winner, last=len(cards) - 1), field="seat")
        if seat is None:
            seat = winner if not rules.low_score_wins else (winner + 1) % len(cards)
        if not 0 <= seat < len(cards):
            raise RummykitError(render("bad_seat", seat=seat, last=len(cards) - 1), field="seat")
        object.__setattr__(self, "hands", cards)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "seat", seat)
        if opened is None or not rules.opening_threshold:  # no opening rule: all have opened
            opened = (True,) * len(cards)
        object.__setattr__(self, "opened", tuple(opened))
        object.__setattr__(self, "lays_down", tuple(as_cards(m) for m in lays_down))
        object.__setattr__(self, "variant", rules)
        self.result  # noqa: B018 — play it out now: a position the referee refuses fails here

    def __repr__(self) -> str:
        hands = ", ".join(repr(format_cards(h)) for h in self.hands)
        return (
            f"RoundScore([{hands}], winner={self.winner}, seat={self.seat}, "
            f"variant={_variant_repr(self.variant)})"
        )

    @property
    def last_card(self) -> Card:
        """The card the winner goes out with."""
        laid = Counter(c for m in self.lays_down for c in m)
        rest = list((Counter(self.hands[self.winner]) - laid).elements())
        if len(rest) != 1:
            raise RummykitError(render("exercise_score_last_card", seat=self.winner))
        return rest[0]

    @cached_property
    def result(self) -> Any:
        """The referee's :class:`~rummykit.game.RoundResult` for this round."""
        from rummykit.game.actions import Discard, PlayMeld

        game = _position(
            self.variant,
            hands=[format_cards(h) for h in self.hands],
            current=self.winner,
            phase="play",
            opened=list(self.opened),
            turns=[3] * len(self.hands),
        )
        for meld in self.lays_down:
            game.play(PlayMeld(meld))
        game.play(Discard(self.last_card))
        return game.result

    @cached_property
    def points(self) -> int:
        """What ``seat`` scores for the round."""
        return int(self.result.points[self.seat])

    @property
    def prompt(self) -> str:
        parts = []
        for s, hand in enumerate(self.hands):
            if s == self.winner:
                if self.lays_down:
                    melds = MeldSum(self.lays_down)
                    parts.append(
                        render("exercise_score_out_melds", seat=s, melds=melds, card=self.last_card)
                    )
                else:
                    parts.append(render("exercise_score_out", seat=s, card=self.last_card))
            elif not self.variant.opening_threshold:
                parts.append(render("exercise_score_holds", seat=s, cards=hand))
            else:
                code = (
                    "exercise_score_holds_opened"
                    if self.opened[s]
                    else "exercise_score_holds_unopened"
                )
                parts.append(render(code, seat=s, cards=hand))
        parts.append(render("exercise_score_question", seat=self.seat))
        return render(
            "exercise_in_variant", variant=_house_title(self.variant), question=" ".join(parts)
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_number")

    @property
    def answer(self) -> str:
        return str(self.points)

    @property
    def solution(self) -> int:
        return self.points

    @property
    def explanation(self) -> tuple[str, ...]:
        return tuple(str(line) for line in self.result.lines)

    @property
    def rules(self) -> tuple[str, ...]:
        return _rules_of(self.result.lines)

    def mistakes(self) -> list[tuple[int, str]]:
        """Scores a learner reaches by a common slip, each with the sentence that names it."""
        v, points = self.variant, self.points
        out: list[tuple[int, str]] = []
        penalty = v.rule("penalty")

        def hand_total(cards: Iterable[Card], joker: int, ace: int) -> int:
            return sum(
                joker if c.is_joker else ace if c.rank == 1 else v.card_value(c) for c in cards
            )

        if self.seat == self.winner:
            if v.low_score_wins:
                other = v.go_out_points if points == v.go_out_hand_points else v.go_out_hand_points
                code = (
                    "exercise_mistake_out_hand"
                    if points == v.go_out_hand_points
                    else "exercise_mistake_out_plain"
                )
                out.append((other, render(code, points=points, rule=v.rule("going_out"))))
                return out
            others = [h for s, h in enumerate(self.hands) if s != self.winner]
            cards = [c for h in others for c in h]
            for ace in (1, 11):
                if ace != v.ace_value:
                    out.append(
                        (
                            hand_total(cards, v.joker_points, ace),
                            render("exercise_mistake_hand_ace", value=v.ace_value, rule=penalty),
                        )
                    )
            if len(others) > 1:
                for h in others:
                    out.append(
                        (points - hand_total(h, v.joker_points, v.ace_value),
                         render("exercise_mistake_all_hands", rule=penalty))
                    )  # fmt: skip
            return out
        hand = self.hands[self.seat]
        if v.low_score_wins and v.unopened_penalty and v.opening_threshold:
            if not self.opened[self.seat]:
                # the flat penalty decides: whatever the hand was counted at, that is the slip
                unopened = render(
                    "exercise_mistake_unopened", points=v.unopened_penalty, rule=penalty
                )
                for joker in dict.fromkeys((v.joker_points, 0, 10)):
                    for ace in dict.fromkeys((v.ace_value, 1, 11)):
                        out.append((hand_total(hand, joker, ace), unopened))
                return [(n, s) for n, s in out if n != points]
            out.append(
                (v.unopened_penalty, render("exercise_mistake_opened", seat=self.seat, rule=penalty))
            )  # fmt: skip
        if any(c.is_joker for c in hand):
            for joker in (0, 10):
                out.append(
                    (hand_total(hand, joker, v.ace_value),
                     render("exercise_mistake_hand_joker", value=v.joker_points, rule=penalty))
                )  # fmt: skip
        if any(c.rank == 1 for c in hand):
            for ace in (1, 11):
                if ace != v.ace_value:
                    out.append(
                        (hand_total(hand, v.joker_points, ace),
                         render("exercise_mistake_hand_ace", value=v.ace_value, rule=penalty))
                    )  # fmt: skip
        return [(n, s) for n, s in out if n != points]

    def _judge(self, answer: object) -> Feedback:
        return _check_number(answer, self.points, self.mistakes(), self.explanation)

    def figure_html(self) -> str:
        rows = []
        for s, hand in enumerate(self.hands):
            label = escape(render("exercise_seat", seat=s))
            rows.append(f"<div><b>{label}</b>{cards_html(hand)}</div>")
        return "".join(rows)


@dataclass(frozen=True, repr=False)
class MatchWinner(Exercise):
    """Who wins the match after these rounds (H14; R9)? Answer a seat number.

    A match that isn't over yet — fewer than the variant's rounds (H14), or nobody at the
    target (R9) — asks who is ahead instead; rounds past the end of the match are refused.

    >>> exercise = MatchWinner([(-10, 35), (40, -20), (12, -10)])
    >>> print(exercise.prompt)
    Hungarian Rummy, 3 rounds into the match (of 7): the rounds scored round 1: -10, 35; round 2: 40, -20; round 3: 12, -10. Who is ahead?
    >>> print(exercise.check(0))
    ✘ You said seat 0, but in Hungarian Rummy the lowest total wins, not the highest (H14). Totals: seat 0: 42, seat 1: 5. The lowest total leads. (H14)
    """

    kind: ClassVar[str] = "match_winner"
    rounds: tuple[tuple[int, ...], ...]
    variant: Variant = HUNGARIAN

    def __init__(self, rounds: Sequence[Sequence[int]], variant: Variant | str = HUNGARIAN) -> None:
        rules = _variant(variant)
        table = tuple(tuple(int(p) for p in r) for r in rounds)
        if not table or len({len(r) for r in table}) != 1:
            raise RummykitError(render("exercise_match_rounds"))
        rules.check_players(len(table[0]))
        if rules.rounds and len(table) > rules.rounds:
            raise RummykitError(
                render("exercise_match_too_long", variant=rules.title, rounds=rules.rounds)
            )
        if rules.target:
            totals = [0] * len(table[0])
            for number, row in enumerate(table[:-1], start=1):
                totals = [t + p for t, p in zip(totals, row)]
                if max(totals) >= rules.target:
                    raise RummykitError(
                        render(
                            "exercise_match_over",
                            variant=rules.title,
                            target=rules.target,
                            number=number,
                        )
                    )
        object.__setattr__(self, "rounds", table)
        object.__setattr__(self, "variant", rules)

    def __repr__(self) -> str:
        return f"MatchWinner({list(self.rounds)!r}, {_variant_repr(self.variant)})"

    @cached_property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total."""
        return tuple(sum(r[s] for r in self.rounds) for s in range(len(self.rounds[0])))

    @property
    def over(self) -> bool:
        """Whether these rounds are a whole match: all of them (H14), or a seat at the
        target (R9)."""
        v = self.variant
        if v.rounds:
            return len(self.rounds) == v.rounds
        return bool(v.target) and max(self.totals) >= v.target

    @cached_property
    def winners(self) -> tuple[int, ...]:
        """The seat (seats, on a shared place) in first place."""
        totals = self.totals
        best = min(totals) if self.variant.low_score_wins else max(totals)
        seats = tuple(s for s, t in enumerate(totals) if t == best)
        return seats if self.variant.low_score_wins else seats[:1]  # R9: lowest seat first

    @property
    def prompt(self) -> str:
        lines = [
            render("exercise_match_round", number=i + 1, points=", ".join(map(str, r)))
            for i, r in enumerate(self.rounds)
        ]
        v = self.variant
        if self.over:
            return render("exercise_match_prompt", variant=v.title, rounds="; ".join(lines))
        if v.rounds:
            return render(
                "exercise_match_prompt_ahead",
                variant=v.title,
                count=len(self.rounds),
                total=v.rounds,
                rounds="; ".join(lines),
            )
        return render(
            "exercise_match_prompt_ahead_target",
            variant=v.title,
            count=len(self.rounds),
            target=v.target,
            rounds="; ".join(lines),
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_seat", last=len(self.totals) - 1)

    @property
    def answer(self) -> str:
        return join([render("exercise_seat", seat=s) for s in self.winners], "and")

    @property
    def solution(self) -> int:
        return self.winners[0]

    @property
    def explanation(self) -> tuple[str, ...]:
        totals = ", ".join(
            render("exercise_total", seat=s, total=t) for s, t in enumerate(self.totals)
        )
        low = self.variant.low_score_wins
        if self.over:
            code = "exercise_match_lowest" if low else "exercise_match_highest"
        else:
            code = "exercise_match_lowest_leads" if low else "exercise_match_highest_leads"
        rule = self.variant.rule("match")
        return (render("exercise_match_totals", totals=totals), f"{render(code)} ({rule})")

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.variant.rule("match"),)

    def _judge(self, answer: object) -> Feedback:
        seats = len(self.totals)
        if isinstance(answer, int) and not isinstance(answer, bool):
            seat = answer
        else:
            words = _words(answer)
            for lead in ("seat ", "the seat "):
                words = words.removeprefix(lead)
            if not words.isdigit() or len(words) > 3:
                raise _bad(answer, self.accepts)
            seat = int(words)
        if not 0 <= seat < seats:
            raise _bad(answer, self.accepts)
        totals = self.totals
        given = render("exercise_seat", seat=seat)
        worst = max(totals) if self.variant.low_score_wins else min(totals)
        rule = self.variant.rule("match")
        codes: tuple[str, ...] = ()
        if totals[seat] == worst and seat not in self.winners:
            code = (
                "exercise_mistake_highest"
                if self.variant.low_score_wins
                else "exercise_mistake_lowest"
            )
            wrong = render(code, given=given, variant=self.variant.title, rule=rule)
            codes = (code,)
        else:
            wrong = render("exercise_seat_wrong", given=given, expected=self.answer)
        return _feedback(
            seat in self.winners,
            given,
            self.answer,
            render("exercise_seat_right", given=given),
            wrong,
            self.explanation,
            codes=codes,
        )


# --- the turn -------------------------------------------------------------------------------


def _turn_state(game: Any) -> str:
    """Where the seat to act stands in the round: its first turn, or how many turns it has
    played and whether it had opened before this turn (H8, H9)."""
    seat = game.current
    before = game.snapshot()
    turns = before["turns"][seat]
    if turns == 0:
        return render("exercise_turn_first", seat=seat)
    if not game.variant.opening_threshold:
        return render("exercise_turn_played", seat=seat, turns=turns)
    code = "exercise_turn_opened" if before["opened"][seat] else "exercise_turn_unopened"
    return render(code, seat=seat, turns=turns)


@dataclass(frozen=True, repr=False)
class TurnCanEnd(Exercise):
    """After these moves, may the turn end with a discard now? Answer yes or no.

    The referee plays the draw and the moves (a position set up by hand), and its own
    turn status is the explanation (H7, H8, H10, H11).

    >>> exercise = TurnCanEnd.after("7♥ 8♥ 9♥ 2♣ 5♠", draw="discard", discard="9♠ K♦",
    ...                              moves=["meld 7h 8h 9h"], turns=3)
    >>> print(exercise.prompt)
    Hungarian Rummy: Seat 0 has played 3 turns this round and has not opened yet. Seat 0 took K♦ from the discard pile. Seat 0 laid down 7♥ 8♥ 9♥ (meld 1). May seat 0 discard now and end the turn?
    >>> print(exercise.check("yes"))
    ✘ You said yes, but the turn can't end yet. Your melds total 24; opening needs 51 — 27 more. Add a meld, or take these back. (H8) You took K♦ from the discard pile before opening, so it must be part of your opening melds. (H7)
    """

    kind: ClassVar[str] = "turn_can_end"
    record: str
    variant: Variant = HUNGARIAN

    def __init__(self, game: Any) -> None:
        if game.phase != "play":
            raise RummykitError(render("exercise_turn_not_play"))
        object.__setattr__(self, "record", game.to_json())
        object.__setattr__(self, "variant", game.variant)

    @classmethod
    def after(
        cls,
        hand: CardsLike,
        *,
        moves: Sequence[str | Any] = (),
        draw: DrawSource = "stock",
        discard: CardsLike = (),
        table: Iterable[Any] = (),
        opened: bool = False,
        turns: int = 1,
        variant: Variant | str = HUNGARIAN,
        stock: CardsLike | None = None,
        cut_card: str | None = None,
    ) -> TurnCanEnd:
        """Seat 0 of two, holding ``hand``, draws from ``draw`` (``stock``, ``discard`` or
        ``cut_card``, the face-up ``cut_card`` given) and makes ``moves`` (actions or their
        text: ``meld 7h 8h 9h``)."""
        from rummykit.game.actions import Draw, parse_action

        rules = _variant(variant)
        game = _position(
            rules,
            hands=[format_cards(as_cards(hand)), ""],
            discard=format_cards(as_cards(discard)),
            table=list(table),
            current=0,
            phase="draw",
            opened=[opened, True],
            turns=[turns, turns],
            stock=None if stock is None else format_cards(as_cards(stock)),
            cut_card=cut_card,
        )
        game.play(Draw(draw))
        for move in moves:
            game.play(parse_action(move) if isinstance(move, str) else move)
        return cls(game)

    @property
    def game(self) -> Any:
        """The position, rebuilt from its record (a fresh copy each time)."""
        from rummykit.game.record import loads

        return loads(self.record)

    def __repr__(self) -> str:
        game = self.game
        return f"TurnCanEnd(seat={game.current}, hand='{format_cards(game.hand(game.current))}')"

    @cached_property
    def can_end(self) -> bool:
        """Whether the referee lets the turn end now."""
        return bool(self.game.turn_status().can_end_turn)

    @property
    def prompt(self) -> str:
        game = self.game
        seat = game.current
        v = self.variant
        state = _turn_state(game)
        events = [str(e) for e in game.events]
        return render(
            "exercise_in_variant",
            variant=_house_title(v),
            question=" ".join([state, *events, render("exercise_turn_prompt", seat=seat)]),
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_yes_no")

    @property
    def answer(self) -> str:
        return render("exercise_yes" if self.can_end else "exercise_no")

    @property
    def solution(self) -> str:
        return "yes" if self.can_end else "no"

    @cached_property
    def _free_take(self) -> Card | None:
        """The discard taken on the seat's first draw of the round, kept with no obligation
        (H7), when that is what happened."""
        game = self.game
        info = game.turn_info()
        if info.drew != "discard" or info.taken is not None:
            return None
        if not self.variant.discard_take_must_play:
            return None
        took = [e for e in game.events if e.code == "draw_discard"]
        return parse_card(str(took[-1].params["card"])) if took else None

    @property
    def explanation(self) -> tuple[str, ...]:
        status = self.game.turn_status()
        if status.can_end_turn:
            lines = [render("exercise_turn_may_end")]
            if self._free_take is not None:
                lines.insert(
                    0,
                    render(
                        "exercise_turn_first_take",
                        seat=status.seat,
                        card=self._free_take,
                        rule=self.variant.rule("discard_take"),
                    ),
                )
            return tuple(lines)
        return tuple(str(r) for r in status.obligations)

    @property
    def rules(self) -> tuple[str, ...]:
        status = self.game.turn_status()
        cited = _rules_of(status.obligations)
        if self._free_take is not None:
            cited = (*cited, self.variant.rule("discard_take"))
        return tuple(dict.fromkeys(cited)) or (self.variant.rule("turn"),)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.game.turn_status().obligations)

    def _judge(self, answer: object) -> Feedback:
        words = _words(answer)
        if _says(words, "yes"):
            given = True
        elif _says(words, "no"):
            given = False
        else:
            raise _bad(answer, self.accepts)
        said = render("exercise_yes" if given else "exercise_no")
        can = self.can_end
        code = "exercise_turn_wrong_yes" if given else "exercise_turn_wrong_no"
        return _feedback(
            given == can,
            said,
            self.answer,
            render("exercise_turn_right", given=said),
            render(code, given=said),
            self.explanation,
        )

    def figure_html(self) -> str:
        game = self.game
        seat = game.current
        parts = [
            f"<div><b>{escape(render('exercise_hand'))}</b>{cards_html(game.hand(seat))}</div>"
        ]
        for i, tm in enumerate(game.table):
            label = render("exercise_meld_label", number=i + 1, cards=tm.meld.cards)
            parts.append(f"<div>{escape(label)}{cards_html(tm.meld.cards)}</div>")
        return "".join(parts)


# --- choices in a position: discard, lay-off, going out, opening, joker -------------------------


def _table(table: Iterable[Meld | CardsLike], variant: Variant) -> tuple[Meld, ...]:
    return _melds_of(table, variant)


def _table_html(table: Sequence[Meld]) -> str:
    parts = []
    for i, meld in enumerate(table):
        label = render("exercise_meld_label", number=i + 1, cards=meld.cards)
        parts.append(f"<div><span>{escape(label)}</span>{cards_html(meld.cards)}</div>")
    return "".join(parts)


def _hand_html(hand: Sequence[Card], extra: str = "") -> str:
    return f"<div><b>{escape(render('exercise_hand'))}</b>{cards_html(hand)}</div>{extra}"


@dataclass(frozen=True, repr=False)
class DeadwoodValue(Exercise):
    """What is the least deadwood this hand can be left with? Answer a number.

    >>> exercise = DeadwoodValue("7♥ 8♥ 9♥ K♣ 2♣")
    >>> print(exercise.check(36))
    ✘ You said 36, but you counted every card: the cards in melds are not deadwood. Melds 7♥ 8♥ 9♥; deadwood 2♣ K♣ = 12.
    """

    kind: ClassVar[str] = "deadwood_value"
    hand: tuple[Card, ...]
    variant: Variant = HUNGARIAN

    def __init__(self, hand: CardsLike, variant: Variant | str = HUNGARIAN) -> None:
        object.__setattr__(self, "hand", as_cards(hand))
        object.__setattr__(self, "variant", _variant(variant))

    def __repr__(self) -> str:
        return f"DeadwoodValue('{format_cards(self.hand)}', {_variant_repr(self.variant)})"

    @cached_property
    def arrangement(self) -> Any:
        """The solver's :class:`~rummykit.solver.Arrangement` of the hand."""
        return best_arrangement(self.hand, self.variant)

    @property
    def prompt(self) -> str:
        return render("exercise_deadwood_prompt", variant=self.variant.title, hand=self.hand)

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_number")

    @property
    def answer(self) -> str:
        return str(self.arrangement.deadwood_value)

    @property
    def solution(self) -> int:
        return int(self.arrangement.deadwood_value)

    @property
    def explanation(self) -> tuple[str, ...]:
        return (self.arrangement.message,)

    def mistakes(self) -> list[tuple[int, str]]:
        """Values a learner reaches by a common slip, each with the sentence that names it."""
        v, value = self.variant, self.arrangement.deadwood_value
        out = [
            (
                sum(v.card_value(c) for c in self.hand),
                render("exercise_mistake_all_cards"),
            )
        ]
        aces = sum(1 for c in self.arrangement.deadwood if c.rank == 1)
        for ace in (1, 11):
            if aces and ace != v.ace_value:
                out.append(
                    (
                        value + aces * (ace - v.ace_value),
                        render(
                            "exercise_mistake_hand_ace", value=v.ace_value, rule=v.rule("penalty")
                        ),
                    )
                )
        return [(n, s) for n, s in out if n != value]

    def _judge(self, answer: object) -> Feedback:
        return _check_number(
            answer, self.arrangement.deadwood_value, self.mistakes(), self.explanation, self.hand
        )

    def figure_html(self) -> str:
        return _hand_html(self.hand)


def _minus(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """The hand without one copy of ``card``."""
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


@dataclass(frozen=True, repr=False)
class _HandAndTable(Exercise):
    """An exercise on a hand and the melds on the table."""

    hand: tuple[Card, ...]
    table: tuple[Meld, ...]
    variant: Variant = HUNGARIAN

    def __init__(
        self,
        hand: CardsLike,
        table: Iterable[Meld | CardsLike] = (),
        variant: Variant | str = HUNGARIAN,
    ) -> None:
        rules = _variant(variant)
        self._allow(rules)
        object.__setattr__(self, "hand", as_cards(hand))
        object.__setattr__(self, "table", _table(table, rules))
        object.__setattr__(self, "variant", rules)

    def _allow(self, rules: Variant) -> None:
        """Raise ``ValueError`` when the variant can't pose this exercise."""

    def __repr__(self) -> str:
        table = ", ".join(repr(str(m)) for m in self.table)
        hand = format_cards(self.hand)
        return f"{type(self).__name__}('{hand}', [{table}], {_variant_repr(self.variant)})"

    def figure_html(self) -> str:
        return _hand_html(self.hand, _table_html(self.table))


@dataclass(frozen=True, repr=False)
class BestDiscard(Exercise):
    """Which discard leaves the least deadwood? Answer a card from the hand.

    >>> exercise = BestDiscard("7♥ 8♥ 9♥ 9♠ 9♦ K♣ 2♣")
    >>> print(exercise.check("2♣"))
    ✘ You said 2♣, but without it: Melds 9♠ 9♥ 9♦; deadwood 7♥ 8♥ K♣ = 25. That is 8 points more than the best discard leaves. Discarding K♣ leaves the least: Melds 9♠ 9♥ 9♦; deadwood 7♥ 8♥ 2♣ = 17.
    """

    kind: ClassVar[str] = "best_discard"
    hand: tuple[Card, ...]
    variant: Variant = HUNGARIAN

    def __init__(self, hand: CardsLike, variant: Variant | str = HUNGARIAN) -> None:
        cards = as_cards(hand)
        if len(cards) < 2:
            raise RummykitError(render("exercise_discard_small"))
        object.__setattr__(self, "hand", cards)
        object.__setattr__(self, "variant", _variant(variant))

    def __repr__(self) -> str:
        return f"BestDiscard('{format_cards(self.hand)}', {_variant_repr(self.variant)})"

    def left(self, card: Card) -> tuple[Card, ...]:
        """The hand after discarding ``card``."""
        return _minus(self.hand, card)

    @cached_property
    def deadwood(self) -> dict[Card, int]:
        """For each card in hand: the least deadwood left after discarding it (the solver)."""
        return {c: min_deadwood(self.left(c), self.variant) for c in dict.fromkeys(self.hand)}

    @cached_property
    def best(self) -> tuple[Card, ...]:
        """Every discard that leaves the least deadwood."""
        table = self.deadwood
        least = min(table.values())
        return tuple(c for c, d in table.items() if d == least)

    @property
    def prompt(self) -> str:
        return render("exercise_discard_prompt", variant=self.variant.title, hand=self.hand)

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_card", cards=format_cards(dict.fromkeys(self.hand)))

    @property
    def answer(self) -> str:
        return join([str(c) for c in self.best])

    @property
    def solution(self) -> str:
        return str(self.best[0])

    def _arrangement(self, card: Card) -> str:
        return best_arrangement(self.left(card), self.variant).message

    @property
    def explanation(self) -> tuple[str, ...]:
        card = self.best[0]
        return (render("exercise_discard_leaves", card=card, arrangement=self._arrangement(card)),)

    def _judge(self, answer: object) -> Feedback:
        card = _read_card(answer, self.hand)
        table = self.deadwood
        best = self.best
        more = table[card] - table[best[0]]
        return _feedback(
            card in best,
            str(card),
            self.answer,
            render("exercise_discard_right", given=card, arrangement=self._arrangement(card)),
            render(
                "exercise_discard_wrong",
                given=card,
                arrangement=self._arrangement(card),
                more=more,
            ),
            self.explanation if card not in best else (),
            self.hand,
        )

    def figure_html(self) -> str:
        return _hand_html(self.hand)


@dataclass(frozen=True, repr=False)
class LayoffTarget(Exercise):
    """Onto which meld on the table can these cards be laid off (H4, R6)? Answer a meld
    number, several (``1 and 3``), ``all``, or ``none``.

    Any meld the cards fit is a right answer, and the feedback names the others:

    >>> exercise = LayoffTarget("A♠", ["J♠ Q♠ K♠", "A♥ A♦ A♣", "2♠ 3♠ 4♠"])
    >>> exercise.targets
    (0, 1, 2)
    >>> print(exercise.check("3"))
    ✔ Right: meld 3. A♠ fits onto 2♠ 3♠ 4♠, making A♠ 2♠ 3♠ 4♠. (H4) It also fits onto meld 1 and meld 2. A♠ fits onto J♠ Q♠ K♠, making J♠ Q♠ K♠ A♠. (H4) A♠ fits onto A♥ A♦ A♣, making A♠ A♥ A♦ A♣. (H4)
    >>> exercise.check("1 and 3").correct, exercise.check("all").correct
    (True, True)
    >>> print(LayoffTarget("7♥", ["9♠ 9♥ 9♦", "4♥ 5♥ 6♥", "8♠ 8♦ 8♣"]).check(3))
    ✘ You said meld 3, but 7♥ can't go onto 8♠ 8♦ 8♣. Not a set: 7♥ is not an 8. (H4) 7♥ fits onto 4♥ 5♥ 6♥, making 4♥ 5♥ 6♥ 7♥. (H4)
    """

    kind: ClassVar[str] = "layoff_target"
    cards: tuple[Card, ...]
    table: tuple[Meld, ...]
    variant: Variant = HUNGARIAN

    def __init__(
        self,
        cards: CardsLike,
        table: Iterable[Meld | CardsLike],
        variant: Variant | str = HUNGARIAN,
    ) -> None:
        rules = _variant(variant)
        melds = _table(table, rules)
        if not melds:
            raise RummykitError(render("exercise_layoff_no_table"))
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "table", melds)
        object.__setattr__(self, "variant", rules)

    def __repr__(self) -> str:
        table = ", ".join(repr(str(m)) for m in self.table)
        return (
            f"LayoffTarget('{format_cards(self.cards)}', [{table}], {_variant_repr(self.variant)})"
        )

    def verdict(self, index: int) -> Verdict:
        """The lay-off check for meld number ``index``."""
        return self._verdicts[index]

    @cached_property
    def _verdicts(self) -> tuple[Verdict, ...]:
        return tuple(check_layoff(m, self.cards, self.variant) for m in self.table)

    @cached_property
    def targets(self) -> tuple[int, ...]:
        """Every meld the cards may go onto, as indices into the table (from 0, like
        ``game.table``); people read and answer meld numbers from 1."""
        return tuple(i for i in range(len(self.table)) if self.verdict(i).ok)

    @property
    def prompt(self) -> str:
        return render("exercise_layoff_prompt", cards=self.cards, rule=self.variant.rule("layoff"))

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_meld", last=len(self.table))

    @staticmethod
    def _names(indices: Iterable[int]) -> str:
        return join([render("exercise_meld", number=i + 1) for i in indices], "and")

    @property
    def answer(self) -> str:
        if not self.targets:
            return render("exercise_layoff_none")
        return self._names(self.targets)

    @property
    def solution(self) -> int | str:
        return self.targets[0] + 1 if self.targets else "none"

    @property
    def explanation(self) -> tuple[str, ...]:
        if not self.targets:
            return tuple(s for i in range(len(self.table)) for s in self._why_not(i))
        return tuple(s for i in self.targets for s in _sentences(self.verdict(i)))

    @property
    def rules(self) -> tuple[str, ...]:
        cited = (r for v in self._verdicts for r in _rules_of(v.reasons))
        return tuple(dict.fromkeys((self.variant.rule("layoff"), *cited)))

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c for v in self._verdicts for c in v.codes))

    def _why_not(self, index: int) -> tuple[str, ...]:
        return tuple(str(r) for r in self.verdict(index).failures) or _sentences(
            self.verdict(index)
        )

    def _read(self, answer: object) -> tuple[int, ...]:
        """The melds named, as indices from 0 (none: an empty tuple)."""
        count = len(self.table)
        if isinstance(answer, int) and not isinstance(answer, bool):
            numbers = [answer]
        elif isinstance(answer, (list, tuple, set, frozenset)) and all(
            isinstance(n, int) and not isinstance(n, bool) for n in answer
        ):
            numbers = list(answer)
        else:
            words = _words(answer)
            if _says(words, "all"):
                return tuple(range(count))
            if _says(words, "no"):
                return ()
            tokens = [t for t in re.split(r"[\s,;&+/]+", words) if t]
            filler = [t for t in tokens if not t.isdigit()]
            if not tokens or any(not _says(t, "and") and not _says(t, "meld") for t in filler):
                raise _bad(answer, self.accepts)
            numbers = [int(t) for t in tokens if t.isdigit() and len(t) <= 3]
            if len(numbers) != len(tokens) - len(filler):
                raise _bad(answer, self.accepts)
        if not numbers or any(not 1 <= n <= count for n in numbers):
            raise _bad(answer, self.accepts)
        return tuple(sorted({n - 1 for n in numbers}))  # people number melds from 1

    def _judge(self, answer: object) -> Feedback:
        named = self._read(answer)
        targets = self.targets
        if not named:
            given = render("exercise_layoff_none")
            return _feedback(
                not targets,
                given,
                self.answer,
                render("exercise_layoff_right", given=given),
                render("exercise_layoff_wrong_none", given=given, cards=self.cards),
                self.explanation,
            )
        given = self._names(named)
        missed = [i for i in named if i not in targets]
        others = [i for i in targets if i not in named]
        if not missed:
            lines = tuple(s for i in named for s in _sentences(self.verdict(i)))
            if others:
                also = render("exercise_layoff_also", cards=self.cards, melds=self._names(others))
                lines += (also, *(s for i in others for s in _sentences(self.verdict(i))))
            feedback = _feedback(
                True, given, self.answer, render("exercise_layoff_right", given=given), "", lines
            )
            return replace(
                feedback, others=tuple(render("exercise_meld", number=i + 1) for i in others)
            )
        lines = tuple(s for i in missed for s in _sentences(self.verdict(i)))
        if targets:
            lines += self.explanation
        else:
            lines += (render("exercise_layoff_nowhere", cards=self.cards),)
        codes = tuple(dict.fromkeys(c for i in missed for c in self.verdict(i).codes))
        return _feedback(
            False,
            given,
            self.answer,
            "",
            render("exercise_layoff_wrong", given=given),
            lines,
            codes=codes,
        )

    def figure_html(self) -> str:
        cards = (
            f"<div><b>{escape(render('exercise_layoff_cards'))}</b>{cards_html(self.cards)}</div>"
        )
        return cards + _table_html(self.table)


@dataclass(frozen=True, repr=False, init=False)
class GoOut(_HandAndTable):
    """Can you go out this turn, and with which final discard (H12)? Answer ``no`` or the
    card you discard last; new melds and lay-offs onto ``table`` come first.

    >>> exercise = GoOut("7♥ 8♥ 9♥ 5♠ K♦", table=["2♠ 3♠ 4♠"])
    >>> exercise.discards
    (Card('K♦'),)
    >>> print(exercise.check("no"))
    ✘ You said no, but you can go out this turn. You can go out: meld 7♥ 8♥ 9♥, lay 5♠ onto 2♠ 3♠ 4♠ and discard K♦. (H12)
    """

    kind: ClassVar[str] = "go_out"

    def without(self, card: Card) -> tuple[Card, ...]:
        """The hand once ``card`` is kept back for the discard."""
        return _minus(self.hand, card)

    @cached_property
    def discards(self) -> tuple[Card, ...]:
        """Every final discard that lets the hand go out (the solver, card by card)."""
        return tuple(
            c
            for c in dict.fromkeys(self.hand)
            if can_go_out(self.without(c), self.variant, self.table, final_discard=False).ok
        )

    @cached_property
    def plan(self) -> Any:
        """The solver's :class:`~rummykit.solver.GoingOut` for the whole hand."""
        return can_go_out(self.hand, self.variant, self.table, final_discard=True)

    @property
    def prompt(self) -> str:
        return render("exercise_go_out_prompt", hand=self.hand)

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_go_out", cards=format_cards(dict.fromkeys(self.hand)))

    @property
    def answer(self) -> str:
        found = self.discards
        if not found:
            return render("exercise_no")
        return render("exercise_go_out_answer", cards=join([str(c) for c in found]))

    @property
    def solution(self) -> str:
        return str(self.discards[0]) if self.discards else "no"

    @property
    def explanation(self) -> tuple[str, ...]:
        return (str(self.plan),)

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.variant.rule("going_out"),)

    def _card(self, answer: object) -> Card:
        """The last discard named: ``2c``, ``discard 2c``, ``yes, 2c``, ``yes, discarding 2c``."""
        if not isinstance(answer, str):
            return _read_card(answer, self.hand, self.accepts)
        text = _clean(answer)
        lead = re.match(r"([^\W\d]+)[\s,;:!]+(.*)$", text)
        if lead and _says(_words(lead.group(1)), "yes"):
            text = lead.group(2)
        text = re.sub(r"^(?:by\s+)?(?:discarding|discard|with)\s+", "", text, flags=re.I)
        return _read_card(text, self.hand, self.accepts, typed=answer)

    def _judge(self, answer: object) -> Feedback:
        found = self.discards
        if _says(_words(answer), "no"):
            given = render("exercise_no")
            return _feedback(
                not found,
                given,
                self.answer,
                render("exercise_go_out_right_no"),
                render("exercise_go_out_wrong_no", given=given),
                self.explanation,
            )
        card = self._card(answer)
        given = render("exercise_go_out_answer", cards=str(card))
        mine = can_go_out(self.without(card), self.variant, self.table, final_discard=False)
        others = [c for c in found if c != card]
        lines: tuple[str, ...] = (str(mine),) if card in found else (str(mine), *self.explanation)
        if card in found and others:
            lines += (render("exercise_go_out_also", cards=join([str(c) for c in others])),)
        if not found:
            wrong = render("exercise_go_out_wrong_cannot", given=given)
        else:
            wrong = render("exercise_go_out_wrong_card", given=given, card=card)
        feedback = _feedback(
            card in found,
            given,
            self.answer,
            render("exercise_go_out_right", given=given),
            wrong,
            lines,
        )
        return replace(feedback, others=tuple(str(c) for c in others) if card in found else ())


def _read_melds(answer: object, variant: Variant) -> list[tuple[Card, ...]]:
    """The melds of an answer: separated by ``+`` or ``;`` — or by commas, when every part
    between two commas holds several cards (``As 2s 3s, Kh Kd Kc``); a comma between single
    cards stays inside a meld (``K♠, A♠, 2♠``)."""
    accepted = render("exercise_accepts_melds")
    parts: list[Any]
    if isinstance(answer, str):
        text = _clean(answer)
        parts = [p for p in re.split(r"[+|;/]", text) if p.strip()]
        if len(parts) == 1 and "," in text:
            pieces = [p for p in text.split(",") if p.strip()]
            if len(pieces) > 1 and all(len(p.split()) >= 2 for p in pieces):
                parts = pieces
    elif isinstance(answer, (list, tuple)):
        parts = list(answer)
    else:
        raise _bad(answer, accepted)
    out = []
    for part in parts:
        try:
            cards = part.cards if isinstance(part, Meld) else as_cards(part)
        except (ValueError, TypeError):
            raise _bad(answer, accepted) from None
        if not cards:
            raise _bad(answer, accepted)
        out.append(tuple(cards))
    if not out:
        raise _bad(answer, accepted)
    return out


@dataclass(frozen=True, repr=False)
class FindOpening(Exercise):
    """Find the opening worth the most points (H8): answer the melds, e.g.
    ``"7h 8h 9h + Qs Qd Qc"``. A joker counts as the card it stands for.

    >>> exercise = FindOpening("7♥ 8♥ 9♥ 10♥ Q♠ Q♦ Q♣ 3♣ 4♣")
    >>> exercise.best.points
    64
    >>> print(exercise.check("7h 8h 9h + Qs Qd Qc"))
    ✘ You said 7♥ 8♥ 9♥ + Q♠ Q♦ Q♣, worth 54, but the best opening is worth 64: 7♥ 8♥ 9♥ 10♥ + Q♠ Q♦ Q♣ = 64: you can open. (H8)
    """

    kind: ClassVar[str] = "find_opening"
    hand: tuple[Card, ...]
    variant: Variant = HUNGARIAN

    def __init__(self, hand: CardsLike, variant: Variant | str = HUNGARIAN) -> None:
        rules = _variant(variant)
        if not rules.opening_threshold:
            raise RummykitError(render("exercise_no_opening", variant=rules.title))
        object.__setattr__(self, "hand", as_cards(hand))
        object.__setattr__(self, "variant", rules)

    def __repr__(self) -> str:
        return f"FindOpening('{format_cards(self.hand)}', {_variant_repr(self.variant)})"

    @cached_property
    def best(self) -> Any:
        """The solver's best :class:`~rummykit.solver.Opening`."""
        from rummykit.solver import best_opening

        return best_opening(self.hand, self.variant)

    @property
    def prompt(self) -> str:
        return render(
            "exercise_find_opening_prompt",
            hand=self.hand,
            threshold=self.variant.opening_threshold,
            rule=self.variant.rule("opening"),
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_melds")

    @property
    def answer(self) -> str:
        best = self.best
        if not best.ok:
            return render("exercise_find_opening_none", points=best.points)
        return " + ".join(str(m) for m in best.melds)

    @property
    def solution(self) -> str:
        return " + ".join(str(m) for m in self.best.melds) if self.best.ok else "no"

    @property
    def explanation(self) -> tuple[str, ...]:
        return (str(self.best),)

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.variant.rule("opening"),)

    def _judge(self, answer: object) -> Feedback:
        v = self.variant
        best = self.best
        if _says(_words(answer), "no"):
            given = render("exercise_no")
            return _feedback(
                not best.ok,
                given,
                self.answer,
                render("exercise_find_opening_right_none"),
                render("exercise_find_opening_wrong_none", given=given),
                self.explanation,
            )
        groups = _read_melds(answer, v)
        said = MeldSum(groups)
        given = str(said)
        missing = Counter(c for g in groups for c in g) - Counter(self.hand)
        if missing:
            wrong = render("exercise_not_in_hand", given=said, cards=tuple(missing.elements()))
            return _feedback(False, given, self.answer, "", wrong, self.explanation)
        bad = [g for g in groups if not check_meld(g, v).ok]
        if bad:
            verdict = check_meld(bad[0], v)
            wrong = render("exercise_find_opening_bad_meld", given=said, meld=bad[0])
            hint = (render("exercise_melds_separate"),) if len(bad[0]) >= 6 else ()
            return _feedback(
                False,
                given,
                self.answer,
                "",
                wrong,
                (*[str(r) for r in verdict.failures], *hint, *self.explanation),
                verdict.cards,
                verdict.highlighted,
                codes=verdict.codes,
            )
        melds = [make_meld(g, v) for g in groups]
        verdict = check_opening(melds, v)
        total = verdict.points or 0
        used = sum(len(g) for g in groups)
        if v.discard_to_win and used >= len(self.hand):
            wrong = render("exercise_find_opening_no_discard", given=said)
            return _feedback(False, given, self.answer, "", wrong, self.explanation)
        right = best.ok and total == best.points
        if not verdict.ok:
            wrong = render("exercise_find_opening_short", given=said, points=total)
            lines = (*_sentences(verdict), *self.explanation)
        else:
            wrong = render("exercise_find_opening_less", given=said, points=total, best=best.points)
            lines = self.explanation
        others: tuple[str, ...] = ()
        if right:
            lines = _sentences(verdict)
            if Counter(c for g in groups for c in g) != Counter(
                c for m in best.melds for c in m.cards
            ):
                others = (self.answer,)
                lines += (render("exercise_find_opening_also", melds=self.answer),)
        feedback = _feedback(
            right,
            given,
            self.answer,
            render("exercise_find_opening_right", given=said, points=total),
            wrong,
            lines,
        )
        return replace(feedback, others=others)

    def figure_html(self) -> str:
        return _hand_html(self.hand)


@dataclass(frozen=True, repr=False, init=False)
class FreeJoker(_HandAndTable):
    """Which joker on the table can you free, and with which card (H11)? Answer like
    ``6h from 1`` (the card you hand in, the meld number), or ``none``.

    The referee judges the exchange on the position, so a refusal is its own Verdict.

    >>> exercise = FreeJoker("6♥ 8♣ 2♦", table=["5♥ 🃏 7♥", "8♠ 8♦ 🃏"])
    >>> exercise.exchanges
    (('6♥', 0),)
    >>> print(exercise.check("8c from 2"))
    ✘ You said 8♣ for the joker in meld 2, but the referee refuses it. Not allowed: exchange 8♣ for the joker in meld 2. The joker in 8♠ 8♦ 🃏 stays where it is until all four suits are on the table: first lay off a natural 8♥ or 8♣, then hand in the last suit to take the joker. (H11) Allowed: exchange 6♥ for the joker in meld 1. Then play the joker again before you discard (H11).
    """

    kind: ClassVar[str] = "free_joker"

    def _allow(self, rules: Variant) -> None:
        if not rules.joker_exchange:
            raise RummykitError(render("exchange_not_allowed", variant=rules.title))

    @property
    def game(self) -> Any:
        """The position: seat 0 has opened, drawn, and holds the hand (a fresh copy)."""
        from rummykit.game.record import loads

        return loads(self._game.to_json())

    @cached_property
    def _game(self) -> Any:
        table = []
        for meld in self.table:
            joker = next(
                (r for c, r in zip(meld.cards, meld.represents, strict=False) if c.is_joker and r),
                None,
            )
            table.append(
                (1, format_cards(meld.cards), str(joker))
                if joker
                else (1, format_cards(meld.cards))
            )
        return _position(
            self.variant,
            hands=[format_cards(self.hand), ""],
            table=table,
            current=0,
            phase="play",
            opened=[True, True],
            turns=[3, 3],
        )

    @cached_property
    def routes(self) -> dict[tuple[str, int], Card | None]:
        """Every way to free a joker this turn, by the referee: (card handed in, meld index
        from 0) → the card to lay off onto that meld first, or ``None`` when the exchange is
        allowed at once. A set of three with a joker frees it in two moves when the hand
        holds both missing suits: lay off one, hand in the other (H11)."""
        from rummykit.game.actions import ExchangeJoker, LayOff

        game = self._game
        found: dict[tuple[str, int], Card | None] = {
            (str(a.card), a.meld): None
            for a in game.legal_actions()
            if isinstance(a, ExchangeJoker)
        }
        for first in game.legal_actions():
            if not isinstance(first, LayOff) or len(first.cards) != 1:
                continue
            if not any(c.is_joker for c in self.table[first.meld].cards):
                continue
            after = self.game
            after.play(first)
            for a in after.legal_actions():
                if isinstance(a, ExchangeJoker) and a.meld == first.meld:
                    found.setdefault((str(a.card), a.meld), first.cards[0])
        return found

    @cached_property
    def exchanges(self) -> tuple[tuple[str, int], ...]:
        """Every way to free a joker, as (card handed in, meld index from 0): the exchanges
        the referee allows now, then those after one lay-off (:attr:`routes`); people read
        and answer meld numbers from 1."""
        return tuple(self.routes)

    @property
    def prompt(self) -> str:
        return render(
            "exercise_joker_prompt", hand=self.hand, rule=self.variant.rule("joker_exchange")
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_joker", last=len(self.table))

    def _way(self, card: str, index: int) -> str:
        via = self.routes[(card, index)]
        if via is None:
            return render("exercise_joker_answer", card=card, number=index + 1)
        return render("exercise_joker_answer_after", card=card, number=index + 1, laid=via)

    @property
    def answer(self) -> str:
        found = self.exchanges
        if not found:
            return render("exercise_layoff_none")
        return join([self._way(c, i) for c, i in found])

    @property
    def solution(self) -> str:
        found = self.exchanges
        return f"{found[0][0]} from {found[0][1] + 1}" if found else "none"

    def _verdict(self, card: Card, index: int) -> tuple[Verdict, tuple[str, ...]]:
        """The referee's verdict on handing in ``card`` for the joker of meld ``index`` —
        after the lay-off that route needs first — and the sentences of that lay-off."""
        from rummykit.game.actions import ExchangeJoker, LayOff

        via = self.routes.get((str(card), index))
        if via is None:
            return self._game.check(ExchangeJoker(card, index)), ()
        game = self.game
        first = LayOff((via,), index)
        before = _sentences(game.check(first))
        game.play(first)
        return game.check(ExchangeJoker(card, index)), before

    @property
    def explanation(self) -> tuple[str, ...]:
        found = self.exchanges
        if not found:
            return (render("exercise_joker_nothing"),)
        card, index = found[0]
        verdict, before = self._verdict(parse_card(card), index)
        return (
            *before,
            *_sentences(verdict),
            render("exercise_joker_then", rule=self.variant.rule("joker_exchange")),
        )

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.variant.rule("joker_exchange"),)

    def _judge(self, answer: object) -> Feedback:
        found = self.exchanges
        words = _words(answer)
        if _says(words, "no"):
            given = render("exercise_layoff_none")
            return _feedback(
                not found,
                given,
                self.answer,
                render("exercise_joker_right_none"),
                render("exercise_joker_wrong_none", given=given),
                self.explanation,
            )
        if isinstance(answer, tuple) and len(answer) == 2:
            text = f"{answer[0]} from {answer[1]}"
        elif isinstance(answer, str):
            verb = render("command_exchange", card="", meld="").split()[0]  # trocar, vaihda
            text = re.sub(rf"^(exchange|{re.escape(verb)})\s+", "", _clean(answer), flags=re.I)
        else:
            raise _bad(answer, self.accepts)
        m = re.fullmatch(r"(\S+)\s+[^\d]*?([0-9]{1,3})", text)
        if not m:
            raise _bad(answer, self.accepts)
        card = parse_card(m.group(1))  # a card that doesn't read: check() says what to answer
        index = int(m.group(2)) - 1  # people number melds from 1
        if not 0 <= index < len(self.table):
            raise _bad(answer, self.accepts)
        right = (str(card), index) in self.routes
        given = (
            self._way(str(card), index)
            if right
            else render("exercise_joker_answer", card=card, number=index + 1)
        )
        verdict, before = self._verdict(card, index)
        lines = (*before, *_sentences(verdict))
        others = [self._way(c, i) for c, i in found if (c, i) != (str(card), index)]
        if not right:
            lines += self.explanation
        elif others:
            lines += (render("exercise_joker_also", ways=join(others)),)
        feedback = _feedback(
            right,
            given,
            self.answer,
            render("exercise_joker_right", given=given),
            render("exercise_joker_wrong", given=given),
            lines,
            verdict.cards,
            verdict.highlighted,
            codes=verdict.codes,
        )
        return replace(feedback, others=tuple(others) if right else ())


# --- the referee and the computer: what happens, what the computer plays, your own agent -----


def _same_move(a: Any, b: Any) -> bool:
    """Whether two actions are the same move: melds and lay-offs with their cards in any
    order (``meld 7h 6h 5h`` is ``meld 5♥ 6♥ 7♥``) — the review's own test."""
    from rummykit.mistakes import same_action

    return same_action(a, b)


def _read_move(answer: object, accepted: str) -> Any:
    """A move from a learner's text (``meld 5h 6h 7h``, ``discard K♠``, ``draw``,
    ``take discard``), or the action itself."""
    from rummykit.game.actions import Action, parse_action

    if isinstance(answer, Action):
        return answer
    if not isinstance(answer, str):
        raise _bad(answer, accepted)
    return parse_action(_clean(answer))  # ActionParseError is a ValueError: check() says so


#: Two options whose scores differ by less than this are equal: the trace shows scores to one
#: decimal, and a learner who reads two equal scores may name either.
_TIE = 0.05


@dataclass(frozen=True, repr=False)
class PredictMove(Exercise):
    """What does the computer play here (R12)? Answer a move, written the way the referee
    reads it: ``meld 5♥ 6♥ 7♥``, ``discard K♠``, ``draw``, ``take discard``.

    The agent decides on the seat's observation, and its trace is the explanation. Equal
    moves are equal — a meld's cards in any order — and every option the trace scores as
    high as the chosen one is a right answer too:

    >>> from rummykit.game import Game
    >>> game = Game.from_position(
    ...     "rommi", hands=["9♣ K♠ K♦ 2♣ Q♣ 3♥ J♦", "3♠ 4♠ 8♦ J♥ 10♦ 6♣ 2♦"],
    ...     discard="8♥", table=[(0, "5♥ 6♥ 7♥")], current=0, phase="play", turns=[3, 3])
    >>> exercise = PredictMove("easy", game)
    >>> exercise
    PredictMove('easy', seat=0, hand='K♠ 3♥ J♦ K♦ 2♣ 9♣ Q♣')
    >>> feedback = exercise.check("discard K♦")
    >>> feedback.correct, feedback.others
    (True, ('discard K♠', 'discard Q♣', 'discard J♦'))
    """

    kind: ClassVar[str] = "predict_move"
    level: str
    observation: Any
    variant: Variant = HUNGARIAN

    def __init__(self, level: str, position: Any, seat: int | None = None) -> None:
        from rummykit.ai import make_agent

        make_agent(level)  # an unknown level is refused here, with the levels there are
        observation = position
        if hasattr(position, "observation") and callable(position.observation):
            observation = position.observation(position.current if seat is None else seat)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "observation", observation)
        object.__setattr__(self, "variant", observation.variant)

    def __repr__(self) -> str:
        obs = self.observation
        return f"PredictMove({self.level!r}, seat={obs.seat}, hand='{format_cards(obs.hand)}')"

    @cached_property
    def decision(self) -> Any:
        """The agent's :class:`~rummykit.ai.Decision` on the observation."""
        from rummykit.ai import make_agent

        return make_agent(self.level).decide(self.observation)

    @cached_property
    def best(self) -> tuple[Any, ...]:
        """The chosen move, then every move the trace scores as high (within a tenth)."""
        decision = self.decision
        chosen = decision.action
        scored = {id(c): c for c in decision.trace.candidates}
        top = next((c.score for c in scored.values() if _same_move(c.action, chosen)), None)
        ties = [
            c.action
            for c in decision.trace.ranked()
            if top is not None and top - c.score < _TIE and not _same_move(c.action, chosen)
        ]
        return (chosen, *ties)

    @property
    def prompt(self) -> str:
        obs = self.observation
        seen = []  # what the seat sees besides its hand: the table, the discard, the cut card
        if obs.table:
            seen.append(
                render("exercise_predict_table", melds=MeldSum(p.meld.cards for p in obs.table))
            )
        if obs.discard_pile:
            seen.append(render("exercise_predict_pile", card=obs.discard_pile[-1]))
        if obs.cut_card is not None:
            seen.append(render("exercise_predict_cut", card=obs.cut_card))
        position = render(
            "exercise_predict_prompt",
            variant=obs.variant.title,
            seat=obs.seat,
            hand=obs.hand,
            phase=render(f"exercise_predict_phase_{obs.phase}"),
        )
        from rummykit.ai.trace import agent_name

        level = agent_name(self.level)  # the level in the learner's language
        return " ".join([position, *seen, render("exercise_predict_question", level=level)])

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_move")

    @property
    def answer(self) -> str:
        return join([str(a) for a in self.best])

    @property
    def solution(self) -> Any:
        return self.best[0]

    @property
    def explanation(self) -> tuple[str, ...]:
        return ()

    @property
    def rules(self) -> tuple[str, ...]:
        # R12 is Rommi's rule for computer players; Hungarian Rummy's rules have none
        return ("R12",) if self.variant.rulebook == "R" else ()

    def _judge(self, answer: object) -> Feedback:
        from rummykit.game.actions import Discard

        try:
            move = _read_move(answer, self.accepts)
        except ValueError:
            if self.observation.phase != "play" or not isinstance(answer, str):
                raise
            move = Discard(parse_card(_clean(answer)))  # a card alone: the card discarded
        from rummykit.ai.trace import agent_name

        best = self.best
        level = agent_name(self.level)
        legal = any(_same_move(move, a) for a in self.observation.legal_actions)
        right = any(_same_move(move, a) for a in best)
        chosen = best[0]
        others = tuple(str(a) for a in best if not _same_move(a, move))
        if right:
            head = render("exercise_predict_right", level=level, move=chosen)
            lines = (
                (render("exercise_predict_also", moves=join(list(others), "and")),)
                if others
                else ()
            )
            if not _same_move(move, chosen):
                head = render("exercise_predict_right_tie", level=level, move=move, chosen=chosen)
        else:
            code = "exercise_predict_wrong" if legal else "exercise_predict_illegal"
            head = render(code, given=move, level=level, move=chosen)
            lines = ()
        feedback = _feedback(right, str(move), self.answer, head, head, lines)
        return replace(feedback, others=others if right else (), detail=str(self.decision.trace))

    def figure_html(self) -> str:
        obs = self.observation
        melds = tuple(placed.meld for placed in obs.table)
        return _hand_html(obs.hand, _table_html(melds))


@dataclass(frozen=True, repr=False)
class WhatHappens(Exercise):
    """A seat makes a move: does the referee refuse it, does the round end, or does play go
    on? Answer ``refused``, ``ends`` or ``goes on``.

    The referee plays the move on a copy of the position; its verdict, its events and the
    round's result are the explanation (H9 on a first turn, H15 and R10 at an empty stock,
    R7 going out, R11 a lap without progress).

    >>> from rummykit.game import Game
    >>> game = Game.from_position("rommi", hands=["9♥ 10♥ J♥", "Q♠ 3♣ 4♣"], discard="8♦",
    ...                           current=0, phase="play", turns=[3, 3])
    >>> exercise = WhatHappens(game, "meld 9h 10h Jh")
    >>> exercise.outcome
    'ends'
    >>> print(exercise.check("play goes on"))
    ✘ You said play goes on, but the round ends. Seat 0 laid down 9♥ 10♥ J♥ (meld 1). Seat 0 went out. (R7) Seat 1 holds Q♠ 3♣ 4♣: 17. (R8) Seat 0 wins the round and scores 17. (R8)
    """

    kind: ClassVar[str] = "what_happens"
    record: str
    move: Any
    variant: Variant = HUNGARIAN

    OUTCOMES: ClassVar[tuple[str, ...]] = ("refused", "ends", "goes_on")

    def __init__(self, game: Any, move: Any) -> None:
        if game.is_over:
            raise RummykitError(render("exercise_happens_over"))
        action = move
        if isinstance(move, str):
            from rummykit.game.actions import parse_action

            action = parse_action(move)
        object.__setattr__(self, "record", game.to_json())
        object.__setattr__(self, "move", action)
        object.__setattr__(self, "variant", game.variant)

    @property
    def game(self) -> Any:
        """The position before the move (a fresh copy each time)."""
        from rummykit.game.record import loads

        return loads(self.record)

    def __repr__(self) -> str:
        return f"WhatHappens(seat={self.game.current}, move={str(self.move)!r})"

    @cached_property
    def _played(self) -> tuple[str, Verdict, Any]:
        """The outcome, the referee's verdict on the move, and the game after it."""
        game = self.game
        verdict = game.check(self.move)
        if not verdict.ok:
            return "refused", verdict, game
        before = len(game.events)
        game.play(self.move)
        game.events[:] = game.events[before:]  # only what the move made happen
        return ("ends" if game.is_over else "goes_on"), verdict, game

    @property
    def outcome(self) -> str:
        """``refused``, ``ends`` or ``goes_on``: what the referee does with the move."""
        return self._played[0]

    @property
    def prompt(self) -> str:
        game = self.game
        seat = game.current
        state = render(
            "exercise_happens_state",
            seat=seat,
            hand=game.hand(seat),
            stock=game.stock_size,
            pile=len(game.discard_pile),
        )
        if not game.stock_size and self.variant.reshuffle_discards:
            again = game.snapshot()["reshuffled"]
            state += " " + render(
                "exercise_happens_stock_again" if again else "exercise_happens_stock_first",
                rule=self.variant.rule("empty_stock"),
            )
        question = render("exercise_happens_prompt", seat=seat, move=self.move)
        return render(
            "exercise_in_variant",
            variant=_house_title(self.variant),
            question=f"{_turn_state(game)} {state} {question}",
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_happens")

    @staticmethod
    def _word(outcome: str) -> str:
        return render(f"exercise_happens_{outcome}")

    @property
    def answer(self) -> str:
        return self._word(self.outcome)

    @property
    def solution(self) -> str:
        return self.outcome.replace("_", " ")

    @property
    def explanation(self) -> tuple[str, ...]:
        outcome, verdict, game = self._played
        if outcome == "refused":
            return _sentences(verdict)
        lines = tuple(str(e) for e in game.events)
        if outcome == "ends":
            return lines + tuple(str(line) for line in game.result.lines)
        if any(e.code == "reshuffle" for e in game.events):
            rule = self.variant.rule("empty_stock")  # the rule that rebuilt the stock
            lines += (f"{render(f'rule_{rule}')} ({rule})",)
        return (*lines, str(game.turn_status()))

    @property
    def rules(self) -> tuple[str, ...]:
        outcome, verdict, game = self._played
        if outcome == "refused":
            return _rules_of(verdict.failures)
        if outcome == "ends":
            return _rules_of(game.result.lines)
        if any(e.code == "reshuffle" for e in game.events):
            return (self.variant.rule("empty_stock"),)
        return (self.variant.rule("turn"),)

    @property
    def codes(self) -> tuple[str, ...]:
        outcome, verdict, game = self._played
        if outcome == "refused":
            return verdict.codes
        if outcome == "ends":
            return (f"round_{game.result.how}",)
        return tuple(e.code for e in game.events)

    def _judge(self, answer: object) -> Feedback:
        words = _words(answer)
        for lead in ("it is ", "it's ", "the move is ", "it ", "the "):
            words = words.removeprefix(lead)
        given = next((o for o in self.OUTCOMES if _says(words, o)), None)
        if given is None:
            raise _bad(answer, self.accepts)
        said, actual = self._word(given), self._word(self.outcome)
        return _feedback(
            given == self.outcome,
            said,
            actual,
            render("exercise_happens_right", given=said),
            render("exercise_happens_wrong", given=said, actual=actual),
            self.explanation,
        )

    def figure_html(self) -> str:
        game = self.game
        melds = tuple(placed.meld for placed in game.table)
        return _hand_html(game.hand(game.current), _table_html(melds))


@dataclass(frozen=True, repr=False)
class AgentCheck(Exercise):
    """Your own agent, checked: it plays seeded rounds against a built-in level, and every
    move it makes must be legal and come with a trace. Answer the agent — its class, or one
    made from it.

    >>> from rummykit.ai import EasyAgent
    >>> exercise = AgentCheck("rommi", against="easy", rounds=2)
    >>> exercise.check(EasyAgent).correct
    True
    >>> exercise.check("my agent")
    Traceback (most recent call last):
    ...
    rummykit.exercises.AnswerError: 'my agent' is not an answer here: answer your agent: a class with a name and a decide(observation) method, or one made from it
    """

    kind: ClassVar[str] = "agent"
    variant: Variant
    against: str
    rounds: int
    seed: int

    _MOVES: ClassVar[int] = 600  # a round this long means an agent that never ends its turns

    def __init__(
        self,
        variant: Variant | str = "rommi",
        *,
        against: str = "easy",
        rounds: int = 10,
        seed: int = 1,
    ) -> None:
        from rummykit.ai import make_agent

        make_agent(against)
        if rounds < 1:
            raise RummykitError(render("tournament_no_games"))
        object.__setattr__(self, "variant", _variant(variant))
        object.__setattr__(self, "against", against)
        object.__setattr__(self, "rounds", rounds)
        object.__setattr__(self, "seed", seed)

    def __repr__(self) -> str:
        return (
            f"AgentCheck({_variant_repr(self.variant)}, against={self.against!r}, "
            f"rounds={self.rounds}, seed={self.seed})"
        )

    @property
    def prompt(self) -> str:
        return render(
            "exercise_agent_prompt",
            rounds=self.rounds,
            variant=self.variant.title,
            level=self.against,
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_agent")

    @property
    def answer(self) -> str:
        return render("exercise_agent_answer")

    @property
    def solution(self) -> Any:
        from rummykit.ai import NormalAgent

        return NormalAgent

    @property
    def explanation(self) -> tuple[str, ...]:
        return (render("exercise_agent_rules"),)

    @property
    def rules(self) -> tuple[str, ...]:
        return ("R12",) if self.variant.rulebook == "R" else ()

    def _agent(self, answer: object) -> Any:
        agent = answer
        if isinstance(answer, type):
            try:
                agent = answer()
            except Exception as error:  # the learner's constructor: said in one line
                raise AnswerError(
                    render("exercise_agent_broken_init", error=_error_words(error))
                ) from None
        if isinstance(agent, (str, bytes, int, float)) or not callable(
            getattr(agent, "decide", None)
        ):
            raise _bad(answer, self.accepts)
        return agent

    def _judge(self, answer: object) -> Feedback:
        from rummykit.ai import Decision, Trace, make_agent
        from rummykit.game import Game

        agent = self._agent(answer)
        name = str(getattr(agent, "name", "") or type(agent).__name__)
        other = make_agent(self.against)
        points = [0, 0]  # the agent's, the level's
        moves = 0
        for number in range(self.rounds):
            game = Game.new(self.variant, players=2, seed=self.seed + number)
            mine = number % 2  # the agent plays each seat in turn
            while not game.is_over:
                seat = game.current
                obs = game.observation(seat)
                if seat != mine:
                    game.play(other.decide(obs).action)
                    continue
                moves += 1
                problem = None
                try:
                    decision = agent.decide(obs)
                except Exception as error:  # the learner's code: its error, in one line
                    problem = render("exercise_agent_raised", error=_error_words(error))
                else:
                    if not isinstance(decision, Decision) or not isinstance(decision.trace, Trace):
                        problem = render("exercise_agent_no_decision", got=_shown(decision))
                    else:
                        verdict = game.check(decision.action)
                        if not verdict.ok:
                            problem = str(verdict)
                if problem is None and len(game.actions) > self._MOVES:
                    problem = render("exercise_agent_endless", moves=self._MOVES)
                if problem is not None:
                    head = render("exercise_agent_wrong", name=name, round=number + 1, move=moves)
                    return _feedback(False, name, self.answer, "", head, (problem,))
                game.play(decision.action)
            result = game.result
            assert result is not None  # the loop ran until the round was over
            points[0] += result.points[mine]
            points[1] += result.points[1 - mine]
        mean = [round(p / self.rounds, 1) for p in points]
        head = render("exercise_agent_right", name=name, rounds=self.rounds, moves=moves)
        line = render(
            "exercise_agent_score", name=name, mine=mean[0], level=self.against, theirs=mean[1]
        )
        return _feedback(True, name, self.answer, head, "", (line,))


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
        words = _words(answer)
        if _says(words, "yes"):
            given = True
        elif _says(words, "no"):
            given = False
        else:
            raise _bad(answer, self.accepts)
        said = render("exercise_yes" if given else "exercise_no")
        return _feedback(
            given == self.shows,
            said,
            self.answer,
            render("exercise_number_right", given=said),
            render("exercise_number_wrong", given=said, expected=self.answer),
            self.explanation,
        )


def _error_words(error: BaseException) -> str:
    """An error of the learner's code in one line: its type and message."""
    text = " ".join(str(error).split())
    text = text if len(text) <= 80 else text[:79] + "…"
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


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


_PRINT_CSS = Path(__file__).with_name("print.css")


@dataclass
class Worksheet:
    """Exercises or puzzles to print: one block each, the answer key on its own page.

    ``html()`` is a whole page (open it in a browser and print); in a notebook the
    worksheet shows itself with the same style sheet.

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


# --- seeded exercises -----------------------------------------------------------------------

KINDS = (
    "meld_kind",
    "meld_reason",
    "opening_value",
    "layoff_target",
    "round_score",
    "match_winner",
    "turn_can_end",
    "deadwood_value",
)
"""What :func:`make_exercises` can make."""


#: The kinds a variant can only pose with an opening threshold (H8): there is no opening total
#: to count, nor an opening to reach before a turn may end, in Rommi.
_NEEDS_OPENING = ("opening_value", "turn_can_end")


def kinds_for(variant: Variant | str) -> tuple[str, ...]:
    """The kinds of :data:`KINDS` that ``variant`` can pose.

    >>> kinds_for("rommi")
    ('meld_kind', 'meld_reason', 'layoff_target', 'round_score', 'match_winner', 'deadwood_value')
    """
    rules = _variant(variant)
    return tuple(k for k in KINDS if rules.opening_threshold or k not in _NEEDS_OPENING)


def make_exercises(
    seed: int,
    count: int = 10,
    kinds: Sequence[str] | None = None,
    variant: Variant | str = HUNGARIAN,
) -> list[Exercise]:
    """``count`` exercises drawn from ``seed``, cycling through ``kinds`` (default: every
    kind the variant can pose, :func:`kinds_for`). Every exercise is posed under ``variant``.

    >>> [e.kind for e in make_exercises(3, 4)]
    ['meld_kind', 'meld_reason', 'opening_value', 'layoff_target']
    >>> make_exercises(3, 4) == make_exercises(3, 4)
    True
    >>> {e.variant.name for e in make_exercises(3, 16, variant="rommi")}
    {'rommi'}
    """
    rules = _variant(variant)
    chosen = kinds_for(rules) if kinds is None else tuple(kinds)
    unknown = [k for k in chosen if k not in KINDS]
    if unknown or not chosen:
        raise RummykitError(
            render(
                "exercise_unknown_kind",
                kind=unknown[0] if unknown else "",
                choices=", ".join(KINDS),
            )
        )
    impossible = [k for k in chosen if k not in kinds_for(rules)]
    if impossible:
        raise RummykitError(
            render(
                "exercise_kind_needs_opening",
                kind=impossible[0],
                variant=rules.title,
                choices=", ".join(kinds_for(rules)),
            )
        )
    rng = random.Random(seed)
    return [_MAKERS[chosen[i % len(chosen)]](rng, rules) for i in range(count)]


def random_meld(rng: random.Random, variant: Variant, joker: bool = False) -> tuple[Card, ...]:
    """A valid meld drawn from ``rng``: a run of 3–5 or a set of 3–4, a joker in it when
    ``joker`` (and the variant has jokers).

    >>> rng = random.Random(1)
    >>> all(check_meld(random_meld(rng, HUNGARIAN, True)).ok for _ in range(50))
    True
    """
    from rummykit.cards import SUITS

    if rng.random() < 0.5:
        rank = rng.randint(1, 13)
        cards = [Card(rank, s) for s in rng.sample(SUITS, rng.choice((3, 3, 4)))]
    else:
        low = 1 if variant.ace_low else 2
        high = 14 if variant.ace_above_king else 13
        size = rng.choice((3, 3, 4, 5))
        start = rng.randint(low, high - size + 1)
        suit = rng.choice(SUITS)
        cards = [Card(1 if p == 14 else p, suit) for p in range(start, start + size)]
    if joker and variant.jokers and variant.jokers_per_meld:
        cards[rng.randrange(len(cards))] = JOKER
    return tuple(cards)


def _spoil(rng: random.Random, cards: tuple[Card, ...], variant: Variant) -> tuple[Card, ...]:
    deck = [c for c in variant.deck() if not c.is_joker]
    out = list(cards)
    out[rng.randrange(len(out))] = rng.choice(deck)
    return tuple(out)


def _make_meld_cards(rng: random.Random, rules: Variant) -> tuple[Card, ...]:
    cards = random_meld(rng, rules, joker=rng.random() < 0.25)
    return _spoil(rng, cards, rules) if rng.random() < 0.5 else cards


def _make_kind(rng: random.Random, rules: Variant) -> Exercise:
    return MeldKind(_make_meld_cards(rng, rules), rules)


def _make_reason(rng: random.Random, rules: Variant) -> Exercise:
    return MeldReason(_make_meld_cards(rng, rules), rules)


def _make_opening(rng: random.Random, rules: Variant) -> Exercise:
    melds = [
        random_meld(rng, rules, joker=i == 0 and rng.random() < 0.4)
        for i in range(rng.choice((2, 3)))
    ]
    return OpeningValue(melds, rules)


def random_table(
    rng: random.Random, variant: Variant, count: int, jokers: int = 0
) -> list[tuple[Card, ...]]:
    """``count`` valid melds that the variant's deck can hold at once (``jokers`` of them
    with a joker).

    >>> from rummykit import ROMMI
    >>> table = random_table(random.Random(2), ROMMI, 4)
    >>> len(table), max(Counter(c for m in table for c in m).values())
    (4, 1)
    """
    for _ in range(1000):
        table = [random_meld(rng, variant, joker=i < jokers) for i in range(count)]
        used = Counter(c for m in table for c in m)
        if all(n <= variant.copies(c) for c, n in used.items()):
            return table
    raise RuntimeError("no table found")  # pragma: no cover


def available(variant: Variant, used: Iterable[Card]) -> list[Card]:
    """The natural cards of the deck not all used up by ``used``, once each, in deck order."""
    count = Counter(used)
    return [
        c for c in dict.fromkeys(variant.deck()) if not c.is_joker and count[c] < variant.copies(c)
    ]


def _make_layoff(rng: random.Random, rules: Variant) -> Exercise:
    table = random_table(rng, rules, rng.choice((2, 3)))
    free = available(rules, (c for m in table for c in m))
    fitting = [c for c in free if any(check_layoff(m, (c,), rules).ok for m in table)]
    card = rng.choice(fitting) if fitting and rng.random() < 0.8 else rng.choice(free)
    return LayoffTarget((card,), table, rules)


def _make_score(rng: random.Random, rules: Variant) -> Exercise:
    players = rng.choice((2, 3))
    deck = list(rules.deck())
    rng.shuffle(deck)
    hands = [[deck.pop()]] + [
        [deck.pop() for _ in range(rng.randint(2, 5))] for _ in range(players - 1)
    ]
    opened = [True] + [
        rng.random() < 0.6 or not rules.opening_threshold for _ in range(players - 1)
    ]
    seat = rng.randrange(players) if rules.low_score_wins else 0
    return RoundScore(
        [format_cards(h) for h in hands], winner=0, seat=seat, opened=opened, variant=rules
    )


def _make_match(rng: random.Random, rules: Variant) -> Exercise:
    """A whole match: all of its rounds (H14), or rounds until a seat reaches the target
    (R9) — never a question of who wins a match that isn't over."""
    players = rng.choice((2, 3))
    rounds: list[list[int]] = []
    totals = [0] * players
    while True:
        winner = rng.randrange(players)
        if rules.low_score_wins:
            row = [
                rng.choice((rules.go_out_points, rules.go_out_hand_points))
                if s == winner
                else rules.unopened_penalty
                if rules.unopened_penalty and rng.random() < 0.15
                else rng.randint(2, 60)
                for s in range(players)
            ]
        else:
            row = [rng.randint(5, 60) if s == winner else 0 for s in range(players)]
        rounds.append(row)
        totals = [t + p for t, p in zip(totals, row)]
        if rules.rounds and len(rounds) == rules.rounds:
            break
        if not rules.rounds and max(totals) >= (rules.target or 100):
            break
    return MatchWinner(rounds, rules)


def _make_turn(rng: random.Random, rules: Variant) -> Exercise:
    for _ in range(100):
        melds = [random_meld(rng, rules) for _ in range(rng.choice((1, 2)))]
        cards = [c for m in melds for c in m]
        if any(n > rules.copies(c) for c, n in Counter(cards).items()):
            continue
        spare = [c for c in rules.deck() if not c.is_joker and Counter(cards)[c] < rules.copies(c)]
        extra = rng.sample(spare, 3)
        take = rng.random() < 0.4
        hand = cards[1:] + extra if take else cards + extra
        discard = format_cards((extra[0], cards[0])) if take else format_cards((extra[0],))
        moves = [f"meld {format_cards(m)}" for m in melds]
        if take and rng.random() < 0.5:
            moves = moves[1:]
        try:
            return TurnCanEnd.after(
                format_cards(hand), moves=moves, draw="discard" if take else "stock",
                discard=discard, turns=2, variant=rules,
            )  # fmt: skip
        except ValueError:
            continue
    raise RuntimeError("no position found")  # pragma: no cover


def _make_deadwood(rng: random.Random, rules: Variant) -> Exercise:
    table = random_table(rng, rules, rng.choice((1, 2)))
    cards = [c for m in table for c in m]
    extra = [c for c in available(rules, cards) if rng.random() < 0.5]
    rng.shuffle(extra)
    hand = cards + extra[: rng.randint(2, 4)]
    rng.shuffle(hand)
    return DeadwoodValue(hand, rules)


_MAKERS = {
    "meld_kind": _make_kind,
    "meld_reason": _make_reason,
    "opening_value": _make_opening,
    "layoff_target": _make_layoff,
    "round_score": _make_score,
    "match_winner": _make_match,
    "turn_can_end": _make_turn,
    "deadwood_value": _make_deadwood,
}
