"""Nothing lost: the server is killed with SIGKILL — between moves and in the middle of a burst
of them — and restarted on the same database; every table is at the position its seats were
told, no action lost or doubled, every learner gets their seat back with their token and the
rounds play on to the end. The same test runs on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import time
from typing import Any

import pytest

from rummykit.ai import make_agent
from rummykit.game import Game
from rummykit.server.client import TableClient
from rummykit.server.store import Store
from tests.tables.conftest import Served

LAYOUTS = [
    {"variant": "hungarian", "seats": ["human", "human"]},
    {"variant": "rommi", "seats": ["human", "easy"]},
    {"variant": "hungarian", "seats": ["human", "human", "human", "human"]},
]


async def _join(
    server: Served, codes: list[str], tokens: dict[tuple[str, int], str] | None = None
) -> list[TableClient]:
    clients = []
    for code, layout in zip(codes, LAYOUTS):
        for seat, kind in enumerate(layout["seats"]):
            if kind != "human":
                continue
            token = tokens[(code, seat)] if tokens else None
            client = TableClient(server.ws, code, name=f"{code}-{seat}", token=token)
            await client.connect()
            assert (
                client.seat == seat
            )  # a token gets its own seat back, the first free seat otherwise
            clients.append(client)
    return clients


async def _seat(client: TableClient, cap: dict[str, int]) -> None:
    """Play the seat (easy decisions) while its table is below ``cap`` positions."""
    agent = make_agent("easy")
    while not client.over:
        last = client.last
        if last is not None and client.my_turn and last["id"] < cap[client.code]:
            action = agent.decide(client.observation).action  # type: ignore[arg-type]
            await client.act(action)
            while (message := await client.receive(30)).get("id") in (None, last["id"]):
                if message.get("reason") == "tables_rate":  # over the server's rate: wait
                    await asyncio.sleep(0.25)
                    await client.act(action)
                elif message["type"] == "verdict":  # refused: answer again, as v1 allows
                    legal = client.observation.legal_actions  # type: ignore[union-attr]
                    action = next((a for a in legal if a != action), legal[0])
                    await client.act(action)
        else:
            await client.receive(30)


async def _play_until(
    clients: list[TableClient], cap: dict[str, int], done: Any, then: Any
) -> None:
    """Play every seat, each table up to its cap, until ``done(told)`` says so (or 60 s),
    then ``then()`` (nothing, or kill the server while seats are still playing)."""
    tasks = [asyncio.ensure_future(_seat(c, cap)) for c in clients]
    for _ in range(6000):
        if done(_acknowledged(clients)) or all(t.done() for t in tasks):
            break
        await asyncio.sleep(0.01)
    if not done(_acknowledged(clients)):  # say where a table stood still
        for c, t in zip(clients, tasks):
            said = [(m["type"], m.get("id"), m.get("reason")) for m in c.received[-4:]]
            print("stood still:", c.code, c.seat, said, t.done() and t.exception(), file=sys.stderr)
    then()
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(BaseException):
            await task


def _acknowledged(clients: list[TableClient]) -> dict[str, int]:
    """Per table, the last position any of its seats was told (an action is told only after
    it is stored)."""
    told: dict[str, int] = {}
    for client in clients:
        ids = [m["id"] for m in client.received if m["type"] in ("decide", "update")]
        told[client.code] = max([told.get(client.code, 0), *ids])
    return told


def _views(server: Served, codes: list[str]) -> dict[str, Any]:
    views = {}
    for code in codes:
        status, view = server.api(f"/api/tables/{code}?open=1")
        assert status == 200, view
        views[code] = {k: view[k] for k in ("position", "game", "hands", "status")}
        views[code]["names"] = [s["name"] for s in view["seats"]]
    return views


def _check_no_loss(server: Served, codes: list[str], told: dict[str, int], url: str) -> None:
    store = Store(url)
    try:
        for code in codes:
            # the restarted server plays on while this reads (computer seats don't wait), so
            # the view, the store and the record are read in that order and may each be a few
            # computer moves further on than the one before
            status, view = server.api(f"/api/tables/{code}")
            assert status == 200
            stored = store.table(code)
            assert stored is not None
            # every action a seat was told about is there; past it, at most the one a learner
            # sent when the server died, and the moves of computer seats, which play on
            # without waiting for anyone (their updates were in flight, never read)
            assert view["position"] >= told[code], (code, told[code], view["position"])
            assert len(stored.actions) >= view["position"] - 1
            untold = [seat for seat, _ in stored.actions[told[code] :]]
            kinds = [s["kind"] for s in view["seats"]]
            assert all(kinds[seat] != "human" for seat in untold[1:]), (code, told[code], untold)
            status, record = server.api(f"/api/tables/{code}/record")
            assert status == 200
            game = Game.load(json.dumps(record))  # the stored actions replay, each legal
            done = len(stored.actions)
            assert [(seat, action.to_dict()) for seat, action in game.actions[:done]] == [
                (seat, dict(action)) for seat, action in stored.actions
            ]
            assert all(kinds[seat] != "human" for seat, _ in game.actions[done:])
    finally:
        store.close()


def _sigkill_and_restart(serve: Any, db: str, url: str) -> None:
    server = serve(db)
    codes = [server.create(**layout) for layout in LAYOUTS]

    async def first_half() -> tuple[list[TableClient], dict[tuple[str, int], str]]:
        clients = await _join(server, codes)
        cap = dict.fromkeys(codes, 8)
        await _play_until(clients, cap, lambda told: all(told[c] >= 8 for c in codes), lambda: None)
        for client in clients:
            await client.close()
        return clients, {(c.code, c.seat): c.token for c in clients}  # type: ignore[misc]

    clients, tokens = asyncio.run(first_half())
    told = _acknowledged(clients)
    assert all(n >= 8 for n in told.values()), told  # the rounds are under way
    before = _views(server, codes)
    for _ in range(50):  # the moves sent before the seats stopped are all in
        time.sleep(0.2)
        now, before = before, _views(server, codes)
        if now == before:
            break
    server.kill()  # between moves
    server.start()
    after = _views(server, codes)
    assert after == before  # same position, same hands, same table, same names

    async def second_half() -> list[TableClient]:
        clients = await _join(server, codes, tokens)
        cap = {c: first[c] + 14 for c in codes}
        moving = lambda told: all(told[c] >= first[c] + 6 for c in codes)  # noqa: E731
        await _play_until(clients, cap, moving, server.kill)  # killed in the middle of the moves
        return clients

    first = told
    clients = asyncio.run(second_half())
    told = _acknowledged(clients)
    assert all(told[c] >= first[c] + 6 for c in codes), (first, told)  # killed while moving
    assert any(told[c.code] < first[c.code] + 14 and not c.over for c in clients)  # mid-round
    server.start()
    _check_no_loss(server, codes, told, url)

    async def to_the_end() -> None:
        clients = await _join(server, codes, tokens)
        await asyncio.wait_for(asyncio.gather(*(c.play(make_agent("easy")) for c in clients)), 240)
        assert all(c.over for c in clients)

    asyncio.run(to_the_end())
    for code in codes:
        assert server.api(f"/api/tables/{code}")[1]["status"] == "over"


def test_sigkill_mid_round_loses_nothing_sqlite(serve: Any, tmp_path: Any) -> None:
    db = str(tmp_path / "kill.db")
    _sigkill_and_restart(serve, db, db)


def test_sigkill_mid_round_loses_nothing_postgresql(serve: Any, postgres_url: str) -> None:
    import sqlalchemy as sa

    name = "rk_" + secrets.token_hex(4)
    admin = sa.create_engine(
        postgres_url.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as db:
        db.execute(sa.text(f"CREATE DATABASE {name}"))
    admin.dispose()
    url = postgres_url.rsplit("/", 1)[0] + "/" + name
    _sigkill_and_restart(serve, url, url)


def test_a_database_of_another_schema_version_is_refused(tmp_path: Any) -> None:
    import sqlalchemy as sa

    from rummykit.server.store import StoreError

    path = tmp_path / "old.db"
    Store(str(path)).close()
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as db:
        db.execute(sa.text("UPDATE rummykit_meta SET value = '99' WHERE key = 'schema_version'"))
    engine.dispose()
    with pytest.raises(StoreError, match="schema version 99; this rummykit reads version 2"):
        Store(str(path))
