"""What every level needs to read from an observation: unseen cards, public takes, the plan
for the rest of the turn, and how to find the legal action that carries out a step.

Agents use only the observation: their own hand, what is public, and the legal actions.
"""

from __future__ import annotations

import math
import random
import zlib
from bisect import insort
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from rummykit.ai.trace import Note
from rummykit.cards import JOKER, SUITS, Card
from rummykit.game.actions import Action, Discard, ExchangeJoker, LayOff, PlayMeld
from rummykit.game.facts import Event
from rummykit.game.observation import Observation
from rummykit.melds import Meld
from rummykit.solver import (
    Arrangement,
    best_arrangement,
    best_opening,
    can_go_out,
    deadwood_counter,
    layoff_sets,
    opening_points,
)
from rummykit.variants import Variant

__all__ = [
    "find_legal",
    "meld_action",
    "next_seat",
    "public_takes",
    "seeded_rng",
    "turn_events",
    "unseen_cards",
]


def next_seat(obs: Observation) -> int:
    """The seat that plays after this one (clockwise, H2)."""
    return (obs.seat + 1) % obs.players


def unseen_cards(obs: Observation) -> list[Card]:
    """Every card this seat has not seen and can't place: the deck less its hand, the
    discard pile, the table, the cut card, and the cards another seat is known to hold
    (:func:`known_hand`) — the cards that may be in the stock or unknown in other hands.

    >>> from rummykit.game import Game, Draw
    >>> game = Game.new("rommi", players=2, seed=1)
    >>> top = game.discard_pile[-1]
    >>> before = len(unseen_cards(game.observation(1)))
    >>> game.play(Draw("discard"))  # seat 0 takes the top card in full view
    (Event(seat=1, code='draw_discard', params={'card': 'J♥'}),)
    >>> after = unseen_cards(game.observation(1))
    >>> len(after) == before and top not in after  # seen on the pile before, held now
    True
    """
    seen: Counter[Card] = Counter(obs.hand)
    seen.update(obs.discard_pile)
    for tm in obs.table:
        seen.update(tm.meld.cards)
    if obs.cut_card is not None:
        seen[obs.cut_card] += 1
    memory = public_memory(obs)
    for seat in range(obs.players):
        if seat != obs.seat:
            seen.update(memory.held[seat])
    return list((Counter(obs.variant.deck()) - seen).elements())


@dataclass(frozen=True, slots=True)
class Memory:
    """What the public history of the round says about each seat's hand: ``takes``, the
    cards it took from the discard pile (in order, a take it undid forgotten), and
    ``held``, the cards it is known to hold — taken from the discard pile, the cut card,
    or a joker taken back from the table, in full view — and not seen leaving its hand."""

    takes: tuple[tuple[Card, ...], ...]
    held: tuple[tuple[Card, ...], ...]


def public_memory(obs: Observation) -> Memory:
    """Read :class:`Memory` off the observation's public history.

    A turn's moves stay provisional until its discard: an undo takes back the last one
    (a take from the discard pile included), and giving the cut card back takes back
    everything since it was taken (H10).

    >>> from rummykit.game import Game, Draw, Undo
    >>> game = Game.new("rommi", players=2, seed=1)
    >>> game.play(Draw("discard"))
    (Event(seat=1, code='draw_discard', params={'card': 'J♥'}),)
    >>> game.play(Undo())  # the take is undone: the card goes back onto the pile
    (Event(seat=1, code='undo'),)
    >>> game.play(Draw("stock"))
    (Event(seat=1, code='draw_stock'),)
    >>> public_memory(game.observation(1)).takes[0]
    ()
    """
    global _memory
    if _memory is not None and _memory[0] is obs.history and _memory[1] == obs.players:
        return _memory[2]
    from rummykit.cards import parse_card

    takes: list[list[Card]] = [[] for _ in range(obs.players)]
    held: list[Counter[Card]] = [Counter() for _ in range(obs.players)]
    steps: list[list[tuple[str, Counter[Card], bool]]] = [[] for _ in range(obs.players)]

    def take_back(seat: int, back_to: str | None) -> None:
        while steps[seat]:
            code, change, took = steps[seat].pop()
            held[seat].subtract(change)
            held[seat] = +held[seat]
            if took:
                takes[seat].pop()
            if back_to is None or code == back_to:
                return

    for e in obs.history:
        seat = e.seat
        if seat is None or not 0 <= seat < obs.players:
            continue
        if e.code == "undo":
            take_back(seat, None)
            continue
        if e.code == "return_cut":
            take_back(seat, "draw_cut")
            continue
        change: Counter[Card] = Counter()
        if e.code in ("draw_discard", "draw_cut"):
            change[parse_card(e.params["card"])] += 1
        elif e.code == "exchange":
            change[JOKER] += 1
            card = parse_card(e.params["card"])
            if held[seat][card]:
                change[card] -= 1
        elif e.code in ("meld", "layoff", "discard"):
            names = e.params["cards"] if "cards" in e.params else [e.params["card"]]
            for card in map(parse_card, names):
                if held[seat][card] + change[card] > 0:
                    change[card] -= 1
        else:
            continue
        held[seat].update(change)
        held[seat] = +held[seat]
        if e.code == "draw_discard":
            takes[seat].append(parse_card(e.params["card"]))
        if e.code == "discard":
            steps[seat] = []
        else:
            steps[seat].append((e.code, change, e.code == "draw_discard"))
    memory = Memory(tuple(tuple(t) for t in takes), tuple(tuple(h.elements()) for h in held))
    _memory = (obs.history, obs.players, memory)
    return memory


