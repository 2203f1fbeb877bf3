"""Exact meld arrangement: least deadwood, going out, the best opening, lay-off options.

Every answer is the true optimum, found by an exhaustive search with memoisation — jokers,
two decks and both places of the ace included — and every answer explains itself:

>>> from rummykit import HUNGARIAN, ROMMI
>>> result = best_arrangement("7♥ 8♥ 9♥ Q♣ Q♦ Q♠ 2♠ K♦", ROMMI)
>>> result.melds
(make_meld('7♥ 8♥ 9♥'), make_meld('Q♠ Q♦ Q♣'))
>>> result.deadwood, result.deadwood_value
((Card('2♠'), Card('K♦')), 12)
>>> print(best_opening("7♥ 8♥ 9♥ Q♣ Q♦ Q♠ 2♠ K♦", HUNGARIAN))
7♥ 8♥ 9♥ + Q♠ Q♦ Q♣ = 54: you can open. (H8)

The hard AI asks for :func:`min_deadwood` thousands of times per decision; it answers with
a number only, through a fast path for hands without jokers or twin cards (per-suit tables
indexed by a 13-bit mask, and an enumeration of the few sets the hand allows).

How the search works. Cards are numbered suit by suit (``♠`` first) and rank by rank, and
the hand is a vector of counts packed into one integer (four bits per card). The search
always decides the lowest card left: it is deadwood, or the discard, or it goes into a set
with higher suits of its rank, or it is the lowest natural card of a run in its suit (the
ace: the top of a run ending in Q-K-A). Jokers are placed as the meld is made, in its gaps
or at either end, at most ``variant.jokers_per_meld`` to a meld. Each state (cards left,
jokers left, discard still to choose) is solved once. Cards that cannot be in any meld are
set aside first.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import itemgetter, sub
from typing import TypeAlias

from rummykit.cards import (
    ACE,
    HIGH_ACE,
    JOKER,
    RANKS,
    SUITS,
    Card,
    Cards,
    CardsLike,
    as_cards,
    card_at,
    parse_card,
    rank_name,
)
from rummykit.errors import RummykitError
from rummykit.melds import Meld, MeldSum, layoff_readings, make_meld
from rummykit.messages import join, render
from rummykit.variants import HUNGARIAN, Variant

__all__ = [
    "Arrangement",
    "GoingOut",
    "Layoff",
    "Opening",
    "best_arrangement",
    "best_opening",
    "can_go_out",
    "card_bit",
    "deadwood_counter",
    "hand_mask",
    "layoff_cards",
    "layoff_options",
    "layoff_sets",
    "min_deadwood",
    "min_deadwood_many",
    "opening_points",
]

KING_POSITION = 13
_BIG = 1 << 30
_CACHE_LIMIT = 200_000
# new entries of the meld caches wait in a small dict of their own until the garbage
# collector has stopped tracking them (see _Rules.settle)
_FRESH_LIMIT = 2048
# a search's ceilings are stored as the ceiling less _CEILED: below _CEILINGS, where no
# exact best is (every worth is above -_BIG)
_CEILED = 3 * _BIG
_CEILINGS = -2 * _BIG
_WINDOW = (1 << 48) - 1
# what the melds of card f depend on, read from the count vector shifted to field f + 1:
# the cards above it in its suit (the low 48 bits at most) and its rank in higher suits
_CONTEXT = [
    ((1 << (max(0, (f | 15) - 2 - f) << 2)) - 1 if f & 15 else 0)
    | sum(15 << ((k - 1) << 2) for k in (16, 32, 48) if f + k < 64)
    for f in range(64)
]
# in a context (a count vector shifted as in _CONTEXT), bit 0 of the field of each place
# above card f in its suit (offsets 0..11), and of its rank in each higher suit
_PLACES = sum(1 << (i << 2) for i in range(12))
_SAME_RANK = [sum(1 << ((k - 1) << 2) for k in (16, 32, 48) if f + k < 64) for f in range(64)]
# per field f: each card of its rank in a higher suit, and its shift in the context
_HIGHER = [tuple((f + k, (k - 1) << 2) for k in (16, 32, 48) if f + k < 64) for f in range(64)]

# --- encoding cards ----------------------------------------------------------------------
# A natural card is field f = 16 * suit + rank (rank 1..13). In the search's masks it is
# bit f, in a count vector the four bits from 4 * f, and in a hand mask (the fast path, and
# :func:`hand_mask`) bit 15 * suit + rank.


def _mask_bit(field: int) -> int:
    """The bit of a card in a hand mask: ``15 * suit + rank`` for field ``16 * suit + rank``."""
    return 1 << (field - (field >> 4))


_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
_FIELD_CARD: dict[int, Card] = {
    16 * i + r: parse_card(rank_name(r) + s) for i, s in enumerate(SUITS) for r in RANKS
}
# There is one object per card (``rummykit.cards`` interns them) and cards hash by identity,
# so a dictionary keyed by the cards themselves turns a hand into a mask inside C:
# ``sum(map(_BIT_OF, hand))``. A joker adds nothing, and summing rather than or-ing is safe:
# a twin card carries, and a carry always leaves fewer bits set than cards summed. So a hand
# of distinct natural cards is exactly one whose sum has as many bits set as it has cards.
_CARD_BITS: dict[Card, int] = {c: _mask_bit(f) for f, c in _FIELD_CARD.items()}
_CARD_BITS[JOKER] = 0
_BIT_OF = _CARD_BITS.__getitem__
# The lay-off caches keep cards as numbers (a card's place in card order; the joker last),
# in tuples of numbers only: the garbage collector stops tracking those at its first look,
# so the thousands of hands kept don't make every full collection slower (cards are objects
# it would visit in every one: a 150 ms pause once the caches had filled).
_ORDERED: tuple[Card, ...] = (*sorted(_FIELD_CARD.values(), key=Card.sort_key), JOKER)
_CODE: dict[Card, int] = {card: code for code, card in enumerate(_ORDERED)}
_CODE_OF = _CODE.__getitem__


def _field(card: Card) -> int:
    return 16 * _SUIT_INDEX[card.suit] + card.rank


def _card_of(field: int) -> Card:
    return _FIELD_CARD[field]


def _encode(cards: Iterable[Card]) -> tuple[int, int]:
    """The count vector of the natural cards, and the number of jokers."""
    state = 0
    jokers = 0
    for card in cards:
        if card.is_joker:
            jokers += 1
        else:
            state += 1 << (_field(card) << 2)
    return state, jokers


_BYTE_WORTHS: dict[int, tuple[list[int], list[list[int]]]] = {}


def _worth(values: list[int], state: int) -> int:
    """What the natural cards of a count vector are worth, ``values`` by field: a table per
    byte of the vector (two fields), summed inside C."""
    known = _BYTE_WORTHS.get(id(values))
    if known is not None and known[0] is values:
        tables = known[1]
    else:
        tables = [
            [(b & 15) * values[2 * i] + (b >> 4) * values[2 * i + 1] for b in range(256)]
            for i in range(32)
        ]
        _BYTE_WORTHS[id(values)] = (values, tables)
    return sum(map(list.__getitem__, tables, state.to_bytes(32, "little")))


def _fields(state: int) -> list[int]:
    """Each natural card of a count vector, as fields (repeated for twin cards)."""
    out = []
    while state:
        low = state & -state
        f = (low.bit_length() - 1) >> 2
        state -= 1 << (f << 2)
        out.append(f)
    return out


# --- the rules the search needs, per variant -----------------------------------------------

# search modes: what a melded card is worth
_VALUE, _OPENING, _COUNT = 0, 1, 2


class _Rules:
    """What the search needs from a variant, precomputed once per variant."""

    __slots__ = (
        "bonus",
        "counting",
        "dw",
        "dwx",
        "fresh",
        "hi",
        "joker_bonus",
        "joker_points",
        "jpm",
        "lo",
        "melds",
        "nat",
        "near",
        "pairs",
        "pairs_any",
        "pos",
        "rank",
        "runs_from",
        "settle_at",
        "value",
        "variant",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.jpm = variant.jokers_per_meld if variant.jokers else 0
        self.lo = 1 if variant.ace_low else 2
        self.hi = HIGH_ACE if variant.ace_above_king else KING_POSITION
        self.joker_points = variant.card_value(JOKER)
        value = [0] * 64
        for f, card in _FIELD_CARD.items():
            value[f] = variant.card_value(card)
        self.value = value
        rank_value = [0] + [variant.card_value(Card(r, SUITS[0])) for r in RANKS]
        pos_value = [*rank_value, rank_value[ACE], 0]  # positions 0..15
        ones = [1] * 64
        # per mode: natural weight by field, joker weight by run position / set rank,
        # and what leaving a card for the discard adds (natural by field, joker)
        self.nat = (value, value, ones)
        self.pos = ([self.joker_points] * 16, pos_value, [1] * 16)
        self.rank = ([self.joker_points] * 16, [*rank_value, 0, 0], [1] * 16)
        self.bonus = (value, [0] * 64, ones)
        self.joker_bonus = (self.joker_points, 0, 1)
        self.dw: tuple[int, ...] = ()
        self.dwx: _DiscardTable | None = None
        # per mode: the melds a card can be in, by the cards near it (see _Search.best),
        # under two keys (``melds``: its exact context; ``near``: the places that matter);
        # ``fresh`` holds the newest of both until :meth:`settle` moves them
        self.melds: tuple[dict[int, tuple[_Option, ...]], ...] = ({}, {}, {})
        self.near: tuple[dict[int, tuple[_Option, ...]], ...] = ({}, {}, {})
        self.fresh: tuple[dict[int, tuple[_Option, ...]], ...] = ({}, {}, {})
        self.settle_at = [_FRESH_LIMIT] * 3  # per mode: the size of fresh that settles it
        self.counting: tuple[Callable[[CardsLike | int], int], ...] = ()
        # per field: the two places a run from that card needs next (the context's bits, as
        # _PLACES), both for a run without a joker, either with one; for the ace also the
        # king and queen when it may stand above the king
        self.pairs: list[tuple[int, ...]] = []
        for f in range(64):
            pairs = []
            if f & 15 != ACE or self.lo == 1:
                pairs.append(1 | 1 << 4)
            if f & 15 == ACE and self.hi == HIGH_ACE:
                pairs.append(1 << 44 | 1 << 40)
            self.pairs.append(tuple(pairs))
        self.pairs_any = [sum(pairs) for pairs in self.pairs]
        # per field: where a run from that card starts and which way it goes (the ace: up
        # from below the 2, down from above the king, as the variant lets it)
        self.runs_from: list[tuple[tuple[int, int], ...]] = []
        for f in range(64):
            if f & 15 != ACE:
                self.runs_from.append(((f & 15, 1),))
            else:
                starts = ((1, 1),) if self.lo == 1 else ()
                self.runs_from.append(starts + (((HIGH_ACE, -1),) if self.hi == HIGH_ACE else ()))

    def counters(self) -> tuple[Callable[[CardsLike | int], int], ...]:
        """:func:`min_deadwood` for this variant: without, then with, a discard."""
        if not self.counting:
            self.counting = (_counter(self, False), _counter(self, True))
        return self.counting

    def settle(self, mode: int) -> None:
        """Move the fresh meld-cache entries the garbage collector no longer tracks into
        ``melds`` and ``near`` (a ``near`` key is kept as ``~key``: below 0, where no context is).

        Python stops tracking a dict whose keys and values it doesn't track, at a full
        collection, and tracks it again only when a tracked value goes in. The melds found
        are tuples of numbers, tracked when made and dropped from tracking at the
        collector's next look: put in at once, each full collection would find the two big
        caches tracked again, and visit their hundreds of thousands of entries in the middle
        of a decision (tens of milliseconds). Moved only once untracked, they stay out of
        every collection, and only this small dict is visited."""
        fresh, melds, near = self.fresh[mode], self.melds[mode], self.near[mode]
        collecting = gc.isenabled()
        tracked = [key for key, options in fresh.items() if gc.is_tracked(options)]
        if collecting and tracked:
            # The collector looks at new objects only when more are made than freed, which
            # a search seldom does: most of the fresh melds may still wait for that look, and
            # one it looked at too early (a meld whose numbers were not all in yet) stays
            # tracked until a full collection. Each is made anew, its melds too (equal
            # tuples of numbers), and the younger generations looked at (a few thousand
            # objects at most, well under a millisecond): the copies are dropped at once.
            for key in tracked:
                fresh[key] = tuple([(a, b, c, d, e) for a, b, c, d, e in fresh[key]])
            gc.collect(1)
        for key, options in list(fresh.items()):
            if not collecting or not gc.is_tracked(options):  # (off: nothing would drop it)
                del fresh[key]
                if key < 0:
                    near[~key] = options
                else:
                    melds[key] = options
        # those still tracked wait for a later look (a full collection drops them all)
        self.settle_at[mode] = max(_FRESH_LIMIT, 2 * len(fresh))

    def tables(self) -> tuple[int, ...]:
        """Per suit, indexed by its 13-bit mask (bit r for rank r): deadwood left by runs.

        Built in a few passes over lists (each inside C as far as Python allows): what a
        mask's cards are worth, doubling the list rank by rank; which cards runs cover, as
        the cards with two neighbours above, one on each side, or two below; with the ace
        above the king, the same again with the ranks shifted down and the ace on top."""
        if not self.dw:
            values = self.value[1:14]  # ranks 1..13
            key = (*values, self.lo, self.hi)  # house rules that keep these share the table
            shared = _RUN_TABLES.get(key)
            if shared is not None:
                self.dw = shared
                return shared
            masks = range(1 << 13)  # bit r - 1 for rank r
            worth = _worth_table(values)
            # (the names bound with := stand for one expression each: no tuple is made per
            # mask, so the garbage collector is not woken thousands of times)
            if self.lo == 1:
                best = [worth[k & ((s := k & k >> 1 & k >> 2) | s << 1 | s << 2)] for k in masks]
            else:  # the ace may not stand below the 2
                best = [
                    worth[(j := k & ~1) & ((s := j & j >> 1 & j >> 2) | s << 1 | s << 2)]
                    for k in masks
                ]
            if self.hi == HIGH_ACE:  # the ace on top: ranks 2..K at bits 0..11, the ace at 12
                above = _worth_table([*values[1:], values[0]])
                high = [
                    above[(j := k >> 1 | 1 << 12) & ((s := j & j >> 1 & j >> 2) | s << 1 | s << 2)]
                    for k in range(1, 1 << 13, 2)
                ]
                best[1::2] = map(max, best[1::2], high)
            dw = [0] * (1 << 14)
            dw[::2] = map(sub, worth, best)
            # a tuple of numbers: the garbage collector stops tracking it (a list of 16384
            # it would visit at every full collection)
            self.dw = _RUN_TABLES[key] = tuple(dw)
        return self.dw

    def discard_tables(self) -> dict[int, int]:
        """Per suit mask: what taking the best card of it away changes in its run deadwood
        (zero or less; ``_BIG`` for an empty suit, which has no card to take). Filled in as
        masks are met, so a variant's first call pays for none it doesn't ask about."""
        if self.dwx is None:
            self.dwx = _DiscardTable(self.tables())
        return self.dwx


_RUN_TABLES: dict[tuple[int, ...], tuple[int, ...]] = {}


def _worth_table(values: Sequence[int]) -> list[int]:
    """What the cards of each mask are worth: bit i for ``values[i]``."""
    worth = [0]
    for v in values:
        worth += [t + v for t in worth]
    return worth


class _DiscardTable(dict[int, int]):
    """``dw[mask without its best card] - dw[mask]`` per suit mask, computed when first asked."""

    __slots__ = ("dw",)

    def __init__(self, dw: tuple[int, ...]) -> None:
        super().__init__({0: _BIG})
        self.dw = dw

    def __missing__(self, mask: int) -> int:
        dw = self.dw
        got = min([dw[mask ^ 1 << p] for p in _bits(mask)]) - dw[mask]
        self[mask] = got
        return got


_RULES: dict[int, tuple[Variant, _Rules]] = {}


_RULES_BY_VALUE: dict[Variant, _Rules] = {}


def _rules(variant: Variant) -> _Rules:
    """The search's rules for a variant: by identity first (fast), then by value, so equal
    house-rule variants derived anew each time share their tables and caches."""
    got = _RULES.get(id(variant))
    if got is not None and got[0] is variant:
        return got[1]
    rules = _RULES_BY_VALUE.get(variant)
    if rules is None:
        if len(_RULES_BY_VALUE) > 32:
            _RULES_BY_VALUE.clear()
        rules = _RULES_BY_VALUE[variant] = _Rules(variant)
    if len(_RULES) > 64:
        _RULES.clear()
    _RULES[id(variant)] = (variant, rules)
    return rules


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --- the fast path: no jokers, no twin cards -----------------------------------------------
# A hand of distinct natural cards is also one integer, a mask with bit 15 * suit + rank per
# card (see ``_CARD_BITS``): each suit's ranks sit at bits 1..13 of its own 15 bits, and two
# suits share one 30-bit digit of a Python int, so a hand splits into its four suit masks by
# arithmetic on small ints.

_SUIT_MASK = (1 << 15) - 1
_TWO_SUITS = (1 << 30) - 1


def _mask_of(hand: Sequence[Card]) -> int:
    """The sum of a bit per natural card (a joker adds nothing)."""
    try:
        return sum(map(_BIT_OF, hand))
    except KeyError:  # a card object made around the interning (not by ``Card()``)
        return sum(0 if c.is_joker else _mask_bit(_field(c)) for c in hand)


def _deadwood_with_sets(
    a: int, b: int, c: int, d: int, sets: int, rules: _Rules, discard: bool
) -> int:
    """Least deadwood of four suit masks whose ranks in ``sets`` could each make a set: the
    least, over every choice of sets, of what the runs leave."""
    dw = rules.dw
    states = _set_choices(a, b, c, d, sets)
    if discard:
        dwx = rules.discard_tables()
        best = _BIG
        for sa, sb, sc, sd in states:
            x = dw[sa] + dw[sb] + dw[sc] + dw[sd] + min(dwx[sa], dwx[sb], dwx[sc], dwx[sd])
            if x < best:
                best = x
        return best
    return min([dw[sa] + dw[sb] + dw[sc] + dw[sd] for sa, sb, sc, sd in states])


def _set_choices(a: int, b: int, c: int, d: int, sets: int) -> list[tuple[int, int, int, int]]:
    """Every way to take sets out of four suit masks: per rank in ``sets``, none, the set
    of all its cards, or (with four) any three of them."""
    states = [(a, b, c, d)]
    while sets:
        bit = sets & -sets
        sets ^= bit
        keep = ~bit
        four = a & b & c & d & bit
        grown = []
        for sa, sb, sc, sd in states:
            ra, rb, rc, rd = sa & keep, sb & keep, sc & keep, sd & keep
            grown.append((sa, sb, sc, sd))
            grown.append((ra, rb, rc, rd))
            if four:
                grown.append((sa, rb, rc, rd))
                grown.append((ra, sb, rc, rd))
                grown.append((ra, rb, sc, rd))
                grown.append((ra, rb, rc, sd))
        states = grown
    return states


# --- the exact search -----------------------------------------------------------------------

# a meld as the search makes it: (kind, items, suit, start / jokers). A set is
# (_SET, its fields, 0, jokers); a run is (_RUN, a field per position or -1 for a joker,
# suit index, first position). The search keeps it packed into one int (_plan), so that the
# cached meld candidates are tuples of numbers only, which the garbage collector stops
# tracking at its first look (nested tuples take one look per level).
_SET, _RUN = 0, 1
_Plan: TypeAlias = int


def _plan(kind: int, items: tuple[int, ...], suit: int, extra: int) -> _Plan:
    """A meld packed into one int: kind (bit 0), suit (bits 1–2), start or jokers (bits
    3–6), how many items (bits 7–10), then seven bits per item from bit 11 (its field plus
    one; 0 for a joker)."""
    return _packed(items) << 11 | len(items) << 7 | extra << 3 | suit << 1 | kind


def _packed(items: Iterable[int]) -> int:
    """Items seven bits each, the first lowest (a field plus one; 0 for a joker)."""
    code = 0
    for shift, item in enumerate(items):
        code |= (item + 1) << (7 * shift)
    return code


def _unplan(code: _Plan) -> tuple[int, tuple[int, ...], int, int]:
    """(kind, items, suit, start or jokers) of a packed meld."""
    items = []
    rest = code >> 11
    for _ in range(code >> 7 & 15):
        items.append((rest & 127) - 1)
        rest >>= 7
    return code & 1, tuple(items), code >> 1 & 3, code >> 3 & 15


# a step of the search: (what, card field, meld, state, jokers, flag) — what is one of
_DEADWOOD, _DISCARD, _MELD = 0, 1, 2
_Move: TypeAlias = "tuple[int, int, _Plan | None, int, int, int]"
# per field f: the count vector's one card there, and the shift to the cards above it
_UNIT = [1 << (f << 2) for f in range(64)]
_ABOVE = [(f + 1) << 2 for f in range(64)]
# a meld a card can be in: (other cards taken, jokers used, worth, worth of the cards taken, plan)
_Option: TypeAlias = "tuple[int, int, int, int, _Plan]"
_WORTH = itemgetter(2)


def _move(f: int, rest: int, jokers: int, flag: int, pick: _Option | int) -> _Move:
    """The move a search records for card ``f``: the meld option it chose, or ``_DEADWOOD``
    or ``_DISCARD``, with the state it leaves."""
    if isinstance(pick, tuple):
        taken, used, _, _, plan = pick
        return (_MELD, f, plan, rest - taken, jokers - used, flag)
    return (pick, f, None, rest, jokers, flag if pick == _DEADWOOD else 0)


class _Search:
    """One exact search over a hand: the best worth of disjoint melds, and how."""

    def __init__(self, rules: _Rules, mode: int, record: bool) -> None:
        self.rules = rules
        # per jokers and flag (``jokers << 1 | flag``), by the cards left: the state's exact
        # best, or a ceiling (its best is known not to exceed this) stored as it less
        # _CEILED; grown by best() to the jokers asked of it
        self.memo: list[dict[int, int]] = []
        self.moves: dict[int, _Move] = {}  # by state << 9 | jokers << 1 | flag
        self.record = record
        self.nat = rules.nat[mode]
        self.pos = rules.pos[mode]
        self.rank = rules.rank[mode]
        self.bonus = rules.bonus[mode]
        self.joker_bonus = rules.joker_bonus[mode]
        self.jpm = rules.jpm
        self.mode = mode
        self.cache = rules.melds[mode]
        self.near = rules.near[mode]
        self.fresh = rules.fresh[mode]
        # per card, the contexts this search built melds for (the first few): (places held,
        # jokers budget, the melds), for _narrowed; and the cards it was first asked about
        self.built: dict[int, list[tuple[int, int, tuple[_Option, ...]]]] = {}
        self.first: tuple[int, int] | None = None
        # bounds: the most a joker, or the discard, can add
        self.joker_most = max(*self.pos[1:15], *self.rank[1:14])
        self.bonus_most = max(*self.bonus, self.joker_bonus)
        # When putting any card aside gains as much as putting aside any other (the opening,
        # the count), a search for a number only takes two short cuts (a search that records
        # its moves keeps to the order the moves are told in): a card left out while the
        # discard is still owed might as well be the discard, so that branch is not tried;
        # and the best with the discard owed is the best without it plus that gain whenever
        # the best without it leaves a natural card out (it is less than all of them are
        # worth), so that is asked first.
        self.flat = not record and mode != _VALUE

    def best(self, state: int, jokers: int, flag: int, alpha: int = -_BIG) -> int:
        """Best worth of melds (plus the discard's bonus when ``flag``) from these cards;
        with ``alpha``, exact only when it beats ``alpha`` (see :meth:`_best`)."""
        nat = self.nat
        if self.first is None:
            self.first = state, jokers
        while len(self.memo) <= jokers << 1 | 1:
            self.memo.append({})
        if alpha > _BIG:  # no worth comes near: and every ceiling stored stays below _CEILINGS
            alpha = _BIG
        return self._best(state, jokers, flag, _worth(nat, state), alpha)

    def _best(self, state: int, jokers: int, flag: int, avail: int, alpha: int = -_BIG) -> int:
        """:meth:`best`, knowing ``avail``, the worth of the natural cards in ``state``.

        Branch and bound: a choice that could not beat the best found so far at this state,
        nor ``alpha``, even if every card left then melded, is not explored, and a choice is
        only asked whether it beats them. The answer is the state's exact best when that
        beats ``alpha``; otherwise it is at most ``alpha`` and the exact best is no more
        than it (a ceiling). Exact bests and ceilings are stored in one dictionary, told
        apart by their range; the search records the move of exact bests only, which are
        the same as a search without ``alpha`` finds (the first choice, in order, that
        reaches the best)."""
        if not state:
            if not flag:
                return 0
            return self.joker_bonus if jokers else -_BIG  # the discard is still owed
        memo = self.memo[jokers << 1 | flag]
        got = memo.get(state)
        if got is not None:
            if got > _CEILINGS:  # an exact best
                return got
            got += _CEILED
            if got <= alpha:
                return got
        if flag and self.flat:
            gain = self.joker_bonus
            got = self._best(state, jokers, 0, avail, alpha - gain) + gain
            if got <= alpha:
                memo[state] = got - _CEILED
                return got
            if got - gain < avail:
                memo[state] = got
                return got
        f = ((state & -state).bit_length() - 1) >> 2
        rest = state - _UNIT[f]
        avail -= self.nat[f]
        # the melds this card can be in depend only on the cards near it: look them up
        budget = jokers if jokers < self.jpm else self.jpm
        context = (rest >> _ABOVE[f] & _CONTEXT[f]) << 12 | (budget << 6 | f)
        options = self.cache.get(context)
        if options is None:
            options = self._options(context, f, rest, budget)
        if not options and not flag and not self.record:
            # in no meld: the card stays in hand (most states of a search are such cards)
            got = avail + jokers * self.joker_most
            if got > alpha:
                got = self._best(rest, jokers, 0, avail, alpha)
            memo[state] = got if got > alpha else got - _CEILED
            return got
        extra = self.bonus_most if flag else 0
        joker_most = self.joker_most
        best = top = -_BIG  # top: the most a choice not explored could have reached
        floor = alpha  # what a choice must beat: the larger of alpha and best
        pick: _Option | int = _DEADWOOD  # the choice that gave best
        for option in options:
            taken, used, worth, taken_worth, _ = option
            jokers2 = jokers - used
            left = avail - taken_worth
            bound = worth + left + jokers2 * joker_most + extra
            if bound <= floor:
                if bound > top:
                    top = bound
                continue
            worth += self._best(rest - taken, jokers2, flag, left, floor - worth)
            if worth > best:
                best, pick = worth, option
                if best > floor:
                    floor = best
        if not flag or not self.flat:
            bound = avail + jokers * joker_most + extra
            if bound <= floor:
                if bound > top:
                    top = bound
            else:
                worth = self._best(rest, jokers, flag, avail, floor)
                if worth > best:
                    best, pick = worth, _DEADWOOD
                    if best > floor:
                        floor = best
        if flag:
            gain = self.bonus[f]
            bound = gain + avail + jokers * joker_most
            if bound <= floor:
                if bound > top:
                    top = bound
            else:
                worth = gain + self._best(rest, jokers, 0, avail, floor - gain)
                if worth > best:
                    best, pick = worth, _DISCARD
        if best > alpha:
            memo[state] = best
            if self.record:
                self.moves[state << 9 | jokers << 1 | flag] = _move(f, rest, jokers, flag, pick)
            return best
        if top > best:
            best = top
        memo[state] = best - _CEILED
        return best

    def stored(self) -> int:
        """How many states the search has stored, exact bests and ceilings."""
        return sum(map(len, self.memo))

    def exact(self, state: int, jokers: int) -> int | None:
        """The exact best stored for these cards without the discard owed, if any."""
        got = self.memo[jokers << 1].get(state) if state else 0
        return got if got is not None and got > _CEILINGS else None

    def costliest_left(self, state: int, jokers: int) -> tuple[int, bool]:
        """What a best arrangement of these cards leaves, once :meth:`best` has found their
        best without the discard: the value of its costliest card left in hand (0 when
        none; -1 when not known), and whether one of its melds has four cards or more (one
        of them could go and the meld stay). Read from the exact bests stored, one choice
        per card."""
        exact = self.exact
        most = 0
        four = False
        value = self.nat
        while state:
            got = exact(state, jokers)
            if got is None:
                return -1, False
            f = ((state & -state).bit_length() - 1) >> 2
            rest = state - _UNIT[f]
            for taken, used, worth, _, plan in self.options(f, rest, jokers):
                state2, jokers2 = rest - taken, jokers - used
                after = exact(state2, jokers2)
                if after is not None and worth + after == got:
                    state, jokers = state2, jokers2
                    kind, items, _, extra = _unplan(plan)
                    four = four or len(items) + (extra if kind == _SET else 0) >= 4
                    break
            else:  # the card stays in hand
                after = exact(rest, jokers)
                if after != got:
                    return -1, False
                if value[f] > most:
                    most = value[f]
                state = rest
        if jokers and self.rules.joker_points > most:
            most = self.rules.joker_points
        return most, four

    def options(self, f: int, rest: int, jokers: int) -> tuple[_Option, ...]:
        """The melds card ``f`` (the lowest card, ``rest`` the cards above it) can be in."""
        budget = jokers if jokers < self.jpm else self.jpm
        context = ((rest >> ((f + 1) << 2)) & _CONTEXT[f]) << 12 | budget << 6 | f
        options = self.cache.get(context)
        if options is None:
            options = self._options(context, f, rest, budget)
        return options

    def _options(self, context: int, f: int, rest: int, budget: int) -> tuple[_Option, ...]:
        """:meth:`options` not yet cached under its ``context``: found, then cached."""
        fresh = self.fresh
        options = fresh.get(context)
        if options is not None:
            return options
        if len(self.cache) > _CACHE_LIMIT:
            self.cache.clear()
            self.near.clear()
        if len(fresh) > self.rules.settle_at[self.mode]:
            self.rules.settle(self.mode)
        # which places of the context hold a card: bit 0 of each of its four-bit fields
        window = context >> 12
        held = (window | window >> 1) & _ONES  # (as _held: counts below 4)
        if budget < 2 and self._alone(f, held, budget):
            self.cache[context] = ()  # never tracked
            return ()
        # The melds read only whether each place holds a card, not how many (a meld takes
        # one), and a run from this card stops at its (budget + 1)th missing place: what
        # lies beyond can't matter. So hands that differ only in twins, or beyond that
        # place, share the answer, kept under this key.
        if f & 15 != ACE:
            missing = ~held & _PLACES
            for _ in range(budget):
                missing &= missing - 1
            if missing:  # cut before the lowest place still missing
                held &= ~_PLACES | (missing & -missing) - 1
        near = held << 12 | (context & 4095)
        options = self.near.get(near)
        if options is None:
            options = fresh.get(~near)
        if options is None:
            options = self._narrowed(f, held, budget)
            if options is None:
                options = self._melds(f, rest, budget)
                built = self.built.setdefault(f, [])
                if len(built) < 4:
                    built.append((held, budget, options))
            fresh[~near] = options
        fresh[context] = options
        return options

    def _narrowed(self, f: int, held: int, budget: int) -> tuple[_Option, ...] | None:
        """The melds of card ``f`` with the places ``held`` (cut as in :meth:`_options`) and
        ``budget``, taken from those this search built for a context holding them all and a
        budget as big, if any: the ones whose cards are all held and whose jokers fit.
        Those are exactly the melds built anew, in the same order — a meld's cards need only
        be there, and the melds are found, and sorted, in an order that skipping some
        keeps — for a fraction of building them.

        The first time, the melds are built for the card's context in the cards the search
        was first asked about: every state of a search for one hand (and for its discards)
        holds fewer cards and jokers, so all the card's later contexts narrow them."""
        built = self.built.get(f)
        if built is None and self.first is not None:
            state, jokers = self.first
            window = state >> ((f + 1) << 2) & _CONTEXT[f]
            wide = (window | window >> 1) & _ONES
            most = jokers if jokers < self.jpm else self.jpm
            built = self.built[f] = [(wide, most, self._melds(f, wide << ((f + 1) << 2), most))]
        for wide, most, options in built or ():
            if most >= budget and not held & ~wide:
                shift = (f + 1) << 2
                missing = ~held
                return tuple([o for o in options if o[1] <= budget and not o[0] >> shift & missing])
        return None

    def _alone(self, f: int, held: int, budget: int) -> bool:
        """Whether card ``f`` (the lowest left) is in no meld with at most ``budget`` (0 or 1)
        jokers, ``held`` the places of its context holding a card (see :meth:`_options`): no
        set (two more of its rank in higher suits, one with the joker) and no run (the two
        places above it held, one of them with the joker; for the ace also the king and
        queen, when it may stand above the king). Half the cards a search meets are, and
        this says so without building the melds."""
        if (held & _SAME_RANK[f]).bit_count() + budget >= 2:
            return False
        if budget:
            return not held & self.rules.pairs_any[f]
        for pair in self.rules.pairs[f]:  # noqa: SIM110 — a loop: no generator per call
            if held & pair == pair:
                return False
        return True

    def _melds(self, f: int, rest: int, budget: int) -> tuple[_Option, ...]:
        """Every meld holding card ``f`` (the lowest card left) and at most ``budget``
        jokers: (the other natural cards as a count vector, jokers used, worth, the worth of
        those other natural cards, plan), the most valuable first.

        Reads only the cards above ``f`` in its suit and its rank in higher suits."""
        rules = self.rules
        nat, pos = self.nat, self.pos
        # by (the other natural cards taken, jokers used): the most valuable such meld
        found: dict[tuple[int, int], _Option] = {}
        suit, rank = f >> 4, f & 15
        # the cards above f, as a small int (field g at g - f - 1): what the sets and the
        # runs read, without shifting the whole count vector at every step
        above = rest >> ((f + 1) << 2)
        # sets: higher suits of this rank, and jokers
        others = []
        for g, shift in _HIGHER[f]:
            if above >> shift & 15:
                others.append(g)
        if len(others) + budget >= 2:
            joker_worth = self.rank[rank]
            # every choice of the others, as (their worth, their count vector, the set's
            # items packed as in _plan with f first, the set's size), in the order of the
            # choices counted in binary (bit i for others[i])
            picks = [(0, 0, f + 1, 1)]
            for g in others:
                unit, worth, item = _UNIT[g], nat[g], g + 1
                picks += [(n + worth, t + unit, c | item << (7 * z), z + 1) for n, t, c, z in picks]
            for natural, taken, code, size in picks:
                if size > 4:
                    continue
                for k in range(budget + 1):
                    if 3 <= size + k <= 4:
                        plan = code << 11 | size << 7 | k << 3 | _SET  # _plan(_SET, …, 0, k)
                        found[taken, k] = (
                            taken,
                            k,
                            nat[f] + natural + k * joker_worth,
                            natural,
                            plan,
                        )
        # runs: this card lowest natural (an ace may also top a run that ends Q-K-A); a run
        # takes each place once, so whether a card is there is read from the cards above f
        lo, hi = rules.lo, rules.hi
        base_field = suit << 4
        own = nat[f]
        row = above & _WINDOW  # the places above f in its suit
        for start, step in rules.runs_from[f]:
            # walk away from the card: (place reached, cards taken, jokers used, worth of
            # the jokers, worth of the cards taken, the items packed as in _plan, how many);
            # walking down from the ace above the king, each item is put in front, so the
            # items stay packed from the lowest place (jokers behind it would go above the
            # ace, where there is no place: there are none)
            stack: list[tuple[int, int, int, int, int, int, int]] = [(start, 0, 0, 0, 0, f + 1, 1)]
            while stack:
                at, taken, used, jokers_worth, natural, code, length = stack.pop()
                # close the run here, with jokers behind the first card if that makes three
                spare = budget - used
                behind = 0
                extra = jokers_worth + own + natural
                while True:
                    size = length + behind
                    if size >= 3:
                        if step == 1:  # jokers behind: empty items below the first card
                            plan = (
                                code << (7 * behind) << 11
                                | size << 7
                                | (start - behind) << 3
                                | suit << 1
                                | _RUN
                            )
                        else:  # down from the ace above the king: the code is lowest first
                            plan = code << 11 | size << 7 | at << 3 | suit << 1 | _RUN
                        key = (taken, used + behind)
                        old = found.get(key)
                        if old is None or extra > old[2]:
                            found[key] = (taken, used + behind, extra, natural, plan)
                    if behind >= spare or size >= 13:
                        break
                    p = start - step * (behind + 1)
                    if not lo <= p <= hi:
                        break
                    behind += 1
                    extra += pos[p]
                if length >= 13:
                    continue
                nxt = at + step
                if not lo <= nxt <= hi:
                    continue
                g = base_field + (ACE if nxt == HIGH_ACE else nxt)
                # (an ace above the king, from a card above the ace, is below f: not held)
                if nxt != 1 and g > f and row >> ((g - f - 1) << 2) & 15:
                    stack.append(
                        (
                            nxt,
                            taken + _UNIT[g],
                            used,
                            jokers_worth,
                            natural + nat[g],
                            code | (g + 1) << (7 * length) if step == 1 else code << 7 | (g + 1),
                            length + 1,
                        )
                    )
                if used < budget:
                    joker_code = code if step == 1 else code << 7  # a joker's item is 0
                    stack.append(
                        (
                            nxt,
                            taken,
                            used + 1,
                            jokers_worth + pos[nxt],
                            natural,
                            joker_code,
                            length + 1,
                        )
                    )
        # (a stable sort, also in reverse) a tuple of tuples of numbers: the garbage collector
        # stops tracking it once it has seen it, so the thousands kept in the cache don't
        # make every full collection slower
        return tuple(sorted(found.values(), key=_WORTH, reverse=True))

    def plans(self, state: int, jokers: int, flag: int) -> tuple[list[_Plan], list[int], int]:
        """The melds, the deadwood fields and the discard (field, -1 joker, -2 none) chosen."""
        melds: list[_Plan] = []
        deadwood: list[int] = []
        discard = -2
        while state:
            key = state << 9 | jokers << 1 | flag
            if key not in self.moves:
                self.best(state, jokers, flag)
            what, f, plan, state, jokers, flag = self.moves[key]
            if what == _DEADWOOD:
                deadwood.append(f)
            elif what == _DISCARD:
                discard = f
            elif plan is not None:
                melds.append(plan)
        if flag and jokers:
            discard = -1
            jokers -= 1
        deadwood.extend([-1] * jokers)
        return melds, deadwood, discard


# Reachability works on a count vector's "present" bits: bit 4 * f for each field f held.
# Moving one rank up is a shift by 4 bits, one suit up a shift by 64.
_ONES = sum(1 << (f << 2) for f in range(64))
_SUIT_BITS = (1 << 64) - 1
_EVERY_SUIT = 1 | 1 << 64 | 1 << 128 | 1 << 192
_ACES = _EVERY_SUIT << (ACE << 2)
_HIGH_ACES = _EVERY_SUIT << (HIGH_ACE << 2)
_FOURS = _ONES << 3
_FIVE_PLACES = sum(1 << (k << 2) for k in range(5))  # a place and the four nearest
_FIVES, _SIXES, _SEVENS = 5 * _ONES, 6 * _ONES, 7 * _ONES
_ACE_UP = (HIGH_ACE - ACE) << 2  # from the ace's field to the ace above the king's


def _held(state: int) -> int:
    """Bit ``4 * f`` for each field ``f`` the count vector holds (counts below 4)."""
    return (state | state >> 1) & _ONES


def _count(state: int) -> int:
    """How many cards a count vector holds (counts below 4)."""
    return (state & _ONES).bit_count() + 2 * (state >> 1 & _ONES).bit_count()


def _reach(rules: _Rules, state: int, jokers: int) -> tuple[int, int]:
    """Split the natural cards into those that may be in some meld and those that can't.

    A card may be in a set when its rank is held in enough other suits (jokers filling the
    rest), and in a run when a window of three places around it, inside the places the
    ace rules allow, misses no more cards than there are jokers to fill it. (The search
    asks this of many states: a few operations on the whole vector, fields counted by
    adding and multiplying, no field ever reaching 16.)"""
    budget = rules.jpm if rules.jpm < jokers else jokers
    held = _held(state)
    # runs: the places cards can stand, the ace below the 2 and/or above the king
    places = held if rules.lo == 1 else held & ~_ACES
    if rules.hi == HIGH_ACE:
        places |= (held & _ACES) << _ACE_UP
    # (a count per field, at most 5, plus what it lacks of 8, sets the field's bit 3)
    if budget >= 2:
        in_run = places
        short = _SEVENS  # sets: any suit holding the rank
    elif budget == 1:  # another card two places away or nearer: 2 or more of the five
        in_run = places & (places * _FIVE_PLACES >> 8) + _SIXES >> 3
        short = _SIXES  # two suits
    else:  # two more cards in a row: both above, one on each side, or both below
        up, down = places >> 4, places << 4
        in_run = places & (up & places >> 8 | up & down | down & places << 8)
        short = _FIVES  # three suits
    in_run |= (in_run & _HIGH_ACES) >> _ACE_UP  # (the bits left at 14 are not held)
    # sets: the suits holding each rank counted in the top suit's fields, the fields with
    # enough marked, and the marks copied into every suit
    suits = held * _EVERY_SUIT >> 192 & _SUIT_BITS
    ranks = (suits + short & _FOURS) * _EVERY_SUIT >> 3
    keep = state & (held & (in_run | ranks)) * 15
    return keep, state - keep


def _solve(
    search: _Search, state: int, jokers: int, flag: int, alpha: int = -_BIG
) -> tuple[int, int, int]:
    """Best worth; the cards searched; the discard set aside before the search (-2: none).
    With ``alpha``, the worth is exact only when it beats ``alpha`` (see :meth:`_Search._best`)."""
    keep, alone = _reach(search.rules, state, jokers)
    if not flag or not alone:
        return search.best(keep, jokers, flag, alpha), keep, -2
    # the discard is either the best card that can't meld, or chosen in the search
    fields = _fields(alone)
    top = max(fields, key=lambda g: search.bonus[g])
    outside = search.bonus[top] + search.best(keep, jokers, 0, alpha - search.bonus[top])
    inside = search.best(keep, jokers, 1, max(outside, alpha))
    if outside >= inside:
        return outside, keep, top
    return inside, keep, -2


# --- building results ------------------------------------------------------------------


def _meld_of(plan: _Plan) -> Meld:
    """The :class:`Meld` for a plan, read as :mod:`rummykit.melds` reads it."""
    kind, items, suit_index, extra = _unplan(plan)
    if kind == _SET:
        naturals = _sorted(_card_of(g) for g in items)
        rank = naturals[0].rank
        missing = [Card(rank, s) for s in SUITS if s not in {c.suit for c in naturals}]
        represents: list[Card | None] = list(naturals)
        if extra and len(missing) == extra:  # a full set: the jokers are the missing suits
            represents += missing
        else:
            represents += [None] * extra
        return Meld("set", (*naturals, *[JOKER] * extra), tuple(represents))
    suit = SUITS[suit_index]
    laid: list[Card] = []
    represents = []
    for offset, item in enumerate(items):
        card = card_at(extra + offset, suit)
        represents.append(card)
        laid.append(JOKER if item < 0 else card)
    return Meld("run", tuple(laid), tuple(represents), extra)


def _card(field: int) -> Card:
    return JOKER if field < 0 else _card_of(field)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=Card.sort_key))


