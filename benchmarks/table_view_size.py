"""What the card table sends to the browser per learner click, in bytes of JSON.

Seeded rounds of the :class:`rummykit.widgets.Table` (Hungarian 2 and 4 players, Rommi 2 and
4, the AI at ``hard`` so its log entries carry long reasoning), the learner's seat played by
clicks as the page sends them: a hint, a card selected and unselected, the stock drawn, the
costliest card selected and discarded. Every click is measured by what leaves Python: each
change of a synced trait (ipywidgets sends the trait's whole value, as its ``to_json`` makes
it, as JSON; an unchanged trait is not sent) and each custom message (the move log's new
entries). The computer seats' moves come, as on the page, from
the page's ``ai_step`` messages (one move each, after ``ai_delay``): they are counted apart.

No browser is needed: the widget's ``send`` is replaced by one that counts, and the traits
are observed. The figures are sizes, not times, so the machine's load doesn't move them.

The last columns say what sending only the view's top-level entries that changed would
weigh (each entry whole, as separate traits would send it).

Run:  .venv/bin/python benchmarks/table_view_size.py [--rounds 2] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import defaultdict
from typing import Any

from rummykit.widgets import Table


def size(value: Any) -> int:
    """Bytes of the JSON the kernel sends for a value (compact separators, UTF-8)."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


class Meter:
    """Counts what a table sends: per click, the traits' and the messages' bytes."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.bytes = 0
        self.log_bytes = 0
        self.changed_bytes = 0  # the view's top-level entries that changed, had they gone alone
        synced = [
            k for k in table.keys if not k.startswith("_") and k not in ("layout", "tabbable")
        ]
        table.observe(self._trait, names=synced)
        table.send = self._send  # type: ignore[method-assign]

    def _trait(self, change: dict[str, Any]) -> None:
        name = change["name"]
        to_json = self.table.trait_metadata(name, "to_json") or (lambda value, _: value)
        self.bytes += size({name: to_json(change["new"], self.table)})
        if name == "view":
            old = change["old"] or {}
            new = change["new"]
            self.changed_bytes += size({k: v for k, v in new.items() if old.get(k) != v})

    def _send(self, content: Any, buffers: Any = None) -> None:
        got = size(content)
        self.bytes += got
        self.log_bytes += got

    def take(self) -> tuple[int, int, int]:
        out = self.bytes, self.log_bytes, self.changed_bytes
        self.bytes = self.log_bytes = self.changed_bytes = 0
        return out


def play(
    variant: str, players: int, seed: int, rounds: int
) -> dict[str, list[tuple[int, int, int]]]:
    """Per kind of click, (bytes sent, of which move log) for every click of the rounds."""
    table = Table(variant, players=players, ai="hard", seed=seed)
    meter = Meter(table)
    clicks: dict[str, list[tuple[int, int, int]]] = defaultdict(list)

    def click(kind: str, **more: Any) -> None:
        table.handle({"type": kind, "seen": table.view["seq"], **more})
        clicks[kind].append(meter.take())

    for _ in range(rounds):
        for _turn in range(200):
            view = table.view
            if view["phase"] == "over":
                break
            if not view["my_turn"]:
                click("ai_step")
                continue
            if view["phase"] == "cut":
                click("cut", height=view["cut"]["low"] if view["cut"] else 1)
                continue
            if view["phase"] == "draw":
                click("hint")
                click("select", index=0)
                click("select", index=0)  # and unselected again
                click("draw")
                continue
            hand = table.hand_order
            worst = max(range(len(hand)), key=lambda i: table.game.variant.card_value(hand[i]))
            click("select", index=worst)
            click("discard")
            if table.view["phase"] == "play" and table.view["my_turn"]:
                break  # a refused discard (a rule of the variant): this round stops here
        if table.match is None or table.match.is_over:
            break
        click("next_round")
    return clicks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    everything: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for variant, players in (("hungarian", 2), ("hungarian", 4), ("rommi", 2), ("rommi", 4)):
        got = play(variant, players, args.seed, args.rounds)
        every = [b for kind, sizes in got.items() if kind != "ai_step" for b, _, _ in sizes]
        print(
            f"{variant} {players}p: {len(every)} learner clicks, bytes per click median"
            f" {statistics.median(every):,.0f}, max {max(every):,}"
        )
        for kind, sizes in got.items():
            everything[kind] += sizes
    print("\nper kind of click, all tables (bytes of JSON sent: traits + move-log messages)")
    print(
        f"  {'click':<12} {'n':>4} {'median':>8} {'p90':>8} {'max':>8} {'max of log':>11}"
        f" {'view entries changed: median':>29} {'max':>7}"
    )
    for kind, sizes in sorted(everything.items()):
        totals = sorted(b for b, _, _ in sizes)
        p90 = totals[min(len(totals) - 1, int(0.9 * len(totals)))]
        changed = [c for _, _, c in sizes]
        print(
            f"  {kind:<12} {len(totals):>4} {statistics.median(totals):>8,.0f} {p90:>8,}"
            f" {max(totals):>8,} {max(log for _, log, _ in sizes):>11,}"
            f" {statistics.median(changed):>29,.0f} {max(changed):>7,}"
        )
    worst = max(b for kind, sizes in everything.items() if kind != "ai_step" for b, _, _ in sizes)
    print(f"largest learner click: {worst:,} bytes (ai_step: the page's timer, not a click)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
