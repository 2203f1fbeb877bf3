"""Exercises on the opening: what melds are worth toward it, and the best one a hand can make
(H8).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar

from rummykit.cards import Card, CardsLike, as_cards, format_cards
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.exercises.answers import answer_words, check_number, clean_answer, says
from rummykit.exercises.base import (
    Exercise,
    Feedback,
    as_variant,
    bad_answer,
    make_feedback,
    rules_of,
    sentences_of,
    variant_repr,
)
from rummykit.exercises.positions import hand_html, melds_of
from rummykit.explain import Verdict
from rummykit.melds import Meld, MeldSum, check_meld, check_opening, make_meld
from rummykit.messages import render
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["FindOpening", "OpeningValue"]


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
        rules = as_variant(variant)
        if not rules.opening_threshold:
            raise RummykitError(render("exercise_no_opening", variant=rules.title))
        object.__setattr__(self, "variant", rules)
        object.__setattr__(self, "melds", melds_of(melds, rules))

    def __repr__(self) -> str:
        melds = ", ".join(repr(str(m)) for m in self.melds)
        return f"OpeningValue([{melds}], {variant_repr(self.variant)})"

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
        return sentences_of(self.verdict)

    @property
    def rules(self) -> tuple[str, ...]:
        jokers = any(c.is_joker for m in self.melds for c in m.cards)
        cited = (*rules_of(self.verdict.reasons), self.variant.rule("opening"))
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
        return check_number(answer, self.total, self.mistakes(), self.explanation, cards)

    def figure_html(self) -> str:
        return "".join(cards_html(m.cards) for m in self.melds)


def _read_melds(answer: object, variant: Variant) -> list[tuple[Card, ...]]:
    """The melds of an answer: separated by ``+`` or ``;`` — or by commas, when every part
    between two commas holds several cards (``As 2s 3s, Kh Kd Kc``); a comma between single
    cards stays inside a meld (``K♠, A♠, 2♠``)."""
    accepted = render("exercise_accepts_melds")
    parts: list[Any]
    if isinstance(answer, str):
        text = clean_answer(answer)
        parts = [p for p in re.split(r"[+|;/]", text) if p.strip()]
        if len(parts) == 1 and "," in text:
            pieces = [p for p in text.split(",") if p.strip()]
            if len(pieces) > 1 and all(len(p.split()) >= 2 for p in pieces):
                parts = pieces
    elif isinstance(answer, (list, tuple)):
        parts = list(answer)
    else:
        raise bad_answer(answer, accepted)
    out = []
    for part in parts:
        try:
            cards = part.cards if isinstance(part, Meld) else as_cards(part)
        except (ValueError, TypeError):
            raise bad_answer(answer, accepted) from None
        if not cards:
            raise bad_answer(answer, accepted)
        out.append(tuple(cards))
    if not out:
        raise bad_answer(answer, accepted)
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
        rules = as_variant(variant)
        if not rules.opening_threshold:
            raise RummykitError(render("exercise_no_opening", variant=rules.title))
        object.__setattr__(self, "hand", as_cards(hand))
        object.__setattr__(self, "variant", rules)

    def __repr__(self) -> str:
        return f"FindOpening('{format_cards(self.hand)}', {variant_repr(self.variant)})"

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
        if says(answer_words(answer), "no"):
            given = render("exercise_no")
            return make_feedback(
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
            return make_feedback(False, given, self.answer, "", wrong, self.explanation)
        bad = [g for g in groups if not check_meld(g, v).ok]
        if bad:
            verdict = check_meld(bad[0], v)
            wrong = render("exercise_find_opening_bad_meld", given=said, meld=bad[0])
            hint = (render("exercise_melds_separate"),) if len(bad[0]) >= 6 else ()
            return make_feedback(
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
            return make_feedback(False, given, self.answer, "", wrong, self.explanation)
        right = best.ok and total == best.points
        if not verdict.ok:
            wrong = render("exercise_find_opening_short", given=said, points=total)
            lines = (*sentences_of(verdict), *self.explanation)
        else:
            wrong = render("exercise_find_opening_less", given=said, points=total, best=best.points)
            lines = self.explanation
        others: tuple[str, ...] = ()
        if right:
            lines = sentences_of(verdict)
            if Counter(c for g in groups for c in g) != Counter(
                c for m in best.melds for c in m.cards
            ):
                others = (self.answer,)
                lines += (render("exercise_find_opening_also", melds=self.answer),)
        feedback = make_feedback(
            right,
            given,
            self.answer,
            render("exercise_find_opening_right", given=said, points=total),
            wrong,
            lines,
        )
        return replace(feedback, others=others)

    def figure_html(self) -> str:
        return hand_html(self.hand)
