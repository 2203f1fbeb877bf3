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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Literal, TypeAlias

from rummykit.cards import (
    ACE,
    HIGH_ACE,
    JOKER,
    KING,
    SUIT_CODES,
    SUITS,
    Card,
    CardsLike,
    Rank,
    as_cards,
    card_at,
    format_cards,
    rank_name,
)
from rummykit.explain import Reason, Verdict, VerdictError, cite
from rummykit.messages import TEMPLATES, join, number_word, render
from rummykit.variants import HUNGARIAN, Variant
from rummykit.variants import variant as named_variant

__all__ = [
    "MELD_KINDS",
    "IllegalMeld",
    "JokerAs",
    "Meld",
    "MeldKind",
    "MeldSum",
    "check_layoff",
    "check_meld",
    "check_opening",
    "joker_meanings",
    "layoff_readings",
    "make_meld",
    "meld_layouts",
    "meld_readings",
    "reading_phrase",
    "readings_with",
    "variant_words",
]


class IllegalMeld(VerdictError):
    """Cards that do not form a valid meld (the :class:`Verdict` says why)."""


MeldKind = Literal["set", "run"]
"""A meld's kind: a set (same rank, different suits) or a run (same suit, in sequence)."""
MELD_KINDS: tuple[MeldKind, ...] = ("set", "run")


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

    kind: MeldKind
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
        reps = [r for c, r in zip(self.cards, self.represents, strict=False) if c.is_joker]
        named: list[Card] = []
        if self.is_run and (len(reps) > 1 or self.cards[0].is_joker or self.cards[-1].is_joker):
            named = [r for r in reps if r is not None]
        elif not self.is_run and len(reps) > 1:  # name the suits, or a run may be meant
            named = [r for r in reps if r is not None] or list(self.missing_suits()[: len(reps)])
        if not named:
            return f"make_meld('{self}')"
        if len(named) == 1:
            return f"make_meld('{self}', joker_as='{named[0]}')"
        return f"make_meld('{self}', joker_as=({', '.join(repr(str(c)) for c in named)}))"

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
            slots = [card_at(p, suit) for p in range(start, start + n)]
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


JokerAs: TypeAlias = "Card | str | Sequence[Card | str] | None"
"""What a player says the jokers stand for: one card, or one card per joker."""


def joker_meanings(joker_as: JokerAs) -> tuple[Card, ...]:
    """The cards named in a ``joker_as``: one card, a text of cards, or a sequence of them.

    >>> joker_meanings("4♥"), joker_meanings(("6♥", "7♥"))
    ((Card('4♥'),), (Card('6♥'), Card('7♥')))
    """
    if joker_as is None:
        return ()
    if isinstance(joker_as, (Card, str)):
        return as_cards(joker_as)
    return tuple(card for item in joker_as for card in as_cards(item))


def readings_with(readings: Iterable[Meld], joker_as: JokerAs) -> tuple[Meld, ...]:
    """The readings in which the jokers can stand for the cards named, one joker each.

    Jokers are alike, so the order of the names does not matter; naming fewer cards than
    there are jokers leaves the other jokers open.

    >>> readings = meld_readings("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2))
    >>> [m.kind for m in readings_with(readings, ("J♥", "Q♥"))]
    ['run']
    >>> [m.kind for m in readings_with(readings, "K♠")]
    ['set']
    """
    readings = tuple(readings)
    wanted = joker_meanings(joker_as)
    if not wanted:
        return readings
    return tuple(m for m in readings if _can_mean(m, wanted))


def _can_mean(meld: Meld, wanted: tuple[Card, ...]) -> bool:
    options = meld.joker_choices
    if len(wanted) > len(options) or len(set(wanted)) < len(wanted):
        return False
    return any(
        all(card in options[j] for card, j in zip(wanted, chosen, strict=True))
        for chosen in permutations(range(len(options)), len(wanted))
    )


def make_meld(cards: CardsLike, variant: Variant = HUNGARIAN, joker_as: JokerAs = None) -> Meld:
    """The meld these cards form, or :class:`IllegalMeld` saying why not.

    When a joker's place is open (``🃏 2♥ 3♥``), say which card it is with ``joker_as``:
    one card, or one card per joker (``joker_as=("J♥", "Q♥")``); without it the
    highest-valued reading is taken.

    >>> make_meld("🃏 2♥ 3♥", joker_as="4♥")
    make_meld('2♥ 3♥ 🃏', joker_as='4♥')
    >>> make_meld("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2), joker_as=("J♥", "Q♥"))
    make_meld('🃏 🃏 K♥', joker_as=('J♥', 'Q♥'))
    """
    cards = as_cards(cards)
    readings = meld_readings(cards, variant)
    chosen = readings_with(readings, joker_as)
    if chosen:
        return chosen[0]
    if not readings:
        raise IllegalMeld(check_meld(cards, variant))
    wanted = joker_meanings(joker_as)
    if not any(c.is_joker for c in cards):
        mismatch = _reason(variant, "joker_as_no_joker", wanted, cards=cards, card=wanted[0])
    else:
        mismatch = _reason(
            variant,
            "joker_as_mismatch",
            wanted,
            cards=cards,
            wanted=_jokers_phrase(wanted),
            choices=join([reading_phrase(m) for m in readings]),
        )
    raise IllegalMeld(Verdict((mismatch,), cards, variant=variant.name))


# --- explaining ----------------------------------------------------------------------

#: Each rulebook's word for a set: R3 (and the Finnish source) says *group*.
_SET_WORDS = {"H": "kind_set", "R": "kind_group"}
#: The house rules that change where an ace may stand, how many jokers a meld holds, and
#: what cards are worth toward the opening.
_PLACES = ("ace_low", "ace_above_king")
_JOKERS = ("jokers_per_meld",)
_VALUES = ("ace_points", "ace_high", "face_points")
#: House rules that switch a part of the game on or off (named by the referee).
_SWITCHES = ("discard_to_win", "cut_card", "joker_exchange")


