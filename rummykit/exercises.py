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

import random
import re
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from html import escape
from pathlib import Path
from typing import Any, ClassVar

from rummykit.cards import (
    JOKER,
    Card,
    CardParseError,
    CardsLike,
    as_cards,
    format_cards,
    parse_card,
)
from rummykit.display import cards_html
from rummykit.explain import CATALOGUE, Verdict
from rummykit.melds import (
    IllegalMeld,
    Meld,
    MeldSum,
    check_layoff,
    check_meld,
    check_opening,
    make_meld,
)
from rummykit.messages import TEMPLATES, join, render
from rummykit.solver import best_arrangement, can_go_out, min_deadwood
from rummykit.variants import HUNGARIAN, Variant
from rummykit.variants import variant as get_variant

__all__ = [
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
    "Quiz",
    "RoundScore",
    "Tally",
    "TurnCanEnd",
    "Worksheet",
    "available",
    "make_exercises",
    "random_meld",
    "random_table",
]


class AnswerError(ValueError):
    """An answer could not be read; the message says what this exercise accepts."""


def _bad(answer: object, accepted: str) -> AnswerError:
    return AnswerError(render("exercise_bad_answer", answer=_shown(answer), accepted=accepted))


def _shown(answer: object) -> str:
    if isinstance(answer, str):
        return answer
    if isinstance(answer, Card):
        return str(answer)
    if isinstance(answer, (tuple, list)) and all(isinstance(c, Card) for c in answer):
        return format_cards(answer)
    return repr(answer)


def _variant(rules: Variant | str) -> Variant:
    return rules if isinstance(rules, Variant) else get_variant(rules)


def _variant_repr(rules: Variant) -> str:
    return repr(rules.base or rules.name) if not rules.changes() else repr(str(rules))


# --- feedback -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Feedback:
    """What the checker says about one answer: right or wrong, and the sentences why.

    ``head`` is the verdict on the answer itself ("You said 45, but …"); ``lines`` are the
    engine's explanation of the position. ``bool(feedback)`` is ``feedback.correct``.
    """

    correct: bool
    given: str
    expected: str
    head: str
    lines: tuple[str, ...] = ()
    cards: tuple[Card, ...] = ()
    highlighted: frozenset[Card] = frozenset()

    def __bool__(self) -> bool:
        return self.correct

    @property
    def message(self) -> str:
        """The feedback as one paragraph (same as ``str(feedback)``)."""
        mark = render("exercise_mark_right" if self.correct else "exercise_mark_wrong")
        return " ".join([f"{mark} {self.head}", *self.lines])

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"Feedback(correct={self.correct}, given={self.given!r}, expected={self.expected!r})"

    def _repr_html_(self) -> str:
        mark = render("exercise_mark_right" if self.correct else "exercise_mark_wrong")
        colour = "#1a7f37" if self.correct else "#d9480f"
        items = "".join(f"<li>{escape(line)}</li>" for line in self.lines)
        shown = cards_html(self.cards, self.highlighted) if self.cards else ""
        return (
            '<div class="rk-feedback" role="status">'
            f'<div style="color:{colour};font-weight:bold">{escape(mark)} {escape(self.head)}</div>'
            f"{shown}<ul>{items}</ul></div>"
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
) -> Feedback:
    return Feedback(
        right,
        given,
        expected,
        head_right if right else head_wrong,
        tuple(lines),
        tuple(cards),
        frozenset(highlighted),
    )


def _sentences(verdict: Verdict) -> tuple[str, ...]:
    return tuple(str(r) for r in verdict.reasons)


# --- reading answers ------------------------------------------------------------------------


def _words(answer: object) -> str:
    if not isinstance(answer, str):
        return ""
    return " ".join(answer.strip().lower().replace("-", " ").split())


def _read_int(answer: object) -> int:
    if isinstance(answer, int) and not isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        m = re.fullmatch(r"\s*([+-−]?\d+)\s*(?:points?|pts?)?\.?\s*", answer)
        if m:
            return int(m.group(1).replace("−", "-"))
    raise _bad(answer, render("exercise_accepts_number"))


