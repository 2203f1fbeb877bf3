"""A seat's own position (what a page loads to say "why not" before asking the server): in
every position of random rounds of both variants and every table size, the mirror game
answers the seat's checks and legal actions exactly as the real game, and its hidden cards
are a function of what the seat sees — nothing of the other hands, the stock or the seed."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rummykit.cards import parse_card, sort_cards
from rummykit.game import Discard, Game, PlayMeld
from rummykit.server.tables import seat_position


@pytest.mark.parametrize(
    ("variant", "players"),
    [("hungarian", 2), ("hungarian", 3), ("hungarian", 4), ("rommi", 2), ("rommi", 4)],
)
def test_the_mirror_answers_like_the_game_and_hides_what_the_seat_cannot_see(
    variant: str, players: int
) -> None:
    pick = random.Random(players)
    game = Game.new(variant, players=players, seed=10 + players)
    checked = 0
    while not game.is_over and checked < 120:
        seat = game.current
        record = seat_position(game, seat)
        assert record is not None
        mirror = Game.load(json.dumps(record))
        legal = game.legal_actions()
        assert mirror.legal_actions() == legal
        assert mirror.hand(seat) == game.hand(seat) and mirror.table == game.table
        hand = game.hand(seat)
        probes = [
            *legal[:20],
            Discard(hand[0]),
            PlayMeld(tuple(hand[:3])),
            PlayMeld(tuple(hand[-4:])),
        ]
        for action in probes:
            assert mirror.check(action, seat).to_dict() == game.check(action, seat).to_dict()
        # the hidden cards: the unseen ones, sorted, whatever the real deal was
        obs = game.observation(seat)
        seen = (
            Counter(obs.hand)
            + Counter(obs.discard_pile)
            + Counter(c for m in obs.table for c in m.meld.cards)
        )
        if obs.cut_card is not None:
            seen[obs.cut_card] += 1
        unseen = sort_cards((Counter(game.variant.deck()) - seen).elements())
        position = record["position"]
        hidden = [c for s, h in enumerate(position["hands"]) if s != seat for c in h] + position[
            "stock"
        ]
        assert [parse_card(c) for c in hidden] == list(unseen)
        assert position["seed"] == 0 and position["rng"] is None
        game.play(pick.choice(legal), seat)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize(
    ("variant", "players", "seed"),
    [
        ("hungarian", 2, 2),
        ("hungarian", 2, 5),
        ("hungarian", 3, 7),
        ("hungarian", 4, 16),
        ("rommi", 2, 3),
        ("rommi", 3, 4),
    ],
)
def test_a_waiting_seat_always_gets_a_position_it_can_load_while_another_plays(
    variant: str, players: int, seed: int
) -> None:
    """While another seat plays a turn of several moves (melds, lay-offs, a take from the
    discard pile), every waiting seat's position loads, with its own hand and the table as
    they are; each state the turn keeps (a take from the pile must be undoable, H7) hides
    the cards that state hid, sorted: the real ones never."""
    from rummykit.ai import make_agent

    agent = make_agent("easy")
    game = Game.new(variant, players=players, seed=seed)
    loaded = steps = 0
    while not game.is_over:
        real = game.snapshot()
        real_states = [real, *(s["state"] for s in (real["turn"] or {}).get("steps", []))]
        for seat in range(players):
            if seat == game.current:
                continue
            record = seat_position(game, seat)
            assert record is not None
            mirror = Game.load(json.dumps(record))
            assert mirror.hand(seat) == game.hand(seat) and mirror.table == game.table
            assert mirror.current == game.current and mirror.phase == game.phase
            position = record["position"]
            kept = (position["turn"] or {}).get("steps", [])
            states = [position, *(s["state"] for s in kept)]
            turn = real["turn"] or {}
            taken = [turn.get(k) for k in ("taken", "cut_taken") if turn.get(k)]
            for shown, was in zip(states, real_states[: len(states)], strict=True):
                assert shown["hands"][seat] == was["hands"][seat]
                # the taken cards all saw, where they are; the rest of the hidden cards sorted
                public = [c for c in taken if c in was["hands"][game.current]]
                acting = shown["hands"][game.current]
                assert acting[: len(public)] == public
                hidden = [
                    c
                    for s, h in enumerate(shown["hands"])
                    if s != seat
                    for c in (h[len(public) :] if s == game.current else h)
                ]
                truth = Counter(c for s, h in enumerate(was["hands"]) if s != seat for c in h)
                truth.subtract(public)
                assert hidden + shown["stock"] == [
                    str(c)
                    for c in sort_cards(parse_card(t) for t in [*truth.elements(), *was["stock"]])
                ]
            steps += len(kept)
            loaded += 1
        game.play(agent.decide(game.observation(game.current)).action)
    assert loaded > 20
    assert steps > 0 or variant == "rommi"  # Hungarian turns that took from the pile: seen


def test_the_card_table_keeps_following_when_a_position_is_missing() -> None:
    """The page's side: an update without a position while another seat plays is not the
    end of the round (the card table waits for the next position); one whose observation is
    over is."""
    from rummykit.agents.protocol import decide_message
    from rummykit.ai import make_agent
    from rummykit.widgets.remote import RemoteTable

    game = Game.new("rommi", players=2, seed=4)
    seat = 1 - game.current

    def update(position: bool = True) -> dict[str, object]:
        message = decide_message(game.observation(seat), 1)
        message.update(type="update", position=seat_position(game, seat) if position else None)
        return message

    class Client:
        on_message = None

        def __init__(self) -> None:
            self.seat, self.last = seat, update()
            self.welcome = {"table": "K7QXM2PA", "seats": ["human", "easy"]}

        async def act(self, action: object, trace: object = None) -> None: ...

    table = RemoteTable(Client())  # type: ignore[arg-type]
    game.play(game.legal_actions()[0])  # the other seat moves
    table.receive(update(position=False))
    assert not table.over and table.alert != "The round is over."
    assert table.game.hand(seat) == game.hand(seat)
    table.receive(update())
    assert not table.over
    agent = make_agent("easy")
    while not game.is_over:
        game.play(agent.decide(game.observation(game.current)).action)
    table.receive(update())  # the round is over: no position, an observation that says so
    assert table.over and table.alert == "The round is over."
