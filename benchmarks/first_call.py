"""The first solver call per variant in a process: what building the variant's tables costs.

For each variant (and house rules with other ace places), a fresh interpreter imports the
solver, then times its first call and, at once, the same call again (the second call is the
solver without any table to build). Runs alternate between the variants; the figure is the
median over runs of the first call, with the second call's median beside it.

Run:  .venv/bin/python benchmarks/first_call.py [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

VARIANTS = {
    "hungarian": "variant('hungarian')",
    "rommi": "variant('rommi')",
    "gin (ace low only)": "variant('rommi', ace_low=True, ace_above_king=False)",
    "rommi, ace both ways": "variant('rommi', ace_low=True)",
}
CALLS = {
    "min_deadwood": "min_deadwood(hand, v)",
    "min_deadwood, discard": "min_deadwood(hand, v, discard=True)",
    "best_arrangement": "best_arrangement(hand, v)",
    "best_opening": "best_opening(hand, v)",
}
HAND = "5♥ 6♥ 7♥ 9♠ 9♦ 9♣ K♦ 2♣ 4♠ Q♦ J♦"

PROGRAM = """
import json, time
from rummykit.solver import best_arrangement, best_opening, min_deadwood
from rummykit.variants import variant
from rummykit.cards import parse_cards
v = {variant}
hand = parse_cards({hand!r})
clock = time.perf_counter
start = clock(); {call}; first = clock() - start
start = clock(); {call}; second = clock() - start
print(json.dumps([first, second]))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    results: dict[tuple[str, str], list[list[float]]] = {}
    for _ in range(args.runs):
        for call_name, call in CALLS.items():
            for name, made in VARIANTS.items():
                code = PROGRAM.format(variant=made, hand=HAND, call=call)
                out = subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                results.setdefault((call_name, name), []).append(json.loads(out))
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.runs} runs each")
    print(f"hand: {HAND}")
    worst = 0.0
    for (call_name, name), runs in results.items():
        first = statistics.median(r[0] for r in runs) * 1e3
        second = statistics.median(r[1] for r in runs) * 1e3
        worst = max(worst, first)
        print(f"  {call_name:<22} {name:<22} first {first:6.2f} ms   then {second:6.3f} ms")
    print(f"slowest first call (median over runs): {worst:.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