_memory: tuple[tuple[Event, ...], int, Memory] | None = None  # the last history read


def public_takes(obs: Observation, seat: int) -> list[Card]:
    """Cards ``seat`` took from the discard pile this round (public: everyone saw them), a
    take it undid left out."""
    return list(public_memory(obs).takes[seat])


def known_hand(obs: Observation, seat: int) -> list[Card]:
    """Cards ``seat`` is known to hold: taken from the discard pile (or a joker taken back)
    in full view, and not seen leaving its hand since.

    >>> from rummykit.game import Game, Draw, Discard
    >>> game = Game.new("rommi", players=2, seed=1)
    >>> top = game.discard_pile[-1]
    >>> game.play(Draw("discard"))
    (Event(seat=1, code='draw_discard', params={'card': 'J♥'}),)
    >>> known_hand(game.observation(0), 1) == [top]
    True
    """
    return list(public_memory(obs).held[seat])


def public_discards(obs: Observation, seat: int) -> list[Card]:
    """Cards ``seat`` discarded this round."""
    from rummykit.cards import parse_card

    return [
        parse_card(e.params["card"]) for e in obs.history if e.seat == seat and e.code == "discard"
    ]


def last_draw(obs: Observation) -> bool:
    """Whether asking the stock for a card now ends the deal: it is empty, and it is not
    (or no longer) rebuilt from the discard pile (R10, H15)."""
    if obs.stock_size:
        return False
    rebuilt = any(e.code == "reshuffle" for e in obs.history)
    return not obs.variant.reshuffle_discards or rebuilt or len(obs.discard_pile) <= 1


def turn_events(obs: Observation) -> list[str]:
    """The event codes of the turn in progress (this seat's, since its last discard)."""
    codes: list[str] = []
    for e in reversed(obs.history):
        if e.seat != obs.seat or e.code == "discard":
            break
        codes.append(e.code)
    return codes[::-1]


def first_draw(obs: Observation) -> bool:
    """Whether this seat has not drawn yet this round (H7: the first take may be kept)."""
    return not any(e.seat == obs.seat and e.code.startswith("draw_") for e in obs.history)


def taken_this_turn(obs: Observation) -> Card | None:
    """The card this seat took from the discard pile in the turn in progress, if any."""
    from rummykit.cards import parse_card

    for e in reversed(obs.history):
        if e.seat != obs.seat or e.code == "discard":
            return None
        if e.code == "draw_discard":
            return parse_card(e.params["card"])
    return None


def seeded_rng(obs: Observation, salt: str = "") -> random.Random:
    """A random source fixed by what the seat sees — the same observation, the same choices."""
    text = f"{salt}|{obs.seat}|{len(obs.history)}|{' '.join(map(str, obs.hand))}"
    return random.Random(zlib.crc32(text.encode()))


def meld_action(meld: Meld) -> PlayMeld:
    """The action that lays down this meld, saying what a run's joker stands for."""
    joker_as = None
    if meld.is_run:
        reps = [rep for c, rep in zip(meld.cards, meld.represents) if c.is_joker]
        joker_as = reps[0] if len(reps) == 1 else None
    return PlayMeld(meld.cards, joker_as)


def _key(action: Action) -> tuple[object, ...]:
    if isinstance(action, PlayMeld):
        return ("meld", tuple(sorted(Counter(action.cards).items(), key=lambda kv: str(kv[0]))))
    if isinstance(action, LayOff):
        return ("layoff", tuple(sorted(map(str, action.cards))), action.meld, action.joker_as)
    return (action.kind, action)


def find_legal(obs: Observation, wanted: Action) -> Action | None:
    """The legal action that does what ``wanted`` does (card order aside), if there is one."""
    if wanted in obs.legal_actions:
        return wanted
    key = _key(wanted)
    for action in obs.legal_actions:
        if _key(action) == key:
            if (
                isinstance(wanted, PlayMeld)
                and isinstance(action, PlayMeld)
                and wanted.joker_as is not None
                and action.joker_as not in (None, wanted.joker_as)
            ):
                continue
            return action
    return None


def legal_of(obs: Observation, kind: type[Action]) -> list[Action]:
    """The legal actions of one kind."""
    return [a for a in obs.legal_actions if isinstance(a, kind)]


def table_melds(obs: Observation) -> list[Meld]:
    """The melds on the table."""
    return [tm.meld for tm in obs.table]


def may_open_this_turn(obs: Observation) -> bool:
    """Whether this seat may lay down its opening now (H9: not on its very first turn)."""
    return obs.opened[obs.seat] or not obs.variant.opening_barred(obs.turns[obs.seat])


