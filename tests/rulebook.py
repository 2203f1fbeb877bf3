"""The game's arithmetic, written for the trace audit from the rulebooks alone.

This module is the auditor's own reading of ``/work/shared/rules`` (H1–H15, R1–R12): card
values, what is a set or a run, what may be laid off onto a meld on the table, the least
deadwood of a hand, the best opening, going out, and which cards a seat has not seen. It
shares no code with what it audits: it imports nothing from ``rummykit.solver``,
``rummykit.ai`` or the meld checks of ``rummykit.melds``; from rummykit it takes only the
card values (:class:`~rummykit.cards.Card`), the variants' option *fields* (``ace_low``,
``ace_above_king``, ``jokers_per_meld``, ``opening_threshold``, ``discard_to_win``, the
point values) and the referee's public data (the table's melds, the history's events).

Every search is brute force over partitions: the melds a hand can make are listed first,
then a depth-first search with a memo chooses, card by card, whether a card is deadwood, in
a meld, or in a group laid off onto a meld on the table (any subset of lay-offs, any number
of cards onto each meld). Python only, exact, and fast enough for tens of thousands of
decisions.

>>> from rummykit.variants import ROMMI
>>> rules = Rules(ROMMI)
>>> rules.is_meld(ids("Q♥ K♥ A♥")), rules.is_meld(ids("A♥ 2♥ 3♥"))
(True, False)
>>> Arranger(rules).least(ids("5♠ 6♠ 7♠ 9♦ K♣"))
19
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummykit.cards import Card, parse_card
from rummykit.variants import Variant

__all__ = [
    "INF",
    "JOKER_ID",
    "Arranger",
    "Memory",
    "Rules",
    "TableRun",
    "TableSet",
    "card_id",
    "card_of",
    "ids",
    "iter_cards",
    "memory",
    "table_of",
    "text",
    "unseen",
]

SUITS = ("♠", "♥", "♦", "♣")
JOKER_ID = 99
"""A card is an int: ``16 × suit + rank`` (rank 1–13, suit 0–3 as ♠ ♥ ♦ ♣), a joker 99."""
INF = 10**9


def card_id(card: Card) -> int:
    """The int of a card (jokers 99).

    >>> card_id(parse_card("A♠")), card_id(parse_card("K♣")), card_id(parse_card("🃏"))
    (1, 61, 99)
    """
    if card.is_joker:
        return JOKER_ID
    return 16 * SUITS.index(card.suit) + card.rank


def card_of(cid: int) -> Card:
    """The card of an int."""
    if cid == JOKER_ID:
        return parse_card("🃏")
    return Card(cid % 16, SUITS[cid // 16])


def ids(cards: str | Iterable[Card]) -> tuple[int, ...]:
    """Cards (text or :class:`Card`) as a sorted tuple of ints: suits ♠ ♥ ♦ ♣, ranks up,
    jokers last — the order every search here walks."""
    if isinstance(cards, str):
        cards = [parse_card(t) for t in cards.split()]
    return tuple(sorted(card_id(c) for c in cards))


def text(cards: Iterable[int]) -> str:
    """Ints back to card text: ``5♠ 6♠ 7♠``."""
    return " ".join(str(card_of(c)) for c in cards)


def _rank(cid: int) -> int:
    return cid % 16


def _suit(cid: int) -> int:
    return cid // 16


def _card_at(suit: int, position: int) -> int:
    """The card standing at ``position`` of a run (1 and 14 are both the ace)."""
    return 16 * suit + (1 if position == 14 else position)


def _remove(multiset: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...] | None:
    """``multiset`` less ``cards`` (both sorted-able), or None when a card is missing."""
    rest = list(multiset)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return tuple(rest)


# --- the variant's rules: values, sets, runs ------------------------------------------------


class Rules:
    """What the rulebook says about cards and melds, for one variant and its options.

    Values (H13, R8): 2–10 face value, J Q K ``face_points``, the ace ``ace_points`` (11 with
    ``ace_high``), a joker ``joker_points``. A set (H4, R3): 3 or 4 cards of one rank, all
    suits different. A run: 3 or more consecutive cards of one suit, the ace below the 2 only
    with ``ace_low``, above the king only with ``ace_above_king``, never both, no wrap. A
    joker (H5) stands for any one card, at most ``jokers_per_meld`` in a meld.

    >>> from rummykit.variants import HUNGARIAN
    >>> r = Rules(HUNGARIAN)
    >>> r.value(card_id(parse_card("A♥"))), r.value(JOKER_ID), r.is_meld(ids("K♠ A♠ 2♠"))
    (10, 20, False)
    >>> r.is_meld(ids("9♠ 9♠ 9♥")), r.is_meld(ids("5♥ 🃏 7♥")), r.is_meld(ids("5♥ 🃏 🃏"))
    (False, True, False)
    >>> r.meld_points(ids("5♥ 🃏 7♥")), r.meld_points(ids("🃏 2♥ 3♥"))
    (18, 15)
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.ace_low = variant.ace_low
        self.ace_high_run = variant.ace_above_king
        self.per_meld = variant.jokers_per_meld if variant.jokers else 0
        self.threshold = variant.opening_threshold
        self.discard_to_win = variant.discard_to_win
        self.no_opening_first_turn = variant.no_opening_first_turn
        self.lowest = 1 if self.ace_low else 2
        self.highest = 14 if self.ace_high_run else 13
        ace = 11 if variant.ace_high else variant.ace_points
        self._values = {JOKER_ID: variant.joker_points}
        for s in range(4):
            for r in range(1, 14):
                self._values[16 * s + r] = ace if r == 1 else variant.face_points if r > 10 else r
        self.deck: Counter[int] = Counter()
        for s in range(4):
            for r in range(1, 14):
                self.deck[16 * s + r] = variant.decks
        if variant.jokers:
            self.deck[JOKER_ID] = variant.jokers

    def value(self, cid: int) -> int:
        """What a card left in hand costs (H13, R8)."""
        return self._values[cid]

    def total(self, cards: Iterable[int]) -> int:
        """What cards left in hand cost together."""
        return sum(self._values[c] for c in cards)

    # -- melds

    def positions(self, cid: int) -> tuple[int, ...]:
        """Where a natural card may stand in a run: its rank; the ace at 1 and/or 14."""
        r = _rank(cid)
        if r != 1:
            return (r,)
        return tuple(p for p, ok in ((1, self.ace_low), (14, self.ace_high_run)) if ok)

    def run_spans(self, cards: Sequence[int]) -> list[tuple[int, int, int]]:
        """Every reading of ``cards`` as a run: (suit, first position, last position).

        A reading places the natural cards at their positions and the jokers in the gaps
        and at the ends; only the span matters for what may be added to it later.
        """
        naturals = [c for c in cards if c != JOKER_ID]
        jokers = len(cards) - len(naturals)
        if len(cards) < 3 or not naturals or jokers > self.per_meld:
            return []
        suit = _suit(naturals[0])
        if any(_suit(c) != suit for c in naturals):
            return []
        if len(set(naturals)) != len(naturals):  # a rank twice (twins too): not a run
            return []
        spans = []
        aces = [c for c in naturals if _rank(c) == 1]
        others = [_rank(c) for c in naturals if _rank(c) != 1]
        ace_places: list[tuple[int, ...]] = [()]
        if aces:
            ace_places = [(p,) for p in self.positions(aces[0])]
        for places in ace_places:
            pos = sorted(others + list(places))
            lo, hi = pos[0], pos[-1]
            gaps = hi - lo + 1 - len(pos)
            if gaps > jokers:
                continue
            spare = jokers - gaps
            for below in range(spare + 1):
                first, last = lo - below, hi + spare - below
                if first >= self.lowest and last <= self.highest and last - first < 13:
                    spans.append((suit, first, last))
        return spans

    def is_set(self, cards: Sequence[int]) -> bool:
        """3 or 4 cards of one rank, every suit different; jokers within the limit (H4, H5)."""
        naturals = [c for c in cards if c != JOKER_ID]
        jokers = len(cards) - len(naturals)
        if not 3 <= len(cards) <= 4 or not naturals or jokers > self.per_meld:
            return False
        if len({_rank(c) for c in naturals}) != 1:
            return False
        return len({_suit(c) for c in naturals}) == len(naturals)

    def is_meld(self, cards: Sequence[int]) -> bool:
        """A set or a run under this variant's rules."""
        return self.is_set(cards) or bool(self.run_spans(cards))

    def position_value(self, suit: int, position: int) -> int:
        """What the card at a run's position is worth (a joker there counts as it, H5, H8)."""
        return self._values[_card_at(suit, position)]

    def meld_points(self, cards: Sequence[int]) -> int:
        """What a meld is worth toward the opening (H8): each card its value, a joker the
        card it stands for, read the way worth most (the player says what an end joker is).
        0 if the cards are no meld."""
        best = 0
        if self.is_set(cards):
            rank_card = next(c for c in cards if c != JOKER_ID)
            best = self._values[rank_card] * len(cards)
        for suit, first, last in self.run_spans(cards):
            best = max(best, sum(self.position_value(suit, p) for p in range(first, last + 1)))
        return best


