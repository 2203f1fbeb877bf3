"""Nothing lost: the server is killed with SIGKILL — between moves and in the middle of a burst
of them — and restarted on the same database; every table is at the position its seats were
told, no action lost or doubled, every learner gets their seat back with their token and the
rounds play on to the end. The same test runs on SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
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


async def _play_for(clients: list[TableClient], seconds: float) -> None:
    tasks = [asyncio.ensure_future(c.play(make_agent("easy"))) for c in clients]
    done, pending = await asyncio.wait(tasks, timeout=seconds)
    for task in pending:
        task.cancel()
    for task in [*done, *pending]:
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
            stored = store.table(code)
            assert stored is not None
            status, view = server.api(f"/api/tables/{code}")
            assert status == 200
            # every action a seat was told about is there; at most the one being stored
            # when the server died is there too, never told
            assert told[code] <= view["position"] <= told[code] + 1, (
                code,
                told[code],
                view["position"],
            )
            assert len(stored.actions) == view["position"] - 1
            status, record = server.api(f"/api/tables/{code}/record")
            assert status == 200
            game = Game.load(json.dumps(record))  # the stored actions replay, each legal
            assert len(game.actions) == len(stored.actions)
    finally:
        store.close()


def _sigkill_and_restart(serve: Any, db: str, url: str) -> None:
    server = serve(db)
    codes = [server.create(**layout) for layout in LAYOUTS]

    async def first_half() -> tuple[list[TableClient], dict[tuple[str, int], str]]:
        clients = await _join(server, codes)
        await _play_for(clients, 1.5)
        for client in clients:
            await client.close()
        return clients, {(c.code, c.seat): c.token for c in clients}  # type: ignore[misc]

    clients, tokens = asyncio.run(first_half())
    told = _acknowledged(clients)
    assert all(n > 3 for n in told.values()), told  # the rounds are under way
    before = _views(server, codes)
    server.kill()  # between moves
    server.start()
    after = _views(server, codes)
    assert after == before  # same position, same hands, same table, same names

    async def second_half() -> list[TableClient]:
        clients = await _join(server, codes, tokens)
        play = asyncio.ensure_future(_play_for(clients, 30))
        await asyncio.sleep(0.8)
        server.kill()  # in the middle of a burst of moves
        await play
        return clients

    first = told
    clients = asyncio.run(second_half())
    told = _acknowledged(clients)
    assert any(told[c] > first[c] + 2 for c in codes), (first, told)  # killed while moving
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
    with pytest.raises(StoreError, match="schema version 99; this rummykit reads version 1"):
        Store(str(path))
