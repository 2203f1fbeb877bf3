"""Exercises on the score: what a seat scores for a round, and who wins a match (H12–H14; R8,
R9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from html import escape
from typing import Any, ClassVar

from rummykit.cards import Card, CardsLike, as_cards, format_cards
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.exercises.answers import answer_words, check_number
from rummykit.exercises.base import (
    Exercise,
    Feedback,
    as_variant,
    bad_answer,
    house_title,
    make_feedback,
    rules_of,
    variant_repr,
)
from rummykit.exercises.positions import set_up_game
from rummykit.melds import MeldSum
from rummykit.messages import join, render
from rummykit.variants import HUNGARIAN, Variant

__all__ = ["MatchWinner", "RoundScore"]


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
        rules = as_variant(variant)
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
            f"variant={variant_repr(self.variant)})"
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

        game = set_up_game(
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
            "exercise_in_variant", variant=house_title(self.variant), question=" ".join(parts)
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
        return rules_of(self.result.lines)

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
        return check_number(answer, self.points, self.mistakes(), self.explanation)

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
        rules = as_variant(variant)
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
        return f"MatchWinner({list(self.rounds)!r}, {variant_repr(self.variant)})"

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
            words = answer_words(answer)
            for lead in ("seat ", "the seat "):
                words = words.removeprefix(lead)
            if not words.isdigit() or len(words) > 3:
                raise bad_answer(answer, self.accepts)
            seat = int(words)
        if not 0 <= seat < seats:
            raise bad_answer(answer, self.accepts)
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
        return make_feedback(
            seat in self.winners,
            given,
            self.answer,
            render("exercise_seat_right", given=given),
            wrong,
            self.explanation,
            codes=codes,
        )
