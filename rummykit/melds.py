"""Meld checks that explain themselves: runs, sets, jokers, lay-offs and the opening.

>>> print(check_meld("5♥ 🃏 7♥"))
5♥ 🃏 7♥ is a run of hearts from 5 to 7. (H4) The joker stands for the 6♥. (H5) Worth 18 toward the opening. (H8)
>>> from rummykit import ROMMI
>>> check_meld("A♥ 2♥ 3♥", ROMMI).codes
('ace_low_not_allowed',)
>>> check_meld("🃏 2♥ 3♥").jokers
((Card('A♥'), Card('4♥')),)

Positions in a run go from 1 (an ace below the 2) to 14 (an ace above the king), so the
ace is the only card with two places; a run is a window of consecutive positions that never
holds both 1 and 14.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from rummykit.cards import (
    ACE,
    JOKER,
    KING,
    SUIT_NAMES,
    SUITS,
    Card,
    CardsLike,
    as_cards,
    format_cards,
    rank_name,
)
from rummykit.explain import Reason, Verdict
from rummykit.messages import join, number_word, render
from rummykit.variants import HUNGARIAN, Variant

__all__ = [
    "IllegalMeld",
    "Meld",
    "check_layoff",
    "check_meld",
    "check_opening",
    "layoff_readings",
    "make_meld",
    "meld_layouts",
    "meld_readings",
]

HIGH_ACE = 14
_RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"}


class IllegalMeld(ValueError):
    """Cards that do not form a valid meld (the :class:`Verdict` says why)."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        super().__init__(str(verdict))


def _position_card(position: int, suit: str) -> Card:
    return Card(ACE if position == HIGH_ACE else position, suit)


def _positions(card: Card) -> tuple[int, ...]:
    return (ACE, HIGH_ACE) if card.rank == ACE else (card.rank,)


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld as it lies on the table.

    ``cards`` are in table order (a run from low to high, a set in suit order, jokers in
    place); ``represents`` says, position by position, which card each stands for — for a
    joker the card it represents, or ``None`` for a joker in a set of three, which stands
    for "one of the missing suits" (H5).

    >>> meld = make_meld("7♥ 5♥ 🃏")
    >>> meld
    make_meld('5♥ 🃏 7♥')
    >>> meld.kind, meld.represents[1], meld.points(HUNGARIAN)
    ('run', Card('6♥'), 18)
    """

    kind: str
    cards: tuple[Card, ...]
    represents: tuple[Card | None, ...]
    start: int = 0  # runs: position of the first card (1 = low ace, 14 = high ace)

    @property
    def suit(self) -> str:
        """A run's suit ('' for a set)."""
        return next((c.suit for c in self.represents if c is not None), "") if self.is_run else ""

    @property
    def rank(self) -> int:
        """A set's rank (0 for a run)."""
        return next(c.rank for c in self.cards if not c.is_joker) if not self.is_run else 0

    @property
    def is_run(self) -> bool:
        """Whether this meld is a run."""
        return self.kind == "run"

    @property
    def end(self) -> int:
        """A run's last position (0 for a set)."""
        return self.start + len(self.cards) - 1 if self.is_run else 0

    @property
    def joker_choices(self) -> tuple[tuple[Card, ...], ...]:
        """For each joker, every card it may stand for (one, unless a set's suit is open)."""
        out = []
        for card, rep in zip(self.cards, self.represents, strict=False):
            if card.is_joker:
                out.append((rep,) if rep is not None else self.missing_suits())
        return tuple(out)

    def missing_suits(self) -> tuple[Card, ...]:
        """A set's missing cards: the suits of its rank not yet in it."""
        present = {c.suit for c in self.cards if not c.is_joker}
        present |= {c.suit for c in self.represents if c is not None}
        return tuple(Card(self.rank, s) for s in SUITS if s not in present)

    def points(self, variant: Variant = HUNGARIAN) -> int:
        """Value toward the opening: each card, a joker as the card it stands for (H8)."""
        total = 0
        for card, rep in zip(self.cards, self.represents, strict=False):
            if rep is None:  # set joker: worth the set's rank
                rep = Card(self.rank, SUITS[0])
            total += variant.card_value(rep if card.is_joker else card)
        return total

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        """A call that makes this meld again: ``make_meld('2♥ 3♥ 🃏', joker_as='4♥')``."""
        ends = (self.cards[0], self.cards[-1]) if self.is_run else ()
        if any(c.is_joker for c in ends):
            joker = next(r for c, r in zip(self.cards, self.represents) if c.is_joker)
            return f"make_meld('{self}', joker_as='{joker}')"
        return f"make_meld('{self}')"

    def _repr_html_(self) -> str:
        from rummykit.display import cards_html

        return cards_html(self.cards)


