"""What ``import rummykit`` adds to a bare interpreter's start, bytecode cached.

Each run starts a fresh interpreter; runs alternate between a bare one (``python -c pass``)
and one that imports rummykit (and, on further lines, one that then uses a public name, and
the first call of the solver per variant), so load from elsewhere falls on all alike. The
figure is the median over runs of (import − bare), with the quartiles beside it. Bytecode is
compiled once before timing starts; no module is imported from Jupyter.

Run:  .venv/bin/python benchmarks/import_time.py [--runs 40]
"""

from __future__ import annotations

import argparse
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
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


if __name__ == "__main__":
    raise SystemExit(main())
