"""The Table widget at a served table (RemoteTable), without a browser: it draws the server's
seat, says "why not" from the mirror before anything is sent (a refused move never reaches
the server), sends allowed moves, and plays a whole round against a computer seat."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

from rummykit.game import Draw, Game, PlayMeld
from rummykit.server.client import join_table
from rummykit.widgets.remote import RemoteTable
from tests.tables.conftest import Served, play_out, settle


def test_the_table_widget_plays_a_served_round(serve: Any) -> None:
    server: Served = serve()
    code = server.create(variant="hungarian", seats=["human", "easy"])

    async def play() -> RemoteTable:
        client = await join_table(server.ws, code, "Ana")
        table = RemoteTable(client)
        listening = asyncio.ensure_future(client.listen())
        assert repr(table).startswith("RemoteTable('hungarian', players=2, seat=0")
        # the hand shown is the server's hand for this seat
        opened = server.api(f"/api/tables/{code}?open=1")[1]
        assert sorted(c["text"] for c in table.view_hand) == sorted(opened["hands"][0])
        # a refused move: explained from the mirror, nothing sent
        position = opened["position"]
        hand = table.hand_order
        assert not table.act(PlayMeld(tuple(hand[:2])))
        assert table.alert and server.api(f"/api/tables/{code}")[1]["position"] == position
        await play_out(table)
        assert table.over and table.alert == "The round is over."
        # the page shows the table as it ended, not the position before the last move
        final = server.api(f"/api/tables/{code}?open=1")[1]
        assert final["game"]["phase"] == "over"
        view = table.view
        assert not view["my_turn"]
        # who won and what each seat scores, as the round the server recorded ended
        ended = Game.load(json.dumps(server.api(f"/api/tables/{code}/record")[1])).result
        assert ended is not None
        winner = "You " if ended.winner == 0 else f"{table.names[1]} "
        assert view["status"].startswith(winner if ended.winner is not None else "No one")
        assert view["status"].endswith("ask your teacher for the next table.")
        assert len(view["result"]) == len(ended.lines)
        for line, reason in zip(view["result"], ended.lines, strict=True):
            assert str(reason.params.get("points", "")) in line
            assert ("You" in line or "Your" in line) == (reason.params.get("seat") == 0)
        assert view["scores"] == list(ended.points)
        assert sorted(c["text"] for c in table.view_hand) == sorted(final["hands"][0])
        assert [m["cards"] for m in view["melds"]] == [m["cards"] for m in final["game"]["table"]]
        assert view["discard_count"] == len(final["game"]["discard_pile"])
        assert not [n for n, c in view["can"].items() if c], view["can"]  # every control done
        assert all(not m["layoff"]["enabled"] for m in view["melds"])
        for move in (Draw("stock"), table.game.legal_actions()[0]):  # nothing goes out
            assert not table.act(move) and table.alert == "The round is over."
        table.handle({"type": "hint"})
        assert table.view["hint"] == "The round is over."
        # the other seat's moves are logged as their own sentences, no computer's reasoning
        theirs = [m for m in table.moves if not m["mine"]]
        assert theirs and all("action" not in m and m["text"] for m in theirs)
        assert not view["show_reasoning"]
        await client.close()
        await listening
        return table

    table = asyncio.run(asyncio.wait_for(play(), 180))
    record = server.api(f"/api/tables/{code}/record")[1]
    assert {a["seat"] for a in record["actions"]} == {0, 1}
    assert len(table.moves) >= len(record["actions"]) // 2  # the log told the round


def test_the_class_page_joins_a_served_table_by_its_code(serve: Any, monkeypatch: Any) -> None:
    """``rummykit classroom --tables`` puts the server's address in the kernels' environment:
    the class page then has a table-code box; a code that can't be one and a missing name are
    said at once, a wrong code gets the server's sentence, a good one (typed in lower case)
    turns the page's Table into the learner's seat there, and a move made in it is the
    server's."""
    from rummykit.widgets.class_table import TABLES_VARIABLE, ClassTable

    server: Served = serve()
    code = server.create(variant="rommi", seats=["human", "easy"])
    assert len(ClassTable.from_environment().children) == 2  # no server: no box
    monkeypatch.setenv(TABLES_VARIABLE, server.ws)

    async def join() -> None:
        page = ClassTable.from_environment()
        local = page.table
        assert len(page.children) == 4 and page.children[-1] is local
        assert page.join_table("no!", "Ana") is None
        assert (
            page._said.value
            == "'no!' is not a table code: your teacher gives you one, like K7QXM2PA"
        )
        assert page.join_table(code, "  ") is None and page._said.value.startswith("Type your name")
        await page.join_table("ZZZZZZZZ", "Ana")  # type: ignore[misc]
        assert page._said.value == (
            "Table ZZZZZZZZ could not be joined: there is no open table with the code ZZZZZZZZ"
        )
        assert page.table is local
        await page.join_table(f" {code.lower()} ", "Ana")  # type: ignore[misc]
        assert isinstance(page.table, RemoteTable), page._said.value
        assert page.children[-1] is page.table
        assert local.comm is None  # the local game's widget closed
        assert page._said.value == f"You play at table {code}, in seat 0."
        view = server.api(f"/api/tables/{code}")[1]
        assert view["seats"][0]["name"] == "Ana" and view["seats"][0]["connected"]
        # a move in the page's Table is the server's
        table = page.table
        for _ in range(500):
            if table.view["my_turn"] and not table.remote_pending:
                break
            await asyncio.sleep(0.01)
        position = server.api(f"/api/tables/{code}")[1]["position"]
        assert table.act(table.game.legal_actions()[0])
        await settle(table)
        assert server.api(f"/api/tables/{code}")[1]["position"] > position
        # the table's one learner seat is taken: a second page is told so
        other = ClassTable.from_environment()
        await other.join_table(code, "Bob")  # type: ignore[misc]
        assert other._said.value == (
            f"Table {code} could not be joined: every learner's seat at table {code} is taken: "
            "ask your teacher for another table"
        )
        await page.client.close()
        # no server at the address: said so
        with socket.socket() as free:
            free.bind(("127.0.0.1", 0))
            nowhere = f"ws://127.0.0.1:{free.getsockname()[1]}/ws"
        monkeypatch.setenv(TABLES_VARIABLE, nowhere)
        lost = ClassTable.from_environment()
        await lost.join_table(code, "Cy")  # type: ignore[misc]
        assert lost._said.value.startswith(
            f"Table {code} could not be joined: the table server at {nowhere} can't be reached: "
        )

    asyncio.run(asyncio.wait_for(join(), 60))


