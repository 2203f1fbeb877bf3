"""The full puzzle check: 1,000 puzzles per kind (the suite runs 120 per kind).

Every puzzle must have exactly one best answer by the solver, and the checker must accept
it and refuse every other answer with a reason (tests/test_puzzles.py, run with
``RUMMYKIT_PUZZLES``). Run from the repository root::

    python benchmarks/puzzles_full.py [COUNT]
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def main() -> int:
    count = sys.argv[1] if len(sys.argv) > 1 else "1000"
    env = {**os.environ, "RUMMYKIT_PUZZLES": count}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "tests/test_puzzles.py",
         "-k", "one_best_answer", "--durations=0"],
        env=env,
        check=False,
    )  # fmt: skip
    print(f"{count} puzzles per kind: {time.perf_counter() - start:.0f} s, exit {done.returncode}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
