"""What each of hard's habits is worth: hard with one habit switched off, against normal.

Each variant of hard below changes one thing (its pre-opening search, its draws, holding
melds, its search of discards, its joker and feeding values — normal's instead — its
search's horizon: the next draw only, or a short deal played for the least deadwood
instead of the lowest hand, its lay-offs made at once in a short deal) and plays
the same seeded deals against normal, seats rotated, like ``ai_strength.py``. A variant
that does better than hard itself points at the habit that costs hard points.

Run (one table, a few minutes):

    nice -n 10 .venv/bin/python benchmarks/ai_habits.py --variant rommi --players 2 \\
        --hard-seats 1 --rounds 240 --seed 77 --habits hard,no-hold,normal-discards

The last column pairs every variant with the first one listed, deal by deal (the same
seeded deals and seatings): the luck of the deal cancels, so the interval is narrower
than the difference of the two "− normal" figures.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence

from rummykit.ai.agents import HardAgent, NormalAgent
from rummykit.ai.trace import Candidate, Note
from rummykit.cards import Card
from rummykit.game.actions import Discard
from rummykit.game.observation import Observation
from rummykit.tournament import GameRecord, run_tournament


class NoHold(HardAgent):
    """Hard that lays its melds down at once (no holding back in Rommi)."""

    name = "no-hold"

    def holds_melds(self, obs: Observation) -> bool:
        return False


class NormalDiscards(HardAgent):
    """Hard that throws away what normal would (no discard search at all)."""

    name = "normal-discards"

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        return NormalAgent.score_discards(self, obs, discards)


class NormalBeforeOpening(HardAgent):
    """Hard that throws away what normal would before its opening (Hungarian)."""

    name = "normal-before-opening"

    def score_discards(self, obs: Observation, discards: list[Discard]) -> list[Candidate]:
        if obs.variant.opening_threshold and not obs.opened[obs.seat]:
            return NormalAgent.score_discards(self, obs, discards)
        return super().score_discards(obs, discards)


class NormalDraws(HardAgent):
    """Hard that takes the discard when normal would."""

    name = "normal-draws"

    def judge_discard_take(self, obs: Observation, top: Card) -> tuple[bool, Note]:
        return NormalAgent.judge_discard_take(self, obs, top)


class NormalValues(HardAgent):
    """Hard with normal's values for a joker kept (60) and for feeding the next player (8)."""

    name = "normal-values"
    joker_keep = NormalAgent.joker_keep
    feed_penalty = NormalAgent.feed_penalty


class OneDraw(HardAgent):
    """Hard whose search looks at the next draw only (no later draws: the search before
    issue 12's last change)."""

    name = "one-draw"
    later_cap = 0


class LeastDeadwood(HardAgent):
    """Hard that plays a short deal (Rommi with 4 players) for the least deadwood, as at
    the other tables, rather than for the lowest hand at the empty stock (R10)."""

    name = "least-deadwood"
    short_deal = 0


class LayOffNow(HardAgent):
    """Hard that lays its cards off onto the table at once in a short deal, while it keeps
    its melds in hand (the habit before it kept the lay-offs too)."""

    name = "layoffs-now"

    def lays_off_onto(self, obs: Observation, meld: int) -> bool:
        return True


HABITS: dict[str, type[HardAgent]] = {
    "hard": HardAgent,
    **{
        c.name: c
        for c in (
            NoHold,
            NormalDiscards,
            NormalBeforeOpening,
            NormalDraws,
            NormalValues,
            OneDraw,
            LeastDeadwood,
            LayOffNow,
        )
    },
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("rommi", "hungarian"), default="rommi")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--hard-seats", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=48)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--habits", default=",".join(HABITS))
    args = parser.parse_args()
    n, k = args.players, args.hard_seats
    print(
        f"# {args.variant}, {n} players, hard {k} seat(s), {args.rounds} rounds, seed {args.seed}"
    )
    names = args.habits.split(",")
    print(f"| hard variant | − normal (95% CI) | − {names[0]}, paired by deal (95% CI) | time |")
    print("|---|---|---|---|")
    first: dict[int, float] = {}
    for name in names:
        agent = HABITS[name]
        start = time.perf_counter()
        result = run_tournament(
            args.variant, n, [agent] * k + [NormalAgent] * (n - k), games=args.rounds,
            seed=args.seed, workers=1,
        )  # fmt: skip
        cmp = result.comparison(agent.name, "normal")
        assert cmp.ci is not None
        deals = per_deal(result.records, agent.name, n)
        paired = "—"
        if first:
            lo, mean, hi = interval([deals[d] - first[d] for d in deals])
            paired = f"{mean:+.2f} [{lo:+.2f}, {hi:+.2f}]"
        else:
            first = deals
        print(
            f"| {name} | {cmp.difference:+.2f} [{cmp.ci[0]:+.2f}, {cmp.ci[1]:+.2f}] | {paired} | "
            f"{time.perf_counter() - start:.0f} s |",
            flush=True,
        )


def per_deal(records: Sequence[GameRecord], agent: str, players: int) -> dict[int, float]:
    """For each deal (its rotations together), the agent's mean points per seat less the
    others': the same deals in every run, so two runs' values pair deal by deal."""
    sums: dict[int, list[float]] = {}
    for record in records:
        row = sums.setdefault(record.index // players, [0.0, 0.0, 0.0, 0.0])
        for seat, who in enumerate(record.seating):
            mine = who == agent
            row[0 if mine else 2] += record.points[seat]
            row[1 if mine else 3] += 1
    return {deal: a / b - c / d for deal, (a, b, c, d) in sums.items()}


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean - half, mean, mean + half


if __name__ == "__main__":
    main()