def _meld_order(meld: Meld) -> tuple[int, int, int]:
    if meld.is_run:
        return (meld.start, 1, _SUIT_INDEX[meld.suit])
    return (meld.rank, 0, 0)


def _split_long(melds: list[Meld]) -> list[Meld]:
    """Melds in a reading order (by lowest rank), a 14-card run split in two (a run can't
    hold the ace at both ends; only ever needed with two decks)."""
    out = []
    for meld in melds:
        if meld.is_run and len(meld.cards) > 13:
            for part in (slice(0, 7), slice(7, None)):
                start = meld.start + (part.start or 0)
                out.append(Meld("run", meld.cards[part], meld.represents[part], start))
        else:
            out.append(meld)
    out.sort(key=_meld_order)
    return out


def _melds_text(melds: Sequence[Meld]) -> MeldSum:
    return MeldSum(m.cards for m in melds)


# --- least deadwood ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arrangement:
    """The best way to lay out a hand: melds, deadwood and its value (the least there is).

    With ``discard`` set, one card (``discard``) was put aside for the final discard first.

    >>> a = best_arrangement("5♥ 🃏 7♥ 9♠ 9♦ 9♣ K♠")
    >>> a.melds, a.deadwood, a.deadwood_value
    ((make_meld('5♥ 🃏 7♥'), make_meld('9♠ 9♦ 9♣')), (Card('K♠'),), 10)
    >>> print(a)
    Melds 5♥ 🃏 7♥ + 9♠ 9♦ 9♣; deadwood K♠ = 10.
    """

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_value: int
    discard: Card | None = None
    variant: str = ""
    laid_off: tuple[Card, ...] = ()  # cards laid off onto the table (``table=``)

    @property
    def message(self) -> str:
        """The arrangement as a sentence (same as ``str(arrangement)``)."""
        params = {
            "melds": _melds_text(self.melds),
            "deadwood": self.deadwood,
            "value": self.deadwood_value,
            "laid": self.laid_off,
        }
        lay = "_layoff" if self.laid_off else ""
        if not self.melds:
            text = render(f"solver_no_melds{lay}", params)
        elif not self.deadwood:
            text = render(f"solver_no_deadwood{lay}", params)
        else:
            text = render(f"solver_arrangement{lay}", params)
        if self.discard is not None:
            text += " " + render("solver_then_discard", card=self.discard)
        return text

    def __str__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        from html import escape

        from rummykit.drawing import cards_html

        parts = [cards_html(m.cards) for m in self.melds]
        if self.laid_off:
            parts.append(cards_html(self.laid_off))
        if self.deadwood:
            parts.append(cards_html(self.deadwood))
        return f"<div>{' '.join(parts)}<p>{escape(self.message)}</p></div>"


