"""Several servers on one database: a table is played by one server at a time (its lease in
``rummykit_tables.owner``/``lease_until``), another takes it over when the holder stops
renewing, and the one that lost it can no longer write a move; a database of schema version 1
is brought to version 2 with its tables kept. On SQLite and on a real PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from rummykit.server.client import TableClient, TableClosed
from rummykit.server.store import SCHEMA_VERSION, Store, StoreError
from rummykit.server.tables import Hub, TableSettings
from tests.tables.conftest import Served, fresh_database, wait_until

DRAW = {"type": "draw", "source": "stock"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "shared.db")
    url: str = fresh_database(request.getfixturevalue("postgres_url"))
    return url


def test_one_table_one_server_and_a_take_over_when_the_lease_runs_out(db_url: str) -> None:
    clock = Clock()
    a = Store(db_url, owner="server-a", lease=10, clock=clock)
    b = Store(db_url, owner="server-b", lease=10, clock=clock)
    hub_a = Hub(a)
    table = hub_a.create(TableSettings.from_dict({"variant": "rommi", "seats": ["human", "easy"]}))
    code = table.code
    # b neither claims nor writes a table a holds
    assert not b.claim(code) and b.orphans() == []
    with pytest.raises(StoreError, match=f"table {code} is now played by another server"):
        b.append_action(code, 1, 0, DRAW, clock())
    hub_a.commit(table, table.game.current, table.game.legal_actions()[0])
    clock.now += 9  # a renews before its lease runs out: still a's
    assert a.renew() == {code}
    clock.now += 9
    assert not b.claim(code)
    # a stops renewing (killed, stalled): after its lease, b takes the table over
    clock.now += 11
    assert b.orphans() == [code] and b.claim(code)
    assert a.renew() == set()
    for write in (
        lambda: a.append_action(code, 2, 1, DRAW, clock()),
        lambda: a.add_notice(code, 1, 0, "tables_notice_back", {}, clock()),
        lambda: a.take_seat(code, 0, "0" * 64, "Eve"),
        lambda: a.set_status(code, "closed", clock()),
    ):
        with pytest.raises(StoreError, match="now played by another server"):
            write()
    seat, action = table.game.current, table.game.legal_actions()[0]
    b.append_action(code, 2, seat, action.to_dict(), clock())
    hub_b = Hub(b)
    assert hub_b.restore() == 1 and hub_b.tables[code].position == 3
    # a's hub, keeping its leases, lets the table go and takes nothing
    held, taken = hub_a.leases({code})
    lost, came = hub_a.settle({code}, held, taken)
    assert [t.code for t in lost] == [code] and came == [] and code not in hub_a.tables
    # a polite stop lets go at once: a takes it back without waiting
    b.release()
    assert a.orphans() == [code] and a.claim(code)
    for store in (a, b):
        store.close()


def test_a_version_1_database_is_brought_to_version_2_with_its_tables(tmp_path: Path) -> None:
    import sqlalchemy as sa

    path = tmp_path / "v1.db"
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as db:  # schema version 1, as rummykit wrote it
        for statement in (
            "CREATE TABLE rummykit_meta (key VARCHAR(64) PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE rummykit_tables (code VARCHAR(32) PRIMARY KEY, settings TEXT NOT NULL,"
            " status VARCHAR(16) NOT NULL, created FLOAT NOT NULL, closed FLOAT, record TEXT)",
            "CREATE TABLE rummykit_seats (code VARCHAR(32) REFERENCES rummykit_tables(code),"
            " seat INTEGER, kind VARCHAR(16) NOT NULL, token_hash VARCHAR(64), name VARCHAR(64),"
            " PRIMARY KEY (code, seat))",
            "CREATE TABLE rummykit_actions (code VARCHAR(32) REFERENCES rummykit_tables(code),"
            " seq INTEGER, seat INTEGER NOT NULL, action TEXT NOT NULL, at FLOAT NOT NULL,"
            " PRIMARY KEY (code, seq))",
            "CREATE TABLE rummykit_notices (code VARCHAR(32) REFERENCES rummykit_tables(code),"
            " n INTEGER, seat INTEGER NOT NULL, notice VARCHAR(64) NOT NULL, params TEXT NOT NULL,"
            " at FLOAT NOT NULL, PRIMARY KEY (code, n))",
            "INSERT INTO rummykit_meta VALUES ('schema_version', '1')",
        ):
            db.execute(sa.text(statement))
        settings = TableSettings.from_dict(
            {"variant": "rommi", "seats": ["human", "easy"], "seed": 4}
        )
        db.execute(
            sa.text("INSERT INTO rummykit_tables VALUES ('OLDTABLE', :s, 'open', 1.0, NULL, NULL)"),
            {"s": json.dumps(settings.to_dict())},
        )
        for seat, kind in enumerate(settings.seats):
            db.execute(
                sa.text("INSERT INTO rummykit_seats VALUES ('OLDTABLE', :n, :k, NULL, NULL)"),
                {"n": seat, "k": kind},
            )
    engine.dispose()
    store = Store(str(path), owner="new")
    assert store.migrated_from == 1
    with store.engine.connect() as db:
        version = db.execute(sa.text("SELECT value FROM rummykit_meta")).scalar()
        owner = db.execute(sa.text("SELECT owner, lease_until FROM rummykit_tables")).one()
    assert version == str(SCHEMA_VERSION) == "2" and tuple(owner) == (None, None)
    hub = Hub(store)
    assert hub.restore() == 1  # the old table is no server's: this one takes it
    table = hub.tables["OLDTABLE"]
    seat = table.game.current
    hub.commit(table, seat, table.game.legal_actions()[0])
    assert store.table("OLDTABLE").actions  # type: ignore[union-attr]
    store.close()
    assert Store(str(path), owner="new").migrated_from is None  # once only


def test_two_servers_on_one_database_and_a_take_over_after_sigkill(serve: Any, db_url: str) -> None:
    """Two ``rummykit tables`` processes on one database (lease 1.5 s): each plays only its
    own tables, refuses a seat at the other's; one is killed with SIGKILL and the other takes
    its table over at the same position, and the learner's token gets the seat back there."""
    a: Served = serve(db_url, "--lease", "1.5", server_id="server-a")
    b: Served = serve(db_url, "--lease", "1.5", server_id="server-b")
    code = a.create(variant="hungarian", seats=["human", "easy"])
    mine = b.create(variant="rommi", seats=["human", "human"])
    # (the learner's turn: the computer seat has played, nothing moves until she does)
    wait_until(lambda: a.api(f"/api/tables/{code}")[1]["game"]["current"] == 0, 20)
    # each lists its own tables, then the other's: watched, as the other server shows them
    assert [(t["code"], t["here"]) for t in a.api("/api/tables")[1]["tables"]] == [
        (code, True),
        (mine, False),
    ]
    assert [(t["code"], t["here"]) for t in b.api("/api/tables")[1]["tables"]] == [
        (mine, True),
        (code, False),
    ]
    for table, server, other in ((code, a, b), (mine, b, a)):
        own, watched = (s.api(f"/api/tables/{table}?open=1")[1] for s in (server, other))
        assert watched["here"] is False and {s["connected"] for s in watched["seats"]} == {None}
        for view in (own, watched):
            del view["here"]
            for seat in view["seats"]:
                del seat["connected"], seat["computer_playing"]
        assert watched == own
    status, refused = a.api(f"/api/tables/{mine}/close", {})
    assert status == 409 and refused["message"] == (
        f"table {mine} is played by another server of the school: close it from that "
        "server's teacher page"
    )
    assert b.api(f"/api/tables/{mine}")[1]["status"] == "open"

    async def sit(server: Served, token: str | None = None) -> TableClient:
        client = TableClient(server.ws, code, name="Ana", token=token)
        await client.connect()
        while client.last is None:
            await client.receive(10)
        return client

    async def first_moves() -> tuple[str, int]:
        with pytest.raises(TableClosed, match=f"no open table with the code {code}"):
            await sit(b)  # b does not play a's table
        client = await sit(a)
        for _ in range(3):  # the learner's turns and the computer's answers
            while not client.my_turn:
                await client.receive(20)
            await client.act(client.observation.legal_actions[0])  # type: ignore[union-attr]
            await client.receive(20)
        while client.my_turn is False:
            await client.receive(20)
        position: int = client.last["id"]  # type: ignore[index]
        await client.close()
        assert client.token is not None
        return client.token, position

    token, position = asyncio.run(first_moves())
    assert a.api(f"/api/tables/{code}")[1]["position"] == position
    a.kill()
    wait_until(
        lambda: any(t["code"] == code and t["here"] for t in b.api("/api/tables")[1]["tables"]),
        20,
    )
    view = b.api(f"/api/tables/{code}")[1]
    assert view["position"] == position and view["seats"][0]["name"] == "Ana"

    async def back() -> None:
        client = await sit(b, token)
        assert client.seat == 0 and client.my_turn and client.last["id"] == position  # type: ignore[index]
        await client.act(client.observation.legal_actions[0])  # type: ignore[union-attr]
        while client.last["id"] == position:  # type: ignore[index]
            await client.receive(20)
        await client.close()

    asyncio.run(back())
    assert b.api(f"/api/tables/{code}")[1]["position"] > position
    # a restarted under its own name finds its table played by b, and takes nothing
    a.start()
    listed = a.api("/api/tables")[1]["tables"]
    assert {t["code"] for t in listed} == {code, mine} and not any(t["here"] for t in listed)
    assert [t["position"] for t in listed if t["code"] == code] == [
        b.api(f"/api/tables/{code}")[1]["position"]
    ]