# --- reading a meld --------------------------------------------------------------------


def _run_windows(
    ranks: Sequence[int], jokers: int, variant: Variant | None
) -> list[tuple[int, ...]]:
    """Every window of run positions that holds these distinct ranks plus ``jokers`` fillers.

    With ``variant`` None the ace may stand at either end (used to diagnose).
    Each window is returned as the tuple of positions of its natural cards (ace placed).
    """
    n = len(ranks) + jokers
    if n > 13 or not ranks:
        return []
    low_ok = variant is None or variant.ace_low
    high_ok = variant is None or variant.ace_above_king
    placements: list[tuple[int, ...]] = []
    has_ace = ACE in ranks
    others = tuple(r for r in ranks if r != ACE)
    placements = [(ACE, *others), (*others, HIGH_ACE)] if has_ace else [tuple(ranks)]
    windows: list[tuple[int, ...]] = []
    for placed in placements:
        lo, hi = min(placed), max(placed)
        if hi - lo + 1 > n:
            continue
        for start in range(max(1, hi - n + 1), min(lo, HIGH_ACE - n + 1) + 1):
            stop = start + n - 1
            if start == 1 and stop == HIGH_ACE:
                continue
            if (start == 1 and not low_ok) or (stop == HIGH_ACE and not high_ok):
                continue
            windows.append((start, *placed))
    return windows


def meld_readings(cards: CardsLike, variant: Variant = HUNGARIAN) -> tuple[Meld, ...]:
    """Every way these cards form a valid meld (one per joker meaning), best value first.

    >>> meld_readings("🃏 2♥ 3♥")
    (make_meld('🃏 2♥ 3♥', joker_as='A♥'), make_meld('2♥ 3♥ 🃏', joker_as='4♥'))
    >>> meld_readings("K♠ A♠ 2♠")
    ()
    """
    cards = as_cards(cards)
    if _general_failures(cards, variant):
        return ()
    return _readings(cards, variant)


def meld_layouts(cards: CardsLike, variant: Variant = HUNGARIAN) -> tuple[Meld, ...]:
    """Like :func:`meld_readings`, but A-2-…-K and 2-…-K-A count as two layouts.

    >>> [m.start for m in meld_layouts("A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥")]
    [1, 2]
    """
    cards = as_cards(cards)
    if _general_failures(cards, variant):
        return ()
    return _readings(cards, variant, every_layout=True)