def hand_mask(hand: CardsLike) -> int:
    """A hand without jokers or twin cards as one integer, bit ``15 * suit + rank`` per card
    (suits in the order ♠ ♥ ♦ ♣): the form :func:`min_deadwood` reads fastest.

    An agent that weighs many draws and discards keeps its hand this way and adds or
    removes a card with ``|`` and ``& ~`` on :func:`card_bit`.

    >>> hand_mask("A♠ 2♠") == card_bit("A♠") | card_bit("2♠") == 0b110
    True
    """
    cards = as_cards(hand)
    mask = _mask_of(cards)
    if mask.bit_count() != len(cards):
        raise RummykitError(render("solver_mask_cards"))
    return mask


def card_bit(card: Card | str) -> int:
    """The bit of one card in a :func:`hand_mask`.

    >>> card_bit("K♥") == 1 << (15 + 13)
    True
    """
    return hand_mask((card if isinstance(card, Card) else parse_card(card),))


def min_deadwood(
    hand: CardsLike | int,
    variant: Variant = HUNGARIAN,
    *,
    discard: bool = False,
    table: Iterable[Meld | CardsLike] = (),
) -> int:
    """The least deadwood value this hand can be left with (a number only: the fast path).

    With ``discard=True`` one card is first put aside as the discard (the best one), as when
    a player holds one card more than they keep. The hand may also be a :func:`hand_mask`.

    >>> from rummykit import variant
    >>> gin = variant("rommi", ace_low=True, ace_above_king=False)
    >>> min_deadwood("A♠ 2♠ 3♠ 4♠ 4♥ 4♦ 9♣ K♣", gin)
    19
    >>> min_deadwood("A♠ 2♠ 3♠ 4♠ 4♥ 4♦ 9♣ K♣", gin, discard=True)
    9

    With ``table``, cards may also be laid off onto the melds on the table (see
    :func:`deadwood_counter`).

    Asking thousands of times for one variant? :func:`deadwood_counter` binds it once.
    """
    global _last
    if table:
        return deadwood_counter(variant, discard=discard, table=table)(hand)
    last = _last  # read once, written whole: another thread can't pair a variant with
    if last[0] is not variant:  # another variant's counters
        last = _last = (variant, _rules(variant).counters())
    return last[1][discard](hand)


