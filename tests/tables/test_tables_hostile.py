"""Only your own seat: hostile clients (bounded, on loopback) try to act for another seat or
table, guess codes, reuse another table's token, send garbage, binary, oversized and deeply
nested messages, flood, answer stale or out-of-turn questions, and guess the teacher code.
Each is refused — what only a hostile client sends is logged — and the table plays on."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import tornado.websocket

from rummykit.server.client import TableClient, TableClosed
from rummykit.server.tables import CODE_ALPHABET, CODE_LENGTH
from tests.tables.conftest import TEACHER, Served, schema_validators

_, TO_SEAT = schema_validators()


async def _raw(server: Served) -> tornado.websocket.WebSocketClientConnection:
    return await tornado.websocket.websocket_connect(server.ws)


async def _next(
    ws: tornado.websocket.WebSocketClientConnection, timeout: float = 5
) -> dict[str, Any] | None:
    text = await asyncio.wait_for(ws.read_message(), timeout)
    if text is None:
        return None
    message: dict[str, Any] = json.loads(text)
    TO_SEAT.validate(message)
    return message


async def _until(ws: tornado.websocket.WebSocketClientConnection, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message = await _next(ws)
        assert message is not None, f"closed before a {kind}"
        if message["type"] == kind:
            return message
    raise AssertionError(kind)


def _hello(code: str, **more: object) -> str:
    return json.dumps(
        {
            "type": "hello",
            "protocol": 1,
            "name": "mallory",
            "variants": ["hungarian"],
            "table": code,
            **more,
        }
    )


def test_a_seat_acts_only_for_itself(serve: Any) -> None:
    server = serve()
    code = server.create(variant="hungarian", seats=["human", "human"])
    other = server.create(variant="hungarian", seats=["human", "human"])

    async def attack() -> None:
        ana, bob = TableClient(server.ws, code, "Ana"), TableClient(server.ws, code, "Bob")
        await ana.connect()
        await bob.connect()
        while not (ana.last and bob.last):
            await asyncio.gather(*(c.receive(5) for c in (ana, bob) if c.last is None))
        mover, waiter = (ana, bob) if ana.my_turn else (bob, ana)
        legal = mover.last["observation"]["legal_actions"][0]  # type: ignore[index]
        position = mover.last["id"]  # type: ignore[index]
        attempts = [
            ({"seat": mover.seat}, waiter, "tables_forged"),  # the waiter claims the mover's seat
            ({"table": other}, mover, "tables_forged"),  # another table's code
            ({}, waiter, "tables_not_your_turn"),  # out of turn
            ({"id": position - 1}, mover, "tables_stale"),  # an old question
            ({"id": "1"}, mover, "tables_stale"),
        ]
        for extra, client, reason in attempts:
            await client.send({"type": "action", "id": position, "action": legal, **extra})
            message = await client.receive(5)
            while message["type"] in ("notice", "update"):
                message = await client.receive(5)
            assert message["type"] == "error" and message["reason"] == reason, (extra, message)
            TO_SEAT.validate(message)
        # an illegal action: the referee's verdict, and nothing moved
        await mover.send(
            {
                "type": "action",
                "id": position,
                "text": "discard 🃏"
                if "🃏" not in mover.last["observation"]["hand"]
                else "meld A♠",
            }
        )  # type: ignore[index]
        verdict = await mover.receive(5)
        assert verdict["type"] == "verdict" and verdict["verdict"]["ok"] is False
        TO_SEAT.validate(verdict)
        # the honest move goes through
        await mover.act(mover.observation.legal_actions[0])  # type: ignore[union-attr]
        assert (await mover.receive(5))["id"] == position + 1
        for client in (ana, bob):
            await client.close()

    asyncio.run(attack())
    status, view = server.api(f"/api/tables/{code}")
    assert status == 200 and view["position"] == 2  # exactly one action: the honest one
    log = server.stop()
    assert log.count(f"refused from 127.0.0.1 ({code}/") >= 2  # the forged ones are logged


def test_codes_and_tokens_are_not_guessed(serve: Any) -> None:
    import secrets

    server = serve()
    code = server.create(variant="rommi", seats=["human", "human"])
    other = server.create(variant="rommi", seats=["human", "human"])

    async def attack() -> None:
        victim = TableClient(server.ws, other, "Victim")
        await victim.connect()
        for _ in range(10):  # guessed table codes: refused and closed
            ws = await _raw(server)
            guess = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            await ws.write_message(_hello(guess))
            message = await _next(ws)
            assert message is not None and message["reason"] == "tables_no_such_table"
            assert await _next(ws) is None  # closed
        # another table's token at this table: refused, closed, logged
        ws = await _raw(server)
        await ws.write_message(_hello(code, token=victim.token))
        message = await _next(ws)
        assert message is not None and message["reason"] == "tables_bad_token"
        assert await _next(ws) is None
        # the token at its own table: the victim's seat, as it should be
        thief = TableClient(server.ws, other, "x", token=victim.token)
        assert (await thief.connect())["seat"] == victim.seat
        await thief.close()
        await victim.close()

    asyncio.run(attack())
    log = server.stop()
    assert log.count("refused from 127.0.0.1") >= 11
    assert "there is no open table with the code" in log


def test_garbage_binary_oversized_nested_and_floods_are_refused(serve: Any) -> None:
    server = serve()
    code = server.create(variant="hungarian", seats=["human"] * 4)

    async def attack() -> None:
        ws = await _raw(server)
        await ws.write_message(_hello(code))
        await _until(ws, "welcome")
        for garbage in [
            "not json",
            "[]",
            '{"type": 3}',
            '{"type":"action","x":' + "[" * 100 + "]" * 100 + "}",
            '{"type":"action","id":1,"action":{"type":"discard","card":"ZZ"}}',
            '{"type":"hello"}',
        ]:
            await ws.write_message(garbage)
            message = await _until(ws, "error")
            assert message["reason"] in ("tables_bad_message", "tables_hello_twice"), message
        await ws.write_message(b"\x00\x01binary", binary=True)
        assert (await _until(ws, "error"))["reason"] == "tables_bad_message"
        ws.close()
        # over 64 KiB: the connection is closed by the server
        big = await _raw(server)
        await big.write_message(_hello(code, name="m" * 70_000))
        assert await _next(big) is None
        # a flood: refused over the rate, then closed; bounded (at most 400 messages)
        flood = await _raw(server)
        await flood.write_message(_hello(code))
        await _until(flood, "welcome")
        for _ in range(400):
            try:
                await flood.write_message('{"type":"ping"}')
            except tornado.websocket.WebSocketClosedError:
                break
        reasons = []
        while (message := await _next(flood)) is not None:
            reasons.append(message.get("reason"))
        assert "tables_rate" in reasons
        # the table still serves an honest learner
        honest = TableClient(server.ws, code, "honest")
        welcome = await honest.connect()
        assert welcome["type"] == "welcome"
        await honest.close()

    asyncio.run(asyncio.wait_for(attack(), 60))
    assert server.api("/health", teacher=None)[0] == 200


def test_only_the_teacher_code_creates_lists_and_opens_cards(serve: Any) -> None:
    server = serve()
    code = server.create(variant="hungarian", seats=["human", "easy"])
    assert server.api("/api/tables", teacher=None)[0] == 403
    assert server.api("/api/tables", {"seats": ["human", "human"]}, teacher="nope")[0] == 403
    status, view = server.api(f"/api/tables/{code}", teacher=None)
    assert status == 200 and "hands" not in view and "hand" not in view["game"]
    assert server.api(f"/api/tables/{code}?open=1", teacher=None)[0] == 403
    assert server.api(f"/api/tables/{code}/record", teacher=None)[0] == 403
    status, opened = server.api(f"/api/tables/{code}?open=1")
    assert status == 200 and [len(h) for h in opened["hands"]] == opened["game"]["hand_sizes"]
    # validation first (the last wrong code, "nope", was one wrong try of ten a minute)
    assert (
        server.api("/api/tables", {"seats": ["human", "robot"]})[1]["error"]
        == "tables_bad_seat_kind"
    )
    assert server.api("/api/tables", {"seats": ["human"] * 7})[1]["error"] == "tables_bad_variant"
    assert server.api("/api/tables", {"clock": -1})[1]["error"] == "tables_bad_setting"
    assert server.api("/api/tables", {"colour": "red"})[1]["error"] == "tables_unknown_setting"
    statuses = [server.api("/api/tables", teacher=f"guess{n}")[0] for n in range(11)]
    assert statuses[:9] == [403] * 9 and statuses[9:] == [429, 429]  # guessing is slowed down


def test_a_learner_with_more_tabs_than_allowed_closes_the_oldest(serve: Any) -> None:
    server = serve()
    code = server.create(variant="rommi", seats=["human", "human"])

    async def tabs() -> None:
        first = TableClient(server.ws, code, "Ana")
        await first.connect()
        more = [TableClient(server.ws, code, "Ana", token=first.token) for _ in range(3)]
        for tab in more:
            assert (await tab.connect())["seat"] == first.seat
        try:
            while True:
                message = await first.receive(5)
                if message["type"] == "error":
                    assert message["reason"] == "tables_seat_elsewhere"
        except TableClosed:
            pass
        for tab in more:
            await tab.close()

    asyncio.run(asyncio.wait_for(tabs(), 30))
    _ = TEACHER


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Any) -> None:
    import tornado.httpserver
    import tornado.netutil

    from rummykit.server.store import Store
    from rummykit.server.tables import Hub
    from rummykit.server.web import Limits, TablesServer, make_app

    async def silent() -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        server = TablesServer(
            Hub(Store(str(tmp_path / "hello.db"))), TEACHER, limits=Limits(hello_within=0.3)
        )
        sockets = tornado.netutil.bind_sockets(0, "127.0.0.1")
        http = tornado.httpserver.HTTPServer(make_app(server))
        http.add_sockets(sockets)
        port = sockets[0].getsockname()[1]
        ws = await tornado.websocket.websocket_connect(f"ws://127.0.0.1:{port}/ws")
        said = json.loads(await asyncio.wait_for(ws.read_message(), 5))
        closed = await asyncio.wait_for(ws.read_message(), 5)
        http.stop()
        server.db.shutdown()
        return said, closed

    said, closed = asyncio.run(silent())
    assert said is not None and said["reason"] == "tables_no_hello" and "0.3 s" in said["message"]
    assert closed is None
    TO_SEAT.validate(said)


def test_one_address_holds_at_most_its_cap_of_connections(serve: Any) -> None:
    """A client on loopback opens connections until refused (cap 4, 40 tries, bounded): the
    fifth and every later one is told why (``tables_too_many_connections``) and closed with
    1013 ("try again later"), the four it holds still work, and a closed one frees a place."""
    server = serve(None, "--max-per-address", "4")
    code = server.create(variant="rommi", seats=["human", "easy"])

    async def flood() -> None:
        held = [await _raw(server) for _ in range(4)]
        refused = 0
        for _ in range(40):
            ws = await _raw(server)
            said = await _next(ws)
            assert said is not None and said["reason"] == "tables_too_many_connections"
            assert "at most 4 at once" in said["message"]
            assert await _next(ws) is None and ws.close_code == 1013
            refused += 1
        assert refused == 40
        # the four held still work: one takes the seat
        await held[0].write_message(_hello(code))
        assert (await _until(held[0], "welcome"))["seat"] == 0
        # a place freed is a place again
        held[1].close()
        for _ in range(100):
            ws = await _raw(server)
            await ws.write_message(_hello(code))
            answer = await _next(ws)
            assert answer is not None
            if answer.get("reason") != "tables_too_many_connections":
                break
            await asyncio.sleep(0.05)  # the server has not seen the close yet
        assert answer["type"] == "error" and answer["reason"] == "tables_full"  # in, then refused
        for ws in held:
            ws.close()

    asyncio.run(asyncio.wait_for(flood(), 60))
    log = server.stop()
    assert log.count("too many connections from your address") == 40
