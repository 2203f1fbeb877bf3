"""The lay-off exercise: onto which meld on the table can these cards go (H4, R6)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from html import escape
from typing import ClassVar

from rummykit.cards import Card, CardsLike, as_cards, format_cards
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.exercises.answers import answer_words, says
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
from rummykit.exercises.positions import table_html, table_melds
from rummykit.explain import Verdict
from rummykit.melds import Meld, check_layoff
from rummykit.messages import join, render
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["LayoffTarget"]


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
        rules = as_variant(variant)
        melds = table_melds(table, rules)
        if not melds:
            raise RummykitError(render("exercise_layoff_no_table"))
        object.__setattr__(self, "cards", as_cards(cards))
        object.__setattr__(self, "table", melds)
        object.__setattr__(self, "variant", rules)

    def __repr__(self) -> str:
        table = ", ".join(repr(str(m)) for m in self.table)
        return (
            f"LayoffTarget('{format_cards(self.cards)}', [{table}], {variant_repr(self.variant)})"
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
        return tuple(s for i in self.targets for s in sentences_of(self.verdict(i)))

    @property
    def rules(self) -> tuple[str, ...]:
        cited = (r for v in self._verdicts for r in rules_of(v.reasons))
        return tuple(dict.fromkeys((self.variant.rule("layoff"), *cited)))

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c for v in self._verdicts for c in v.codes))

    def _why_not(self, index: int) -> tuple[str, ...]:
        return tuple(str(r) for r in self.verdict(index).failures) or sentences_of(
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
            words = answer_words(answer)
            if says(words, "all"):
                return tuple(range(count))
            if says(words, "no"):
                return ()
            tokens = [t for t in re.split(r"[\s,;&+/]+", words) if t]
            filler = [t for t in tokens if not t.isdigit()]
            if not tokens or any(not says(t, "and") and not says(t, "meld") for t in filler):
                raise bad_answer(answer, self.accepts)
            numbers = [int(t) for t in tokens if t.isdigit() and len(t) <= 3]
            if len(numbers) != len(tokens) - len(filler):
                raise bad_answer(answer, self.accepts)
        if not numbers or any(not 1 <= n <= count for n in numbers):
            raise bad_answer(answer, self.accepts)
        return tuple(sorted({n - 1 for n in numbers}))  # people number melds from 1

    def _judge(self, answer: object) -> Feedback:
        named = self._read(answer)
        targets = self.targets
        if not named:
            given = render("exercise_layoff_none")
            return make_feedback(
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
            lines = tuple(s for i in named for s in sentences_of(self.verdict(i)))
            if others:
                also = render("exercise_layoff_also", cards=self.cards, melds=self._names(others))
                lines += (also, *(s for i in others for s in sentences_of(self.verdict(i))))
            feedback = make_feedback(
                True, given, self.answer, render("exercise_layoff_right", given=given), "", lines
            )
            return replace(
                feedback, others=tuple(render("exercise_meld", number=i + 1) for i in others)
            )
        lines = tuple(s for i in missed for s in sentences_of(self.verdict(i)))
        if targets:
            lines += self.explanation
        else:
            lines += (render("exercise_layoff_nowhere", cards=self.cards),)
        codes = tuple(dict.fromkeys(c for i in missed for c in self.verdict(i).codes))
        return make_feedback(
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
        return cards + table_html(self.table)