def _readings(
    cards: tuple[Card, ...], variant: Variant | None, *, every_layout: bool = False
) -> tuple[Meld, ...]:
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    out: list[Meld] = []
    ranks = {c.rank for c in naturals}
    suits = {c.suit for c in naturals}
    # a set: one rank, distinct suits, at most four cards
    if len(ranks) == 1 and len(suits) == len(naturals) and len(cards) <= 4 and naturals:
        out.extend(_set_readings(naturals, jokers))
    # a run: one suit, distinct ranks
    if len(suits) == 1 and len(ranks) == len(naturals) and naturals:
        suit = naturals[0].suit
        for start, *placed in _run_windows(sorted(ranks), jokers, variant):
            n = len(cards)
            slots = [_position_card(p, suit) for p in range(start, start + n)]
            by_pos = set(placed)
            laid = tuple(
                s if p in by_pos else JOKER
                for p, s in zip(range(start, start + n), slots, strict=False)
            )
            out.append(Meld("run", laid, tuple(slots), start))
    value = variant or HUNGARIAN
    out.sort(key=lambda m: -m.points(value))
    unique: dict[tuple[str, ...], Meld] = {}
    for meld in out:  # A-2-…-K and 2-…-K-A are one meld (a lay-off may need either)
        key = (meld.kind, *sorted(str(c) for c in meld.represents))
        if every_layout:
            key = (*key, str(meld.start))
        unique.setdefault(key, meld)
    return tuple(unique.values())


def _set_readings(naturals: list[Card], jokers: int) -> list[Meld]:
    ordered = sorted(naturals, key=Card.sort_key)
    rank = ordered[0].rank
    missing = [Card(rank, s) for s in SUITS if s not in {c.suit for c in ordered}]
    represents: list[Card | None] = list(ordered)
    if jokers == 0:
        return [Meld("set", tuple(ordered), tuple(represents))]
    if len(missing) == jokers:  # a full set: the jokers stand for the missing suits exactly
        return [Meld("set", (*ordered, *[JOKER] * jokers), (*represents, *missing))]
    return [Meld("set", (*ordered, *[JOKER] * jokers), (*represents, *[None] * jokers))]


def make_meld(
    cards: CardsLike, variant: Variant = HUNGARIAN, joker_as: Card | str | None = None
) -> Meld:
    """The meld these cards form, or :class:`IllegalMeld` saying why not.

    When a joker's place is open (``🃏 2♥ 3♥``), say which card it is with ``joker_as``;
    without it the highest-valued reading is taken.

    >>> make_meld("🃏 2♥ 3♥", joker_as="4♥")
    make_meld('2♥ 3♥ 🃏', joker_as='4♥')
    """
    cards = as_cards(cards)
    readings = meld_readings(cards, variant)
    if joker_as is not None:
        target = as_cards(joker_as)[0]
        readings = tuple(m for m in readings if target in _joker_cards(m))
    if not readings:
        raise IllegalMeld(check_meld(cards, variant))
    return readings[0]


def _joker_cards(meld: Meld) -> set[Card]:
    return {c for options in meld.joker_choices for c in options}


# --- explaining ----------------------------------------------------------------------


def _reason(
    rules: Variant,
    code: str,
    at_fault: Iterable[Card],
    topic: str = "meld",
    /,
    **params: object,
) -> Reason:
    return Reason(code, rules.rule(topic), tuple(at_fault), params, True, None)


def _info(rules: Variant, code: str, topic: str | None = "meld", /, **params: object) -> Reason:
    return Reason(code, rules.rule(topic) if topic else None, (), params, False, None)


def _general_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    """Faults whatever the cards were meant to be: size, deck, jokers."""
    out: list[Reason] = []
    jokers = tuple(c for c in cards if c.is_joker)
    if not cards:
        out.append(
            Reason("too_few_cards", variant.rule("meld"), (), {}, True, "too_few_cards_none")
        )
    elif len(cards) < 3:
        out.append(
            _reason(
                variant, "too_few_cards", cards, cards=cards, count_word=number_word(len(cards))
            )
        )
    counts = Counter(cards)
    for card, count in counts.items():
        if count > variant.copies(card) and not (card.is_joker and variant.jokers == 0):
            code = "not_in_deck"
            out.append(
                Reason(
                    code,
                    variant.rule("deck"),
                    (card,) * count,
                    {
                        "variant": str(variant),
                        "decks_word": variant.decks_word,
                        "is_are": "is" if variant.copies(card) == 1 else "are",
                        "copies_word": number_word(variant.copies(card)),
                        "card": card,
                        "count_word": number_word(count),
                    },
                    True,
                    "not_in_deck_joker" if card.is_joker else None,
                )
            )
    if jokers and (variant.jokers == 0 or variant.jokers_per_meld == 0):
        out.append(
            _reason(
                variant, "jokers_not_allowed", jokers, "joker", variant=str(variant), cards=jokers
            )
        )
    elif len(jokers) > variant.jokers_per_meld:
        out.append(
            _reason(
                variant,
                "too_many_jokers",
                jokers,
                "joker",
                cards=cards,
                count_word=number_word(len(jokers)),
                limit_word=number_word(variant.jokers_per_meld),
            )
        )
    return out