# --- the table: what each meld on it may still take -----------------------------------------


@dataclass(frozen=True)
class TableSet:
    """A set on the table: its rank, the suits of its natural cards, its size and jokers."""

    rank: int
    suits: frozenset[int]
    size: int
    jokers: int


@dataclass(frozen=True)
class TableRun:
    """A run on the table: its suit, first and last position, and jokers (each stands for
    one definite card, H5, so the positions are fixed)."""

    suit: int
    first: int
    last: int
    jokers: int


TableMeldInfo = TableSet | TableRun


def table_of(table: Iterable[Any]) -> tuple[TableMeldInfo, ...]:
    """The observation's table (``TableMeld`` s: ``.meld.kind``, ``.cards``,
    ``.represents``) as the facts a lay-off depends on."""
    out: list[TableMeldInfo] = []
    for tm in table:
        meld = tm.meld
        cards = [card_id(c) for c in meld.cards]
        jokers = cards.count(JOKER_ID)
        if meld.kind == "set":
            naturals = [c for c in cards if c != JOKER_ID]
            out.append(
                TableSet(
                    _rank(naturals[0]), frozenset(_suit(c) for c in naturals), len(cards), jokers
                )
            )
        else:
            reps = [card_id(r) for r in meld.represents if r is not None]
            suit = _suit(reps[0])
            ranks = sorted(_rank(c) for c in reps)
            # a run is consecutive: the ace is low when the 2 is there, else high
            if ranks[0] == 1 and 2 not in ranks:
                ranks = sorted([r for r in ranks if r != 1] + [14])
            out.append(TableRun(suit, ranks[0], ranks[-1], jokers))
    return tuple(out)


