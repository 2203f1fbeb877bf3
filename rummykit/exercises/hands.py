"""Exercises on a hand: its least deadwood, the discard that leaves the least, and whether it
can go out this turn (H12).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar

from rummykit.cards import Card, CardsLike, as_cards, format_cards
from rummykit.errors import RummykitError
from rummykit.exercises.answers import answer_words, check_number, clean_answer, read_card, says
from rummykit.exercises.base import Exercise, Feedback, as_variant, make_feedback, variant_repr
from rummykit.exercises.positions import HandAndTable, hand_html, hand_without
from rummykit.messages import join, render
from rummykit.solver import best_arrangement, can_go_out, min_deadwood
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["BestDiscard", "DeadwoodValue", "GoOut"]


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
        object.__setattr__(self, "variant", as_variant(variant))

    def __repr__(self) -> str:
        return f"DeadwoodValue('{format_cards(self.hand)}', {variant_repr(self.variant)})"

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
        return check_number(
            answer, self.arrangement.deadwood_value, self.mistakes(), self.explanation, self.hand
        )

    def figure_html(self) -> str:
        return hand_html(self.hand)


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
        object.__setattr__(self, "variant", as_variant(variant))

    def __repr__(self) -> str:
        return f"BestDiscard('{format_cards(self.hand)}', {variant_repr(self.variant)})"

    def left(self, card: Card) -> tuple[Card, ...]:
        """The hand after discarding ``card``."""
        return hand_without(self.hand, card)

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
        card = read_card(answer, self.hand)
        table = self.deadwood
        best = self.best
        more = table[card] - table[best[0]]
        return make_feedback(
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
        return hand_html(self.hand)


@dataclass(frozen=True, repr=False, init=False)
class GoOut(HandAndTable):
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
        return hand_without(self.hand, card)

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
            return read_card(answer, self.hand, self.accepts)
        text = clean_answer(answer)
        lead = re.match(r"([^\W\d]+)[\s,;:!]+(.*)$", text)
        if lead and says(answer_words(lead.group(1)), "yes"):
            text = lead.group(2)
        text = re.sub(r"^(?:by\s+)?(?:discarding|discard|with)\s+", "", text, flags=re.I)
        return read_card(text, self.hand, self.accepts, typed=answer)

    def _judge(self, answer: object) -> Feedback:
        found = self.discards
        if says(answer_words(answer), "no"):
            given = render("exercise_no")
            return make_feedback(
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
        feedback = make_feedback(
            card in found,
            given,
            self.answer,
            render("exercise_go_out_right", given=given),
            wrong,
            lines,
        )
        return replace(feedback, others=tuple(str(c) for c in others) if card in found else ())