def _set_word(variant: Variant) -> str:
    return render(_SET_WORDS.get(variant.rulebook, "kind_set"))


def _kind_word(kind: str, variant: Variant) -> str:
    return _set_word(variant) if kind == "set" else render("kind_run")


@lru_cache(maxsize=64)
def _house_rules(variant: Variant) -> frozenset[str]:
    """The options in which a variant differs from its built-in one (asked once per variant)."""
    return frozenset(variant.changes())


def _house(variant: Variant, options: Sequence[str]) -> bool:
    """Whether any of these options is a house rule (differs from the built-in variant)."""
    changed = _house_rules(variant)
    return any(name in changed for name in options)


def _cite(variant: Variant, code: str, options: Sequence[str] = ()) -> str | None:
    """The rule a code cites — none when a house rule among ``options`` decides instead."""
    return None if _house(variant, options) else cite(code, variant)


def _house_phrase(variant: Variant, name: str) -> str:
    if name in (*_PLACES, *_SWITCHES):
        return render(f"house_{name}_{'on' if getattr(variant, name) else 'off'}")
    if name == "jokers_per_meld":
        n = variant.jokers_per_meld
        if n < 2:
            return render("house_jokers_per_meld_none" if n == 0 else "house_jokers_per_meld_one")
        return render("house_jokers_per_meld", count_word=number_word(n))
    if name == "opening_threshold":
        if not variant.opening_threshold:
            return render("house_opening_none")
        return render("house_opening_threshold", points=variant.opening_threshold)
    if name == "face_points":
        return render("house_face_value", points=variant.face_points)
    return render("house_ace_value", points=variant.ace_value)


def variant_words(variant: Variant, options: Sequence[str] = (*_PLACES, *_JOKERS)) -> str:
    """The variant by its title, with the house rules among ``options`` said in words —
    never as Python (``ace_above_king=False``).

    >>> variant_words(HUNGARIAN.derive(ace_above_king=False))
    'Hungarian Rummy with no ace above the king'
    >>> variant_words(HUNGARIAN.derive(target=50)), variant_words(HUNGARIAN, ("cut_card",))
    ('Hungarian Rummy', 'Hungarian Rummy')
    """
    changed = _house_rules(variant)
    phrases = dict.fromkeys(_house_phrase(variant, name) for name in options if name in changed)
    if not phrases:
        return variant.title
    return render("variant_with_house_rules", title=variant.title, rules=join(list(phrases), "and"))


def _reason(
    rules: Variant,
    code: str,
    at_fault: Iterable[Card],
    fields: Mapping[str, object] | None = None,
    /,
    *,
    template: str | None = None,
    house: Sequence[str] = (),
    **params: object,
) -> Reason:
    """A failing reason citing the code's rule (none when a house rule in ``house`` decides)."""
    values = {**(fields or {}), **params}
    return Reason(code, _cite(rules, code, house), tuple(at_fault), values, True, template)


def _info(
    rules: Variant,
    code: str,
    fields: Mapping[str, object] | None = None,
    /,
    *,
    template: str | None = None,
    house: Sequence[str] = (),
    cited: bool = True,
    **params: object,
) -> Reason:
    """An explaining reason (it does not fail the verdict); ``cited=False``: no citation."""
    values = {**(fields or {}), **params}
    rule = _cite(rules, code, house) if cited else None
    return Reason(code, rule, (), values, False, template)


def _jokers_usable(variant: Variant) -> bool:
    return variant.jokers > 0 and variant.jokers_per_meld > 0


def _without_joker_talk(reasons: list[Reason], variant: Variant) -> list[Reason]:
    """Where no joker may be used, no reason says what a joker would stand for."""
    if _jokers_usable(variant):
        return reasons
    return [r for r in reasons if not (r.template or "").endswith("_joker")]


def _general_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    """Faults whatever the cards were meant to be: size, deck, jokers."""
    out: list[Reason] = []
    jokers = tuple(c for c in cards if c.is_joker)
    if not cards:
        out.append(_reason(variant, "too_few_cards", (), template="too_few_cards_none"))
    elif len(cards) < 3:
        out.append(
            _reason(
                variant, "too_few_cards", cards, cards=cards, count_word=number_word(len(cards))
            )
        )
    counts = Counter(c for c in cards if not c.is_joker)
    over = [(card, n) for card, n in counts.items() if n > variant.copies(card)]
    deck = {
        "variant": variant.title,
        "decks_word": variant.decks_word,
        "is_are": render("there_is" if variant.decks == 1 else "there_are"),
        "copies_word": number_word(variant.decks),
    }
    if len(over) == 1:
        card, count = over[0]
        out.append(
            _reason(
                variant,
                "not_in_deck",
                (card,) * count,
                card=card,
                count_word=number_word(count),
                **deck,
            )
        )
    elif over:
        counts_text = [render("card_times", count_word=number_word(n), card=c) for c, n in over]
        out.append(
            _reason(
                variant,
                "not_in_deck",
                tuple(c for c, n in over for _ in range(n)),
                template="not_in_deck_many",
                counts=join(counts_text, "and"),
                **deck,
            )
        )
    if jokers and variant.jokers == 0:
        out.append(
            _reason(variant, "jokers_not_allowed", jokers, variant=variant.title, cards=jokers)
        )
    elif jokers and variant.jokers_per_meld == 0:
        out.append(
            _reason(
                variant,
                "jokers_not_allowed",
                jokers,
                template="jokers_not_allowed_house",
                house=_JOKERS,
                cards=jokers,
            )
        )
    elif len(jokers) > variant.jokers:
        out.append(
            _reason(
                variant,
                "not_in_deck",
                jokers,
                template="not_in_deck_joker",
                variant=variant.title,
                copies_word=number_word(variant.jokers),
                count_word=number_word(len(jokers)),
                card=JOKER,
            )
        )
    if jokers and _jokers_usable(variant) and len(jokers) > variant.jokers_per_meld:
        out.append(
            _reason(
                variant,
                "too_many_jokers",
                jokers,
                house=_JOKERS,
                cards=cards,
                count_word=number_word(len(jokers)),
                limit_word=number_word(variant.jokers_per_meld),
            )
        )
    return out