class Arranger:
    """Least deadwood, best opening and going out for hands under one variant and table.

    ``table`` is the melds on the table (:func:`table_of`); ``lay_off`` whether the seat
    may lay off at all (Hungarian: only once opened, H8; Rommi: always, R5, R6);
    ``need`` the opening points a seat not yet opened must reach with its own melds before
    it may lay off (H8: lay-offs come after the opening, in the same turn) — 0 when it has
    opened or the variant has no opening rule.

    The searches remember every hand they have seen, so asking about many hands that share
    cards (a hand with each unseen card added) costs little more than one.

    >>> from rummykit.variants import ROMMI
    >>> a = Arranger(Rules(ROMMI))
    >>> a.least(ids("5♠ 6♠ 7♠ 5♥ 5♦")), a.least(ids("5♠ 6♠ 7♠ 5♥ 5♦ 5♣"))
    (10, 0)
    """

    def __init__(
        self,
        rules: Rules,
        table: Sequence[TableMeldInfo] = (),
        *,
        lay_off: bool = True,
        need: int = 0,
    ) -> None:
        self.rules = rules
        self.table = tuple(table) if lay_off else ()
        self.need = need
        self._least: dict[tuple[tuple[int, ...], int, int, bool], int] = {}
        self._opening: dict[tuple[int, ...], int] = {}
        self._melds: dict[tuple[int, tuple[int, ...]], list[tuple[int, ...]]] = {}

    # -- the melds and lay-offs a card can be part of

    def melds_with(self, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every meld from ``hand`` (a sorted multiset) that holds ``hand[0]``."""
        c0 = hand[0]
        if c0 == JOKER_ID:  # only jokers left: no meld (a meld needs a natural card)
            return []
        key = (c0, hand)
        found = self._melds.get(key)
        if found is not None:
            return found
        r = self.rules
        have = Counter(hand)
        jokers = min(have[JOKER_ID], r.per_meld)
        out: set[tuple[int, ...]] = set()
        # sets: c0 with other suits of its rank, and jokers
        rank = _rank(c0)
        others = [16 * s + rank for s in range(4) if s != _suit(c0) and have[16 * s + rank]]
        for mask in range(1 << len(others)):
            chosen = [c0] + [others[i] for i in range(len(others)) if mask >> i & 1]
            for j in range(jokers + 1):
                if 3 <= len(chosen) + j <= 4:
                    out.add(tuple(sorted(chosen + [JOKER_ID] * j)))
        # runs in c0's suit through c0's position; each other place a card of the hand or a
        # joker (a joker may stand for a card the hand holds, to free that card, H5)
        suit = _suit(c0)
        for p0 in r.positions(c0):
            below = _extend(
                [_card_at(suit, p) for p in range(p0 - 1, r.lowest - 1, -1)], have, jokers, c0
            )
            above = _extend(
                [_card_at(suit, p) for p in range(p0 + 1, r.highest + 1)], have, jokers, c0
            )
            for low, lcards, lneed in below:
                for high, hcards, hneed in above:
                    size = 1 + low + high
                    if lneed + hneed <= jokers and 3 <= size <= 13:
                        out.add(
                            tuple(sorted([c0, *lcards, *hcards] + [JOKER_ID] * (lneed + hneed)))
                        )
        found = sorted(out)
        self._melds[key] = found
        return found

    def melds_holding(self, hand: Sequence[int], card: int) -> list[tuple[int, ...]]:
        """Every meld from ``hand`` that holds ``card`` (a joker too: with any natural card)."""
        h = tuple(sorted(hand))
        if card != JOKER_ID:
            return self.melds_with(_first(h, card))
        found: set[tuple[int, ...]] = set()
        for c in set(h) - {JOKER_ID}:
            found.update(m for m in self.melds_with(_first(h, c)) if JOKER_ID in m)
        return sorted(found)

    def layoffs_holding(self, hand: Sequence[int], card: int) -> list[tuple[int, tuple[int, ...]]]:
        """Every (table meld, group) lay-off from ``hand`` whose group holds ``card``."""
        first = _first(tuple(sorted(hand)), card)
        return [(i, g) for i in range(len(self.table)) for g in self.layoffs_with(first, i)]

    def least_holding(
        self,
        hand: Sequence[int],
        card: int,
        *,
        need: int | None = None,
        strict: bool = False,
        lay_off: bool = True,
    ) -> int:
        """The least deadwood of ``hand`` with ``card`` in a meld or laid off (``INF`` when
        it can't be). With ``strict``, the melds must also reach ``need`` opening points (a
        card taken from the pile by a seat not opened goes into its opening, H7); without
        ``lay_off``, ``card`` must be in a meld of the hand (the other cards may still be
        laid off)."""
        h = tuple(sorted(hand))
        if need is None:
            need = self.need if self.table or strict else 0
        best = INF
        for meld in self.melds_holding(h, card):
            rest = _remove(h, meld)
            assert rest is not None
            gain = self.rules.meld_points(meld) if need > 0 else 0
            best = min(best, self._search(tuple(sorted(rest)), 0, max(0, need - gain), strict))
        for i, group in self.layoffs_holding(h, card) if lay_off else ():
            rest = _remove(h, group)
            assert rest is not None
            best = min(best, self._search(tuple(sorted(rest)), 1 << i, need, strict))
        return best

    def layoffs_with(self, hand: tuple[int, ...], index: int) -> list[tuple[int, ...]]:
        """Every group of cards from ``hand`` holding ``hand[0]`` that may be laid off onto
        table meld ``index`` (the whole meld legal afterwards, H6, R6)."""
        meld = self.table[index]
        r = self.rules
        c0 = hand[0]
        have = Counter(hand)
        out: set[tuple[int, ...]] = set()
        if isinstance(meld, TableSet):
            room = 4 - meld.size
            free_jokers = min(have[JOKER_ID], r.per_meld - meld.jokers)
            if c0 == JOKER_ID:
                for j in range(1, min(free_jokers, room) + 1):
                    out.add((JOKER_ID,) * j)
                return sorted(out)
            if _rank(c0) != meld.rank or _suit(c0) in meld.suits:
                return []
            others = [
                16 * s + meld.rank
                for s in range(4)
                if s != _suit(c0) and s not in meld.suits and have[16 * s + meld.rank]
            ]
            for mask in range(1 << len(others)):
                chosen = [c0] + [others[i] for i in range(len(others)) if mask >> i & 1]
                for j in range(free_jokers + 1):
                    if len(chosen) + j <= room:
                        out.add(tuple(sorted(chosen + [JOKER_ID] * j)))
            return sorted(out)
        free_jokers = min(have[JOKER_ID], r.per_meld - meld.jokers)
        if c0 != JOKER_ID and _suit(c0) != meld.suit:
            return []

        # extend below and above: each new place a card of the hand or a joker
        below = _extend(
            [_card_at(meld.suit, p) for p in range(meld.first - 1, r.lowest - 1, -1)],
            have,
            free_jokers,
        )
        above = _extend(
            [_card_at(meld.suit, p) for p in range(meld.last + 1, r.highest + 1)],
            have,
            free_jokers,
        )
        length = meld.last - meld.first + 1
        for low, lcards, lneed in below:
            for high, hcards, hneed in above:
                if not low + high or lneed + hneed > free_jokers or length + low + high > 13:
                    continue
                group = tuple(sorted(lcards + hcards + [JOKER_ID] * (lneed + hneed)))
                if c0 in group and _remove(hand, group) is not None:
                    out.add(group)
        return sorted(out)

    # -- least deadwood

    def least(self, hand: Sequence[int], *, discard: bool = False) -> int:
        """The least deadwood of ``hand``: the cards left over when as many points as
        possible are in melds of its own or laid off onto the table (any subset of lay-offs,
        H6, R6; a seat not opened lays off only with an opening of its own, H8). With
        ``discard``, one card is put aside first (the turn's discard), the best one."""
        h = tuple(sorted(hand))
        need = self.need if self.table else 0
        if not discard:
            return self._search(h, 0, need, False)
        return min((self._search(_drop(h, c), 0, need, False) for c in set(h)), default=0)

    def _search(self, hand: tuple[int, ...], used: int, need: int, strict: bool) -> int:
        """The least deadwood of ``hand`` with the table melds in ``used`` already laid off
        onto; ``need`` opening points still to make with melds of its own — required for any
        lay-off, or (``strict``) for the arrangement at all."""
        if not hand:
            return 0 if need <= 0 or (not used and not strict) else INF
        key = (hand, used, need, strict)
        found = self._least.get(key)
        if found is not None:
            return found
        c0 = hand[0]
        best = self.rules.value(c0) + self._search(hand[1:], used, need, strict)
        for meld in self.melds_with(hand):
            rest = _remove(hand, meld)
            assert rest is not None
            gain = self.rules.meld_points(meld) if need > 0 else 0
            best = min(best, self._search(rest, used, max(0, need - gain), strict))
        for i in range(len(self.table)):
            if used >> i & 1:
                continue
            for group in self.layoffs_with(hand, i):
                rest = _remove(hand, group)
                assert rest is not None
                best = min(best, self._search(rest, used | 1 << i, need, strict))
        self._least[key] = best
        return best

    def deadwood_ok(self, hand: Sequence[int], left: Sequence[int]) -> bool:
        """Whether ``left`` can be what is left of ``hand`` with every other card in a meld
        or laid off: the cards named as the deadwood of an arrangement."""
        rest = _remove(tuple(sorted(hand)), left)
        if rest is None:
            return False
        return self._search(tuple(sorted(rest)), 0, self.need if self.table else 0, False) == 0

    # -- the opening

    def best_opening(self, hand: Sequence[int]) -> int:
        """The most opening points (H8) that melds of ``hand`` make together."""
        return self._open(tuple(sorted(hand)))

    def _open(self, hand: tuple[int, ...]) -> int:
        if len(hand) < 3:
            return 0
        found = self._opening.get(hand)
        if found is not None:
            return found
        best = self._open(hand[1:])
        for meld in self.melds_with(hand):
            rest = _remove(hand, meld)
            assert rest is not None
            best = max(best, self.rules.meld_points(meld) + self._open(rest))
        self._opening[hand] = best
        return best

    def opening_with(self, hand: Sequence[int], card: int) -> int:
        """The most opening points of melds of ``hand`` one of which holds ``card``
        (0 if no meld holds it)."""
        h = tuple(sorted(hand))
        best = 0
        for meld in self.melds_holding(h, card):
            rest = _remove(h, meld)
            assert rest is not None
            best = max(best, self.rules.meld_points(meld) + self._open(rest))
        return best

    # -- going out

    def goes_out(self, hand: Sequence[int], *, need: int | None = None) -> bool:
        """Whether ``hand`` can be emptied in one turn: every card melded or laid off, the
        last one by a discard (H12, and R7 with ``discard_to_win``) or, in Rommi, with or
        without a discard (R7). ``need`` is the opening still to make this turn with melds
        of its own (default: this arranger's); a seat not opened opens to go out (H8)."""
        h = tuple(sorted(hand))
        if not h:
            return False
        n = self.need if need is None else need
        if any(self._search(_drop(h, c), 0, n, True) == 0 for c in set(h)):
            return True
        return not self.rules.discard_to_win and self._search(h, 0, n, True) == 0


def _extend(
    places: Sequence[int], have: Counter[int], jokers: int, exclude: int = -1
) -> list[tuple[int, list[int], int]]:
    """Every way to fill the first n of ``places`` (n = 0, 1, …), each place by that card
    from the hand or by a joker, at most ``jokers`` of them: (n, cards, jokers used)."""
    out: list[tuple[int, list[int], int]] = [(0, [], 0)]
    states: list[tuple[list[int], int]] = [([], 0)]
    for n, card in enumerate(places, 1):
        grown: list[tuple[list[int], int]] = []
        for cards, need in states:
            if have[card] and card != exclude:
                grown.append(([*cards, card], need))
            if need < jokers:
                grown.append((cards, need + 1))
        if not grown:
            break
        states = grown
        out += [(n, cards, need) for cards, need in states]
    return out


def _drop(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


def _first(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` with ``card`` moved to the front (so that the melds listed hold it)."""
    rest = list(hand)
    rest.remove(card)
    return (card, *rest)


# --- the public history: what each seat is known to hold, and what is unseen -----------------


@dataclass
class Memory:
    """What the table saw of a round, from the public history.

    ``taken[seat]``: the cards that seat took from the discard pile this round (takes it
    undid are forgotten); ``known[seat]``: the cards it took in full view — from the discard
    pile, the cut card, a joker exchanged off the table — and has not melded, laid off or
    discarded since; ``discarded[seat]``: the cards it discarded this round.
    """

    taken: dict[int, list[int]] = field(default_factory=dict)
    known: dict[int, Counter[int]] = field(default_factory=dict)
    known_from_pile: dict[int, Counter[int]] = field(default_factory=dict)
    discarded: dict[int, list[int]] = field(default_factory=dict)


def _cards_param(value: Any) -> list[int]:
    if isinstance(value, str):
        return [card_id(parse_card(value))]
    return [card_id(parse_card(v)) if isinstance(v, str) else card_id(v) for v in value]


def memory(history: Iterable[Any]) -> Memory:
    """Read the public history (the observation's ``history`` of events) the way a player
    at the table remembers it.

    Within a turn, takes, melds, lay-offs and exchanges are provisional: an ``undo`` takes
    back the last of them, giving back the cut card takes back everything since it was
    taken (H10); the turn's moves count when it ends (a discard, or the round's end).
    """
    mem = Memory()
    pending: list[tuple[int, str, Any]] = []  # (seat, code, params) of the turn in progress

    def commit() -> None:
        for seat, code, params in pending:
            known = mem.known.setdefault(seat, Counter())
            pile = mem.known_from_pile.setdefault(seat, Counter())
            if code == "draw_discard":
                c = _cards_param(params["card"])[0]
                mem.taken.setdefault(seat, []).append(c)
                known[c] += 1
                pile[c] += 1
            elif code == "draw_cut":
                known[_cards_param(params["card"])[0]] += 1
            elif code in ("meld", "layoff"):
                for c in _cards_param(params["cards"]):
                    _forget(known, c)
                    _forget(pile, c)
            elif code == "exchange":
                c = _cards_param(params["card"])[0]
                _forget(known, c)
                _forget(pile, c)
                known[JOKER_ID] += 1
        pending.clear()

    for event in history:
        code, seat, params = event.code, event.seat, event.params
        if code in ("draw_discard", "draw_cut", "meld", "layoff", "exchange"):
            pending.append((seat, code, params))
        elif code == "undo":
            if pending:
                pending.pop()
        elif code == "return_cut":
            while pending:
                if pending.pop()[1] == "draw_cut":
                    break
        elif code == "discard":
            commit()
            c = _cards_param(params["card"])[0]
            mem.discarded.setdefault(seat, []).append(c)
            _forget(mem.known.setdefault(seat, Counter()), c)
            _forget(mem.known_from_pile.setdefault(seat, Counter()), c)
    commit()  # the turn in progress (or the move that ended the round)
    return mem


def _forget(known: Counter[int], card: int) -> None:
    if known[card] > 0:
        known[card] -= 1
        if not known[card]:
            del known[card]


def unseen(obs: Any, rules: Rules, mem: Memory | None = None) -> Counter[int]:
    """The cards ``obs.seat`` has not seen, with copies: the deck less its hand, the discard
    pile, the table, the cut card, and the cards other seats are known to hold (taken in
    full view and not played since)."""
    mem = memory(obs.history) if mem is None else mem
    out = Counter(rules.deck)
    seen: Counter[int] = Counter(card_id(c) for c in obs.hand)
    seen.update(card_id(c) for c in obs.discard_pile)
    for tm in obs.table:
        seen.update(card_id(c) for c in tm.meld.cards)
    if obs.cut_card is not None:
        seen[card_id(obs.cut_card)] += 1
    for seat, known in mem.known.items():
        if seat != obs.seat:
            seen.update(known)
    out.subtract(seen)
    bad = [c for c, n in out.items() if n < 0]
    if bad:
        raise AssertionError(f"more copies seen than the deck holds: {text(bad)}")
    return +out


def iter_cards(counter: Counter[int]) -> Iterator[int]:
    """A multiset's cards, each as often as it holds it, in card order."""
    for c in sorted(counter):
        yield from [c] * counter[c]