def _read_card(answer: object, choices: Sequence[Card], accepted: str = "") -> Card:
    accepted = accepted or render(
        "exercise_accepts_card", cards=format_cards(dict.fromkeys(choices))
    )
    card: Card
    if isinstance(answer, Card):
        card = answer
    elif isinstance(answer, str):
        text = re.sub(r"^\s*discard\s+", "", answer.strip(), flags=re.I)
        try:
            card = parse_card(text)
        except CardParseError:
            raise _bad(answer, accepted) from None
    else:
        raise _bad(answer, accepted)
    if card not in choices:
        raise _bad(answer, accepted)
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

    @abstractmethod
    def check(self, answer: object) -> Feedback:
        """Judge an answer: right or wrong, and why. Garbage raises :class:`AnswerError`."""

    def figure_html(self) -> str:
        """The position drawn (cards as SVG)."""
        return ""

    @property
    def key(self) -> str:
        """The answer key entry: the answer and the explanation, in sentences."""
        answer = self.answer.rstrip(".")
        return " ".join([render("exercise_key", answer=answer), *self.explanation])

    def _repr_html_(self) -> str:
        return (
            '<div class="rk-exercise">'
            f"<p><b>{escape(self.prompt)}</b></p>{self.figure_html()}"
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

    @property
    def answer(self) -> str:
        return self._kind_word(self.verdict.kind)

    @property
    def explanation(self) -> tuple[str, ...]:
        return _sentences(self.verdict)

    def _read(self, answer: object) -> str | None:
        words = _words(answer).removeprefix("a ").removeprefix("it is ")
        if _says(words, "run"):
            return "run"
        if _says(words, "set"):
            return "set"
        if _says(words, "no"):
            return None
        raise _bad(answer, self.accepts)

    def check(self, answer: object) -> Feedback:
        given = self._read(answer)
        verdict = self.verdict
        actual = self._kind_word(verdict.kind)
        said = self._kind_word(given)
        return _feedback(
            given == verdict.kind,
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
    """Valid or not — and if not, why? Answer ``valid``, a reason code, or the letter of one
    of the offered sentences.

    >>> exercise = MeldReason("5♥ 6♥ 8♥")
    >>> for line in exercise.options: print(line)
    a) It is a valid meld.
    b) One rank appears twice in the run.
    c) The run skips a card that no joker fills.
    d) The cards are of different suits.
    e) The run turns the corner at the ace (K-A-2).
    >>> exercise.check("c").correct, exercise.check("run_gap").correct
    (True, True)
    >>> print(exercise.check("d"))
    ✘ You said the cards are of different suits, but 5♥ 6♥ 8♥ is not a valid meld in Hungarian Rummy. 5♥ 6♥ 8♥ skips the 7♥: the cards of a run follow one another. (H4)
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
            raise ValueError(
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
        pool = [c for c in _REASON_CHOICES if c not in right and self._arises(c)]
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
        return render("exercise_reason_prompt", variant=self.variant.title, cards=self.cards)

    @property
    def accepts(self) -> str:
        letters = [chr(ord("a") + i) for i in range(len(self.offered))]
        return render("exercise_accepts_reason", letters=join(letters))

    @property
    def answer(self) -> str:
        verdict = self.verdict
        return self._sentence(verdict.codes[0] if verdict.codes else "valid")

    @property
    def explanation(self) -> tuple[str, ...]:
        return _sentences(self.verdict)

    def _read(self, answer: object) -> str:
        words = _words(answer)
        if len(words) == 1 and "a" <= words <= chr(ord("a") + len(self.offered) - 1):
            return self.offered[ord(words) - ord("a")]
        if words.isdigit() and 1 <= int(words) <= len(self.offered):
            return self.offered[int(words) - 1]
        if _says(words, "yes"):
            return "valid"
        code = words.replace(" ", "_")
        if code in MELD_REASONS or (
            code in CATALOGUE and code in check_meld(self.cards, self.variant).codes
        ):
            return code
        raise _bad(answer, self.accepts)

    def check(self, answer: object) -> Feedback:
        given = self._read(answer)
        verdict = self.verdict
        right = verdict.ok if given == "valid" else given in verdict.codes
        said = self._sentence(given)
        said = said[0].lower() + said[1:].rstrip(".")
        return _feedback(
            right,
            said,
            self.answer,
            render("exercise_reason_right", given=said),
            render("exercise_reason_wrong", given=said),
            _sentences(verdict),
            verdict.cards or self.cards,
            verdict.highlighted,
        )

    def figure_html(self) -> str:
        items = "".join(f"<li>{escape(o)}</li>" for o in self.options)
        return cards_html(self.cards) + f'<ul class="rk-options">{items}</ul>'


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
    if slip is not None:
        wrong = render("exercise_number_slip", given=given, slip=slip)
    return _feedback(
        given == expected,
        str(given),
        str(expected),
        render("exercise_number_right", given=given),
        wrong,
        lines,
        cards,
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
            raise ValueError(render("exercise_no_opening", variant=rules.title))
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
    def explanation(self) -> tuple[str, ...]:
        return _sentences(self.verdict)

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

    def check(self, answer: object) -> Feedback:
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
    Seat 0 goes out by discarding 5♣. Seat 1 has opened and holds K♠ 7♥ 🃏. Seat 2 has not opened and holds 2♦ 3♦. What does seat 1 score for this round?
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
            raise ValueError(render("widget_bad_seat", seat=winner, last=len(cards) - 1))
        if seat is None:
            seat = winner if not rules.low_score_wins else (winner + 1) % len(cards)
        if not 0 <= seat < len(cards):
            raise ValueError(render("widget_bad_seat", seat=seat, last=len(cards) - 1))
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
            raise ValueError(render("exercise_score_last_card", seat=self.winner))
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
        return " ".join(parts)

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_number")

    @property
    def answer(self) -> str:
        return str(self.points)

    @property
    def explanation(self) -> tuple[str, ...]:
        return tuple(str(line) for line in self.result.lines)

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
        value = hand_total(hand, v.joker_points, v.ace_value)
        if v.low_score_wins and v.unopened_penalty and v.opening_threshold:
            if not self.opened[self.seat]:
                out.append(
                    (value, render("exercise_mistake_unopened", points=v.unopened_penalty, rule=penalty))
                )  # fmt: skip
            else:
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

    def check(self, answer: object) -> Feedback:
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

    >>> exercise = MatchWinner([(-10, 35), (40, -20), (12, -10)])
    >>> print(exercise.check(0))
    ✘ You said seat 0, but in Hungarian Rummy the lowest total wins, not the highest (H14). Totals: seat 0: 42, seat 1: 5. The lowest total wins. (H14)
    """

    kind: ClassVar[str] = "match_winner"
    rounds: tuple[tuple[int, ...], ...]
    variant: Variant = HUNGARIAN

    def __init__(self, rounds: Sequence[Sequence[int]], variant: Variant | str = HUNGARIAN) -> None:
        rules = _variant(variant)
        table = tuple(tuple(int(p) for p in r) for r in rounds)
        if not table or len({len(r) for r in table}) != 1:
            raise ValueError(render("exercise_match_rounds"))
        rules.check_players(len(table[0]))
        object.__setattr__(self, "rounds", table)
        object.__setattr__(self, "variant", rules)

    def __repr__(self) -> str:
        return f"MatchWinner({list(self.rounds)!r}, {_variant_repr(self.variant)})"

    @cached_property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total."""
        return tuple(sum(r[s] for r in self.rounds) for s in range(len(self.rounds[0])))

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
        return render("exercise_match_prompt", variant=self.variant.title, rounds="; ".join(lines))

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_seat", last=len(self.totals) - 1)

    @property
    def answer(self) -> str:
        return join([render("exercise_seat", seat=s) for s in self.winners], "and")

    @property
    def explanation(self) -> tuple[str, ...]:
        totals = ", ".join(
            render("exercise_total", seat=s, total=t) for s, t in enumerate(self.totals)
        )
        code = "exercise_match_lowest" if self.variant.low_score_wins else "exercise_match_highest"
        rule = self.variant.rule("match")
        return (render("exercise_match_totals", totals=totals), f"{render(code)} ({rule})")

    def check(self, answer: object) -> Feedback:
        words = _words(answer).removeprefix("seat ")
        seats = len(self.totals)
        if isinstance(answer, int) and not isinstance(answer, bool):
            seat = answer
        elif words.isdigit():
            seat = int(words)
        else:
            raise _bad(answer, self.accepts)
        if not 0 <= seat < seats:
            raise _bad(answer, self.accepts)
        totals = self.totals
        given = render("exercise_seat", seat=seat)
        worst = max(totals) if self.variant.low_score_wins else min(totals)
        rule = self.variant.rule("match")
        if totals[seat] == worst and seat not in self.winners:
            code = (
                "exercise_mistake_highest"
                if self.variant.low_score_wins
                else "exercise_mistake_lowest"
            )
            wrong = render(code, given=given, variant=self.variant.title, rule=rule)
        else:
            wrong = render("exercise_seat_wrong", given=given, expected=self.answer)
        return _feedback(
            seat in self.winners,
            given,
            self.answer,
            render("exercise_seat_right", given=given),
            wrong,
            self.explanation,
        )


# --- the turn -------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class TurnCanEnd(Exercise):
    """After these moves, may the turn end with a discard now? Answer yes or no.

    The referee plays the draw and the moves (a position set up by hand), and its own
    turn status is the explanation (H7, H8, H10, H11).

    >>> exercise = TurnCanEnd.after("7♥ 8♥ 9♥ 2♣ 5♠", draw="discard", discard="9♠ K♦",
    ...                              moves=["meld 7h 8h 9h"], turns=3)
    >>> print(exercise.prompt)
    Seat 0 took K♦ from the discard pile. Seat 0 laid down 7♥ 8♥ 9♥ (meld 1). May seat 0 discard now and end the turn?
    >>> print(exercise.check("yes"))
    ✘ You said yes, but the turn can't end yet. Your melds total 24; opening needs 51 — 27 more. Add a meld, or take these back. (H8) You took K♦ from the discard pile before opening, so it must be part of your opening melds. (H7)
    """

    kind: ClassVar[str] = "turn_can_end"
    record: str
    variant: Variant = HUNGARIAN

    def __init__(self, game: Any) -> None:
        if game.phase != "play":
            raise ValueError(render("exercise_turn_not_play"))
        object.__setattr__(self, "record", game.to_json())
        object.__setattr__(self, "variant", game.variant)

    @classmethod
    def after(
        cls,
        hand: CardsLike,
        *,
        moves: Sequence[str | Any] = (),
        draw: str = "stock",
        discard: CardsLike = (),
        table: Iterable[Any] = (),
        opened: bool = False,
        turns: int = 1,
        variant: Variant | str = HUNGARIAN,
        stock: CardsLike | None = None,
    ) -> TurnCanEnd:
        """Seat 0 of two, holding ``hand``, draws from ``draw`` (``stock``, ``discard`` or
        ``cut_card``) and makes ``moves`` (actions or their text: ``meld 7h 8h 9h``)."""
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
        events = [str(e) for e in game.events]
        return " ".join([*events, render("exercise_turn_prompt", seat=game.current)])

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_yes_no")

    @property
    def answer(self) -> str:
        return render("exercise_yes" if self.can_end else "exercise_no")

    @property
    def explanation(self) -> tuple[str, ...]:
        status = self.game.turn_status()
        if status.can_end_turn:
            return (render("exercise_turn_may_end"),)
        return tuple(str(r) for r in status.obligations)

    def check(self, answer: object) -> Feedback:
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

    def check(self, answer: object) -> Feedback:
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
            raise ValueError(render("exercise_discard_small"))
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

    def _arrangement(self, card: Card) -> str:
        return best_arrangement(self.left(card), self.variant).message

    @property
    def explanation(self) -> tuple[str, ...]:
        card = self.best[0]
        return (render("exercise_discard_leaves", card=card, arrangement=self._arrangement(card)),)

    def check(self, answer: object) -> Feedback:
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
    """Onto which meld on the table can these cards be laid off (R6, H8)? Answer a meld
    number, or ``none``.

    >>> exercise = LayoffTarget("7♥", ["9♠ 9♥ 9♦", "4♥ 5♥ 6♥", "8♠ 8♦ 8♣"])
    >>> exercise.targets
    (1,)
    >>> print(exercise.check(3))
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
            raise ValueError(render("exercise_layoff_no_table"))
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

    @property
    def answer(self) -> str:
        if not self.targets:
            return render("exercise_layoff_none")
        return join([render("exercise_meld", number=i + 1) for i in self.targets])

    @property
    def explanation(self) -> tuple[str, ...]:
        if not self.targets:
            return tuple(s for i in range(len(self.table)) for s in self._why_not(i))
        return _sentences(self.verdict(self.targets[0]))

    def _why_not(self, index: int) -> tuple[str, ...]:
        return tuple(str(r) for r in self.verdict(index).failures) or _sentences(
            self.verdict(index)
        )

    def check(self, answer: object) -> Feedback:
        words = _words(answer).removeprefix("meld ").removeprefix("onto meld ")
        if isinstance(answer, int) and not isinstance(answer, bool):
            index: int | None = answer - 1  # people number melds from 1
        elif words.isdigit():
            index = int(words) - 1
        elif _says(words, "no"):
            index = None
        else:
            raise _bad(answer, self.accepts)
        if index is not None and not 0 <= index < len(self.table):
            raise _bad(answer, self.accepts)
        targets = self.targets
        if index is None:
            given = render("exercise_layoff_none")
            right = not targets
            wrong = render("exercise_layoff_wrong_none", given=given, cards=self.cards)
            lines = self.explanation
        else:
            given = render("exercise_meld", number=index + 1)
            right = index in targets
            verdict = self.verdict(index)
            wrong = render("exercise_layoff_wrong", given=given)
            lines = _sentences(verdict)
            if not right and targets:
                lines = (*lines, *self.explanation)
            elif not right:
                lines = (*lines, render("exercise_layoff_nowhere", cards=self.cards))
        return _feedback(
            right,
            given,
            self.answer,
            render("exercise_layoff_right", given=given),
            wrong,
            lines,
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
    def explanation(self) -> tuple[str, ...]:
        return (str(self.plan),)

    def check(self, answer: object) -> Feedback:
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
        card = _read_card(answer, self.hand, self.accepts)
        given = render("exercise_go_out_answer", cards=str(card))
        mine = can_go_out(self.without(card), self.variant, self.table, final_discard=False)
        lines = (str(mine),) if card in found else (str(mine), *self.explanation)
        if not found:
            wrong = render("exercise_go_out_wrong_cannot", given=given)
        else:
            wrong = render("exercise_go_out_wrong_card", given=given, card=card)
        return _feedback(
            card in found,
            given,
            self.answer,
            render("exercise_go_out_right", given=given),
            wrong,
            lines,
        )


def _read_melds(answer: object, variant: Variant) -> list[tuple[Card, ...]]:
    accepted = render("exercise_accepts_melds")
    if isinstance(answer, str):
        parts = [p for p in re.split(r"[+|;/]", answer) if p.strip()]
    elif isinstance(answer, (list, tuple)):
        parts = list(answer)
    else:
        raise _bad(answer, accepted)
    out = []
    for part in parts:
        try:
            cards = part.cards if isinstance(part, Meld) else as_cards(part)
        except (CardParseError, TypeError):
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
            raise ValueError(render("exercise_no_opening", variant=rules.title))
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
    def explanation(self) -> tuple[str, ...]:
        return (str(self.best),)

    def check(self, answer: object) -> Feedback:
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
            return _feedback(
                False,
                given,
                self.answer,
                "",
                wrong,
                (*[str(r) for r in verdict.failures], *self.explanation),
                verdict.cards,
                verdict.highlighted,
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
        return _feedback(
            right,
            given,
            self.answer,
            render("exercise_find_opening_right", given=said, points=total),
            wrong,
            lines if not right else _sentences(verdict),
        )

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
            raise ValueError(render("exchange_not_allowed", variant=rules.title))

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
    def exchanges(self) -> tuple[tuple[str, int], ...]:
        """Every legal exchange as (card handed in, meld index from 0), by the referee;
        people read and answer meld numbers from 1."""
        from rummykit.game.actions import ExchangeJoker

        return tuple(
            (str(a.card), a.meld) for a in self.game.legal_actions() if isinstance(a, ExchangeJoker)
        )

    @property
    def prompt(self) -> str:
        return render(
            "exercise_joker_prompt", hand=self.hand, rule=self.variant.rule("joker_exchange")
        )

    @property
    def accepts(self) -> str:
        return render("exercise_accepts_joker", last=len(self.table))

    @property
    def answer(self) -> str:
        found = self.exchanges
        if not found:
            return render("exercise_layoff_none")
        return join([render("exercise_joker_answer", card=c, number=i + 1) for c, i in found])

    @property
    def explanation(self) -> tuple[str, ...]:
        from rummykit.game.actions import ExchangeJoker

        found = self.exchanges
        if not found:
            return (render("exercise_joker_nothing"),)
        card, index = found[0]
        verdict = self._game.check(ExchangeJoker(parse_card(card), index))
        return (
            *_sentences(verdict),
            render("exercise_joker_then", rule=self.variant.rule("joker_exchange")),
        )

    def check(self, answer: object) -> Feedback:
        from rummykit.game.actions import ExchangeJoker

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
            text = re.sub(r"^\s*exchange\s+", "", answer.strip(), flags=re.I)
        else:
            raise _bad(answer, self.accepts)
        m = re.fullmatch(r"\s*(\S+)\s+(?:from|in|on|for)\s+(?:meld\s+)?(\d+)\s*", text, flags=re.I)
        if not m:
            raise _bad(answer, self.accepts)
        try:
            card = parse_card(m.group(1))
        except CardParseError:
            raise _bad(answer, self.accepts) from None
        index = int(m.group(2)) - 1  # people number melds from 1
        if not 0 <= index < len(self.table):
            raise _bad(answer, self.accepts)
        given = render("exercise_joker_answer", card=card, number=index + 1)
        verdict = self._game.check(ExchangeJoker(card, index))
        right = (str(card), index) in found
        lines = _sentences(verdict) if right else (*_sentences(verdict), *self.explanation)
        return _feedback(
            right,
            given,
            self.answer,
            render("exercise_joker_right", given=given),
            render("exercise_joker_wrong", given=given),
            lines,
            verdict.cards,
            verdict.highlighted,
        )


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

    >>> quiz = Quiz([MeldKind("K♠ A♠ 2♠"), OpeningValue(["7♥ 8♥ 9♥", "10♠ 10♦ 10♣"])])
    >>> quiz.check(1, "no", student="Ana").correct, quiz.check(2, 54, student="Ana").correct
    (True, True)
    >>> quiz.check(2, 44, student="Ben").correct
    False
    >>> quiz
    Quiz(exercises=2, students={'Ana': Tally(right=2, asked=2), 'Ben': Tally(right=0, asked=1)})
    """

    exercises: list[Exercise]
    title: str = ""
    tallies: dict[str, Tally] = field(default_factory=dict)
    answers: dict[str, dict[int, Feedback]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.exercises = list(self.exercises)

    def exercise(self, number: int) -> Exercise:
        """Exercise ``number`` (from 1)."""
        if not 1 <= number <= len(self.exercises):
            raise AnswerError(render("exercise_no_such", number=number, count=len(self.exercises)))
        return self.exercises[number - 1]

    def check(self, number: int, answer: object, student: str = "") -> Feedback:
        """Check ``student``'s answer to exercise ``number`` and count it in their tally.

        An answer that can't be read raises :class:`AnswerError` and is not counted."""
        feedback = self.exercise(number).check(answer)
        tally = self.tallies.get(student, Tally())
        self.tallies[student] = Tally(tally.right + feedback.correct, tally.asked + 1)
        self.answers.setdefault(student, {})[number] = feedback
        return feedback

    def tally(self, student: str = "") -> Tally:
        """A student's tally so far."""
        return self.tallies.get(student, Tally())

    def worksheet(self) -> Worksheet:
        """These exercises as a printable worksheet with its answer key."""
        return Worksheet(self.exercises, self.title)

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
        title = escape(self.title or render("exercise_worksheet_title"))
        return (
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
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


def make_exercises(
    seed: int, count: int = 10, kinds: Sequence[str] = KINDS, variant: Variant | str = HUNGARIAN
) -> list[Exercise]:
    """``count`` exercises drawn from ``seed``, cycling through ``kinds``.

    >>> [e.kind for e in make_exercises(3, 4)]
    ['meld_kind', 'meld_reason', 'opening_value', 'layoff_target']
    >>> make_exercises(3, 4) == make_exercises(3, 4)
    True
    """
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise ValueError(
            render(
                "exercise_unknown_kind",
                kind=unknown[0] if unknown else "",
                choices=", ".join(KINDS),
            )
        )
    rules = _variant(variant)
    rng = random.Random(seed)
    return [_MAKERS[kinds[i % len(kinds)]](rng, rules) for i in range(count)]


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


def _opening_rules(rules: Variant) -> Variant:
    return rules if rules.opening_threshold else HUNGARIAN


def _make_opening(rng: random.Random, rules: Variant) -> Exercise:
    rules = _opening_rules(rules)
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
    players = rng.choice((2, 3))
    rounds = []
    for _ in range(rng.choice((2, 3, 4))):
        winner = rng.randrange(players)
        if rules.low_score_wins:
            row = [
                rng.choice((rules.go_out_points, rules.go_out_hand_points))
                if s == winner
                else rng.randint(2, 60)
                for s in range(players)
            ]
        else:
            row = [rng.randint(5, 60) if s == winner else 0 for s in range(players)]
        rounds.append(row)
    return MatchWinner(rounds, rules)


def _make_turn(rng: random.Random, rules: Variant) -> Exercise:
    rules = _opening_rules(rules)
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
                discard=discard, turns=2,
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
