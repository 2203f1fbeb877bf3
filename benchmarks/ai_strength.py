"""How strong each computer opponent is: the whole table of level against level.

For every table the variants allow — Rommi and Hungarian, 2, 3 and 4 players, default
options — and every pair of agents (hard − normal, normal − easy, and hard and normal each
against the greedy baseline), a seeded tournament is played with seats rotated (each deal
played from every seat). With 3 or 4 players each pair is played twice: the first agent
holding one seat, then holding all seats but one (the majority). Reported per row: the
difference of the mean points per seat and round (first − second, in each variant's own
scoring) with its 95% confidence interval, and a verdict — higher is better in Rommi,
lower in Hungarian, so "first stronger" means the interval lies wholly on the first
agent's good side.

Run (long: start it in the background):

    nice -n 10 .venv/bin/python benchmarks/ai_strength.py --rounds 600 --workers 2

``--rounds`` is the number of rounds per row; ``--only rommi`` or ``--players 2`` narrow the
table while developing. The output is a markdown table (docs/ai.md shows the last full run).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from rummykit.tournament import run_tournament

PAIRS = (("hard", "normal"), ("normal", "easy"), ("hard", "greedy"), ("normal", "greedy"))


def seatings(first: str, second: str, players: int) -> list[tuple[str, list[str]]]:
    """The line-ups of one pair at one table: one seat each (2 players), else the first
    agent holding one seat, then the majority."""
    if players == 2:
        return [("1 seat each", [first, second])]
    return [
        (f"{first} 1 seat", [first] + [second] * (players - 1)),
        (f"{first} {players - 1} seats", [first] * (players - 1) + [second]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=600, help="rounds per row (default 600)")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", choices=("rommi", "hungarian"), default=None)
    parser.add_argument("--players", type=int, default=None, choices=(2, 3, 4))
    parser.add_argument("--pairs", default=None, help="e.g. hard-normal,normal-easy")
    args = parser.parse_args()
    pairs = PAIRS
    if args.pairs:
        pairs = tuple(tuple(p.split("-")) for p in args.pairs.split(","))  # type: ignore[misc]
    print(
        f"<!-- Python {platform.python_version()}, {args.rounds} rounds per row, seed "
        f"{args.seed}, {args.workers} workers -->"
    )
    print("| variant | players | seats | pair | difference (95% CI) | verdict | rounds | time |")
    print("|---|---|---|---|---|---|---|---|")
    for variant in ("rommi", "hungarian"):
        if args.only and variant != args.only:
            continue
        for players in (2, 3, 4):
            if args.players and players != args.players:
                continue
            for first, second in pairs:
                for label, lineup in seatings(first, second, players):
                    start = time.perf_counter()
                    result = run_tournament(
                        variant, players, lineup, games=args.rounds, seed=args.seed,
                        workers=args.workers,
                    )  # fmt: skip
                    seconds = time.perf_counter() - start
                    cmp = next(
                        c for c in result.comparisons if {c.first, c.second} == {first, second}
                    )
                    sign = 1.0 if cmp.first == first else -1.0
                    diff = sign * cmp.difference
                    assert cmp.ci is not None
                    lo, hi = sorted((sign * cmp.ci[0], sign * cmp.ci[1]))
                    good = (lambda x: x < 0) if result.low_score_wins else (lambda x: x > 0)
                    if good(lo) and good(hi):
                        verdict = f"{first} stronger"
                    elif not good(lo) and not good(hi) and lo != 0 and hi != 0:
                        verdict = f"**{second} stronger**"
                    else:
                        verdict = "**no clear difference**"
                    print(
                        f"| {variant} | {players} | {label} | {first} − {second} | "
                        f"{diff:+.2f} [{lo:+.2f}, {hi:+.2f}] | {verdict} | "
                        f"{len(result.records)} | {seconds:.0f} s |",
                        flush=True,
                    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
