"""The computer opponents decide exactly as another checkout's do, and how long each takes.

A solver change meant to be faster must not change what any agent decides. This plays
seeded rounds of both variants, 2, 3 and 4 players, every seat at one level, twice in step:
once with this tree's ``rummykit`` and once with another checkout's (``--against DIR``, e.g.
the commit before the change, from ``git archive``), each game driven by its own agents. At
every turn it checks that both agents chose the same action with the same reasoning (the
whole trace, every candidate's score and sentence, as JSON), and times both decisions on the
same clock. It stops at the first difference and prints the position.

Run:  .venv/bin/python benchmarks/ai_same_decisions.py --against /tmp/base
      [--rounds 20] [--seed 1] [--levels easy,normal,hard] [--clock cpu] [--only hungarian]
Make the other tree with:  git archive <commit> rummykit | tar -x -C /tmp/base
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from can_go_out_crowded_table import other_tree

from rummykit.ai import LEVELS, make_agent
from rummykit.game import Game

SETUPS = tuple((v, n) for v in ("rommi", "hungarian") for n in (2, 3, 4))


def trace_json(decision: Any) -> str:
    """A decision's action and whole trace as one comparable text."""
    return json.dumps([repr(decision.action), decision.trace.to_dict()], sort_keys=True)


def timed(agent: Any, obs: Any, clock: Any) -> tuple[Any, float]:
    """An agent's decision on an observation, and the time it took."""
    start = clock()
    decision = agent.decide(obs)
    return decision, clock() - start


def compare(
    variant: str,
    players: int,
    level: str,
    rounds: int,
    seed: int,
    clock: Any,
) -> tuple[list[float], list[float], tuple[float, int, int]]:
    """Both trees' decision times (seconds) over ``rounds`` seeded rounds, decisions checked
    equal; and the slowest of ours as (seconds, round seed, decision number)."""
    their_game_cls = importlib.import_module("rummykit_other.game").Game
    their_make = importlib.import_module("rummykit_other.ai").make_agent
    ours_t: list[float] = []
    theirs_t: list[float] = []
    slowest = (0.0, 0, 0)
    for number in range(rounds):
        game_seed = seed * 1000 + number
        game = Game.new(variant, players=players, seed=game_seed)
        theirs = their_game_cls.new(variant, players=players, seed=game_seed)
        agents = [make_agent(level) for _ in range(players)]
        their_agents = [their_make(level) for _ in range(players)]
        turn = 0
        while not game.is_over:
            assert not theirs.is_over
            seat = game.current
            assert theirs.current == seat
            obs = game.observation(seat)
            their_obs = theirs.observation(seat)
            # the two alternate going first, so that neither always finds the other's
            # work in the processor's caches
            if turn % 2:
                their, their_t = timed(their_agents[seat], their_obs, clock)
                mine, mine_t = timed(agents[seat], obs, clock)
            else:
                mine, mine_t = timed(agents[seat], obs, clock)
                their, their_t = timed(their_agents[seat], their_obs, clock)
            ours_t.append(mine_t)
            theirs_t.append(their_t)
            slowest = max(slowest, (mine_t, game_seed, turn))
            a, b = trace_json(mine), trace_json(their).replace("rummykit_other", "rummykit")
            if a != b:
                print(f"DIFFERENT: {variant} {players}p {level}, seed {game_seed}, turn {turn}")
                print(f"  hand: {' '.join(map(str, obs.hand))}")
                print(f"  ours:   {mine.action!r}\n  theirs: {their.action!r}")
                raise SystemExit(1)
            game.play(mine.action, seat)
            theirs.play(their.action, seat)
            turn += 1
        assert theirs.is_over
    return ours_t, theirs_t, slowest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, metavar="DIR", help="the other checkout")
    parser.add_argument("--rounds", type=int, default=20, help="rounds per level and setup")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--clock", choices=("wall", "cpu"), default="cpu")
    parser.add_argument("--only", choices=("rommi", "hungarian"), default=None)
    args = parser.parse_args(argv)
    if args.against is None:  # (make bench runs every script without arguments)
        print("Nothing to compare with: give --against DIR, another checkout's tree, e.g.")
        print("  git archive <commit> rummykit | tar -x -C /tmp/base")
        return 0
    other_tree(args.against)
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(
        f"# Python {platform.python_version()}, {args.rounds} rounds per row, seed {args.seed},"
        f" {args.clock} clock, load {os.getloadavg()[0]:.1f}; ours = this tree, theirs ="
        f" {args.against}"
    )
    print(
        f"{'variant':<10} {'players':>7} {'level':<7} {'decisions':>9} {'same':>5} "
        f"{'ours median':>11} {'ours max':>9} {'theirs median':>13} {'theirs max':>10}"
        "  our slowest (round seed, turn)"
    )
    for variant, players in SETUPS:
        if args.only and variant != args.only:
            continue
        for level in args.levels.split(","):
            ours, theirs, slowest = compare(variant, players, level, args.rounds, args.seed, clock)
            print(
                f"{variant:<10} {players:>7} {level:<7} {len(ours):>9} {'yes':>5} "
                f"{statistics.median(ours) * 1e3:>8.2f} ms {max(ours) * 1e3:>6.1f} ms"
                f" {statistics.median(theirs) * 1e3:>10.2f} ms {max(theirs) * 1e3:>7.1f} ms"
                f"  {slowest[1]}, {slowest[2]}",
                flush=True,
            )
    print("every decision the same: yes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