def min_deadwood_many(
    hands: Iterable[CardsLike | int], variant: Variant = HUNGARIAN, *, discard: bool = False
) -> list[int]:
    """:func:`min_deadwood` of every hand, in order: the variant looked up once, the hands
    run through inside C (``map``), for a simulation that weighs thousands of hands.

    >>> from rummykit import variant
    >>> gin = variant("rommi", ace_low=True, ace_above_king=False)
    >>> min_deadwood_many(["A♠ 2♠ 3♠ 9♣", "4♥ 4♦ 4♣ K♣", "Q♣ K♣"], gin)
    [9, 10, 20]
    """
    return list(map(_rules(variant).counters()[discard], hands))


def deadwood_counter(
    variant: Variant = HUNGARIAN,
    *,
    discard: bool = False,
    table: Iterable[Meld | CardsLike] = (),
) -> Callable[[CardsLike | int], int]:
    """:func:`min_deadwood` for one variant, as a function of the hand alone.

    The same answers, without looking the variant up on every call: what an agent that
    weighs thousands of hands holds on to (like a compiled regular expression).

    >>> from rummykit import variant
    >>> deadwood = deadwood_counter(variant("rommi", ace_low=True, ace_above_king=False))
    >>> deadwood("A♠ 2♠ 3♠ 4♠ 4♥ 4♦ 9♣ K♣"), deadwood(hand_mask("4♥ 4♦ 4♣ 9♣"))
    (19, 9)

    With ``table``, the melds on the table, cards may also be laid off onto them (any of
    them, or none: whichever leaves least), as a player who may lay off can (H8, R6):

    >>> from rummykit import ROMMI, make_meld
    >>> table = [make_meld("2♠ 3♠ 4♠", ROMMI), make_meld("3♥ 3♦ 3♣", ROMMI)]
    >>> deadwood = deadwood_counter(ROMMI, discard=True, table=table)
    >>> deadwood("5♠ 6♠ 7♠ 10♠ 5♥ 7♥ 10♦ Q♦ 2♣ 10♣ 7♣")  # 5♠ 6♠ laid off, 7♠ 7♥ 7♣ melded
    7
    """
    counter = _rules(variant).counters()[discard]
    melds = _table_melds(table, variant)
    if not melds:
        return counter
    return _TableDeadwood(melds, variant, counter, discard)