def _times(count: int) -> str:
    """``twice``, ``three times`` …"""
    return "twice" if count == 2 else f"{number_word(count)} times"


def _run_span(variant: Variant) -> str:
    """The longest runs the variant allows, in words."""
    spans = []
    if variant.ace_low:
        spans.append("from A to K")
    if variant.ace_above_king:
        spans.append("from 2 to A")
    return join(spans) or "from 2 to K"


def _rank_phrase(rank: int, plural: bool) -> str:
    """``a 9``, ``an 8``, ``an ace``; plural ``9s``, ``aces``."""
    word = _RANK_WORDS.get(rank, str(rank))
    if plural:
        return f"{word}s"
    return f"{'an' if word in ('ace', '8') else 'a'} {word}"


def _set_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    naturals = [c for c in cards if not c.is_joker]
    out: list[Reason] = []
    if not naturals:
        return out
    counts = Counter(c.rank for c in naturals)
    # the rank the set is read as: most cards, then most suits, then the lower rank — never
    # the input order, so the explanation does not change when the cards are reordered
    rank = max(
        counts, key=lambda r: (counts[r], len({c.suit for c in naturals if c.rank == r}), -r)
    )
    wrong = tuple(c for c in naturals if c.rank != rank)
    if wrong:
        many = len(wrong) > 1
        out.append(
            Reason(
                "set_rank_mismatch",
                variant.rule("meld"),
                wrong,
                {"cards": wrong, "rank_phrase": _rank_phrase(rank, many)},
                True,
                "set_rank_mismatch_many" if many else None,
            )
        )
    for card, count in Counter(c for c in naturals if c.rank == rank).items():
        if count > 1:
            out.append(
                _reason(variant, "identical_cards", (card,) * count, card=card, times=_times(count))
            )
    if len(cards) > 4:
        out.append(
            _reason(
                variant, "set_too_large", cards, cards=cards, count_word=number_word(len(cards))
            )
        )
    return out


def _describe_missing(positions: Sequence[int], suit: str) -> str:
    names = [f"the {_position_card(p, suit)}" for p in positions]
    if len(names) > 3:
        return f"{len(names)} cards, {names[0]} to {names[-1]}"
    return join(names, "and")


