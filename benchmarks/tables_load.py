"""Many seats at once: scripted clients play at the table server over loopback, bounded in time.

``rummykit tables`` is started on a free 127.0.0.1 port with a fresh SQLite database (or
``--db postgresql://…``) and no computer pace; ``--tables`` tables of ``--seats`` learners'
seats each are created through the teacher's API, and one scripted client per seat joins
(all of them in this process, on one asyncio loop) and plays with the ``--level`` computer
player's decisions. Each round that ends is followed by a new table for the same clients,
until ``--seconds`` have passed. Measured:

- **action to update** — milliseconds from a seat sending its action to each seat of the
  table receiving the update for it (the actor's own acknowledgement included): the server's
  check, the database commit, and the messages. p50, p90, p99 and the count;
- **actions a second** accepted over the whole run;
- **memory per table** — the server's resident set (``/proc/PID/status``) grown per table:
  once over ``--idle`` extra tables created and left idle (a table waiting for its class),
  and once over the played tables at the end (games with their history).

Clients and server share the machine's cores: read the load average printed with the
figures, and take figures for the docs on a quiet machine.

Run:  .venv/bin/python benchmarks/tables_load.py [--tables 10] [--seats 3] [--seconds 60]
                [--idle 100] [--db URL] [--variant hungarian]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rummykit.agents.protocol import read_observation  # noqa: E402
from rummykit.ai import make_agent  # noqa: E402
from rummykit.server.client import TableClient  # noqa: E402

TEACHER = "bench-teacher-code"


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def api(http: str, path: str, body: object = None) -> Any:
    request = urllib.request.Request(
        f"http://{http}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={"Authorization": f"Bearer {TEACHER}"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def create(http: str, variant: str, seats: int, count: int) -> list[str]:
    found = api(
        http, "/api/tables", {"variant": variant, "seats": ["human"] * seats, "count": count}
    )
    return [t["code"] for t in found["tables"]]


async def play_table(
    ws: str,
    http: str,
    args: argparse.Namespace,
    end: float,
    sent: dict[tuple[str, int], float],
    latencies: list[float],
    counts: dict[str, int],
) -> None:
    code = create(http, args.variant, args.seats, 1)[0]
    while time.monotonic() < end:
        clients = []
        for n in range(args.seats):

            def seen(message: dict[str, Any], code: str = code) -> None:
                if message["type"] in ("decide", "update"):
                    at = sent.get((code, message["id"] - 1))
                    if at is not None:
                        latencies.append((time.perf_counter() - at) * 1000)

            client = TableClient(ws, code, name=f"bench {n}", on_message=seen)
            await client.connect()
            clients.append(client)
        agent = make_agent(args.level)

        async def seat(client: TableClient, agent: Any = agent) -> None:
            while not client.over and time.monotonic() < end:
                if client.my_turn and client.last is not None:
                    position = client.last["id"]
                    action = agent.decide(read_observation(client.last)).action
                    sent[(client.code, position)] = time.perf_counter()
                    await client.act(action)
                    counts["actions"] += 1
                    while True:
                        message = await client.receive(30)
                        if message["type"] in ("decide", "update") and message["id"] != position:
                            break
                else:
                    await client.receive(30)

        await asyncio.gather(*(seat(c) for c in clients))
        for client in clients:
            await client.close()
        if all(c.over for c in clients):
            counts["rounds"] += 1
            code = create(http, args.variant, args.seats, 1)[0]
        else:
            break


async def run(
    args: argparse.Namespace, ws: str, http: str
) -> tuple[list[float], dict[str, int], float]:
    sent: dict[tuple[str, int], float] = {}
    latencies: list[float] = []
    counts = {"actions": 0, "rounds": 0}
    start = time.monotonic()
    end = start + args.seconds
    await asyncio.gather(
        *(play_table(ws, http, args, end, sent, latencies, counts) for _ in range(args.tables))
    )
    return latencies, counts, time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--idle", type=int, default=100)
    parser.add_argument("--level", default="easy")
    parser.add_argument("--variant", default="hungarian")
    parser.add_argument("--db", default=None)
    args = parser.parse_args()
    args.seconds = min(args.seconds, 600.0)  # bounded: ten minutes at most
    folder = tempfile.mkdtemp(prefix="rummykit-tables-load-")
    db = args.db or os.path.join(folder, "tables.db")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rummykit",
            "tables",
            "--port",
            "0",
            "--db",
            db,
            "--teacher-code",
            TEACHER,
            "--pace",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        http = line.split("http://", 1)[1].split("/", 1)[0]
        ws = f"ws://{http}/ws"
        api(http, "/health")
        base = rss_kib(server.pid)
        create(http, args.variant, args.seats, min(args.idle, 50))
        if args.idle > 50:
            create(http, args.variant, args.seats, args.idle - 50)
        idle = (rss_kib(server.pid) - base) / max(args.idle, 1)
        before_play = rss_kib(server.pid)
        latencies, counts, took = asyncio.run(run(args, ws, http))
        played = api(http, "/api/tables")["tables"]
        busy = [t for t in played if t["position"] > 1]
        grown = (rss_kib(server.pid) - before_play) / max(len(busy), 1)
        q = statistics.quantiles(latencies, n=100) if len(latencies) > 2 else [float("nan")] * 99
        result = {
            "clients": args.tables * args.seats,
            "tables": args.tables,
            "seats": args.seats,
            "db": "postgresql" if db.startswith("postgres") else "sqlite",
            "seconds": round(took, 1),
            "actions": counts["actions"],
            "rounds_finished": counts["rounds"],
            "actions_per_second": round(counts["actions"] / took, 1),
            "updates_measured": len(latencies),
            "action_to_update_ms": {
                "p50": round(q[49], 2),
                "p90": round(q[89], 2),
                "p99": round(q[98], 2),
            },
            "memory_per_idle_table_kib": round(idle, 1),
            "memory_per_played_table_kib": round(grown, 1),
            "server_rss_mib": round(rss_kib(server.pid) / 1024, 1),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }
        print(json.dumps(result, indent=1))
        return 0
    finally:
        server.terminate()
        server.wait(20)


if __name__ == "__main__":
    raise SystemExit(main())