def _counter(rules: _Rules, discard: bool) -> Callable[[CardsLike | int], int]:
    """The function behind :func:`deadwood_counter`, built once per variant and flag."""
    dw = rules.tables()
    dwx = rules.discard_tables()
    variant = rules.variant

    def deadwood(hand: CardsLike | int) -> int:
        kind = type(hand)
        if kind is tuple or kind is Cards or kind is list:
            try:
                mask = sum(map(_BIT_OF, hand))  # type: ignore[arg-type]
            except (KeyError, TypeError):  # text among the cards, or cards made oddly
                return _min_deadwood_of(as_cards(hand), variant, discard)  # type: ignore[arg-type]
            # a joker adds nothing and twin cards carry: fewer bits set than cards
            if mask.bit_count() != len(hand):  # type: ignore[arg-type]
                return _min_deadwood_of(as_cards(hand), variant, discard)  # type: ignore[arg-type]
        elif kind is int:
            mask = hand  # type: ignore[assignment]
            if mask & _NOT_CARDS:
                raise RummykitError(render("solver_mask_cards"))
        else:
            return _min_deadwood_of(as_cards(hand), variant, discard)  # type: ignore[arg-type]
        low = mask & _TWO_SUITS
        high = mask >> 30
        a = low & _SUIT_MASK
        b = low >> 15
        c = high & _SUIT_MASK
        d = high >> 15
        sets = (a & b | c & d) & (a | b) & (c | d)  # ranks held in three suits or four
        if not sets:
            if not discard:
                return dw[a] + dw[b] + dw[c] + dw[d]
            if not mask:
                raise RummykitError(render("solver_nothing_to_discard"))
            return dw[a] + dw[b] + dw[c] + dw[d] + min(dwx[a], dwx[b], dwx[c], dwx[d])
        if not sets & (sets - 1) and not a & b & c & d:
            # one rank in exactly three suits (the usual case): with its set, or without
            keep = ~sets
            ra, rb, rc, rd = a & keep, b & keep, c & keep, d & keep
            whole = dw[a] + dw[b] + dw[c] + dw[d]
            apart = dw[ra] + dw[rb] + dw[rc] + dw[rd]
            if discard:
                whole += min(dwx[a], dwx[b], dwx[c], dwx[d])
                apart += min(dwx[ra], dwx[rb], dwx[rc], dwx[rd])
            return whole if whole < apart else apart
        return _deadwood_with_sets(a, b, c, d, sets, rules, discard)

    return deadwood


def layoff_cards(table: Iterable[Meld | CardsLike], variant: Variant = HUNGARIAN) -> set[Card]:
    """Every card that some lay-off onto these melds could hold, whatever else the hand
    holds: the cards that may matter for lay-offs (a run's cards beyond its ends, the
    missing suits of a set, the joker where a meld may take one).

    >>> from rummykit import ROMMI, make_meld
    >>> sorted(map(str, layoff_cards([make_meld("J♠ Q♠ K♠", ROMMI)], ROMMI)))[:3]
    ['10♠', '2♠', '3♠']
    >>> sorted(map(str, layoff_cards([make_meld("9♠ 9♥ 9♦", ROMMI)], ROMMI)))
    ['9♣']
    """
    rules = _rules(variant)
    out: set[Card] = set()
    for meld in _table_melds(table, variant):
        out |= _meld_fits(meld, rules)
    return out


def _meld_fits(meld: Meld, rules: _Rules) -> frozenset[Card]:
    """The cards some lay-off onto ``meld`` could hold (cached per meld and rules)."""
    key = (meld, rules.variant)
    found = _FITS.get(key)
    if found is None:
        if len(_FITS) > _CACHE_LIMIT:
            _FITS.clear()
        deck = Counter(dict.fromkeys(_FIELD_CARD.values(), 1))
        deck[JOKER] = rules.jpm
        found = _FITS[key] = frozenset(c for g in _layoff_groups(meld, deck, rules) for c in g)
    return found