def _run_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    out: list[Reason] = []
    if not naturals:
        return out
    suit_counts = Counter(c.suit for c in naturals)
    # the suit the run is read in: most cards, then most ranks, then suit order (not input order)
    suit = max(
        suit_counts,
        key=lambda s: (
            suit_counts[s],
            len({c.rank for c in naturals if c.suit == s}),
            -SUITS.index(s),
        ),
    )
    wrong = tuple(c for c in naturals if c.suit != suit)
    if wrong:
        many = len(wrong) > 1
        noun = SUIT_NAMES[suit][:-1]
        out.append(
            Reason(
                "run_suit_mismatch",
                variant.rule("meld"),
                wrong,
                {"cards": wrong, "suit_phrase": f"{noun}s" if many else f"a {noun}"},
                True,
                "run_suit_mismatch_many" if many else None,
            )
        )
    same_suit = [c for c in naturals if c.suit == suit]
    for card, count in Counter(same_suit).items():
        if count > 1:
            out.append(
                Reason(
                    "run_duplicate_rank",
                    variant.rule("meld"),
                    (card,) * count,
                    {"card": card, "times": _times(count)},
                    True,
                    "run_duplicate_ace" if card.rank == ACE else None,
                )
            )
    ranks = sorted({c.rank for c in naturals})
    n = len(ranks) + jokers
    if _run_windows(ranks, jokers, variant):
        return out
    if n > 13:
        out.append(
            _reason(
                variant,
                "run_too_long",
                cards,
                cards=cards,
                count=n,
                limit=13,
                span=_run_span(variant),
            )
        )
        return out
    # Would it fit if the ace could stand anywhere (but no wrap)?
    free = _run_windows(ranks, jokers, None)
    if free:
        out.extend(_ace_failures(cards, ranks, jokers, suit, free, variant))
        return out
    wrap = _wrap_window(ranks, jokers)
    if wrap is not None:
        joker_ace = ACE not in ranks
        params: dict[str, object] = {
            "cards": cards,
            "ace_places": _ace_places(variant),
            "between": "them"
            if variant.ace_low and variant.ace_above_king
            else "the king and the 2",
        }
        if joker_ace:
            params["stands_for"] = Card(ACE, suit)
            params["shape"] = "-".join(rank_name(r) for r in wrap)
        out.append(
            Reason(
                "run_wraps",
                variant.rule("meld"),
                cards,
                params,
                True,
                "run_wraps_joker" if joker_ace else None,
            )
        )
        return out
    out.append(_gap_reason(cards, ranks, jokers, suit, variant))
    return out


def _ace_places(variant: Variant) -> str:
    places = []
    if variant.ace_low:
        places.append("below the 2 (A-2-3)")
    if variant.ace_above_king:
        places.append("above the king (Q-K-A)")
    return join(places) if places else "nowhere in a run"


def _ace_failures(
    cards: tuple[Card, ...],
    ranks: list[int],
    jokers: int,
    suit: str,
    windows: list[tuple[int, ...]],
    variant: Variant,
) -> list[Reason]:
    out = []
    n = len(ranks) + jokers
    natural_ace = ACE in ranks
    for code, position, allowed in (
        ("ace_low_not_allowed", ACE, variant.ace_low),
        ("ace_high_not_allowed", HIGH_ACE, variant.ace_above_king),
    ):
        if allowed:
            continue
        if not any(w[0] <= position <= w[0] + n - 1 for w in windows):
            continue
        at_fault = (
            tuple(c for c in cards if c.rank == ACE)
            if natural_ace
            else tuple(c for c in cards if c.is_joker)
        )
        params: dict[str, object] = {"cards": cards, "variant": str(variant)}
        if not natural_ace:
            params["stands_for"] = Card(ACE, suit)
        out.append(
            Reason(
                code,
                variant.rule("meld"),
                at_fault,
                params,
                True,
                None if natural_ace else f"{code}_joker",
            )
        )
    return out


def _wrap_window(ranks: list[int], jokers: int) -> tuple[int, ...] | None:
    """A cyclic window through K-A-2 holding these ranks, if there is one (a wrap)."""
    n = len(ranks) + jokers
    for start in range(1, 14):
        window = tuple((start - 1 + i) % 13 + 1 for i in range(n))
        if {KING, ACE, 2} <= set(window) and set(ranks) <= set(window):
            return window
    return None


def _gap_reason(
    cards: tuple[Card, ...], ranks: list[int], jokers: int, suit: str, variant: Variant
) -> Reason:
    placements = [tuple(ranks)]
    if ACE in ranks:
        others = [r for r in ranks if r != ACE]
        placements = [(ACE, *others), (*others, HIGH_ACE)]
    best: list[int] | None = None
    for placed in placements:
        missing = [p for p in range(min(placed), max(placed) + 1) if p not in placed]
        if best is None or len(missing) < len(best):
            best = missing
    missing_cards = best or []
    params: dict[str, object] = {"cards": cards, "missing": _describe_missing(missing_cards, suit)}
    if jokers:
        params["jokers_phrase"] = "one joker" if jokers == 1 else f"{number_word(jokers)} jokers"
    return Reason(
        "run_gap",
        variant.rule("meld"),
        cards,
        params,
        True,
        "run_gap_joker" if jokers else None,
    )


