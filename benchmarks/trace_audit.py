"""How true are the computer players' reasoning traces? An independent audit, at scale.

Plays seeded games — both variants, 2, 3 and 4 players, the four levels mixed over the
seats — and re-derives every claim of every decision's trace from the seat's observation
with the test suite's own rulebook arithmetic (``tests/rulebook.py``, ``tests/trace_audit.py``:
no code shared with ``rummykit.ai`` or ``rummykit.solver``). Prints, per level and per
variant, the decisions audited and those with at least one false claim, then every class of
false claim with the decisions it was found in (per level) and one reproducer: a Python
snippet that replays the game to that decision and prints its trace.

The claims checked exactly and those checked only for consistency are listed in the
docstring of ``tests/trace_audit.py``.

Run:  .venv/bin/python benchmarks/trace_audit.py [--decisions 10000] [--seed 1]
      [--languages pt,fi] [--no-hints] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import trace_audit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=10000, help="at least this many")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the games' seeds")
    parser.add_argument(
        "--languages",
        default="pt,fi",
        help="languages whose rendering is checked too (comma-separated; empty: none)",
    )
    parser.add_argument("--no-hints", action="store_true", help="don't audit the hints")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    languages = tuple(x for x in args.languages.split(",") if x)

    def progress(done: int) -> None:
        if not args.json:
            print(f"\r{done} decisions", end="", file=sys.stderr, flush=True)

    report = trace_audit.run(
        args.decisions, args.seed, languages=languages, hints=not args.no_hints, progress=progress
    )
    if not args.json:
        print(file=sys.stderr)
    data = report.to_dict()
    data["settings"] = {
        "decisions": args.decisions,
        "seed": args.seed,
        "languages": list(languages),
        "hints": not args.no_hints,
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    total = report.decisions["all"]
    print(
        f"{total} decisions audited in {report.seconds:.0f} s "
        f"({total / max(report.seconds, 1e-9):.0f} a second, the agents' own time included); "
        f"seed {args.seed}, languages {', '.join(languages) or 'none'}"
    )
    print()
    print("| decisions of | decisions | with a false claim | in English alone |")
    print("|---|---|---|---|")
    keys = [
        *trace_audit.LEVELS,
        "variant:rommi",
        "variant:hungarian",
        *(f"players:{n}" for n in (2, 3, 4)),
        "all",
    ]
    for key in keys:
        n, bad, en = report.decisions[key], report.false[key], report.false_english[key]
        if n:
            print(
                f"| {key.split(':')[-1] + (' players' if key.startswith('players') else '')} "
                f"| {n} | {bad} ({100 * bad / n:.1f} %) "
                f"| {en} ({100 * en / n:.1f} %) |"
            )
    print()
    print("| class | decisions | " + " | ".join(trace_audit.LEVELS) + " |")
    print("|---|---|" + "---|" * len(trace_audit.LEVELS))
    for code, entry in data["classes"].items():
        counts = entry["decisions"]
        per = " | ".join(str(counts.get(level, 0)) for level in trace_audit.LEVELS)
        print(f"| {code} | {counts['all']} | {per} |")
    for code, entry in data["classes"].items():
        example = entry["example"]
        print()
        print(f"## {code}")
        print(f"{example['where']}: “{example['claim']}”")
        print(f"true: {example['truth']}")
        print(example["code"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