_FITS: dict[tuple[Meld, Variant], frozenset[Card]] = {}


class _TableDeadwood:
    """The least deadwood of a hand that may also lay cards off onto the table's melds:
    every set of the hand's cards that can go onto them together (one group per meld,
    grown at either end of a run or by the missing suits of a set) is tried, and the rest
    of the hand melds as :func:`min_deadwood` finds. Exact: a lay-off only takes cards out
    of the hand, and the cards left meld on their own."""

    def __init__(
        self,
        melds: list[Meld],
        variant: Variant,
        counter: Callable[[CardsLike | int], int],
        discard: bool,
    ) -> None:
        self.melds = melds
        self.variant = variant
        self.rules = _rules(variant)
        self.counter = counter
        self.discard = discard
        self.fits = layoff_cards(melds, variant)
        # shared by every counter for the same table (an agent makes several a decision)
        table = (tuple(melds), variant)
        laid = _LAID.get(table)
        if laid is None:
            if len(_LAID) > 64:
                _LAID.clear()
            laid = _LAID[table] = {}
        self.laid = laid

    def __call__(self, hand: CardsLike | int) -> int:
        cards = _mask_cards(hand) if isinstance(hand, int) else list(as_cards(hand))
        fits = self.fits
        near = [c for c in cards if c in fits]
        if not near:
            return self.counter(cards)
        best = _BIG
        codes = list(map(_CODE_OF, cards))
        for laid in self._laid(near):
            rest = list(codes)
            for code in laid:
                rest.remove(code)
            if not rest:
                if not self.discard:
                    return 0
                continue  # a card must stay to be the discard
            value = self.counter([_ORDERED[code] for code in rest])
            if value < best:
                best = value
                if not best:
                    break
        return best

    def laid_sets(self, cards: Iterable[Card]) -> list[tuple[Card, ...]]:
        """Every set of ``cards`` that can be laid off together (the empty one first)."""
        near = [c for c in cards if c in self.fits]
        if not near:
            return [()]
        return [tuple(_ORDERED[code] for code in laid) for laid in self._laid(near)]

    def _laid(self, near: list[Card]) -> tuple[tuple[int, ...], ...]:
        """Every set of these cards that can be laid off together (the empty one first),
        each as the codes of its cards in card order."""
        key = tuple(sorted(map(_CODE_OF, near)))
        found = self.laid.get(key)
        if found is not None:
            return found
        if len(self.laid) > _CACHE_LIMIT:
            self.laid.clear()
        options = [g for g in (_meld_groups(m, key, self.rules) for m in self.melds) if g]
        # the sets laid off so far, each once (a joker alone fits many melds: the same set),
        # with the cards still free (codes in order: a few cards, so tuples beat Counters)
        states: dict[tuple[int, ...], tuple[int, ...]] = {(): key}
        for groups in options:
            grown = dict(states)
            for laid, avail in states.items():
                for group in groups:
                    rest = _without(avail, group)
                    if rest is not None:
                        grown.setdefault(tuple(sorted(laid + group)), rest)
            states = grown
        found = tuple(sorted(states, key=len))
        self.laid[key] = found
        return found


def _without(cards: tuple[int, ...], group: tuple[int, ...]) -> tuple[int, ...] | None:
    """``cards`` less ``group`` (codes, copies counted), or None when ``group`` isn't in it.

    >>> _without((3, 5, 5, 9), (5, 9)), _without((3, 5), (5, 5))
    ((3, 5), None)
    """
    rest = list(cards)
    for code in group:
        try:
            rest.remove(code)
        except ValueError:
            return None
    return tuple(rest)


def _meld_groups(meld: Meld, codes: tuple[int, ...], rules: _Rules) -> tuple[tuple[int, ...], ...]:
    """The groups of the cards coded ``codes`` that may go onto ``meld``, coded in card
    order (cached by the cards that could).

    A group of natural cards onto a meld without a joker is legal as built (a run grown
    card by card within the places the variant gives the ace, at most 13 cards; a set by
    its missing suits, at most four); one with a joker anywhere is read as the referee
    reads it (:func:`rummykit.melds.layoff_readings`)."""
    fits = _meld_fits(meld, rules)
    mine = tuple(code for code in codes if _ORDERED[code] in fits)
    if not mine:
        return ()
    of_meld = _GROUPS.get((meld, rules.variant))
    if of_meld is None:
        if len(_GROUPS) > _MELDS_LIMIT:
            _GROUPS.clear()
        of_meld = _GROUPS[meld, rules.variant] = {}
    found = of_meld.get(mine)
    if found is None:
        if len(of_meld) > _CACHE_LIMIT:
            of_meld.clear()
        plain = not any(c.is_joker for c in meld.cards)
        cards = Counter(_ORDERED[code] for code in mine)
        found = of_meld[mine] = tuple(
            dict.fromkeys(
                tuple(sorted(map(_CODE_OF, group)))
                for group in dict.fromkeys(_layoff_groups(meld, cards, rules))
                if (plain and JOKER not in group) or layoff_readings(meld, group, rules.variant)
            )
        )
    return found