def check_meld(cards: CardsLike, variant: Variant = HUNGARIAN) -> Verdict:
    """Is this a valid meld, and why (or why not)?

    Accepts ``"K♠ A♠ 2♠"``, ``"Ks As 2s"`` or cards; order does not matter.

    >>> verdict = check_meld("9♠ 9♠ 9♥")
    >>> verdict.ok, verdict.codes
    (False, ('identical_cards',))
    >>> check_meld("5♥ 🃏 🃏").codes
    ('too_many_jokers',)
    >>> check_meld("Q♥ K♥ A♥", HUNGARIAN.derive(ace_above_king=False)).codes
    ('ace_high_not_allowed',)
    """
    cards = as_cards(cards)
    general = _general_failures(cards, variant)
    readings = () if general else _readings(cards, variant)
    if readings:
        return _valid_verdict(cards, readings, variant)
    naturals = [c for c in cards if not c.is_joker]
    one_rank = len({c.rank for c in naturals}) == 1 and len(naturals) >= 2
    one_suit = len({c.suit for c in naturals}) == 1
    specific: list[Reason] = []
    if one_rank:
        specific = _set_failures(cards, variant)
    elif one_suit:
        specific = _run_failures(cards, variant)
    else:
        specific = _set_failures(cards, variant) + _run_failures(cards, variant)
    if not general and not specific:  # shape is fine but the checks above disagree: explain
        specific = _set_failures(cards, variant) or _run_failures(cards, variant)
    reasons = [
        Reason("meld_invalid", None, (), {"cards": cards, "variant": str(variant)}, False),
        *general,
        *specific,
    ]
    return Verdict(tuple(reasons), cards, None, None, (), variant.name)


def _valid_verdict(
    cards: tuple[Card, ...], readings: tuple[Meld, ...], variant: Variant
) -> Verdict:
    first = readings[0]
    kinds = {m.kind for m in readings}
    kind = first.kind
    joker_count = sum(1 for c in cards if c.is_joker)
    choices: list[tuple[Card, ...]] = []
    for i in range(joker_count):
        seen: dict[Card, None] = {}
        for m in readings:
            if m.kind == kind:
                for c in m.joker_choices[i]:
                    seen.setdefault(c, None)
        choices.append(tuple(seen))
    single = len([m for m in readings if m.kind == kind]) == 1
    shown = first.cards if single else cards
    reasons: list[Reason] = []
    if kind == "run":
        low, high = first.represents[0], first.represents[-1]
        if single:
            reasons.append(
                _info(
                    variant,
                    "valid_run",
                    cards=shown,
                    suit_name=SUIT_NAMES[first.suit],
                    low=rank_name(low.rank) if low else "",
                    high=rank_name(high.rank) if high else "",
                )
            )
        else:
            reasons.append(
                _info(variant, "valid_run_open", cards=shown, suit_name=SUIT_NAMES[first.suit])
            )
    else:
        reasons.append(
            _info(variant, "valid_set", cards=shown, rank_plural=_rank_phrase(first.rank, True))
        )
    for options in choices:
        names = [f"the {c}" for c in options]
        if kind == "set":
            code = "joker_in_set" if len(options) == 1 else "joker_in_set_one_of"
            reasons.append(
                _info(
                    variant,
                    code,
                    "joker",
                    choices=join(names) if len(options) > 1 else str(options[0]),
                )
            )
        elif len(options) == 1:
            reasons.append(_info(variant, "joker_is", "joker", stands_for=options[0]))
        else:
            worth = [f"the {c} (worth {variant.card_value(c)})" for c in options]
            reasons.append(_info(variant, "joker_is_one_of", "joker", choices=join(worth)))
    if "set" in kinds and "run" in kinds:
        pass  # only possible with house rules allowing several jokers; the kind shown is the first
    points = first.points(variant)
    if variant.opening_threshold:
        values = sorted({m.points(variant) for m in readings if m.kind == kind}, reverse=True)
        if len(values) == 1:
            reasons.append(_info(variant, "meld_value", "opening", points=points))
        else:
            parts = [
                render("value_as", points=m.points(variant), cards=m.represents)
                for m in readings
                if m.kind == kind
            ]
            reasons.append(_info(variant, "meld_value_readings", "opening", choices=join(parts)))
    return Verdict(
        tuple(reasons),
        shown,
        kind,
        points,
        tuple(choices),
        variant.name,
        {"readings": readings},
    )