def going_out_moves(obs: Observation, hand: Sequence[Card]) -> list[Action] | None:
    """The moves that empty the hand this turn (melds, lay-offs, final discard), if any."""
    v = obs.variant
    if not may_open_this_turn(obs):
        return None
    opened = obs.opened[obs.seat]
    table = table_melds(obs) if opened else []
    result = can_go_out(list(hand), v, table)
    if not result.ok and not v.discard_to_win:  # R7: the last card may also go by a discard
        result = can_go_out(list(hand), v, table, final_discard=True)
    if not result.ok:
        return None
    if not opened and v.opening_threshold:
        points = sum(m.points(v) for m in result.melds) + obs.turn.meld_points
        if points < v.opening_threshold:
            return None
    moves: list[Action] = [meld_action(m) for m in result.melds]
    moves += [
        LayOff(lay.cards, lay.index, layoff_joker(lay.meld, lay.result)) for lay in result.layoffs
    ]
    if result.discard is not None:
        moves.append(Discard(result.discard))
    return moves


def layoff_joker(meld: Meld, result: Meld) -> Card | None:
    """What a joker laid off onto a run stands for (H5: at an end the player says which):
    the card the result's new joker represents, or ``None`` when no joker goes onto a run.

    >>> from rummykit import make_meld
    >>> meld = make_meld("4♥ 5♥ 6♥")
    >>> layoff_joker(meld, make_meld("4♥ 5♥ 6♥ 🃏", joker_as=Card("7♥")))
    Card('7♥')
    """
    if not result.is_run:
        return None
    before = Counter(rep for c, rep in zip(meld.cards, meld.represents) if c.is_joker)
    after = Counter(rep for c, rep in zip(result.cards, result.represents) if c.is_joker)
    new = [rep for rep in (after - before).elements() if rep is not None]
    return new[0] if len(new) == 1 else None


def layoff_table(obs: Observation, seat: int | None = None) -> list[Meld]:
    """The melds ``seat`` (by default this one) may lay cards off onto: all of the table's
    once it has opened, or in a variant without an opening (H8, R5, R6); none before."""
    v = obs.variant
    opened = obs.opened[obs.seat if seat is None else seat] or not v.opening_threshold
    return table_melds(obs) if opened else []


def least_deadwood(obs: Observation, hand: Sequence[Card], discard: bool = False) -> int:
    """The least deadwood of ``hand`` for this seat: its melds laid down and any of its
    cards laid off onto the table where it may (:func:`layoff_table`), or after an opening of
    its own this turn (:func:`arrangement`)."""
    if not hand:
        return 0
    if _opens_to_lay_off(obs, hand):
        return arrangement(obs, hand, discard).deadwood_value
    return deadwood_counter(obs.variant, discard=discard, table=layoff_table(obs))(tuple(hand))


def _opens_to_lay_off(obs: Observation, hand: Sequence[Card]) -> bool:
    """Whether this seat, not opened yet, could open this turn with ``hand`` and then lay
    cards off in the same turn (H8)."""
    v = obs.variant
    return bool(
        v.opening_threshold
        and not obs.opened[obs.seat]
        and obs.table
        and may_open_this_turn(obs)
        and best_opening(list(hand), v).ok
    )


def arrangement(obs: Observation, hand: Sequence[Card], discard: bool = False) -> Arrangement:
    """The least-deadwood arrangement of ``hand`` for this seat, lay-offs included where it
    may make them: once opened (or without an opening rule) onto the whole table; before its
    opening, in the turn it can open, after new melds of its own worth the opening (H8)."""
    v = obs.variant
    if not _opens_to_lay_off(obs, hand):
        return best_arrangement(list(hand), v, discard=discard, table=layoff_table(obs))
    best = best_arrangement(list(hand), v, discard=discard)
    for laid in layoff_sets(hand, table_melds(obs), v)[1:]:
        rest = list(hand)
        for card in laid:
            rest.remove(card)
        if not rest:
            continue  # the opening's own melds hold cards of the hand
        for found in _openings_of(rest, v, discard):
            if found.deadwood_value < best.deadwood_value:
                best = Arrangement(
                    found.melds, found.deadwood, found.deadwood_value, found.discard, v.name, laid
                )
    return best


def _openings_of(cards: list[Card], v: Variant, discard: bool) -> Iterator[Arrangement]:
    """Arrangements of ``cards`` whose melds make an opening (H8): the least-deadwood one
    when its melds reach the threshold, and the one of the best opening's melds."""
    found = best_arrangement(cards, v, discard=discard)
    if sum(m.points(v) for m in found.melds) >= v.opening_threshold:
        yield found
    opening = best_opening(cards, v)
    if not opening.ok:
        return
    left = list(cards)
    for meld in opening.melds:
        for c in meld.cards:
            left.remove(c)
    if discard:
        if not left:
            return
        worst = max(left, key=v.card_value)
        left.remove(worst)
    else:
        worst = None
    value = sum(v.card_value(c) for c in left)
    yield Arrangement(tuple(opening.melds), tuple(left), value, worst, v.name)


def must_play_take(obs: Observation) -> bool:
    """Whether a card taken from the discard pile now must be played this turn (H7: every
    take but the first draw of the round, where the variant says so)."""
    v = obs.variant
    return v.discard_take_must_play and not (v.first_draw_keeps_discard and first_draw(obs))


