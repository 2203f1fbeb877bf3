"""Scoring a round, explained line by line (H12, H13, H15; R8, R10, R11).

Hungarian (low score wins): going out scores −10, or −20 for opening and going out in one
turn with one's own new melds; everyone else counts their hand (joker 20), or a flat 100 if
they never opened. Rommi (high score wins): the winner adds the values left in the other
hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from rummykit.cards import Card, parse_card, sort_cards
from rummykit.explain import Reason
from rummykit.messages import render
from rummykit.variants import Variant

__all__ = ["Ending", "RoundResult", "hand_value", "score_round"]

Ending = Literal[
    "went_out", "stock_exhausted", "nothing_to_reshuffle", "empty_stock", "no_progress"
]
"""How a round ended: someone went out (H12, R7); the stock ran out with nothing to
reshuffle, or twice (H15); the stock ran out (R10); no progress after it (R11)."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended: the winner (or None), the points each seat scores, and why."""

    winner: int | None
    how: Ending
    points: tuple[int, ...]
    lines: tuple[Reason, ...]

    def __str__(self) -> str:
        return " ".join(str(r) for r in self.lines)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "winner": self.winner,
            "how": self.how,
            "points": list(self.points),
            "lines": [r.to_dict() for r in self.lines],
        }

    def to_wire(self) -> dict[str, Any]:
        """A JSON form :meth:`from_wire` reads back whole: each line's code, rule and
        parameters (cards as text), so a page can say it in its own language and person.

        >>> import json
        >>> from rummykit import HUNGARIAN, parse_cards
        >>> result = score_round(HUNGARIAN, [(), parse_cards("K♠ 7♥")], [True, True], 0, "went_out")
        >>> back = RoundResult.from_wire(json.loads(json.dumps(result.to_wire())))
        >>> back == result, str(back) == str(result)
        (True, True)
        """
        return {
            "winner": self.winner,
            "how": self.how,
            "points": list(self.points),
            "lines": [
                {
                    "code": r.code,
                    "rule": r.rule,
                    "params": {
                        k: [str(c) for c in v] if isinstance(v, (tuple, list)) else v
                        for k, v in r.params.items()
                    },
                }
                for r in self.lines
            ],
        }

    @classmethod
    def from_wire(cls, data: dict[str, Any]) -> RoundResult:
        """The result :meth:`to_wire` wrote (a list of texts in a line's parameters is
        cards)."""
        lines = tuple(
            Reason(
                str(line["code"]),
                line.get("rule"),
                params={
                    k: tuple(parse_card(c) for c in v) if isinstance(v, list) else v
                    for k, v in dict(line.get("params", {})).items()
                },
                failing=False,
            )
            for line in data["lines"]
        )
        how = data["how"]
        if how not in get_args(Ending):
            raise ValueError(render("round_result_bad_ending", value=str(how)[:40]))
        return cls(data["winner"], how, tuple(int(p) for p in data["points"]), lines)


def hand_value(cards: tuple[Card, ...] | list[Card], variant: Variant) -> int:
    """The value of cards left in hand (H13, R8).

    >>> from rummykit import HUNGARIAN, parse_cards
    >>> hand_value(parse_cards("K♠ 7♥ 🃏"), HUNGARIAN)
    37
    """
    return sum(variant.card_value(c) for c in cards)


def score_round(
    variant: Variant,
    hands: Sequence[Sequence[Card]],
    opened: Sequence[bool],
    winner: int | None,
    how: Ending,
    own_melds: bool = False,
) -> RoundResult:
    """The points each seat scores for this round, and the lines that explain them.

    ``own_melds``: the winner opened and went out in the same turn with only new melds
    of their own (H12's −20).

    >>> from rummykit import HUNGARIAN, parse_cards
    >>> result = score_round(HUNGARIAN, [(), parse_cards("K♠ 7♥")], [True, True], 0, "went_out")
    >>> result.points
    (-10, 17)
    """
    players = len(hands)
    values = [hand_value(tuple(h), variant) for h in hands]
    lines: list[Reason] = []

    def line(code: str, topic: str, seat: int, **params: object) -> None:
        lines.append(Reason(code, variant.rule(topic), (), {"seat": seat, **params}, False))

    def hand_line(seat: int) -> None:  # what a seat scores for the cards left in hand
        cards = sort_cards(hands[seat]) or "no cards"
        line("score_hand", "penalty", seat, cards=cards, points=values[seat])

    if variant.low_score_wins:
        points = [0] * players
        if winner is None:
            code = {
                "stock_exhausted": "score_no_winner",
                "nothing_to_reshuffle": "score_nothing_to_reshuffle",
            }.get(how, "score_deal_ended")
            lines.append(Reason(code, variant.rule("empty_stock"), (), {}, False))
        for seat in range(players):
            if seat == winner:
                own = own_melds
                points[seat] = variant.go_out_hand_points if own else variant.go_out_points
                code = "score_went_out_hand" if own else "score_went_out"
                line(code, "going_out", seat, points=points[seat])
            elif not opened[seat] and variant.unopened_penalty:
                points[seat] = variant.unopened_penalty
                line("score_unopened", "penalty", seat, points=points[seat])
            else:
                points[seat] = values[seat]
                hand_line(seat)
        return RoundResult(winner, how, tuple(points), tuple(lines))

    # the winner takes what is left in the other hands (R8)
    if winner is None:
        lowest = min(values)
        winner = values.index(lowest)  # ties: the first in seat order (R10)
        tied = values.count(lowest) > 1
        code = "score_no_progress" if how == "no_progress" else "score_empty_stock"
        lines.append(
            Reason(
                code,
                variant.rule("endless" if how == "no_progress" else "empty_stock"),
                (),
                {},
                False,
            )
        )
        line(
            "score_lowest_hand_tie" if tied else "score_lowest_hand",
            "empty_stock",
            winner,
            value=lowest,
        )
    else:
        line("score_out", "going_out", winner)
    gain = sum(v for seat, v in enumerate(values) if seat != winner)
    points = [gain if seat == winner else 0 for seat in range(players)]
    for seat in range(players):
        if seat != winner:
            hand_line(seat)
    line("score_winner_takes", "penalty", winner, points=gain)
    return RoundResult(winner, how, tuple(points), tuple(lines))
