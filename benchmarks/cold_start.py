"""Cold starts: what ``import rummykit`` adds to a bare interpreter, and what the first solver
call per variant costs in a fresh process (the tables it builds), bytecode cached.

``import`` — each run starts a fresh interpreter; runs alternate between a bare one (``python
-c pass``), one that imports rummykit, one that then uses a public name and one that imports
the referee, so load from elsewhere falls on all alike. The figure is the median over runs of
(import − bare), with the quartiles beside it. Bytecode is compiled once before timing starts;
the run checks that no Jupyter module is imported.

``first-call`` — for each variant (and house rules with other ace places) and each solver
call, a fresh interpreter imports the solver, then times its first call and, at once, the same
call again (the solver with every table built). Runs alternate between the variants and
calls; the figure is the median over runs of the first call, the second call's beside it.

Run:  .venv/bin/python benchmarks/cold_start.py import [--runs 40]
      .venv/bin/python benchmarks/cold_start.py first-call [--runs 15] [--against DIR]
                                                    [--clock process_time]
      .venv/bin/python benchmarks/cold_start.py              (both)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = {
    "bare interpreter": "pass",
    "import rummykit": "import rummykit",
    "import rummykit; rummykit.check_meld(...)": "import rummykit; rummykit.check_meld('K♠ A♠ 2♠')",
    "from rummykit.game import Game": "from rummykit.game import Game",
}
JUPYTER = ("ipywidgets", "anywidget", "IPython", "traitlets", "ipykernel")


def run_once(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return time.perf_counter() - start


def import_time(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="import rummykit over a bare interpreter")
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args(argv)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    check = "import rummykit, sys; rummykit.check_meld('K♠ A♠ 2♠'); " + (
        f"assert not [m for m in {JUPYTER!r} if m in sys.modules]"
    )
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "rummykit")], check=True)
    subprocess.run([sys.executable, "-c", check], env=env, check=True)  # no Jupyter module
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.runs):
        for name, code in CASES.items():
            times[name].append(run_once(code, env))
    bare = times["bare interpreter"]
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.runs} runs each")
    print(f"  bare interpreter: median {statistics.median(bare) * 1e3:6.1f} ms")
    for name in list(CASES)[1:]:
        extra = sorted((t - b) * 1e3 for t, b in zip(times[name], bare))
        q1, median, q3 = statistics.quantiles(extra, n=4)
        print(f"  {name:<44} + {median:5.1f} ms over bare (quartiles {q1:5.1f} – {q3:5.1f})")
    return 0


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
clock = time.{clock}
start = clock(); {call}; first = clock() - start
start = clock(); {call}; second = clock() - start
print(json.dumps([first, second]))
"""


def first_call(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="the first solver call per variant")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--against",
        metavar="DIR",
        help="another checkout's directory (e.g. an older commit's, from git archive):"
        " its first calls are timed too, each run right after ours, and the ratio printed",
    )
    parser.add_argument(
        "--clock",
        choices=("perf_counter", "process_time"),
        default="perf_counter",
        help="process_time: the process's CPU time (leaves out the wait for a core)",
    )
    args = parser.parse_args(argv)
    trees = {"ours": ROOT, **({"theirs": Path(args.against)} if args.against else {})}
    results: dict[tuple[str, str, str], list[list[float]]] = {}
    for _ in range(args.runs):
        for call_name, call in CALLS.items():
            for name, made in VARIANTS.items():
                code = PROGRAM.format(variant=made, hand=HAND, call=call, clock=args.clock)
                for tree, path in trees.items():
                    out = subprocess.run(
                        [sys.executable, "-c", code],
                        env={**os.environ, "PYTHONPATH": str(path)},
                        cwd=path,  # the working directory comes first on sys.path
                        capture_output=True,
                        text=True,
                        check=True,
                    ).stdout
                    results.setdefault((tree, call_name, name), []).append(json.loads(out))
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.runs} runs each,"
        f" time.{args.clock}"
    )
    print(f"hand: {HAND}" + (f"; against {args.against}" if args.against else ""))
    worst = 0.0
    for call_name in CALLS:
        for name in VARIANTS:
            runs = results[("ours", call_name, name)]
            first = statistics.median(r[0] for r in runs) * 1e3
            slowest = max(r[0] for r in runs) * 1e3
            second = statistics.median(r[1] for r in runs) * 1e3
            worst = max(worst, first)
            line = (
                f"  {call_name:<22} {name:<22} first {first:6.2f} ms (slowest {slowest:6.2f})"
                f"   then {second:6.3f} ms"
            )
            if args.against:
                theirs = results[("theirs", call_name, name)]
                ratio = statistics.median(t[0] / o[0] for t, o in zip(theirs, runs))
                line += f"   against: first {statistics.median(t[0] for t in theirs) * 1e3:6.2f}"
                line += f" ms ({ratio:.1f}× ours)"
            print(line)
    print(f"slowest first call (median over runs): {worst:.2f} ms")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    part = args.pop(0) if args and not args[0].startswith("-") else "both"
    if part in ("import", "both"):
        import_time(args)
    if part in ("first-call", "both"):
        first_call(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