# --- lay-offs --------------------------------------------------------------------------

MeldLike: TypeAlias = "Meld | CardsLike"


def _as_meld(meld: MeldLike, variant: Variant) -> Meld:
    if isinstance(meld, Meld):
        return meld
    return make_meld(meld, variant)


def layoff_readings(meld: Meld, cards: CardsLike, variant: Variant = HUNGARIAN) -> tuple[Meld, ...]:
    """Every meld that ``meld`` becomes with ``cards`` added, keeping its kind and its jokers.

    >>> layoff_readings(make_meld("4♥ 5♥ 6♥"), "7♥")
    (make_meld('4♥ 5♥ 6♥ 7♥'),)
    """
    added = as_cards(cards)
    combined = (*meld.cards, *added)
    if not added or _general_failures(combined, variant):
        return ()
    readings = _readings(combined, variant, every_layout=True)
    return tuple(m for m in readings if _extends(meld, m))


def _extends(old: Meld, new: Meld) -> bool:
    """Whether ``new`` keeps ``old``'s kind and what each of its jokers stands for."""
    if old.kind != new.kind:
        return False
    if old.kind == "run":
        old_jokers = [
            rep for card, rep in zip(old.cards, old.represents, strict=False) if card.is_joker
        ]
        new_jokers = {
            rep for card, rep in zip(new.cards, new.represents, strict=False) if card.is_joker
        }
        return all(rep in new_jokers for rep in old_jokers) and (
            old.start >= new.start and old.end <= new.end
        )
    # a set: a joker whose suit was fixed stays fixed
    fixed = [
        rep for card, rep in zip(old.cards, old.represents, strict=False) if card.is_joker and rep
    ]
    naturals = {c for c in new.cards if not c.is_joker}
    return not any(rep in naturals for rep in fixed)