def played_deadwood(
    obs: Observation, hand: Sequence[Card], card: Card, *, layoff: bool = True
) -> int | None:
    """The least deadwood of ``hand`` with ``card`` added, one card thrown away (not
    ``card``), when ``card`` must be played this turn — in a new meld, or (``layoff``) laid
    off onto the table where this seat may; ``None`` when it can't be played at all.

    >>> from rummykit import HUNGARIAN, parse_cards
    >>> from rummykit.game import from_position
    >>> game = from_position("hungarian", hands=["7♥ 8♥ K♣ 2♦", "3♣ 4♣ 5♣"], opened=[True, True],
    ...                      turns=[3, 3], phase="draw")
    >>> obs = game.observation(0)
    >>> played_deadwood(obs, obs.hand, Card("9♥")), played_deadwood(obs, obs.hand, Card("Q♠"))
    (2, None)
    """
    v = obs.variant
    table = layoff_table(obs)
    cards = [*hand, card]
    counter = deadwood_counter(v, discard=True, table=table)
    found: list[int] = []
    for meld in melds_with(card, list(hand), v):
        rest = list(cards)
        for c in meld.cards:
            rest.remove(c)
        if rest:
            found.append(counter(tuple(rest)))
    plain = deadwood_counter(v, discard=True)
    for laid in layoff_sets(cards, table, v) if table and layoff else ():
        if card not in laid:
            continue
        rest = list(cards)
        for c in laid:
            rest.remove(c)
        if rest:
            found.append(plain(tuple(rest)))
    return min(found) if found else None


def take_playable(obs: Observation, hand: Sequence[Card], top: Card) -> bool:
    """Whether ``top`` may be taken from the discard pile by a hand that must then keep H7:
    any take when it need not be played; otherwise when it can be played this turn — in a
    new meld or laid off, and before the opening in an opening of the threshold or more
    (H7, H8; never on the first turn, H9)."""
    v = obs.variant
    if not must_play_take(obs):
        return True
    if obs.opened[obs.seat] or not v.opening_threshold:
        return played_deadwood(obs, hand, top) is not None
    if not may_open_this_turn(obs):
        return False
    return opening_holding([*hand, top], top, v) >= v.opening_threshold


def take_value(obs: Observation, hand: Sequence[Card], top: Card) -> tuple[int, Note]:
    """The least deadwood once ``top`` is taken and the worst card thrown away — ``top``
    played this turn where H7 says it must be — and the sentence that says so. A card that
    would have to be played and can't be, or (before the opening) that must go into the
    opening, is counted as no change: the deadwood now."""
    v = obs.variant
    if not must_play_take(obs):
        after = least_deadwood(obs, [*hand, top], discard=True)
        return after, Note("ai_term_take", {"card": top, "value": after}, (top,))
    now = least_deadwood(obs, hand)
    if obs.opened[obs.seat] or not v.opening_threshold:
        played = played_deadwood(obs, hand, top)
        if played is None:
            return now, Note("ai_term_take_unplayable", {"card": top, "value": now}, (top,))
        return played, Note("ai_term_take_played", {"card": top, "value": played}, (top,))
    params = {"card": top, "value": now, "threshold": v.opening_threshold}
    if not may_open_this_turn(obs):
        return now, Note("ai_term_take_first_turn", params, (top,))
    points = opening_holding([*hand, top], top, v)
    code = "ai_term_take_opening" if points >= v.opening_threshold else "ai_term_take_no_opening"
    return now, Note(code, {**params, "points": points}, (top,))


def arrangement_melds(obs: Observation, hand: Sequence[Card]) -> list[Meld]:
    """The melds of the least-deadwood arrangement of ``hand`` keeping a card to discard."""
    return list(best_arrangement(list(hand), obs.variant, discard=True).melds)


def layoff_moves(obs: Observation, cards: Iterable[Card]) -> list[Action]:
    """Legal single-card lay-offs of these cards."""
    wanted = set(cards)
    return [a for a in legal_of(obs, LayOff) if isinstance(a, LayOff) and a.cards[0] in wanted]


def exchange_moves(obs: Observation) -> list[ExchangeJoker]:
    """Legal joker exchanges."""
    return [a for a in obs.legal_actions if isinstance(a, ExchangeJoker)]


# --- what the table and the unseen cards offer ----------------------------------------------

_SUIT_NO = {suit: i for i, suit in enumerate(SUITS)}
_RUN_CARDS = {(p, suit): Card(1 if p == 14 else p, suit) for suit in SUITS for p in range(1, 15)}


def _code(card: Card) -> int:
    return card.rank * 5 + _SUIT_NO.get(card.suit, 4)


def _positions(card: Card, low: int, high: int) -> tuple[int, ...]:
    return tuple(p for p in ((1, 14) if card.rank == 1 else (card.rank,)) if low <= p <= high)


def completers(hand: Sequence[Card], variant: Variant) -> set[Card]:
    """The cards that would make a meld with two cards of ``hand`` (or one and a joker):
    the only cards whose arrival can change how the hand melds.

    >>> from rummykit import ROMMI, parse_cards
    >>> sorted(map(str, completers(parse_cards("7♥ 8♥ 7♣ 2♠"), ROMMI)))
    ['6♥', '7♠', '7♣', '7♥', '7♦', '9♥']
    """
    low = 1 if variant.ace_low else 2
    high = 14 if variant.ace_above_king else 13
    jokers = sum(c.is_joker for c in hand)
    if jokers >= 2 and variant.jokers and variant.jokers_per_meld >= 2:
        return set(_RUN_CARDS.values())  # any card makes a meld with two jokers
    joker = jokers > 0
    ranks: dict[int, set[str]] = {}
    places: dict[str, set[int]] = {}
    for c in hand:
        if c.is_joker:
            continue
        ranks.setdefault(c.rank, set()).add(c.suit)
        places.setdefault(c.suit, set()).update(_positions(c, low, high))
    out: set[Card] = set()
    for rank, suits in ranks.items():
        if len(suits) >= 2 or joker:
            out.update(_RUN_CARDS[14 if rank == 1 else rank, s] for s in SUITS)
    for suit, present in places.items():
        for p in range(low, high + 1):
            near = [q in present for q in (p - 2, p - 1, p + 1, p + 2)]
            if (
                (near[0] and near[1])
                or (near[1] and near[2])
                or (near[2] and near[3])
                or (joker and any(near))
            ):
                out.add(_RUN_CARDS[p, suit])
    return out


