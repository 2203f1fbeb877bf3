"""Exercises on the referee's rulings: may the turn end now, and what does a move make happen."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from html import escape
from typing import TYPE_CHECKING, Any, ClassVar

from rummykit.cards import Card, CardsLike, as_cards, format_cards, parse_card
from rummykit.display import cards_html
from rummykit.errors import RummykitError
from rummykit.explain import Verdict
from rummykit.messages import render
from rummykit.variants import HUNGARIAN, Variant

if TYPE_CHECKING:
    from rummykit.game.actions import DrawSource
from rummykit.exercises.answers import answer_words, says
from rummykit.exercises.base import (
    Exercise,
    Feedback,
    as_variant,
    bad_answer,
    house_title,
    make_feedback,
    rules_of,
    sentences_of,
)
from rummykit.exercises.positions import hand_html, set_up_game, table_html

__all__ = ["TurnCanEnd", "WhatHappens"]

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

        rules = as_variant(variant)
        game = set_up_game(
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
            variant=house_title(v),
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
        cited = rules_of(status.obligations)
        if self._free_take is not None:
            cited = (*cited, self.variant.rule("discard_take"))
        return tuple(dict.fromkeys(cited)) or (self.variant.rule("turn"),)

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(r.code for r in self.game.turn_status().obligations)

    def _judge(self, answer: object) -> Feedback:
        words = answer_words(answer)
        if says(words, "yes"):
            given = True
        elif says(words, "no"):
            given = False
        else:
            raise bad_answer(answer, self.accepts)
        said = render("exercise_yes" if given else "exercise_no")
        can = self.can_end
        code = "exercise_turn_wrong_yes" if given else "exercise_turn_wrong_no"
        return make_feedback(
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
            variant=house_title(self.variant),
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
            return sentences_of(verdict)
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
            return rules_of(verdict.failures)
        if outcome == "ends":
            return rules_of(game.result.lines)
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
        words = answer_words(answer)
        for lead in ("it is ", "it's ", "the move is ", "it ", "the "):
            words = words.removeprefix(lead)
        given = next((o for o in self.OUTCOMES if says(words, o)), None)
        if given is None:
            raise bad_answer(answer, self.accepts)
        said, actual = self._word(given), self._word(self.outcome)
        return make_feedback(
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
        return hand_html(game.hand(game.current), table_html(melds))