# by meld, then by the codes of the cards that could go onto it
_GROUPS: dict[tuple[Meld, Variant], dict[tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}
_MELDS_LIMIT = 4096
_LAID: dict[
    tuple[tuple[Meld, ...], Variant], dict[tuple[int, ...], tuple[tuple[int, ...], ...]]
] = {}


def layoff_sets(
    hand: CardsLike, table: Iterable[Meld | CardsLike], variant: Variant = HUNGARIAN
) -> list[tuple[Card, ...]]:
    """Every set of the hand's cards that can be laid off onto the table's melds together
    (one group a meld), the empty set first, then by size.

    >>> from rummykit import ROMMI, make_meld
    >>> from rummykit.cards import format_cards
    >>> [format_cards(s) for s in layoff_sets("5♠ 6♠ 9♣", [make_meld("2♠ 3♠ 4♠", ROMMI)], ROMMI)]
    ['', '5♠', '5♠ 6♠']
    """
    melds = _table_melds(table, variant)
    counter = _TableDeadwood(melds, variant, _rules(variant).counters()[False], False)
    return counter.laid_sets(as_cards(hand))


def _best_with_table(
    cards: list[Card], variant: Variant, discard: bool, melds: list[Meld]
) -> Arrangement:
    """:func:`best_arrangement` of a hand that may lay cards off onto ``melds``."""
    best: tuple[int, int, Arrangement] | None = None
    for laid in layoff_sets(cards, melds, variant):
        rest = list(cards)
        for card in laid:
            rest.remove(card)
        if not rest:
            if discard:
                continue
            found = Arrangement((), (), 0, None, variant.name, laid)
        else:
            plain = best_arrangement(rest, variant, discard=discard)
            found = Arrangement(
                plain.melds, plain.deadwood, plain.deadwood_value, plain.discard, variant.name, laid
            )
        key = (found.deadwood_value, len(laid))
        if best is None or key < best[:2]:
            best = (*key, found)
    assert best is not None  # the empty lay-off always leaves a card to discard
    return best[2]


def _mask_cards(mask: int) -> list[Card]:
    """The cards of a :func:`hand_mask`."""
    return [card for card, bit in _CARD_BITS.items() if mask & bit]


def _min_deadwood_of(cards: tuple[Card, ...], variant: Variant, discard: bool) -> int:
    """:func:`min_deadwood` of cards that may hold jokers or twin cards: the exact search,
    for a number only (no arrangement is built)."""
    mask = _mask_of(cards)
    if mask.bit_count() == len(cards):
        return min_deadwood(mask, variant, discard=discard)
    rules = _rules(variant)
    state, jokers = _encode(cards)
    total = _worth(rules.value, state) + jokers * rules.joker_points
    # one search for the hand and every discard tried: what it stores for a state of cards
    # is that state's exact best, whichever hand it came from
    search = _Search(rules, _VALUE, False)
    worth, keep, _ = _solve(search, state, jokers, 0)
    whole = total - worth
    if not discard:
        return whole
    if not cards:
        raise RummykitError(render("solver_nothing_to_discard"))
    # The least over every discard of what the rest leaves. A card put aside can't lower
    # what the rest leaves by more than its own value (the rest's melds are melds of the
    # whole hand), so putting aside the costliest card the best arrangement leaves in hand
    # gives the least that card's value allows; only a costlier card could do better. They
    # are tried costliest first and the search stops as soon as no card left could beat the
    # best found.
    value = variant.card_value
    # (a hand that melds whole, with a meld of four cards or more, discards from that meld)
    left, four = search.costliest_left(keep, jokers)
    if not whole and four:
        return 0
    left = max([left, *(rules.value[g] for g in _fields(state - keep))])
    best = whole - left if left > 0 else _BIG
    for card in sorted(set(cards), key=value, reverse=True):
        if whole - value(card) >= best or not best:
            break
        rest, kept = (
            (state, jokers - 1) if card.is_joker else (state - (1 << (_field(card) << 2)), jokers)
        )
        # only a worth above this one could beat the best found
        floor = total - value(card) - best
        best = min(best, total - value(card) - _solve(search, rest, kept, 0, floor)[0])
    return best


_NOT_CARDS = ~sum(_CARD_BITS.values())
_last: tuple[Variant | None, tuple[Callable[[CardsLike | int], int], ...]] = (None, ())


def best_arrangement(
    hand: CardsLike,
    variant: Variant = HUNGARIAN,
    *,
    discard: bool = False,
    table: Iterable[Meld | CardsLike] = (),
) -> Arrangement:
    """The melds that leave the least deadwood (by ``variant.card_value``), and that deadwood.

    Exact: jokers go where they save most (at most ``variant.jokers_per_meld`` to a meld),
    twin cards from two decks are handled, the ace stands where the variant lets it.
    With ``discard=True`` the best card is first put aside for the discard.

    >>> print(best_arrangement("A♠ 2♠ 3♠ Q♥ K♥ A♥ 🃏 7♦"))
    Melds A♠ 2♠ 3♠ 🃏 + Q♥ K♥ A♥; deadwood 7♦ = 7.
    >>> print(best_arrangement("A♠ 2♠ 3♠ Q♥ K♥ A♥ 🃏 7♦", discard=True))
    Melds A♠ 2♠ 3♠ 🃏 + Q♥ K♥ A♥; no deadwood. Then discard 7♦.

    With ``table``, cards may also be laid off onto its melds (``laid_off``: whichever leave
    least, the fewest among equals), as :func:`deadwood_counter` counts:

    >>> from rummykit import ROMMI, make_meld
    >>> print(best_arrangement("5♠ 6♠ 9♥ 9♦ 9♣ K♦", ROMMI, table=[make_meld("2♠ 3♠ 4♠", ROMMI)]))
    Melds 9♥ 9♦ 9♣; lay off 5♠ 6♠; deadwood K♦ = 10.
    """
    if table:
        melds = _table_melds(table, variant)
        if melds:
            return _best_with_table(list(as_cards(hand)), variant, discard, melds)
    cards = as_cards(hand)
    rules = _rules(variant)
    state, jokers = _encode(cards)
    if discard and not cards:
        raise RummykitError(render("solver_nothing_to_discard"))
    search = _Search(rules, _VALUE, True)
    _, keep, outside = _solve(search, state, jokers, int(discard))
    plans, dead_fields, inside = search.plans(keep, jokers, int(discard) if outside == -2 else 0)
    melds = _split_long([_meld_of(p) for p in plans])
    dead_fields += _fields(state - keep)
    chosen = outside if outside != -2 else inside
    if chosen != -2 and outside != -2:
        dead_fields.remove(outside)
    deadwood = _sorted(_card(g) for g in dead_fields)
    value = sum(variant.card_value(c) for c in deadwood)
    return Arrangement(
        tuple(melds),
        deadwood,
        value,
        None if chosen == -2 else _card(chosen),
        variant.name,
    )


# --- the opening ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opening:
    """The highest-valued set of new melds in a hand, and whether it opens (H8).

    >>> o = best_opening("3♣ 4♣ 5♣ 8♦ 8♠ 8♥ 2♥")
    >>> o.points, o.ok, o.missing
    (36, False, 15)
    >>> print(o)
    3♣ 4♣ 5♣ + 8♠ 8♥ 8♦ = 36: 15 short of the 51 needed to open. (H8)
    """

    melds: tuple[Meld, ...]
    points: int
    threshold: int
    left: tuple[Card, ...]
    variant: str = ""
    rule: str = ""

    @property
    def ok(self) -> bool:
        """Whether these melds reach the threshold (any meld does when there is none)."""
        return bool(self.melds) and self.points >= self.threshold

    def __bool__(self) -> bool:
        return self.ok

    @property
    def missing(self) -> int:
        """Points still needed to open (0 when it opens)."""
        return max(self.threshold - self.points, 0)

    @property
    def message(self) -> str:
        """The opening as a sentence, without the rule citation."""
        params = {
            "melds": _melds_text(self.melds),
            "total": self.points,
            "threshold": self.threshold,
            "missing": self.threshold - self.points,
            "variant": self.variant,
        }
        if not self.melds:
            code = "solver_opening_none" if self.threshold else "solver_opening_none_free"
            return render(code, params)
        if not self.threshold:
            return render("solver_opening_free", params)
        if self.ok:
            return render("solver_opening_ok", params)
        return render("solver_opening_short", params)

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


def best_opening(hand: CardsLike, variant: Variant = HUNGARIAN) -> Opening:
    """The new melds worth most toward the opening (H8: a joker counts as the card it stands
    for), and whether they reach ``variant.opening_threshold``.

    When the variant makes the last card go by a discard, one card is always kept back.

    >>> print(best_opening("7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦"))
    7♥ 8♥ 9♥ + 10♠ 10♦ 10♣ + J♣ Q♣ K♣ = 84: you can open. (H8)
    >>> best_opening("🃏 2♥ 3♥ 5♠").melds[0].represents[0]
    Card('A♥')
    """
    cards = as_cards(hand)
    rules = _rules(variant)
    state, jokers = _encode(cards)
    flag = int(variant.discard_to_win and bool(cards))
    search = _Search(rules, _OPENING, True)
    keep, _alone = _reach(rules, state, jokers)
    if flag and state - keep:
        flag = 0  # a card that can't meld is kept back anyway
    points = search.best(keep, jokers, flag)
    plans, dead_fields, discard = search.plans(keep, jokers, flag)
    melds = tuple(_split_long([_meld_of(p) for p in plans]))
    dead_fields += _fields(state - keep)
    if discard != -2:
        dead_fields.append(discard)
    return Opening(
        melds,
        sum(m.points(variant) for m in melds) if points > 0 else 0,
        variant.opening_threshold,
        _sorted(_card(g) for g in dead_fields),
        variant.title,
        variant.rule("opening"),
    )


_SHARED_OPENING: dict[int, tuple[_Rules, _Search]] = {}


def opening_points(hand: CardsLike, variant: Variant = HUNGARIAN, *, floor: int = 0) -> int:
    """``best_opening(hand, variant).points``, for many hands of one variant at a time (an
    agent looking ahead): the searches share one memo, which holds the exact best of each
    state of cards whatever hand it came from, so the work one hand did helps the next.

    With ``floor``, the points or ``floor``, whichever is more: the search then only looks
    for melds worth more than ``floor``, which is quicker. An agent that knows what a hand
    opens with asks this way about the hand with one card more (a card added never lowers
    the opening, so the answer is still exact).

    >>> opening_points("7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦")
    84
    >>> opening_points("7♥ 8♥ 9♥ 10♠ 10♦ 10♣ J♣ Q♣ K♣ 2♦", floor=90)
    90
    """
    cards = as_cards(hand)
    rules = _rules(variant)
    got = _SHARED_OPENING.get(id(rules))
    if got is None or got[0] is not rules or got[1].stored() > _CACHE_LIMIT:
        if len(_SHARED_OPENING) > 8:
            _SHARED_OPENING.clear()
        got = _SHARED_OPENING[id(rules)] = (rules, _Search(rules, _OPENING, False))
    search = got[1]
    state, jokers = _encode(cards)
    flag = int(variant.discard_to_win and bool(cards))
    keep, _alone = _reach(rules, state, jokers)
    if flag and state - keep:
        flag = 0
    return max(search.best(keep, jokers, flag, floor), floor, 0)


# --- lay-offs ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layoff:
    """Cards from the hand that can go onto the meld at ``index`` on the table, and the
    meld they make.

    >>> from rummykit import make_meld
    >>> print(layoff_options("7♥ 3♥", [make_meld("4♥ 5♥ 6♥")])[0])
    3♥ onto 4♥ 5♥ 6♥ (meld 0), making 3♥ 4♥ 5♥ 6♥.
    """

    cards: tuple[Card, ...]
    index: int
    meld: Meld
    result: Meld

    @property
    def message(self) -> str:
        """The lay-off as a sentence."""
        return render(
            "solver_layoff", cards=self.cards, meld=self.meld, index=self.index, result=self.result
        )

    def __str__(self) -> str:
        return self.message


def _layoff_groups(meld: Meld, avail: Counter[Card], rules: _Rules) -> list[tuple[Card, ...]]:
    """Candidate groups of cards from ``avail`` that extend ``meld`` (checked afterwards)."""
    jokers_in = sum(1 for c in meld.cards if c.is_joker)
    spare = max(0, min(rules.jpm - jokers_in, avail[JOKER]))
    groups: list[tuple[Card, ...]] = []
    if meld.is_run:
        suit = meld.suit
        lo, hi = rules.lo, rules.hi

        def side(first: int, step: int) -> list[tuple[tuple[Card, ...], int]]:
            # every extension on one side: (cards, jokers used)
            out: list[tuple[tuple[Card, ...], int]] = [((), 0)]
            frontier: list[tuple[tuple[Card, ...], int, int]] = [((), 0, first)]
            while frontier:
                got, used, p = frontier.pop()
                if not lo <= p <= hi:
                    continue
                card = card_at(p, suit)
                if avail[card] > 0:
                    nxt = (*got, card)
                    out.append((nxt, used))
                    frontier.append((nxt, used, p + step))
                if used < spare:
                    nxt = (*got, JOKER)
                    out.append((nxt, used + 1))
                    frontier.append((nxt, used + 1, p + step))
            return out

        below = side(meld.start - 1, -1)
        above = side(meld.end + 1, 1)
        for low_cards, low_used in below:
            for high_cards, high_used in above:
                added = low_cards + high_cards
                if not added or low_used + high_used > spare:
                    continue
                if len(meld.cards) + len(added) > 13:
                    continue
                need = Counter(added)
                if all(avail[c] >= n for c, n in need.items()):
                    groups.append(added)
    else:
        rank = meld.rank
        present = {c.suit for c in meld.cards if not c.is_joker}
        naturals = [Card(rank, s) for s in SUITS if s not in present and avail[Card(rank, s)]]
        room = 4 - len(meld.cards)
        for pick in range(1, 1 << len(naturals)):
            chosen = tuple(c for i, c in enumerate(naturals) if pick >> i & 1)
            for k in range(spare + 1):
                if len(chosen) + k <= room:
                    groups.append(chosen + (JOKER,) * k)
        for k in range(1, spare + 1):
            if k <= room:
                groups.append((JOKER,) * k)
    return groups


def _table_melds(table: Iterable[Meld | CardsLike], variant: Variant) -> list[Meld]:
    return [m if isinstance(m, Meld) else make_meld(m, variant) for m in table]


def layoff_options(
    hand: CardsLike, table: Iterable[Meld | CardsLike], variant: Variant = HUNGARIAN
) -> tuple[Layoff, ...]:
    """Every card, or group of cards, from the hand that can go onto a meld on the table.

    A lay-off keeps the meld's kind and what its jokers stand for (melds on the table are
    never rearranged), exactly as :func:`rummykit.melds.layoff_readings` reads it. Single
    cards come first, then pairs and longer groups, each by meld index.

    >>> from rummykit.cards import format_cards
    >>> from rummykit import make_meld
    >>> table = [make_meld("9♠ 9♥ 9♦"), make_meld("4♥ 5♥ 6♥")]
    >>> [(format_cards(o.cards), o.index) for o in layoff_options("9♣ 7♥ 8♥ 2♠", table)]
    [('9♣', 0), ('7♥', 1), ('7♥ 8♥', 1)]
    """
    cards = as_cards(hand)
    melds = _table_melds(table, variant)
    options = _verified_layoffs(melds, Counter(cards), variant)
    out = [
        Layoff(group, index, melds[index], result)
        for index, found in enumerate(options)
        for group, result in found
    ]
    out.sort(key=lambda o: (len(o.cards), o.index, [c.sort_key() for c in o.cards]))
    return tuple(out)


# --- going out --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GoingOut:
    """Whether a hand can be emptied this turn, and how: new melds, lay-offs onto the
    table's melds, and the final discard when the variant wants one.

    When it can't, the plan is the one that places the most cards, and ``left`` holds the
    cards that would stay in hand (besides the discard).
    """

    ok: bool
    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    discard: Card | None
    left: tuple[Card, ...]
    final_discard: bool = False
    rule: str = ""

    def __bool__(self) -> bool:
        return self.ok

    @property
    def message(self) -> str:
        """The plan (or what stays in hand) as a sentence, without the rule citation."""
        if not self.ok:
            code = "solver_cannot_go_out_discard" if self.final_discard else "solver_cannot_go_out"
            return render(code, cards=self.left)
        steps = [render("solver_step_meld", meld=m) for m in self.melds]
        steps += [render("solver_step_layoff", cards=o.cards, meld=o.meld) for o in self.layoffs]
        if self.discard is not None:
            steps.append(render("solver_step_discard", card=self.discard))
        return render("solver_go_out", plan=join(steps, "and"))

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})" if self.rule else self.message