def unseen_counts(obs: Observation) -> Counter[Card]:
    """How many copies of each card this seat has not seen (the stock and the other hands)."""
    return Counter(unseen_cards(obs))


END_RATE: dict[int, tuple[float, ...]] = {
    2: (1.8, 1.8, 1.7, 1.1),
    3: (2.8, 2.4, 2.2, 1.6),
    4: (4.2, 3.6, 3.0, 3.0),
}
"""Points per card a Rommi hand is left with when the deal ends at the empty stock (R10),
by the number of players and by how many rounds of draws the stock still held when that
hand had this many cards (0, 1, 2, 3 or more): the cards held then, times this, is what
the hand is likely to be worth at the end. Measured over 300 deals per table, every level
playing, by ``benchmarks/ai_end_hands.py`` (a stock dealt to 4 players holds under three
rounds, so their last figure repeats the one before)."""

END_SPREAD = 0.45
"""The spread of those end values, as a share of the likely value (its standard
deviation, measured with :data:`END_RATE`); one point more is added, so a small hand
still has some spread."""


def end_rate(players: int, stock: int) -> float:
    """The :data:`END_RATE` for a table of ``players`` whose stock holds ``stock`` cards.

    >>> end_rate(4, 11), end_rate(4, 3), end_rate(3, 20)
    (3.0, 4.2, 1.6)
    """
    rates = END_RATE.get(players, END_RATE[4])
    return rates[min(len(rates) - 1, stock // players)]


def lowest_chance(value: int, sizes: Sequence[int], rate: float) -> float:
    """The chance that a hand of ``value`` points is lower than every other hand at the end
    of the deal, each other hand of ``h`` cards being worth about ``rate`` × ``h`` points
    (spread by :data:`END_SPREAD`, a normal curve); the other hands taken as independent.

    >>> round(lowest_chance(20, [8], 2.5), 3)  # the likely value itself: half the time
    0.5
    >>> round(lowest_chance(10, [8, 8], 2.5), 3)  # below each of two hands of about 20
    0.708
    """
    chance = 1.0
    for size in sizes:
        likely = rate * size
        spread = END_SPREAD * likely + 1.0
        chance *= 0.5 * math.erfc((value - likely) / (spread * math.sqrt(2.0)))
    return chance


def dealt_stock(variant: Variant, players: int) -> int:
    """How many cards the stock holds right after the deal (R2, H2, H3).

    >>> from rummykit.variants import ROMMI, HUNGARIAN
    >>> dealt_stock(ROMMI, 4), dealt_stock(ROMMI, 2), dealt_stock(HUNGARIAN, 4)
    (11, 37, 50)
    """
    dealt = players * variant.hand_size(players) + variant.starter_extra
    starter = 0 if variant.starter_extra else 1  # the card turned up to start the pile
    cut = 1 if variant.cut_card else 0
    return len(variant.deck()) - dealt - starter - cut


@dataclass(frozen=True, slots=True)
class Forecast:
    """What the next draw is expected to bring a hand: ``deadwood`` is the expected
    deadwood after drawing and throwing the worst card away (0 counted for a draw that
    goes out), ``outs`` the unseen cards (one per copy) that go out, ``total`` how many
    cards are unseen; ``after`` how many of them leave each deadwood once drawn —
    ``(deadwood, copies)`` pairs, lowest first — and ``spread`` the same pairs counting
    only the cards that go into a meld or onto the table (any other card counted as
    leaving the hand as it is: a swap for a lower card is a gain the next draw counts,
    and any later draw too, so it is no reason to keep a card).

    >>> f = Forecast(6.0, (Card("Q♣"),), 4, ((0, 1), (8, 3)), ((0, 1), (8, 3)))
    >>> f.best_of(1), f.best_of(2)  # two of the four: both miss the Q♣ half the time
    (6.0, 4.0)
    >>> f.out_within(2)
    0.5
    >>> f.lowest_chance(2, lambda value: 0.5)  # out half the time, else lowest half the time
    0.75
    """

    deadwood: float
    outs: tuple[Card, ...]
    total: int
    spread: tuple[tuple[int, int], ...] = ()
    after: tuple[tuple[int, int], ...] = ()

    @property
    def chance(self) -> float:
        """The chance that the next card lets the hand go out."""
        return len(self.outs) / self.total if self.total else 0.0

    def best_of(self, draws: int) -> float:
        """The expected deadwood of the best of ``draws`` draws by ``spread``: ``draws``
        different cards drawn from the unseen cards, the hand kept as it is between them —
        what the next draws can do for the hand's melds, counting the best one only."""
        if not self.total or not self.spread:
            return self.deadwood
        return sum(dead * share for dead, share in _best_shares(self.spread, self.total, draws))

    def out_within(self, draws: int) -> float:
        """The chance that one of ``draws`` draws (different unseen cards) lets the hand go
        out."""
        return 1.0 - none_drawn(len(self.outs), self.total, draws)

    def lowest_chance(self, draws: int, lowest: Callable[[int], float]) -> float:
        """The chance of winning the deal with the best of ``draws`` draws by ``after``
        (``draws`` different unseen cards, the hand kept as it is between them): going out
        wins, and a hand left with ``d`` points is the lowest at the empty stock with the
        chance ``lowest(d)`` (R10)."""
        if not self.total or not self.after:
            return lowest(round(self.deadwood))
        return sum(
            share * (1.0 if dead == 0 else lowest(dead))
            for dead, share in _best_shares(self.after, self.total, draws)
        )


def none_drawn(count: int, total: int, draws: int) -> float:
    """The chance that ``draws`` cards drawn from ``total`` (all different, as from a
    shuffled stock) miss ``count`` given ones.

    >>> none_drawn(1, 4, 2)  # two of four cards miss a given one half the time
    0.5
    >>> none_drawn(3, 4, 2)
    0.0
    """
    draws = min(draws, total)
    if draws <= 0:
        return 1.0
    return math.comb(total - count, draws) / math.comb(total, draws)


def _best_shares(
    pairs: Sequence[tuple[int, int]], total: int, draws: int
) -> Iterator[tuple[int, float]]:
    """For ``(deadwood, copies)`` pairs lowest first, the chance that the best (least) of
    ``draws`` different cards leaves each deadwood."""
    above = total  # copies leaving this deadwood or more
    for dead, copies in pairs:
        at_least = none_drawn(total - above, total, draws)
        above -= copies
        yield dead, at_least - none_drawn(total - above, total, draws)


class Outlook:
    """What a hand is worth now and after the next draw, for one decision (results cached).

    ``deadwood(hand)`` is the least value left in hand after laying down melds and, when the
    seat may, laying cards off onto the table. ``forecast(hand)`` averages, over every card
    this seat has not seen (weighted by copies), the deadwood after drawing it and discarding
    the best card, and names the cards that let the hand go out. Only the cards
    that could meld with the hand or go onto the table are worked out with the solver; any
    other card is either thrown back or kept instead of the worst card.
    """

    def __init__(self, obs: Observation, *, seat: int | None = None) -> None:
        v = obs.variant
        self.variant = v
        opened = obs.opened[obs.seat if seat is None else seat] or not v.opening_threshold
        table = table_melds(obs) if opened else []
        self.counters = (
            deadwood_counter(v, table=table),
            deadwood_counter(v, discard=True, table=table),
        )
        self.table = table
        counts = unseen_counts(obs)
        self.unseen = [
            (card, counts[card], v.card_value(card)) for card in sorted(counts, key=Card.sort_key)
        ]
        self.total = sum(counts.values())
        self.evaluations = 0  # solver calls made (the search's size, for the trace)
        self._cache: dict[tuple[tuple[int, ...], bool], int] = {}
        self._openings: dict[tuple[int, ...], int] = {}

    def deadwood(self, hand: Sequence[Card], discard: bool = False) -> int:
        """Least deadwood of ``hand`` (one card put aside first when ``discard``): its
        melds laid down and, when the seat may, any of its cards laid off onto the table
        (whichever cards leave least)."""
        if not hand:
            return 0
        key = (tuple(sorted(map(_code, hand))), discard)
        found = self._cache.get(key)
        if found is None:
            self.evaluations += 1
            found = self._cache[key] = self.counters[discard](tuple(hand))
        return found

    def after_draw(self, hand: Sequence[Card], card: Card) -> int:
        """Least deadwood once ``card`` is drawn and the turn played out: 0 when the hand
        goes out — by a final discard, or (R7) by laying down its last card."""
        cards = [*hand, card]
        dead = self.deadwood(cards, discard=True)
        if dead and not self.variant.discard_to_win and self.deadwood(cards) == 0:
            return 0
        return dead

    def relevant(self, hand: Sequence[Card]) -> set[Card]:
        """The unseen cards whose arrival could change how ``hand`` melds or lays off: any
        other card can only be thrown back or kept instead of a costlier one (a swap)."""
        return completers(hand, self.variant) | self._spots(hand)

    def _spots(self, hand: Sequence[Card]) -> set[Card]:
        """The cards that, added to ``hand``, could go onto a table meld: a set's missing
        suits; for a run, each card beyond an end whose gap to it the hand's cards and jokers
        (as many as the meld may still take) can fill."""
        if not self.table:
            return set()
        v = self.variant
        low = 1 if v.ace_low else 2
        high = 14 if v.ace_above_king else 13
        held = set(hand)
        jokers = sum(c.is_joker for c in hand)
        cap = v.jokers_per_meld if v.jokers else 0
        spots: set[Card] = set()
        for meld in self.table:
            free = min(jokers, max(0, cap - sum(c.is_joker for c in meld.cards)))
            if not meld.is_run:
                if len(meld.cards) < 4:
                    spots.update(meld.missing_suits())
                continue
            for step, edge in ((1, meld.end), (-1, meld.start)):
                gaps, p, size = 0, edge + step, len(meld.cards)
                while (
                    low <= p <= high
                    and size < 13
                    and not (p in (1, 14) and {1, 14} & {meld.start, meld.end})
                ):
                    card = _RUN_CARDS[p, meld.suit]
                    if card not in held:
                        spots.add(card)
                        gaps += 1
                        if gaps > free:
                            break
                    p += step
                    size += 1
        return spots

    def forecast(self, hand: Sequence[Card]) -> Forecast:
        """What the next draw is expected to do for ``hand``: the expected deadwood after
        drawing and discarding the best card (0 for a draw that goes out), the unseen
        cards that go out, and how many unseen cards leave each deadwood (all of them, and
        counting only the cards that go into a meld or onto the table)."""
        if not self.total:
            return Forecast(float(self.deadwood(hand)), (), 0)
        keep = self.deadwood(hand)
        acc = 0.0
        outs: list[Card] = []
        spread: Counter[int] = Counter()
        after: Counter[int] = Counter()
        for card, count, dead, melds in self._draws(hand):
            if dead == 0:
                outs += [card] * count
            acc += count * dead
            spread[dead if melds else keep] += count
            after[dead] += count
        return Forecast(
            acc / self.total,
            tuple(outs),
            self.total,
            tuple(sorted(spread.items())),
            tuple(sorted(after.items())),
        )

    def _draws(self, hand: Sequence[Card]) -> Iterator[tuple[Card, int, int, bool]]:
        """Per unseen card: its copies, the least deadwood once it is drawn and the turn
        played out (:meth:`after_draw`), and whether that is less than a swap leaves (the card
        thrown back, or kept instead of the one the hand can best spare) — then the card
        goes into a meld or onto the table, in every arrangement that leaves that least."""
        relevant = self.relevant(hand)
        keep = self.deadwood(hand)
        spare = self.deadwood(hand, discard=True)
        for card, count, value in self.unseen:
            swap = min(keep, spare + value)  # thrown back, or kept instead of the worst
            if card.is_joker or card in relevant:
                dead = self.after_draw(hand, card)
                yield card, count, dead, dead < swap
            else:  # a card that can't meld: keep it instead of the worst, or throw it back
                yield card, count, swap, False

    def melders(self, hand: Sequence[Card]) -> list[Card]:
        """The unseen cards (one per copy) that, drawn, would go into a meld or onto the
        table and leave less deadwood than a swap would (:meth:`_draws`)."""
        return [card for card, count, _, melds in self._draws(hand) if melds for _ in range(count)]

    def opening(
        self, hand: Sequence[Card], key: tuple[int, ...] | None = None, floor: int = 0
    ) -> int:
        """The points of the best opening in ``hand`` (H8), keeping a card to discard
        (``key``: the hand's sorted card codes, when the caller has them; ``floor``: points
        the hand is known to reach, which makes the search quicker)."""
        if key is None:
            key = tuple(sorted(map(_code, hand)))
        found = self._openings.get(key)
        if found is None:
            self.evaluations += 1
            found = opening_points(tuple(hand), self.variant, floor=floor) if hand else 0
            self._openings[key] = found
        return found

    def opening_forecast(self, hand: Sequence[Card]) -> tuple[float, float, list[Card]]:
        """(chance that the next draw lets ``hand`` open, expected opening points after it
        counted up to the threshold, the unseen cards that open — one per copy)."""
        threshold = self.variant.opening_threshold
        exact = self.opening(hand)
        now = min(exact, threshold)
        if now >= threshold:  # a card can only add to an opening: every draw opens
            return 1.0, float(now), [c for c, count, _ in self.unseen for _ in range(count)]
        if not self.total:
            return 0.0, float(now), []
        relevant = completers(hand, self.variant)
        openers: list[Card] = []
        points = 0.0
        base = sorted(map(_code, hand))
        for card, count, _ in self.unseen:
            if card.is_joker or card in relevant:
                key = list(base)
                insort(key, _code(card))
                value = min(self.opening([*hand, card], tuple(key), exact), threshold)
            else:
                value = now
            points += count * value
            if value >= threshold:
                openers += [card] * count
        return len(openers) / self.total, points / self.total, openers


@dataclass(frozen=True, slots=True)
class Partners:
    """A loose card's partners: the other loose cards it could make a meld with (same
    rank, or same suit within two ranks), and for each, the cards that would complete
    that meld; ``outs`` are those cards still unseen, one per copy (with the unseen
    jokers, in a variant that has them)."""

    card: Card
    partners: tuple[tuple[Card, tuple[Card, ...]], ...]
    outs: tuple[Card, ...]

    @property
    def dead(self) -> tuple[tuple[Card, tuple[Card, ...]], ...]:
        """The partners whose completing cards are all seen already."""
        unseen = set(self.outs)
        return tuple((p, need) for p, need in self.partners if not unseen & set(need))


def partners_of(
    card: Card, loose: Iterable[Card], unseen: Counter[Card], variant: Variant
) -> Partners:
    """The partners of ``card`` among ``loose`` cards and its live outs.

    >>> from rummykit import ROMMI, parse_cards
    >>> unseen = Counter(parse_cards("7♠ 7♦ 4♥ 9♥ K♣"))
    >>> found = partners_of(Card("7♥"), parse_cards("7♣ 8♥"), unseen, ROMMI)
    >>> sorted(str(c) for c in found.outs)  # 7♠ 7♦ with the 7♣, and 9♥ with the 8♥
    ['7♠', '7♦', '9♥']
    """
    if card.is_joker:
        return Partners(card, (), ())
    low = 1 if variant.ace_low else 2
    high = 14 if variant.ace_above_king else 13
    found: dict[Card, set[Card]] = {}
    for other in loose:
        if other.is_joker or other == card:
            continue
        need: set[Card] = set()
        if other.rank == card.rank:
            need.update(Card(card.rank, s) for s in SUITS if s not in (card.suit, other.suit))
        elif other.suit == card.suit:
            for a in _positions(card, low, high):
                for b in _positions(other, low, high):
                    lo, hi = min(a, b), max(a, b)
                    if hi - lo == 1:
                        need.update(
                            _RUN_CARDS[q, card.suit] for q in (lo - 1, hi + 1) if low <= q <= high
                        )
                    elif hi - lo == 2:
                        need.add(_RUN_CARDS[lo + 1, card.suit])
        if need:
            found.setdefault(other, set()).update(need)
    wanted = set().union(*found.values()) if found else set()
    outs = [c for c in sorted(wanted, key=Card.sort_key) for _ in range(unseen[c])]
    if found and variant.jokers:
        outs += [JOKER] * unseen[JOKER]
    return Partners(
        card,
        tuple((p, tuple(sorted(n, key=Card.sort_key))) for p, n in found.items()),
        tuple(outs),
    )


def melds_with(card: Card, others: Sequence[Card], variant: Variant) -> list[Meld]:
    """Every meld that ``card`` can make with some of ``others`` (sets of its rank, runs
    through it; at most one joker, as the variant allows).

    >>> from rummykit import HUNGARIAN, parse_cards
    >>> [str(m) for m in melds_with(Card("5♥"), parse_cards("6♥ 7♥ 5♠ 5♣"), HUNGARIAN)]
    ['5♠ 5♥ 5♣', '5♥ 6♥ 7♥']
    """
    from rummykit.melds import IllegalMeld, make_meld

    if card.is_joker:
        return []
    avail = Counter(others)
    jokers = min(avail[JOKER], variant.jokers_per_meld if variant.jokers else 0)
    found: dict[tuple[Card, ...], Meld] = {}

    def add(cards: Sequence[Card]) -> None:
        key = tuple(sorted(cards, key=Card.sort_key))
        if key in found:
            return
        try:
            found[key] = make_meld(list(cards), variant)
        except (IllegalMeld, ValueError):
            return

    suits = [s for s in SUITS if s != card.suit and avail[Card(card.rank, s)]]
    for size in (2, 3):
        for pick in _subsets(suits, size):
            add([card, *(Card(card.rank, s) for s in pick)])
    for size in (1, 2):
        for pick in _subsets(suits, size):
            for k in range(1, jokers + 1):
                if 1 + size + k <= 4:
                    add([card, *(Card(card.rank, s) for s in pick), *[JOKER] * k])
    low = 1 if variant.ace_low else 2
    high = 14 if variant.ace_above_king else 13
    for pos in _positions(card, low, high):
        for start in range(max(low, pos - 12), pos + 1):
            for end in range(max(pos, start + 2), min(high, start + 12) + 1):
                cards: list[Card] = []
                used = 0
                ok = True
                for q in range(start, end + 1):
                    if q == pos:
                        cards.append(card)
                        continue
                    want = _RUN_CARDS[q, card.suit]
                    if avail[want]:
                        cards.append(want)
                    elif used < jokers:
                        cards.append(JOKER)
                        used += 1
                    else:
                        ok = False
                        break
                if ok:
                    add(cards)
    return list(found.values())


def _subsets(items: Sequence[str], size: int) -> list[tuple[str, ...]]:
    from itertools import combinations

    return list(combinations(items, size))


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    rest = list(cards)
    rest.remove(card)
    return rest


def opening_holding(hand: Sequence[Card], card: Card, variant: Variant) -> int:
    """The most opening points (H8) of new melds from ``hand`` that include ``card`` — 0
    when no meld holds it. One card is kept back for the discard when the variant ends a
    turn with one.

    >>> from rummykit import HUNGARIAN, parse_cards
    >>> opening_holding(parse_cards("Q♥ K♥ A♥ 10♠ 10♦ 10♣ 2♣ 9♠"), Card("10♠"), HUNGARIAN)
    60
    >>> opening_holding(parse_cards("Q♥ K♥ 🃏 10♠ 10♦ 10♣ 2♣ 9♠"), JOKER, HUNGARIAN)
    60
    """
    rest = list(hand)
    rest.remove(card)
    if card.is_joker:  # the melds a natural card of the hand makes with the joker
        holding = [
            meld
            for natural in dict.fromkeys(c for c in rest if not c.is_joker)
            for meld in melds_with(natural, _without(hand, natural), variant)
            if JOKER in meld.cards
        ]
    else:
        holding = melds_with(card, rest, variant)
    best = 0
    for meld in holding:
        left = list(hand)
        for c in meld.cards:
            left.remove(c)
        if not left and variant.discard_to_win:
            continue
        points = meld.points(variant) + (best_opening(left, variant).points if left else 0)
        best = max(best, points)
    return best