def _times(count: int) -> str:
    """``twice``, ``three times`` …"""
    return (
        render("times_twice") if count == 2 else render("times_many", count_word=number_word(count))
    )


class MeldSum:
    """Melds added up in a sentence (``5♥ 6♥ 7♥ + Q♠ Q♥ Q♦``), their cards written with the
    language's rank letters when local letters are on.

    >>> melds = MeldSum([as_cards("Q♠ Q♥ Q♦"), as_cards("5♥ 6♥ 7♥")])
    >>> str(melds), melds.spoken()
    ('Q♠ Q♥ Q♦ + 5♥ 6♥ 7♥', 'Q♠ Q♥ Q♦ + 5♥ 6♥ 7♥')
    """

    __slots__ = ("groups",)

    def __init__(self, groups: Iterable[Sequence[Card]]) -> None:
        self.groups = tuple(tuple(g) for g in groups)

    def __str__(self) -> str:
        return " + ".join(format_cards(g) for g in self.groups)

    def __repr__(self) -> str:
        return repr(str(self))  # as the plain text it stands for

    def spoken(self, spec: str = "") -> str:
        """The melds in a sentence of the current language."""
        return " + ".join(" ".join(c.spoken() for c in g) for g in self.groups)


class _Shape:
    """A run's ranks joined by dashes (``K-A-2``), written with the language's rank letters
    when local letters are on (``R-A-2`` in Finnish and Portuguese).

    >>> str(_Shape([13, 1, 2])), _Shape([12, 13, 1]).spoken()
    ('K-A-2', 'Q-K-A')
    """

    __slots__ = ("ranks",)

    def __init__(self, ranks: Iterable[int]) -> None:
        self.ranks = tuple(Rank(r) for r in ranks)

    def __str__(self) -> str:
        return "-".join(map(str, self.ranks))

    def __repr__(self) -> str:
        return repr(str(self))  # as the plain text it stands for

    def spoken(self, spec: str = "") -> str:
        """The shape in a sentence of the current language."""
        return "-".join(r.spoken() for r in self.ranks)


def _the(cards: Iterable[Card], word: str = "and") -> str:
    """``the 6♥ and the 7♥`` (``word="or"``: ``the A♥ or the 4♥``)."""
    return join([render("the_card", card=c) for c in cards], word)


def _run_span(variant: Variant) -> str:
    """The longest runs the variant allows, in words."""
    spans = []
    if variant.ace_low:
        spans.append(render("span_ace_low"))
    if variant.ace_above_king:
        spans.append(render("span_ace_high"))
    return join(spans) or render("span_no_ace")


def _rank_phrase(rank: int, plural: bool) -> str:
    """``a 9``, ``an 8``, ``an ace``; plural ``9s``, ``aces`` (each rank its own template where
    a language needs it: the letters and the 8, the rest from ``rank_phrase``)."""
    form = "plural" if plural else "phrase"
    key = rank_name(rank).lower()
    code = f"rank_{form}_{key}"
    return render(code) if code in TEMPLATES else render(f"rank_{form}", rank=str(rank))


def _suit_name(suit: str) -> str:
    """``hearts``: the suit's name as a run is "of" it."""
    return render(f"suit_{SUIT_CODES[suit]}")


def _repeated(
    cards: Iterable[Card],
    variant: Variant,
    code: str,
    many: str,
    ace: str | None = None,
    **params: object,
) -> list[Reason]:
    """One reason per distinct count of repeated cards: ``9♠ and 9♥ each appear twice``."""
    by_count: dict[int, list[Card]] = {}
    for card, count in Counter(cards).items():
        if count > 1:
            by_count.setdefault(count, []).append(card)
    out = []
    for count, repeated in sorted(by_count.items()):
        names = join(repeated, "and")
        template = many if len(repeated) > 1 else (ace or None)
        out.append(
            _reason(
                variant,
                code,
                tuple(c for c in repeated for _ in range(count)),
                {**params, "cards": names, "times": _times(count)},
                template=template,
            )
        )
    return out


def _set_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    naturals = [c for c in cards if not c.is_joker]
    out: list[Reason] = []
    if not naturals:
        return out
    set_word = _set_word(variant)
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
            _reason(
                variant,
                "set_rank_mismatch",
                wrong,
                template="set_rank_mismatch_many" if many else None,
                cards=wrong,
                rank_phrase=_rank_phrase(rank, many),
                set_word=set_word,
            )
        )
    same = [c for c in naturals if c.rank == rank]
    out += _repeated(same, variant, "identical_cards", "identical_cards_many", set_word=set_word)
    if len(cards) > 4:
        out.append(
            _reason(
                variant,
                "set_too_large",
                cards,
                cards=cards,
                count_word=number_word(len(cards)),
                set_word=set_word,
            )
        )
    return out


