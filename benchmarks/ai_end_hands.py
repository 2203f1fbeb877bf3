"""What Rommi hands are worth when a deal ends at the empty stock: the table behind hard's
play in a short deal (``rummykit.ai.planning.END_RATE`` and ``END_SPREAD``).

Seeded Rommi deals at 2, 3 and 4 players, each seat at a level drawn from easy, normal
(twice as often), hard and greedy. Whenever a seat is about to discard, the other hands'
sizes are noted with the rounds of draws the stock still holds; for the deals that end at
the empty stock (R10), each of those notes is set beside what that hand was worth at the
end. Printed: points per card held (the end value over the cards held then), by players
and rounds of draws left (3 or more together), and the spread of the end values around
``rate × cards`` as a share of it.

Run:  .venv/bin/python benchmarks/ai_end_hands.py [--deals 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import defaultdict

from rummykit.ai import make_agent
from rummykit.game import Discard, Game
from rummykit.game.scoring import hand_value

LEVELS = ("easy", "normal", "normal", "hard", "greedy")


def notes(players: int, deals: int, seed: int) -> list[tuple[int, int, int]]:
    """(rounds of draws left, cards held, value at the end) for every other hand at every
    discard, over the deals that end at the empty stock."""
    rng = random.Random(seed)
    out: list[tuple[int, int, int]] = []
    for _ in range(deals):
        game = Game.new("rommi", players, seed=rng.randrange(10**9))
        agents = [make_agent(rng.choice(LEVELS)) for _ in range(players)]
        seen: list[tuple[int, int, int]] = []
        while not game.is_over:
            seat = game.current
            obs = game.observation(seat)
            if any(isinstance(a, Discard) for a in obs.legal_actions):
                rounds = obs.stock_size // players
                seen += [(rounds, obs.hand_sizes[s], s) for s in range(players) if s != seat]
            game.play(agents[seat].decide(obs).action)
        result = game.result
        if result is None or result.how != "empty_stock":
            continue
        end = [hand_value(game.hand(s), obs.variant) for s in range(players)]
        out += [(rounds, size, end[s]) for rounds, size, s in seen if size]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per table size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| players | rounds of draws left | notes | points per card at the end | spread |")
    print("|---|---|---|---|---|")
    for players in (2, 3, 4):
        groups: dict[int, list[tuple[int, int]]] = defaultdict(list)
        for rounds, size, end in notes(players, args.deals, args.seed + players):
            groups[min(rounds, 3)].append((size, end))
        for rounds in sorted(groups):
            rows = groups[rounds]
            rate = statistics.fmean(end / size for size, end in rows)
            spread = statistics.pstdev((end - rate * size) / (rate * size) for size, end in rows)
            label = f"{rounds}" if rounds < 3 else "3 or more"
            print(f"| {players} | {label} | {len(rows)} | {rate:.2f} | {spread:.2f} |")


if __name__ == "__main__":
    main()