def _verified_layoffs(
    melds: Sequence[Meld], avail: Counter[Card], variant: Variant
) -> list[list[tuple[tuple[Card, ...], Meld]]]:
    """Per table meld, every group from ``avail`` that may go onto it, with the meld made."""
    rules = _rules(variant)
    out = []
    for meld in melds:
        seen: set[tuple[Card, ...]] = set()
        found = []
        for group in _layoff_groups(meld, avail, rules):
            key = _sorted(group)
            if key in seen:
                continue
            seen.add(key)
            readings = layoff_readings(meld, group, variant)
            if readings:
                found.append((group, readings[0]))
        out.append(found)
    return out


# a lay-off group as the going-out search makes it, at its lowest natural card: (the table
# meld's bit, the group's other natural cards as a count vector, jokers used, cards placed,
# the group's index among the meld's)
_Lay: TypeAlias = "tuple[int, int, int, int, int]"
# a step of the going-out search: (what, meld plan or lay-off, the state after it)
_Step: TypeAlias = "tuple[int, _Plan | tuple[int, int] | None, int, int, int, int]"
_LAYOFF = 3


class _GoingOut:
    """The most cards a hand can place this turn — new melds, one group of cards onto each
    table meld, the final discard when owed — and how.

    One search over the hand, deciding its lowest card each step as :class:`_Search` does:
    the card is left in hand, or discarded, or starts a new meld, or is the lowest natural
    card of a group laid off onto a table meld not used yet. Besides the cards left, the
    state holds the table melds still free among those a group could still start at (or
    above) the lowest card, and, for the free melds past that point, how many jokers they
    could still take alone (``spare``): whatever was decided below, only those matter. A
    choice is not explored once the state's best reaches its bound: every card but those
    that can go nowhere any more (one of them the discard when owed)."""

    def __init__(self, search: _Search, groups: list[list[tuple[tuple[Card, ...], Meld]]]) -> None:
        self.search = search
        self.rules = search.rules
        self.width = len(groups)
        self.every = (1 << self.width) - 1  # every table meld free
        self.lays: list[list[_Lay]] = [[] for _ in range(64)]
        self.caps: list[int] = []  # per table meld: the most jokers it takes alone
        self.held: list[int] = []  # per table meld: the natural cards it could take
        self.settled = [0] * 65  # per lowest card: the melds no group can start at any more
        self.jokers_alone: list[dict[int, int]] = []  # per table meld: by jokers, the group
        for k, found in enumerate(groups):
            bit = 1 << k
            cap = 0
            held = 0
            last = -1
            alone: dict[int, int] = {}
            for index, (group, _) in enumerate(found):
                taken, used = _encode(group)
                if not taken:
                    alone.setdefault(used, index)
                    cap = max(cap, used)
                    continue
                f = ((taken & -taken).bit_length() - 1) >> 2
                rest = taken - (1 << (f << 2))
                self.lays[f].append((bit, rest, used, len(group), index))
                held |= _held(taken)
                last = max(last, f)
            self.caps.append(cap)
            self.held.append(held)
            self.jokers_alone.append(alone)
            for f in range(last + 1, 65):
                self.settled[f] |= bit
        for lays in self.lays:
            lays.sort(key=lambda lay: -lay[3])
        self.memo: dict[int, int] = {}
        self.moves: dict[int, _Step] = {}
        self.reached: dict[int, int] = {}

    def reachable(self, free: int) -> int:
        """The natural cards (held bits) the free table melds could take."""
        got = self.reached.get(free)
        if got is None:
            got = 0
            for k in _bits(free):
                got |= self.held[k]
            self.reached[free] = got
        return got

    def _settle(self, state: int, jokers: int, free: int, spare: int) -> tuple[int, int]:
        """The free melds no group can start at from the state's lowest card on leave
        ``free``; what they take alone is jokers, added to ``spare`` (at most ``jokers``)."""
        if state:
            f = ((state & -state).bit_length() - 1) >> 2
            done = free & self.settled[f]
        else:
            done = free
        if done:
            free ^= done
            for k in _bits(done):
                spare += self.caps[k]
        return free, spare if spare < jokers else jokers

    def best(self, state: int, jokers: int, flag: int, free: int, spare: int) -> int:
        """The most cards placed from here (``-_BIG`` if a discard is owed and impossible)."""
        free, spare = self._settle(state, jokers, free, spare)
        if not state:
            if flag:
                return (jokers - 1 if jokers - 1 < spare else spare) + 1 if jokers else -_BIG
            return spare
        key = ((((state << self.width | free) << 8 | spare) << 8 | jokers) << 1) | flag
        got = self.memo.get(key)
        if got is not None:
            return got
        f = ((state & -state).bit_length() - 1) >> 2
        rest = state - (1 << (f << 2))
        placeable = _held(_reach(self.rules, state, jokers)[0]) | self.reachable(free)
        stuck = _count(state & ~(placeable * 15))
        bound = _count(state) + jokers - (stuck - flag if stuck > flag else 0)
        best = -_BIG
        step: _Step = (_DEADWOOD, None, rest, jokers, flag, free)
        if placeable >> (f << 2) & 1:
            for taken, used, worth, _, plan in self.search.options(f, rest, jokers):
                if best >= bound:
                    break
                state2 = rest - taken
                got = worth + self.best(state2, jokers - used, flag, free, spare)
                if got > best:
                    best, step = got, (_MELD, plan, state2, jokers - used, flag, free)
            for bit, taken, used, size, index in self.lays[f]:
                if best >= bound:
                    break
                # a count is below 8 (bit 3 of a field is free): with bit 3 set in every
                # field of the cards left, a field that holds fewer cards than taken loses it
                if not free & bit or used > jokers or ((rest | _FOURS) - taken) & _FOURS != _FOURS:
                    continue
                state2 = rest - taken
                got = size + self.best(state2, jokers - used, flag, free ^ bit, spare)
                if got > best:
                    lay = (bit.bit_length() - 1, index)
                    best, step = got, (_LAYOFF, lay, state2, jokers - used, flag, free ^ bit)
        if flag and best < bound:
            got = 1 + self.best(rest, jokers, 0, free, spare)
            if got > best:
                best, step = got, (_DISCARD, None, rest, jokers, 0, free)
        if best < bound:
            got = self.best(rest, jokers, flag, free, spare)
            if got > best:
                best, step = got, (_DEADWOOD, None, rest, jokers, flag, free)
        self.memo[key] = best
        self.moves[key] = step
        return best

    def plan(
        self, state: int, jokers: int, flag: int
    ) -> tuple[list[_Plan], list[tuple[int, int]], list[int], int]:
        """The best plan from the whole hand: new melds, lay-offs (table meld, group index),
        the cards left (fields; -1 a joker), the discard (a field, -1 a joker, -2 none)."""
        self.best(state, jokers, flag, self.every, 0)
        plans: list[_Plan] = []
        laid: list[tuple[int, int]] = []
        left: list[int] = []
        discard = -2
        free, spare = self.every, 0
        while state:
            free, spare = self._settle(state, jokers, free, spare)
            key = ((((state << self.width | free) << 8 | spare) << 8 | jokers) << 1) | flag
            what, made, state2, jokers, flag, free = self.moves[key]
            f = ((state & -state).bit_length() - 1) >> 2
            if what == _DEADWOOD:
                left.append(f)
            elif what == _DISCARD:
                discard = f
            elif what == _MELD:
                plans.append(made)  # type: ignore[arg-type]
            else:
                laid.append(made)  # type: ignore[arg-type]
            state = state2
        # the jokers left: the discard if still owed, then alone onto free table melds
        if flag and jokers:
            discard = -1
            jokers -= 1
        used = {k for k, _ in laid}
        for k, alone in enumerate(self.jokers_alone):
            if k in used or not jokers:
                continue
            for n in sorted(alone, reverse=True):
                if n <= jokers:
                    laid.append((k, alone[n]))
                    jokers -= n
                    break
        left += [-1] * jokers
        return plans, laid, left, discard


def can_go_out(
    hand: CardsLike,
    variant: Variant = HUNGARIAN,
    table: Iterable[Meld | CardsLike] = (),
    final_discard: bool | None = None,
) -> GoingOut:
    """Can this hand be emptied this turn — new melds, lay-offs onto ``table``, and (when
    ``final_discard``, by default ``variant.discard_to_win``) exactly one card left to
    discard? Lay-offs keep each table meld's kind and joker meanings.

    >>> from rummykit import ROMMI, make_meld
    >>> print(can_go_out("7♥ 8♥ 9♥ 5♠", ROMMI, table=[make_meld("2♠ 3♠ 4♠", ROMMI)]))
    You can go out: meld 7♥ 8♥ 9♥ and lay 5♠ onto 2♠ 3♠ 4♠. (R7)
    >>> print(can_go_out("7♥ 8♥ 9♥ 5♠ K♦"))
    You can't go out yet: 5♠ would stay in hand besides the discard. (H12)

    Where the variant lets the last card go either way (Rommi, R7), both are tried:

    >>> can_go_out("7♥ 8♥ 9♥ 5♠", ROMMI).ok
    True
    """
    if final_discard is None and not variant.discard_to_win:
        plain = can_go_out(hand, variant, table, False)
        if plain.ok:
            return plain
        with_discard = can_go_out(hand, variant, table, True)
        return with_discard if with_discard.ok else plain
    cards = as_cards(hand)
    melds = _table_melds(table, variant)
    rules = _rules(variant)
    flag = int(variant.discard_to_win if final_discard is None else final_discard)
    options = _verified_layoffs(melds, Counter(cards), variant)
    active = [i for i, found in enumerate(options) if found]
    going = _GoingOut(_Search(rules, _COUNT, False), [options[i] for i in active])
    state, jokers = _encode(cards)
    # the cards that can go nowhere (in no meld of the hand, onto no table meld) are left
    # aside first; one of them is the discard, as good as any the search could choose
    keep = state & (_held(_reach(rules, state, jokers)[0]) | going.reachable(going.every)) * 15
    aside = _fields(state - keep)
    inner = flag and not aside
    placed = going.best(keep, jokers, inner, going.every, 0) + (flag and bool(aside))
    ok = placed == len(cards)
    plans, laid, dead_fields, discard = going.plan(keep, jokers, inner)
    dead_fields += aside
    if flag and dead_fields:  # any card left may be the discard: the costliest one
        if discard != -2:
            dead_fields.append(discard)
        discard = max(dead_fields, key=lambda g: rules.joker_points if g < 0 else rules.value[g])
        dead_fields.remove(discard)
    new = tuple(_split_long([_meld_of(p) for p in plans]))
    layoffs = []
    for k, g in laid:
        group, result = options[active[k]][g]
        layoffs.append(Layoff(group, active[k], melds[active[k]], result))
    layoffs.sort(key=lambda o: o.index)
    return GoingOut(
        ok,
        new,
        tuple(layoffs),
        _card(discard) if flag and discard != -2 else None,
        _sorted(_card(g) for g in dead_fields),
        bool(flag),
        variant.rule("going_out"),
    )
