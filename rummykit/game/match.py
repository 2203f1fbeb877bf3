"""A match: rounds played one after another, the dealer moving clockwise, until the end.

Hungarian (H14): 7 rounds, the lowest total wins, equal totals share the place. Rommi (R9):
rounds until someone reaches the target at the end of a round; the highest score wins,
ties broken by the lowest seat.

>>> match = Match("rommi", players=2, seed=1, target=30)
>>> game = match.new_round()
>>> game.dealer, match.round_number
(0, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rummykit.errors import RummykitError
from rummykit.game.actions import Action
from rummykit.game.state import Game
from rummykit.messages import render
from rummykit.variants import Variant
from rummykit.variants import variant as get_variant

__all__ = ["Match", "Standing"]


@dataclass(frozen=True, slots=True)
class Standing:
    """A seat's place in the match: ``place`` 1 is best; tied seats share a place."""

    place: int
    seat: int
    total: int

    def __str__(self) -> str:
        return render("standing", place=self.place, seat=self.seat, total=self.total)


class Match:
    """Rounds of one variant between the same seats, with running totals."""

    def __init__(
        self,
        variant: str | Variant = "hungarian",
        players: int = 2,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        self.variant = get_variant(variant, **options)
        self.variant.check_players(players)
        self.players = players
        self.seed = seed
        self._seeds = random.Random(seed)
        self.rounds: list[Game] = []

    @property
    def round_number(self) -> int:
        """How many rounds have been dealt."""
        return len(self.rounds)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the finished rounds."""
        totals = [0] * self.players
        for game in self.rounds:
            if game.result is not None:
                for seat, points in enumerate(game.result.points):
                    totals[seat] += points
        return tuple(totals)

    @property
    def is_over(self) -> bool:
        """Whether the match has ended (all rounds played, or the target reached)."""
        if not self.rounds or not self.rounds[-1].is_over:
            return False
        v = self.variant
        if v.rounds and len(self.rounds) >= v.rounds:
            return True
        return bool(v.target) and max(self.totals) >= v.target

    def new_round(self, *, choose_cut: bool = False) -> Game:
        """Deal the next round; the dealer moves one seat clockwise each round (H2).

        With ``choose_cut=True`` a variant with a cut card waits for the cutter's
        :class:`~rummykit.game.actions.Cut` (H3) instead of cutting in the middle."""
        if self.rounds and not self.rounds[-1].is_over:
            raise RummykitError(render("match_round_unfinished"))
        if self.is_over:
            raise RummykitError(render("match_over"))
        dealer = len(self.rounds) % self.players
        game = Game.new(
            self.variant,
            self.players,
            self._seeds.randrange(2**31),
            dealer=dealer,
            match_scores=self.totals,
            choose_cut=choose_cut,
        )
        self.rounds.append(game)
        return game

    def standings(self) -> list[Standing]:
        """Places by total: low first in Hungarian, high first in Rommi; ties share."""
        totals = self.totals
        sign = 1 if self.variant.low_score_wins else -1
        order = sorted(range(self.players), key=lambda seat: (sign * totals[seat], seat))
        out: list[Standing] = []
        for i, seat in enumerate(order):
            shared = out and totals[out[-1].seat] == totals[seat]
            tie_shares = self.variant.low_score_wins  # R9 breaks ties by seat
            place = out[-1].place if shared and tie_shares else i + 1
            out.append(Standing(place, seat, totals[seat]))
        return out

    def play(self, choose: Callable[[Game], Action], max_actions: int = 100_000) -> list[Standing]:
        """Play every remaining round, asking ``choose(game)`` for each action."""
        while not self.is_over:
            game = (
                self.new_round() if not self.rounds or self.rounds[-1].is_over else self.rounds[-1]
            )
            steps = 0
            while not game.is_over:
                game.play(choose(game))
                steps += 1
                if steps > max_actions:
                    raise RuntimeError(render("match_too_long", count=max_actions))
        return self.standings()

    def __repr__(self) -> str:
        return (
            f"<Match {self.variant.name} players={self.players} seed={self.seed} "
            f"rounds={len(self.rounds)} totals={self.totals}>"
        )
