"""The Table widget at a served table (RemoteTable), without a browser: it draws the server's
seat, says "why not" from the mirror before anything is sent (a refused move never reaches
the server), sends allowed moves, and plays a whole round against a computer seat."""

from __future__ import annotations

import asyncio
from typing import Any

from rummykit.ai import make_agent
from rummykit.game import PlayMeld
from rummykit.server.client import TableClient
from rummykit.widgets.remote import RemoteTable
from tests.tables.conftest import Served


async def _settle(table: RemoteTable) -> None:
    for _ in range(400):
        if not table.remote_pending:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no answer from the server")


def test_the_table_widget_plays_a_served_round(serve: Any) -> None:
    server: Served = serve()
    code = server.create(variant="hungarian", seats=["human", "easy"])

    async def play() -> RemoteTable:
        client = TableClient(server.ws, code, name="Ana", mirror=True)
        await client.connect()
        while client.last is None:
            await client.receive(5)
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
        agent = make_agent("easy")
        for _ in range(2000):
            if table.over:
                break
            if table.view["my_turn"] and not table.remote_pending:
                assert table.act(agent.decide(table.game.observation(table.seat)).action)
                await _settle(table)
            else:
                await asyncio.sleep(0.01)
        assert table.over and table.alert == "The round is over."
        await client.close()
        await listening
        return table

    table = asyncio.run(asyncio.wait_for(play(), 180))
    record = server.api(f"/api/tables/{code}/record")[1]
    assert {a["seat"] for a in record["actions"]} == {0, 1}
    assert len(table.moves) >= len(record["actions"]) // 2  # the log told the round
