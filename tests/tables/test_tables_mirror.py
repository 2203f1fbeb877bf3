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
