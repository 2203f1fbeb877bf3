"""Runs: the windows of positions a run's cards may fill, and why cards fail as a run, the
ace's places included (H4, R3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rummykit.cards import ACE, HIGH_ACE, KING, SUIT_CODES, SUITS, Card, Rank, card_at
from rummykit.explain import Reason
from rummykit.melds.faults import repeats
from rummykit.melds.wording import ACE_PLACES, failure, suit_name, the_cards, variant_words
from rummykit.messages import join, number_word, render
from rummykit.variants import Variant

__all__: list[str] = []  # its names serve the package's other modules; none is public API

# --- reading a meld --------------------------------------------------------------------


def run_windows(
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


def _run_span(variant: Variant) -> str:
    """The longest runs the variant allows, in words."""
    spans = []
    if variant.ace_low:
        spans.append(render("span_ace_low"))
    if variant.ace_above_king:
        spans.append(render("span_ace_high"))
    return join(spans) or render("span_no_ace")


def _describe_missing(positions: Sequence[int], suit: str) -> str:
    """The cards a run skips: each one (``the 6♥ and the 8♥``), or, from four on, the stretches
    they make (``6 cards, the 4♥ to the 6♥ and the 8♥ to the 10♥``) — a stretch never runs
    over a card of the meld.

    >>> _describe_missing([4, 5, 6, 8, 9, 10], "♥")
    '6 cards, the 4♥ to the 6♥ and the 8♥ to the 10♥'
    """
    cards = [card_at(p, suit) for p in positions]
    if len(cards) <= 3:
        return the_cards(cards)
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


def run_failures(cards: tuple[Card, ...], variant: Variant) -> list[Reason]:
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
                failure(
                    variant,
                    "run_suit_mismatch",
                    naturals,
                    template="run_suits_different",
                    cards=tuple(naturals),
                    count_word=number_word(len(naturals)),
                )
            )
        else:
            names = [suit_name(s) for s in SUITS if s in suit_counts]
            out.append(
                failure(
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
            failure(
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
    out += repeats(
        same_suit,
        variant,
        "run_duplicate_rank",
        "run_duplicate_rank_many",
        "run_duplicate_ace" if both_ends and Counter(same_suit)[Card(ACE, suit)] > 1 else None,
    )
    n = len(ranks) + jokers
    if run_windows(ranks, jokers, variant):
        return out
    if n > 13:
        out.append(
            failure(
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
    free = run_windows(ranks, jokers, None)
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
            failure(
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
        params: dict[str, object] = {"cards": cards, "variant": variant_words(variant, ACE_PLACES)}
        if not natural_ace:
            params["stands_for"] = Card(ACE, suit)
            template += "_joker"
        out.append(failure(variant, code, at_fault, params, template=template, house=ACE_PLACES))
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

    >>> from rummykit.cards import as_cards
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
        params: dict[str, object] = {"cards": cards, "variant": variant_words(variant, ACE_PLACES)}
        out.append(failure(variant, code, aces, params, template=template, house=ACE_PLACES))
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
    out.append(failure(variant, "run_gap", cards, params, template=gap_template))
    return out