def test_the_served_card_table_names_the_other_learners(serve: Any) -> None:
    """Learners at one table see each other by the names they gave (a seat still free is
    "Seat N"), in the table's words and its log, from the first update after they sat."""
    server: Served = serve()
    code = server.create(variant="rommi", seats=["human", "human", "easy"])

    async def meet() -> None:
        ana = await join_table(server.ws, code, "Ana")
        table = RemoteTable(ana)
        listening = asyncio.ensure_future(ana.listen())
        others = {n: name for n, name in enumerate(table.names) if n != ana.seat}
        assert set(others.values()) == {f"Seat {1 - ana.seat}", "Seat 2 (easy AI)"}
        bob = await join_table(server.ws, code, "  Bob  ")
        assert bob.seat is not None and bob.seat != ana.seat
        # a move by whoever is to act: Ana's page is updated, with Bob's name
        mover = ana if ana.my_turn else bob
        seen = len(ana.received)
        await mover.act(mover.observation.legal_actions[0])  # type: ignore[union-attr]
        for _ in range(500):
            if any(m["type"] == "update" for m in ana.received[seen:]) or table.remote_pending:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert table.names[bob.seat] == f"Seat {bob.seat} (Bob)"
        assert table.names[ana.seat] == "You" and table.names[2] == "Seat 2 (easy AI)"
        assert table.labels["ai_moves_plain"] == "The other players' moves"
        await bob.close()
        await ana.close()
        await listening

    asyncio.run(asyncio.wait_for(meet(), 60))