def _describe_missing(positions: Sequence[int], suit: str) -> str:
    """The cards a run skips: each one (``the 6♥ and the 8♥``), or, from four on, the stretches
    they make (``6 cards, the 4♥ to the 6♥ and the 8♥ to the 10♥``) — a stretch never runs
    over a card of the meld.

    >>> _describe_missing([4, 5, 6, 8, 9, 10], "♥")
    '6 cards, the 4♥ to the 6♥ and the 8♥ to the 10♥'
    """
    cards = [card_at(p, suit) for p in positions]
    if len(cards) <= 3:
        return _the(cards)
    stretches: list[list[int]] = []
    for p in positions:
        if stretches and p == stretches[-1][-1] + 1:
            stretches[-1].append(p)
        else:
            stretches.append([p])
    if len(stretches) == 1:
        return render("missing_range", count=len(cards), first=cards[0], last=cards[-1])
    parts: list[str] = []
    for stretch in stretches:
        ends = [card_at(p, suit) for p in stretch]
        if len(ends) >= 3:
            parts.append(render("missing_span", first=ends[0], last=ends[-1]))
        else:
            parts += [render("the_card", card=c) for c in ends]
    return render("missing_ranges", count=len(cards), ranges=join(parts, "and"))


def _run_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    out: list[Reason] = []
    if not naturals:
        return out
    suit_counts = Counter(c.suit for c in naturals)

    def weight(s: str) -> tuple[int, int]:
        return suit_counts[s], len({c.rank for c in naturals if c.suit == s})

    best = max(weight(s) for s in suit_counts)
    leaders = [s for s in SUITS if s in suit_counts and weight(s) == best]
    if len(leaders) > 1:  # no suit stands out: say the suits differ, name no gap
        if len(suit_counts) == len(naturals):
            out.append(
                _reason(
                    variant,
                    "run_suit_mismatch",
                    naturals,
                    template="run_suits_different",
                    cards=tuple(naturals),
                    count_word=number_word(len(naturals)),
                )
            )
        else:
            names = [_suit_name(s) for s in SUITS if s in suit_counts]
            out.append(
                _reason(
                    variant,
                    "run_suit_mismatch",
                    naturals,
                    template="run_suits_mixed",
                    cards=tuple(naturals),
                    suit_names=join(names, "and"),
                )
            )
        return out
    suit = leaders[0]
    wrong = tuple(c for c in naturals if c.suit != suit)
    if wrong:
        many = len(wrong) > 1
        code = SUIT_CODES[suit]
        out.append(
            _reason(
                variant,
                "run_suit_mismatch",
                wrong,
                template="run_suit_mismatch_many" if many else None,
                cards=wrong,
                suit_phrase=render(f"suit_{code}" if many else f"suit_one_{code}"),
            )
        )
    # from here on, the run is read from the cards of its suit (and the jokers) alone: a gap
    # is only ever between two cards of one suit that are in the meld
    part = tuple(c for c in cards if c.is_joker or c.suit == suit) if wrong else cards
    same_suit = [c for c in naturals if c.suit == suit]
    ranks = sorted({c.rank for c in same_suit})
    both_ends = {2, KING} <= set(ranks)
    out += _repeated(
        same_suit,
        variant,
        "run_duplicate_rank",
        "run_duplicate_rank_many",
        "run_duplicate_ace" if both_ends and Counter(same_suit)[Card(ACE, suit)] > 1 else None,
    )
    n = len(ranks) + jokers
    if _run_windows(ranks, jokers, variant):
        return out
    if n > 13:
        out.append(
            _reason(
                variant,
                "run_too_long",
                part,
                cards=part,
                count=n,
                limit=13,
                span=_run_span(variant),
            )
        )
        return out
    # Would it fit if the ace could stand anywhere (but no wrap)?
    free = _run_windows(ranks, jokers, None)
    if free:
        out.extend(_ace_failures(part, ranks, jokers, suit, free, variant))
        return out
    wrap = _wrap_window(ranks, jokers)
    if wrap is not None:
        joker_ace = ACE not in ranks
        params: dict[str, object] = {
            "cards": part,
            "ace_places": _ace_places(variant),
            "between": render(
                "between_them"
                if variant.ace_low and variant.ace_above_king
                else "between_king_and_two"
            ),
        }
        if joker_ace:
            params["stands_for"] = Card(ACE, suit)
            params["shape"] = _Shape(wrap)
        out.append(
            _reason(
                variant,
                "run_wraps",
                part,
                params,
                template="run_wraps_joker" if joker_ace else None,
            )
        )
        return out
    out.extend(_gap_reasons(part, ranks, jokers, suit, variant))
    return out


