"""Dealing a round: the shuffled deck, the cut and its cut card (H3), the hands and the first
discard (R2).

>>> import random
>>> from rummykit.variants import HUNGARIAN
>>> state = shuffled(HUNGARIAN, 3, 0, random.Random(1))
>>> len(state.stock), state.phase, state.current
(108, 'cut', 2)
>>> cut(HUNGARIAN, state, default_cut(state), 0)
>>> [len(h) for h in state.hands], state.cut_card is not None, state.current, state.phase
([14, 15, 14], True, 1, 'play')
"""

from __future__ import annotations

import random

from rummykit.game._round import State, Turn
from rummykit.variants import Variant

__all__ = ["cut", "deal", "default_cut", "shuffled"]


def shuffled(rules: Variant, players: int, dealer: int, rng: random.Random) -> State:
    """A round before the deal: the whole deck shuffled into the stock, the player to the
    dealer's right to cut (H3). Without an opening threshold (R5) every seat has opened."""
    deck = list(rules.deck())
    rng.shuffle(deck)
    return State(
        hands=[[] for _ in range(players)],
        stock=deck[::-1],
        discard=[],
        table=[],
        cut_card=None,
        current=(dealer - 1) % players,
        phase="cut",
        opened=[rules.opening_threshold == 0] * players,
        turns=[0] * players,
        drawn=[False] * players,
        turn=Turn(),
    )


def default_cut(s: State) -> int:
    """The cut height used when nobody chooses one: the middle of the deck."""
    return len(s.stock) // 2


def cut(v: Variant, s: State, height: int, dealer: int) -> None:
    """Cut the deck at ``height``: the bottom card of the lifted packet is the cut card (H3);
    then deal."""
    deck = s.stock[::-1]  # top first
    lifted, rest = deck[:height], deck[height:]
    s.cut_card = lifted[-1]
    s.stock = (rest + lifted[:-1])[::-1]
    deal(v, s, dealer)


def deal(v: Variant, s: State, dealer: int) -> None:
    """Deal the hands from the dealer's left (H2); the starter gets one card more and begins
    with a discard (H3), or one card starts the discard pile and the starter draws (R2)."""
    players = len(s.hands)
    size = v.hand_size(players)
    starter = (dealer + 1) % players
    for _ in range(size):
        for i in range(players):
            s.hands[(starter + i) % players].append(s.stock.pop())
    for _ in range(v.starter_extra):
        s.hands[starter].append(s.stock.pop())
    if not v.starter_extra:
        s.discard.append(s.stock.pop())
    s.current = starter
    if v.starter_extra:
        s.phase = "play"
        s.turn = Turn(drew="start")
    else:
        s.phase = "draw"
