"""The joker exercise: which joker on the table can you free, and with which card (H11)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar

from rummykit.cards import Card, format_cards, parse_card
from rummykit.errors import RummykitError
from rummykit.exercises.answers import answer_words, clean_answer, says
from rummykit.exercises.base import Feedback, bad_answer, make_feedback, sentences_of
from rummykit.exercises.positions import HandAndTable, set_up_game
from rummykit.explain import Verdict
from rummykit.messages import join, render
from rummykit.variants import Variant

__all__ = ["FreeJoker"]


@dataclass(frozen=True, repr=False, init=False)
class FreeJoker(HandAndTable):
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
        return set_up_game(
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
        before = sentences_of(game.check(first))
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
            *sentences_of(verdict),
            render("exercise_joker_then", rule=self.variant.rule("joker_exchange")),
        )

    @property
    def rules(self) -> tuple[str, ...]:
        return (self.variant.rule("joker_exchange"),)

    def _judge(self, answer: object) -> Feedback:
        found = self.exchanges
        words = answer_words(answer)
        if says(words, "no"):
            given = render("exercise_layoff_none")
            return make_feedback(
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
            text = re.sub(
                rf"^(exchange|{re.escape(verb)})\s+", "", clean_answer(answer), flags=re.I
            )
        else:
            raise bad_answer(answer, self.accepts)
        m = re.fullmatch(r"(\S+)\s+[^\d]*?([0-9]{1,3})", text)
        if not m:
            raise bad_answer(answer, self.accepts)
        card = parse_card(m.group(1))  # a card that doesn't read: check() says what to answer
        index = int(m.group(2)) - 1  # people number melds from 1
        if not 0 <= index < len(self.table):
            raise bad_answer(answer, self.accepts)
        right = (str(card), index) in self.routes
        given = (
            self._way(str(card), index)
            if right
            else render("exercise_joker_answer", card=card, number=index + 1)
        )
        verdict, before = self._verdict(card, index)
        lines = (*before, *sentences_of(verdict))
        others = [self._way(c, i) for c, i in found if (c, i) != (str(card), index)]
        if not right:
            lines += self.explanation
        elif others:
            lines += (render("exercise_joker_also", ways=join(others)),)
        feedback = make_feedback(
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
