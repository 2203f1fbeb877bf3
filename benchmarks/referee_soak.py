"""A long soak of the referee: the random-play test with teeth, over many more rounds.

``tests/test_game_simulation.py`` plays 200 seeded rounds in ``make test`` (both variants,
2–4 players, the main house rules, illegal and garbage actions, Undo, save/load round trips,
permuted hidden cards). This script plays the same rounds from other seeds for as long as it
is asked, and prints how the rounds ended and how many hostile actions were refused::

    python benchmarks/referee_soak.py --rounds 2000
    python benchmarks/referee_soak.py --seconds 600 --first-seed 100000

It stops at the first broken invariant with the seed that reproduces it (exit status 1).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_game_simulation import play_round


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per variant")
    parser.add_argument(
        "--seconds", type=float, default=0, help="stop after this long (0: no limit)"
    )
    parser.add_argument("--first-seed", type=int, default=10_000, help="seed of the first round")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    ends: Counter[tuple[str, str]] = Counter()
    played = 0
    for offset in range(args.rounds):
        for variant in ("hungarian", "rommi"):
            seed = args.first_seed + offset
            players = 2 + seed % 3
            try:
                game = play_round(variant, players, seed)
            except AssertionError as error:  # a broken invariant: say how to find it again
                print(f"FAILED {variant}, {players} players, seed {seed}: {error}")
                return 1
            assert game.result is not None
            ends[(variant, game.result.how)] += 1
            played += 1
        if args.seconds and time.perf_counter() - start > args.seconds:
            break
    elapsed = time.perf_counter() - start
    print(f"{played} rounds in {elapsed:.1f} s ({elapsed / max(played, 1) * 1000:.0f} ms a round)")
    for (variant, how), count in sorted(ends.items()):
        print(f"  {variant:<10} {how:<16} {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
