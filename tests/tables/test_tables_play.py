"""Seats at a served table play whole rounds against each other over WebSocket; every message
is protocol v1 (validated against the schema), no seat ever receives another seat's hidden
cards, and the record the server keeps replays the round and goes into ``rummykit review``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from rummykit.ai import make_agent
from rummykit.game import Game
from rummykit.game.actions import Action
from rummykit.server.client import TableClient
from tests.tables.conftest import Served, schema_validators

TO_SERVER, TO_SEAT = schema_validators()


async def _play_round(
    server: Served, code: str, humans: int, levels: list[str]
) -> list[TableClient]:
    clients = [TableClient(server.ws, code, name=f"learner {n}") for n in range(humans)]
    for client in clients:
        await client.connect()
    await asyncio.wait_for(
        asyncio.gather(*(c.play(make_agent(level)) for c, level in zip(clients, levels))), 240
    )
    for client in clients:
        await client.close()
    return clients


def _replay_check(record: dict[str, Any], clients: list[TableClient]) -> int:
    """Every decide/update a seat got equals that seat's observation of the round replayed
    to the message's position: nothing more (no hidden card of another seat) and nothing
    else. Returns how many messages were checked."""
    game = Game.load(json.dumps({**record, "actions": []}))
    actions = [(a.pop("seat"), Action.from_dict(a)) for a in (dict(x) for x in record["actions"])]
    views: dict[int, list[dict[str, Any]]] = {c.seat: [] for c in clients}  # type: ignore[misc]
    for client in clients:
        for message in client.received:
            TO_SEAT.validate(message)
            if message["type"] in ("decide", "update"):
                assert message["observation"]["seat"] == client.seat
                views[client.seat].append(message)  # type: ignore[index]
            elif message["type"] == "welcome":
                assert message["seat"] == client.seat
    checked = 0
    by_position: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for seat, messages in views.items():
        for message in messages:
            by_position.setdefault(message["id"], []).append((seat, message))
    for position in range(1, len(actions) + 2):
        for seat, message in by_position.get(position, []):
            assert message["observation"] == game.observation(seat).to_dict(), (seat, position)
            checked += 1
        if position <= len(actions):
            who, action = actions[position - 1]
            game.play(action, who)
    assert game.is_over
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
def test_learners_play_a_whole_hungarian_round_and_no_seat_sees_another_hand(
    serve: Any, players: int
) -> None:
    server = serve()
    code = server.create(variant="hungarian", seats=["human"] * players)
    clients = asyncio.run(
        _play_round(server, code, players, ["easy", "normal", "easy", "normal"][:players])
    )
    assert all(c.over for c in clients)
    status, view = server.api(f"/api/tables/{code}")
    assert status == 200 and view["status"] == "over" and view["game"]["phase"] == "over"
    assert "hands" not in view
    status, record = server.api(f"/api/tables/{code}/record")
    assert status == 200 and record["players"] == players
    checked = _replay_check(record, clients)
    assert checked >= len(record["actions"]) * players  # every seat was told every position
    sent = [
        {"type": "action", "id": m["id"], "action": m["observation"]["legal_actions"][0]}
        for c in clients
        for m in c.received
        if m["type"] == "decide"
    ]
    for message in sent:
        TO_SERVER.validate(message)


def test_a_rommi_round_with_a_computer_seat_and_the_record_goes_into_review(
    serve: Any, tmp_path: Any, capsys: Any
) -> None:
    server = serve()
    code = server.create(variant="rommi", seats=["human", "easy", "human"])
    clients = asyncio.run(_play_round(server, code, 2, ["easy", "easy"]))
    assert sorted(c.seat for c in clients) == [0, 2]  # type: ignore[type-var]
    status, record = server.api(f"/api/tables/{code}/record")
    assert status == 200
    assert {a["seat"] for a in record["actions"]} == {0, 1, 2}  # the computer played seat 1
    _replay_check(record, clients)
    path = tmp_path / "round.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    from rummykit.cli import main

    assert main(["review", str(path), "--seat", "2", "--level", "easy", "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert review["seat"] == 2 and review["variant"] == "rommi"


def test_an_absent_learner_is_played_for_said_in_the_log_and_an_empty_table_closes(
    serve: Any, tmp_path: Any
) -> None:
    records = tmp_path / "records"
    server = serve(None, "--records", str(records))
    code = server.create(variant="rommi", seats=["human", "human"], absent_after=1, keep_empty=2)

    async def ana_alone() -> TableClient:
        ana = TableClient(server.ws, code, "Ana")  # Bob never comes
        await ana.connect()
        await asyncio.wait_for(ana.play(make_agent("easy")), 120)
        await ana.close()
        return ana

    ana = asyncio.run(ana_alone())
    notices = [m for m in ana.received if m["type"] == "notice"]
    assert [(n["code"], n["seat"]) for n in notices] == [("tables_notice_away", 1)]  # said once
    assert "away for 1 s" in notices[0]["message"]
    status, view = server.api(f"/api/tables/{code}")
    assert status == 200 and view["log"][0]["code"] == "tables_notice_away"
    deadline = __import__("time").monotonic() + 20
    while server.api(f"/api/tables/{code}")[0] != 404:  # kept 2 s after Ana left, then closed
        assert __import__("time").monotonic() < deadline
        __import__("time").sleep(0.2)
    status, record = server.api(f"/api/tables/{code}/record")  # the record is kept
    assert (
        status == 200
        and json.loads((records / f"{code}.json").read_text(encoding="utf-8")) == record
    )


def test_classroom_tables_starts_the_table_server_beside_and_stops_it(
    tmp_path: Any, capsys: Any
) -> None:
    import os
    import socket
    import urllib.request

    from rummykit.server.beside import URL_VARIABLE, tables_beside

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with tables_beside("127.0.0.1", port, str(tmp_path / "beside.db")) as url:
        assert url == f"ws://127.0.0.1:{port}/ws" and os.environ[URL_VARIABLE] == url
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as answer:
            assert json.loads(answer.read())["ok"] is True
    said = capsys.readouterr().out
    assert f"Tables served on http://127.0.0.1:{port}/" in said and "Teacher code: " in said
    with socket.socket() as s, __import__("pytest").raises(OSError):
        s.connect(("127.0.0.1", port))  # stopped with the block
    del os.environ[URL_VARIABLE]
    from rummykit.cli import build_parser

    assert build_parser().parse_args(["classroom", "--tables"]).tables is True


def test_a_table_plays_two_rounds_of_a_match_and_each_record_reviews(
    serve: Any, tmp_path: Any, capsys: Any
) -> None:
    server = serve()
    code = server.create(variant="rommi", seats=["human", "easy"], between_rounds=0.3)

    async def two_rounds() -> TableClient:
        ana = TableClient(server.ws, code, "Ana")
        await ana.connect()
        await asyncio.wait_for(ana.play(make_agent("easy"), rounds=2), 180)
        await ana.close()
        return ana

    ana = asyncio.run(two_rounds())
    rounds = {m.get("round") for m in ana.received if m["type"] in ("decide", "update")}
    assert rounds >= {1, 2}
    for message in ana.received:
        TO_SEAT.validate(message)
    from rummykit.cli import main

    for number in (1, 2):
        status, record = server.api(f"/api/tables/{code}/record?round={number}")
        assert status == 200 and Game.load(json.dumps(record)).is_over
        path = tmp_path / f"r{number}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        assert main(["review", str(path), "--seat", "0", "--level", "easy", "--json"]) == 0
        capsys.readouterr()
    assert server.api(f"/api/tables/{code}")[1]["round"] >= 2