def check_layoff(meld: MeldLike, cards: CardsLike, variant: Variant = HUNGARIAN) -> Verdict:
    """May these cards go onto this meld on the table (R6, H8)?

    >>> print(check_layoff("4♥ 5♥ 6♥", "7♥"))
    7♥ fits onto 4♥ 5♥ 6♥, making 4♥ 5♥ 6♥ 7♥. (H4)
    >>> check_layoff("9♠ 9♥ 9♦", "10♦").codes
    ('set_rank_mismatch',)
    """
    try:
        base = _as_meld(meld, variant)
    except IllegalMeld as bad:
        head = Reason("layoff_not_a_meld", None, (), {"meld": bad.verdict.cards}, False)
        return Verdict((head, *bad.verdict.failures), bad.verdict.cards, variant=variant.name)
    added = as_cards(cards)
    if not added:
        return Verdict(
            (_reason(variant, "layoff_no_cards", (), "layoff", meld=base.cards),),
            (),
            None,
            None,
            (),
            variant.name,
        )
    readings = layoff_readings(base, added, variant)
    if readings:
        result = readings[0]
        reasons = [
            _info(
                variant,
                "layoff_ok",
                cards=added,
                fit="fits" if len(added) == 1 else "fit",
                meld=base.cards,
                result=result.cards,
            )
        ]
        choices = result.joker_choices
        return Verdict(
            tuple(reasons),
            result.cards,
            result.kind,
            result.points(variant),
            choices,
            variant.name,
            {"readings": readings},
        )
    combined = (*base.cards, *added)
    plain = check_meld(combined, variant)
    failures: list[Reason]
    if plain.ok:  # valid as cards, but not as this meld grown
        moved = [
            rep
            for card, rep in zip(base.cards, base.represents, strict=False)
            if card.is_joker and rep
        ]
        if base.kind != plain.kind:
            failures = [
                _reason(
                    variant,
                    "layoff_changes_kind",
                    added,
                    "layoff",
                    cards=added,
                    meld=base.cards,
                    kind=base.kind,
                )
            ]
        else:
            failures = [
                _reason(
                    variant,
                    "layoff_moves_joker",
                    added,
                    "joker",
                    cards=added,
                    meld=base.cards,
                    stands_for=moved[0] if moved else JOKER,
                )
            ]
    else:
        kind_failures = _set_failures if base.kind == "set" else _run_failures
        failures = _general_failures(combined, variant) + kind_failures(combined, variant)
        failures = failures or list(plain.failures)
    reasons = [
        Reason("layoff_invalid", None, (), {"cards": added, "meld": base.cards}, False),
        *failures,
    ]
    return Verdict(tuple(reasons), combined, None, None, (), variant.name)


# --- the opening -----------------------------------------------------------------------


def check_opening(melds: Iterable[MeldLike], variant: Variant = HUNGARIAN) -> Verdict:
    """Do these new melds make an opening (H8)? Each meld's value, the total, what is missing.

    >>> print(check_opening(["3♣ 4♣ 5♣", "8♦ 8♠ 8♥"]))
    3♣ 4♣ 5♣: 12. 8♠ 8♥ 8♦: 24. Your melds total 36; opening needs 51 — 15 more. Add a meld, or take these back. (H8)
    >>> check_opening(["7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣"]).points
    84
    """
    reasons: list[Reason] = []
    total = 0
    used: Counter[Card] = Counter()
    built: list[Meld] = []
    for item in melds:
        if isinstance(item, Meld):
            meld = item
        else:
            cards = as_cards(item)
            readings = meld_readings(cards, variant)
            if not readings:
                verdict = check_meld(cards, variant)
                reasons.append(_reason(variant, "opening_bad_meld", cards, meld=cards))
                reasons.extend(verdict.failures)
                continue
            meld = readings[0]
        built.append(meld)
        used.update(meld.cards)
        points = meld.points(variant)
        total += points
        reasons.append(_info(variant, "opening_meld_value", None, meld=meld.cards, points=points))
    for card, count in used.items():
        if count > variant.copies(card):
            reasons.append(
                _reason(
                    variant,
                    "opening_card_reused",
                    (card,),
                    "deck",
                    card=card,
                    count_word=number_word(count),
                    variant=str(variant),
                    copies_word=number_word(variant.copies(card)),
                )
            )
    threshold = variant.opening_threshold
    if not built and not reasons:
        reasons.append(_reason(variant, "opening_none", (), "opening"))
    elif not threshold:
        reasons.append(_info(variant, "opening_not_required", "opening", variant=str(variant)))
    elif total >= threshold and not any(r.failing for r in reasons):
        reasons.append(
            _info(variant, "opening_total_ok", "opening", total=total, threshold=threshold)
        )
    elif total < threshold:
        reasons.append(
            _reason(
                variant,
                "opening_short",
                (),
                "opening",
                total=total,
                threshold=threshold,
                missing=threshold - total,
            )
        )
    return Verdict(
        tuple(reasons),
        tuple(c for m in built for c in m.cards),
        None,
        total,
        (),
        variant.name,
        {"melds": tuple(built), "total": total, "missing": max(0, threshold - total)},
    )
