"""Legal actions: every move the seat to act may make now, found by checking candidates.

The candidates are generated generously (every discard, every meld the hand can make,
every lay-off that might fit, every joker exchange) and each is put to the same checks as
a move the player types (:mod:`rummykit.game.checks`), so the list and the referee never
disagree.

>>> from rummykit.game import Game
>>> game = Game.new("rommi", players=2, seed=7)
>>> [str(a) for a in legal_actions(game.variant, game._state)]
['draw from the stock', 'take the top of the discard pile']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import combinations

from rummykit.cards import HIGH_ACE, JOKER, SUITS, Card, card_at, run_places
from rummykit.game import actions
from rummykit.game._round import State
from rummykit.game.checks import failures, jokers_read, must_open_first
from rummykit.game.jokers import reading_key
from rummykit.melds import Meld, layoff_readings
from rummykit.variants import Variant

__all__ = ["candidate_melds", "legal_actions"]


def legal_actions(v: Variant, s: State) -> list[actions.Action]:
    """Every action the seat to act may take now: each candidate move that
    :func:`~rummykit.game.checks.failures` allows, one per move whatever the order of its
    cards, and one per whole reading when several jokers' meanings are open."""
    if s.phase == "over":
        return []
    if s.phase == "cut":
        return [actions.Cut(h) for h in range(1, len(s.stock))]
    candidates: list[actions.Action]
    if s.phase == "draw":
        candidates = [actions.Draw("stock"), actions.Draw("discard"), actions.Draw("cut_card")]
    else:
        candidates = list(_play_candidates(v, s))
    seat = s.current
    legal: list[actions.Action] = []
    for action in candidates:
        found = failures(v, s, action, seat)
        if not found:
            legal.append(action)
        elif isinstance(action, (actions.PlayMeld, actions.LayOff)) and len(found) == 1:
            # several jokers whose meaning is open: one action per whole reading
            choice = jokers_read(v, s, action)
            for meaning in choice.open_readings if choice else ():
                named = replace(action, joker_as=meaning)
                if not failures(v, s, named, seat):
                    legal.append(named)
    unique: dict[tuple[object, ...], actions.Action] = {}
    for action in legal:  # one action per move, whatever order its cards are in
        cards = getattr(action, "cards", ())
        key: tuple[object, ...] = (
            type(action),
            tuple(sorted(cards, key=Card.sort_key)),
            action,
        )
        if isinstance(action, (actions.PlayMeld, actions.LayOff)):
            key = (type(action), key[1], getattr(action, "meld", None), action.joker_as)
        unique.setdefault(key, action)
    return list(unique.values())


def _play_candidates(v: Variant, s: State) -> Iterator[actions.Action]:
    """The moves worth checking after the draw (a superset of the legal ones)."""
    hand = s.hands[s.current]
    distinct = list(dict.fromkeys(hand))
    for card in distinct:
        yield actions.Discard(card)
    if s.turn.steps:
        yield actions.Undo()
    if s.turn.cut_taken is not None:
        yield actions.ReturnCutCard()
    if v.opening_barred(s.turns[s.current]) and not s.opened[s.current]:
        return  # H9: no melds, so no lay-offs or exchanges either
    yield from candidate_melds(hand, v)
    if must_open_first(v, s, "layoff"):
        return
    for i, tm in enumerate(s.table):
        for card in distinct:
            if not _may_fit(tm.meld, card):
                continue
            readings = layoff_readings(tm.meld, (card,), v)
            for meaning in dict.fromkeys(_new_joker_meanings(tm.meld, readings)):
                yield actions.LayOff((card,), i, meaning)
        for card, rep in zip(tm.meld.cards, tm.meld.represents):
            if card.is_joker and rep is not None and rep in hand:
                yield actions.ExchangeJoker(rep, i)


def _may_fit(meld: Meld, card: Card) -> bool:
    """A quick test before the full check: could this card join this meld at all?"""
    if card.is_joker:
        return True
    if meld.is_run:
        if card.suit != meld.suit:
            return False
        positions = run_places(card)
        return any(p in (meld.start - 1, meld.end + 1) for p in positions)
    return card.rank == meld.rank and len(meld.cards) < 4


def _new_joker_meanings(old: Meld, readings: tuple[Meld, ...]) -> Iterator[Card | None]:
    """For each lay-off reading, what a newly added joker stands for (None when fixed)."""
    if len({reading_key(m) for m in readings}) <= 1:
        if readings:
            yield None
        return
    for m in readings:
        new = [rep for c, rep in zip(m.cards, m.represents) if c.is_joker and rep is not None]
        old_reps = {rep for c, rep in zip(old.cards, old.represents) if c.is_joker}
        fresh = [r for r in new if r not in old_reps]
        yield fresh[0] if fresh else None


def candidate_melds(hand: Iterable[Card], variant: Variant) -> Iterator[actions.PlayMeld]:
    """Every distinct new meld these cards can make (each joker meaning once).

    >>> from rummykit import ROMMI, parse_cards as as_cards
    >>> [str(m) for m in candidate_melds(as_cards("5♥ 6♥ 7♥ 7♠ 7♦"), ROMMI)]
    ['meld 7♠ 7♥ 7♦', 'meld 5♥ 6♥ 7♥']
    """
    cards = list(hand)
    jokers = sum(1 for c in cards if c.is_joker)
    use_jokers = min(jokers, variant.jokers_per_meld)
    naturals = sorted(set(c for c in cards if not c.is_joker), key=Card.sort_key)
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, set[int]] = {}
    for c in naturals:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, set()).add(c.rank)
    for rank in sorted(by_rank):
        group = by_rank[rank]
        for size in (3, 4):
            for combo in combinations(group, size):
                yield actions.PlayMeld(combo)
        for jokers_used in range(1, use_jokers + 1):  # a set's jokers: at most four cards
            for size in range(max(1, 3 - jokers_used), 5 - jokers_used):
                for combo in combinations(group, size):
                    yield actions.PlayMeld((*combo, *[JOKER] * jokers_used))
    low = 1 if variant.ace_low else 2
    high = HIGH_ACE if variant.ace_above_king else 13
    for suit in SUITS:
        ranks = by_suit.get(suit, set())
        if len(ranks) + use_jokers < 3 or len(ranks) < max(1, 3 - use_jokers):
            continue
        present = {r for r in ranks if r != 1} | ({1, HIGH_ACE} if 1 in ranks else set())
        for start in range(low, high - 1):
            missing: list[int] = []
            for stop in range(start, min(high, start + 12) + 1):
                if stop not in present:
                    missing.append(stop)
                    if len(missing) > use_jokers:
                        break
                if stop - start < 2:
                    continue
                window = range(start, stop + 1)
                laid = tuple(JOKER if p in missing else card_at(p, suit) for p in window)
                meaning = card_at(missing[0], suit) if len(missing) == 1 else None
                yield actions.PlayMeld(laid, meaning)
                if not missing and use_jokers:  # a joker may stand in for a card still held
                    for p in window:
                        sub = tuple(JOKER if q == p else card_at(q, suit) for q in window)
                        yield actions.PlayMeld(sub, card_at(p, suit))