def _ace_places(variant: Variant) -> str:
    places = []
    if variant.ace_low:
        places.append(render("ace_place_low"))
    if variant.ace_above_king:
        places.append(render("ace_place_high"))
    return join(places) if places else render("ace_place_none")


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
    for code, position, allowed, other in (
        ("ace_low_not_allowed", ACE, variant.ace_low, variant.ace_above_king),
        ("ace_high_not_allowed", HIGH_ACE, variant.ace_above_king, variant.ace_low),
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
        template = code if other else code.replace("not_allowed", "nowhere")
        params: dict[str, object] = {"cards": cards, "variant": variant_words(variant, _PLACES)}
        if not natural_ace:
            params["stands_for"] = Card(ACE, suit)
            template += "_joker"
        out.append(_reason(variant, code, at_fault, params, template=template, house=_PLACES))
    return out


def _wrap_window(ranks: list[int], jokers: int) -> tuple[int, ...] | None:
    """A cyclic window through K-A-2 holding these ranks, if there is one (a wrap)."""
    n = len(ranks) + jokers
    for start in range(1, 14):
        window = tuple((start - 1 + i) % 13 + 1 for i in range(n))
        if {KING, ACE, 2} <= set(window) and set(ranks) <= set(window):
            return window
    return None


def _gap_reasons(
    cards: tuple[Card, ...], ranks: list[int], jokers: int, suit: str, variant: Variant
) -> list[Reason]:
    """Why a run with a gap fails: the gap, named where the variant lets the ace stand — and,
    when the closest reading puts the ace where the variant forbids it, that first.

    >>> from rummykit.variants import ROMMI
    >>> [r.code for r in _gap_reasons(as_cards("A♥ 3♥ 4♥"), [1, 3, 4], 0, "♥", ROMMI)]
    ['ace_low_not_allowed', 'run_gap']
    """
    placements: list[tuple[tuple[int, ...], str | None]] = [(tuple(ranks), None)]
    if ACE in ranks:
        others = [r for r in ranks if r != ACE]
        placements = [((ACE, *others), "low"), ((*others, HIGH_ACE), "high")]
    allowed = {None: True, "low": variant.ace_low, "high": variant.ace_above_king}

    def missing(placed: tuple[int, ...]) -> list[int]:
        return [p for p in range(min(placed), max(placed) + 1) if p not in placed]

    # the closest reading (an allowed one on a tie), and the closest the variant allows
    closest = min(placements, key=lambda p: (len(missing(p[0])), not allowed[p[1]]))
    permitted = [p for p in placements if allowed[p[1]]]
    out: list[Reason] = []
    if not allowed[closest[1]]:
        low = closest[1] == "low"
        code = "ace_low_not_allowed" if low else "ace_high_not_allowed"
        other = variant.ace_above_king if low else variant.ace_low
        template = code if other else code.replace("not_allowed", "nowhere")
        aces = tuple(c for c in cards if c.rank == ACE)
        params: dict[str, object] = {"cards": cards, "variant": variant_words(variant, _PLACES)}
        out.append(_reason(variant, code, aces, params, template=template, house=_PLACES))
    if not permitted:
        return out
    gap = missing(min(permitted, key=lambda p: len(missing(p[0])))[0])
    params = {"cards": cards, "missing": _describe_missing(gap, suit)}
    if jokers:
        params["jokers_phrase"] = (
            render("jokers_one")
            if jokers == 1
            else render("jokers_many", count_word=number_word(jokers))
        )
        params["gaps_word"] = number_word(len(gap))
    gap_template = "run_gap_joker" if jokers else None
    out.append(_reason(variant, "run_gap", cards, params, template=gap_template))
    return out


def check_meld(cards: CardsLike, variant: Variant | str = HUNGARIAN) -> Verdict:
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
    if isinstance(variant, str):  # a name such as "rommi" is accepted too
        variant = named_variant(variant)
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
        specific = _both_sides(cards, naturals, variant)
    if not general and not specific:  # shape is fine but the checks above disagree: explain
        specific = _set_failures(cards, variant) or _run_failures(cards, variant)
    specific = _without_joker_talk(specific, variant)
    head = [_info(variant, "meld_invalid", cards=cards, variant=variant_words(variant))]
    reasons = [*(head if cards else []), *general, *specific]
    return Verdict(tuple(reasons), cards, None, None, (), variant.name)


def _both_sides(usable: tuple[Card, ...], naturals: list[Card], variant: Variant) -> list[Reason]:
    """Why neither a set nor a run — the likelier reading first, a hopeless one left out.

    A reading is hopeless when no two cards agree on what it needs (no rank twice for a set)
    while the other reading has two that do.
    """
    by_rank = max(Counter(c.rank for c in naturals).values(), default=0)
    by_suit = max(Counter(c.suit for c in naturals).values(), default=0)
    as_set, as_run = _set_failures(usable, variant), _run_failures(usable, variant)
    if by_rank < 2 <= by_suit:
        return as_run
    if by_suit < 2 <= by_rank:
        return as_set
    return as_run + as_set if by_suit > by_rank else as_set + as_run


def _joker_reps(meld: Meld) -> list[Card | None]:
    return [rep for card, rep in zip(meld.cards, meld.represents, strict=False) if card.is_joker]


def _jokers_phrase(cards: Sequence[Card]) -> str:
    """``the joker is the 6♥`` / ``the jokers are the 6♥ and the 7♥``."""
    if len(cards) == 1:
        return render("jokers_phrase_one", card=cards[0])
    return render("jokers_phrase_many", cards=_the(cards))


def reading_phrase(meld: Meld) -> str:
    """What the jokers of one reading stand for, as a phrase (to list readings as wholes).

    >>> reading_phrase(make_meld("🃏 2♥ 3♥", joker_as="4♥"))
    'the joker is the 4♥'
    >>> reading_phrase(make_meld("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2), joker_as="K♠"))
    'the jokers are two of the missing K♠, K♦ and K♣'
    """
    reps = _joker_reps(meld)
    fixed = [rep for rep in reps if rep is not None]
    if len(fixed) == len(reps):
        return _jokers_phrase(fixed)
    missing = join(meld.missing_suits(), "and")
    if len(reps) == 1:
        return render("jokers_phrase_set_one", cards=missing)
    return render("jokers_phrase_set_many", count_word=number_word(len(reps)), cards=missing)


def _kind_reason(meld: Meld, shown: tuple[Card, ...], variant: Variant) -> Reason:
    """``5♥ 🃏 7♥ is a run of hearts from 5 to 7`` / ``9♠ 9♥ 9♦ is a set of 9s``."""
    if not meld.is_run:
        return _info(
            variant,
            "valid_set",
            cards=shown,
            rank_plural=_rank_phrase(meld.rank, True),
            set_word=_set_word(variant),
        )
    low, high = meld.represents[0], meld.represents[-1]
    return _info(
        variant,
        "valid_run",
        house=_ace_options(meld),
        cards=shown,
        suit_name=_suit_name(meld.suit),
        low=Rank(low.rank) if low else "",
        high=Rank(high.rank) if high else "",
    )


def _ace_options(meld: Meld) -> tuple[str, ...]:
    """The ace house rules a run's validity rests on (an ace at one of its ends)."""
    if not meld.is_run:
        return ()
    return (("ace_low",) if meld.start == 1 else ()) + (
        ("ace_above_king",) if meld.end == HIGH_ACE else ()
    )


def _value_house(meld: Meld) -> tuple[str, ...]:
    """The house rules a meld's value and its jokers' meanings rest on."""
    jokers = sum(1 for c in meld.cards if c.is_joker)
    return (*_VALUES, *(_JOKERS if jokers > 1 else ()))


def _joker_reasons(meld: Meld, variant: Variant) -> list[Reason]:
    """What the jokers of a single reading stand for."""
    reps = _joker_reps(meld)
    if not reps:
        return []
    house = _JOKERS if len(reps) > 1 else ()
    fixed = [rep for rep in reps if rep is not None]
    if len(fixed) == len(reps):
        if len(reps) > 1:
            names = _the(fixed)
            return [_info(variant, "jokers_are", house=house, stands_for=names)]
        code = "joker_in_set" if not meld.is_run else "joker_is"
        key = "choices" if code == "joker_in_set" else "stands_for"
        return [_info(variant, code, {key: fixed[0]}, house=house)]
    options = _the(meld.missing_suits(), "or")
    if len(reps) == 1:
        return [_info(variant, "joker_in_set_one_of", choices=options)]
    return [
        _info(
            variant,
            "joker_in_set_one_of",
            template="jokers_in_set_some_of",
            house=house,
            count_word=number_word(len(reps)),
            choices=_the(meld.missing_suits()),
        )
    ]


def _valid_verdict(
    cards: tuple[Card, ...], readings: tuple[Meld, ...], variant: Variant
) -> Verdict:
    first = readings[0]
    joker_count = sum(1 for c in cards if c.is_joker)
    choices: list[tuple[Card, ...]] = []
    for i in range(joker_count):
        seen: dict[Card, None] = {}
        for m in readings:
            for c in m.joker_choices[i]:
                seen.setdefault(c, None)
        choices.append(tuple(seen))
    reasons: list[Reason] = []
    counts = variant.opening_threshold > 0
    if len(readings) == 1:
        reasons.append(_kind_reason(first, first.cards, variant))
        reasons += _joker_reasons(first, variant)
        if counts:
            points = first.points(variant)
            reasons.append(_info(variant, "meld_value", house=_value_house(first), points=points))
        shown = first.cards
    elif joker_count == 1 and len({m.kind for m in readings}) == 1:
        # one joker, several places in one run: name each place, then say which
        shown = cards
        reasons.append(
            _info(
                variant,
                "valid_run_open",
                house=tuple({o for m in readings for o in _ace_options(m)}),
                cards=shown,
                suit_name=_suit_name(first.suit),
            )
        )
        worth = [
            render("card_worth", card=c, points=variant.card_value(c))
            for c in (m.joker_choices[0][0] for m in readings)
        ]
        reasons.append(_info(variant, "joker_is_one_of", choices=join(worth)))
        if counts:
            parts = [
                render("value_as", points=m.points(variant), cards=m.represents) for m in readings
            ]
            reasons.append(
                _info(variant, "meld_value_readings", house=_VALUES, choices=join(parts))
            )
    else:
        # several jokers or several kinds: every reading as a whole, the best first
        shown = cards
        reasons.append(
            _info(
                variant,
                "meld_readings",
                house=_JOKERS,
                cards=cards,
                count_word=number_word(len(readings)),
            )
        )
        for m in readings:
            reasons.append(_reading_reason(m, variant, counts))
    return Verdict(
        tuple(reasons),
        shown,
        first.kind,
        first.points(variant),
        tuple(choices),
        variant.name,
        {"readings": readings},
    )


def _reading_reason(meld: Meld, variant: Variant, counts: bool) -> Reason:
    """One reading as a whole: its kind, what each joker stands for, its value."""
    params: dict[str, object] = {"jokers": reading_phrase(meld)}
    if counts:
        params["points"] = meld.points(variant)
    suffix = "" if counts else "_free"
    if meld.is_run:
        low, high = meld.represents[0], meld.represents[-1]
        code = "reading_run"
        params |= {
            "suit_name": _suit_name(meld.suit),
            "low": Rank(low.rank) if low else "",
            "high": Rank(high.rank) if high else "",
        }
    else:
        code = "reading_set"
        params |= {"rank_plural": _rank_phrase(meld.rank, True), "set_word": _set_word(variant)}
    house = (*_ace_options(meld), *_value_house(meld))
    return _info(variant, code, params, template=code + suffix, house=house)


# --- lay-offs --------------------------------------------------------------------------

MeldLike: TypeAlias = "Meld | CardsLike"


def _meld_readings_of(
    meld: MeldLike, variant: Variant
) -> tuple[tuple[Card, ...], tuple[Meld, ...]]:
    """The cards as given, and the readings they may be: a :class:`Meld` is its one reading."""
    if isinstance(meld, Meld):
        return meld.cards, (meld,)
    cards = as_cards(meld)
    return cards, meld_readings(cards, variant)


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


def check_layoff(meld: MeldLike, cards: CardsLike, variant: Variant | str = HUNGARIAN) -> Verdict:
    """May these cards go onto this meld on the table (R6, H8)?

    A meld given as cards whose jokers may stand for different cards is checked in every
    reading, and the verdict says in which the cards fit.

    >>> print(check_layoff("4♥ 5♥ 6♥", "7♥"))
    7♥ fits onto 4♥ 5♥ 6♥, making 4♥ 5♥ 6♥ 7♥. (H4)
    >>> check_layoff("9♠ 9♥ 9♦", "10♦").codes
    ('set_rank_mismatch',)
    >>> print(check_layoff("🃏 2♥ 3♥", "4♥"))
    4♥ fits onto 🃏 2♥ 3♥ if the joker is the A♥, making 🃏 2♥ 3♥ 4♥. (H5) If the joker is the 4♥, 4♥ can't go onto 🃏 2♥ 3♥. (H5)
    """
    if isinstance(variant, str):  # a name such as "rommi" is accepted too
        variant = named_variant(variant)
    shown, bases = _meld_readings_of(meld, variant)
    if not bases:
        bad = check_meld(shown, variant)
        head = _info(variant, "layoff_not_a_meld", meld=shown)
        return Verdict((head, *bad.failures), shown, variant=variant.name)
    if len(bases) == 1:
        shown = bases[0].cards
    added = as_cards(cards)
    if not added:
        none = _reason(variant, "layoff_no_cards", (), meld=shown)
        return Verdict((none,), (), None, None, (), variant.name)
    grown = [(base, layoff_readings(base, added, variant)) for base in bases]
    fitting = [(base, found) for base, found in grown if found]
    fit = render("layoff_verb_one" if len(added) == 1 else "layoff_verb_many")
    if fitting:
        result = fitting[0][1][0]
        if len(bases) == 1:
            reasons = [_layoff_ok(bases[0], fitting[0][1], added, fit, variant)]
        else:  # the meld's jokers are open: say in which reading the cards fit
            reasons = []
            for base, found in sorted(grown, key=lambda pair: not pair[1]):
                jokers = reading_phrase(base)
                if found:
                    reasons.append(
                        _info(
                            variant,
                            "layoff_ok_if",
                            cards=added,
                            fit=fit,
                            meld=shown,
                            jokers=jokers,
                            result=found[0].cards,
                        )
                    )
                else:
                    reasons.append(
                        _info(variant, "layoff_fails_if", cards=added, meld=shown, jokers=jokers)
                    )
        return Verdict(
            tuple(reasons),
            result.cards,
            result.kind,
            result.points(variant),
            result.joker_choices,
            variant.name,
            {"readings": tuple(m for _, found in fitting for m in found)},
        )
    return _layoff_refused(shown, bases, added, variant)


def laid_off_jokers(base: Meld, grown: Meld) -> list[Card | None]:
    """What each joker laid off onto ``base`` stands for in ``grown`` (``None``: a set's
    joker whose suit is open), leaving out the jokers ``base`` already held.

    >>> laid_off_jokers(make_meld("3♠ 4♠ 5♠"), make_meld("3♠ 4♠ 5♠ 🃏", joker_as="6♠"))
    [Card('6♠')]
    """
    before = list(_joker_reps(base))
    new: list[Card | None] = []
    for rep in _joker_reps(grown):
        if rep in before:
            before.remove(rep)
        else:
            new.append(rep)
    return new


def _layoff_ok(
    base: Meld, found: Sequence[Meld], added: tuple[Card, ...], fit: str, variant: Variant
) -> Reason:
    """``… fits onto …, making …`` — with what a laid-off joker stands for, where known."""
    fields = {"cards": added, "fit": fit, "meld": base.cards}
    readings = [(m, laid_off_jokers(base, m)) for m in found]
    if not readings[0][1] or any(None in reps for _, reps in readings):
        return _info(variant, "layoff_ok", fields, result=readings[0][0].cards)
    code = "layoff_ok_joker" if len(readings[0][1]) == 1 else "layoff_ok_jokers"
    if len(readings) == 1:
        stands = join([render("the_card", card=c) for c in readings[0][1]], "and")
        return _info(variant, code, fields, result=readings[0][0].cards, stands_for=stands)
    each = [
        render(
            f"{code}_reading",
            result=format_cards(m.cards),
            stands_for=join([render("the_card", card=c) for c in reps], "and"),
        )
        for m, reps in readings
    ]
    return _info(variant, "layoff_ok_joker_open", fields, readings=join(each))


def _layoff_refused(
    shown: tuple[Card, ...], bases: Sequence[Meld], added: tuple[Card, ...], variant: Variant
) -> Verdict:
    """Why ``added`` fits onto none of the readings of a table meld."""
    combined = (*shown, *added)
    plain = check_meld(combined, variant)
    failures: list[Reason]
    if plain.ok:  # valid as cards, but not as this meld grown
        same_kind = [b for b in bases if b.kind == plain.kind]
        if not same_kind:
            failures = [
                _reason(
                    variant,
                    "layoff_changes_kind",
                    added,
                    cards=added,
                    meld=shown,
                    kind=_kind_word(bases[0].kind, variant),
                )
            ]
        else:
            stands = dict.fromkeys(
                render("the_card", card=rep)
                for b in same_kind
                for rep in _joker_reps(b)
                if rep is not None
            )
            failures = [
                _reason(
                    variant,
                    "layoff_moves_joker",
                    added,
                    cards=added,
                    meld=shown,
                    stands_for=join(list(stands)),
                )
            ]
    else:
        kind_failures = _set_failures if bases[0].kind == "set" else _run_failures
        failures = _general_failures(combined, variant) + kind_failures(combined, variant)
        failures = _without_joker_talk(failures, variant)
        failures = failures or list(plain.failures)
    head = _info(variant, "layoff_invalid", cards=added, meld=shown)
    return Verdict((head, *failures), combined, None, None, (), variant.name)


# --- the opening -----------------------------------------------------------------------


def _reading_condition(
    meld: Meld, shown: tuple[Card, ...] | None, variant: Variant, first: bool = True
) -> str:
    """``if the joker in 🃏 2♥ 3♥ is the A♥`` (``shown``), ``if the joker is the A♥``, or
    after the first reading, ``if it is the 4♥``."""
    reps = _joker_reps(meld)
    fixed = [rep for rep in reps if rep is not None]
    names = _the(fixed)
    set_word = _set_word(variant)
    if not first:
        if len(fixed) < len(reps) or not meld.is_run:
            jokers = render("jokers_it_is_set", set_word=set_word)
        elif len(fixed) == 1:
            jokers = render("jokers_it_is", card=fixed[0])
        else:
            jokers = render("jokers_they_are", cards=names)
    elif shown is None:
        jokers = reading_phrase(meld)
    elif len(fixed) < len(reps) or not meld.is_run:
        jokers = render("jokers_in_set", meld=shown, set_word=set_word)
    elif len(fixed) == 1:
        jokers = render("jokers_in_one", meld=shown, card=fixed[0])
    else:
        jokers = render("jokers_in_many", meld=shown, cards=names)
    return render("condition_if", jokers=jokers)


def check_opening(melds: Iterable[MeldLike], variant: Variant | str = HUNGARIAN) -> Verdict:
    """Do these new melds make an opening (H8)? Each meld's value, the total, what is missing.

    A meld whose jokers may stand for cards of different values is counted per reading,
    and the total is said per reading too.

    >>> print(check_opening(["3♣ 4♣ 5♣", "8♦ 8♠ 8♥"]))
    3♣ 4♣ 5♣: 12. 8♠ 8♥ 8♦: 24. Your melds total 36; opening needs 51 — 15 more. Add a meld, or take these back. (H8)
    >>> check_opening(["7♥ 8♥ 9♥", "10♠ 10♦ 10♣", "J♣ Q♣ K♣"]).points
    84
    """
    if isinstance(variant, str):  # a name such as "rommi" is accepted too
        variant = named_variant(variant)
    threshold = variant.opening_threshold
    reasons: list[Reason] = []
    used: Counter[Card] = Counter()
    built: list[Meld] = []
    # each meld's values, one per reading: (value, condition) — one entry when fixed
    values: list[list[tuple[int, str]]] = []
    for item in melds:
        shown, options = _meld_readings_of(item, variant)
        if not options:
            if shown:
                code = "opening_bad_meld" if threshold else "opening_bad_meld_free"
                reasons.append(_reason(variant, code, shown, meld=shown))
            reasons.extend(check_meld(shown, variant).failures)
            continue
        meld = options[0]
        built.append(meld)
        used.update(meld.cards)
        by_value = dict.fromkeys(m.points(variant) for m in options)
        if len(by_value) == 1:
            values.append([(meld.points(variant), "")])
            if threshold:
                reasons.append(
                    _info(
                        variant,
                        "opening_meld_value",
                        cited=False,
                        meld=meld.cards,
                        points=meld.points(variant),
                    )
                )
            continue
        values.append(
            [
                (m.points(variant), _reading_condition(m, shown, variant, i == 0))
                for i, m in enumerate(options)
            ]
        )
        if threshold:
            parts = [
                render(
                    "value_if",
                    points=m.points(variant),
                    condition=_reading_condition(m, None, variant, i == 0),
                )
                for i, m in enumerate(options)
            ]
            reasons.append(
                _info(
                    variant,
                    "opening_meld_value",
                    template="opening_meld_value_readings",
                    cited=False,
                    meld=shown,
                    choices=join(parts),
                )
            )
    for card, count in used.items():
        if count > variant.copies(card):
            reasons.append(
                _reason(
                    variant,
                    "opening_card_reused",
                    (card,),
                    card=card,
                    times=_times(count),
                    variant=variant.title,
                    copies_word=number_word(variant.copies(card)),
                )
            )
    best = sum(v[0][0] for v in values)
    house = ("opening_threshold", *_VALUES)
    if not built and not reasons:
        code = "opening_none" if threshold else "no_melds"
        reasons.append(_reason(variant, code, (), house=house))
    elif not threshold:
        words = variant_words(variant, ("opening_threshold",))
        reasons.append(_info(variant, "opening_not_required", house=house, variant=words))
    elif built:
        reasons.append(_opening_total(values, threshold, variant, any(r.failing for r in reasons)))
    return Verdict(
        _distinct(reasons),
        tuple(c for m in built for c in m.cards),
        None,
        best,
        (),
        variant.name,
        {"melds": tuple(built), "total": best, "missing": max(0, threshold - best)},
    )


def _opening_total(
    values: list[list[tuple[int, str]]], threshold: int, variant: Variant, failed: bool
) -> Reason:
    """The total toward the opening — per reading when a joker's meaning changes it."""
    house = ("opening_threshold", *_VALUES)
    best = sum(v[0][0] for v in values)
    worst = sum(min(p for p, _ in v) for v in values)
    open_melds = [v for v in values if len(v) > 1]
    if not open_melds:
        if best >= threshold and not failed:
            return _info(variant, "opening_total_ok", house=house, total=best, threshold=threshold)
        if best >= threshold:  # enough points, but something above keeps it from going down
            return _reason(
                variant, "opening_blocked", (), house=house, total=best, threshold=threshold
            )
        missing = max(0, threshold - best)
        return _reason(
            variant,
            "opening_short",
            (),
            house=house,
            total=best,
            threshold=threshold,
            missing=missing,
        )
    if len(open_melds) == 1:
        rest = best - open_melds[0][0][0]
        choices = join([render("value_if", points=rest + p, condition=c) for p, c in open_melds[0]])
    else:
        choices = render("total_range", low=worst, high=best)
    if worst >= threshold and not failed:
        template, code = "opening_total_ok_readings", "opening_total_ok"
    elif failed and best >= threshold:
        return _reason(
            variant,
            "opening_blocked",
            (),
            template="opening_blocked_readings",
            house=house,
            choices=choices,
            threshold=threshold,
        )
    elif best < threshold or failed:
        return _reason(
            variant,
            "opening_short",
            (),
            template="opening_short_readings",
            house=house,
            choices=choices,
            threshold=threshold,
            missing=max(0, threshold - best),
        )
    else:
        template, code = "opening_total_readings", "opening_total_readings"
    return _info(
        variant, code, template=template, house=house, choices=choices, threshold=threshold
    )


def _distinct(reasons: Iterable[Reason]) -> tuple[Reason, ...]:
    """Each sentence once: the same meld given twice is explained once."""
    seen: dict[str, Reason] = {}
    for reason in reasons:
        seen.setdefault(f"{reason.code}|{reason}", reason)
    return tuple(seen.values())
