"""The words of the meld checks: reasons that cite their rule (or leave it to the house rule
that decides), and the phrases for ranks, suits, jokers and variants.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from rummykit.cards import SUIT_CODES, Card, format_cards, rank_name
from rummykit.explain import Reason, cite
from rummykit.melds.meld import Meld
from rummykit.messages import TEMPLATES, join, number_word, render
from rummykit.variants import Variant

__all__ = ["MeldSum", "reading_phrase", "variant_words"]

# --- explaining ----------------------------------------------------------------------

#: Each rulebook's word for a set: R3 (and the Finnish source) says *group*.
_SET_WORDS = {"H": "kind_set", "R": "kind_group"}
#: The house rules that change where an ace may stand, how many jokers a meld holds, and
#: what cards are worth toward the opening.
ACE_PLACES = ("ace_low", "ace_above_king")
JOKER_OPTIONS = ("jokers_per_meld",)
VALUE_OPTIONS = ("ace_points", "ace_high", "face_points")
#: House rules that switch a part of the game on or off (named by the referee).
_SWITCHES = ("discard_to_win", "cut_card", "joker_exchange")


def word_for_set(variant: Variant) -> str:
    return render(_SET_WORDS.get(variant.rulebook, "kind_set"))


def word_for_kind(kind: str, variant: Variant) -> str:
    return word_for_set(variant) if kind == "set" else render("kind_run")


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
    if name in (*ACE_PLACES, *_SWITCHES):
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


def variant_words(variant: Variant, options: Sequence[str] = (*ACE_PLACES, *JOKER_OPTIONS)) -> str:
    """The variant by its title, with the house rules among ``options`` said in words —
    never as Python (``ace_above_king=False``).

    >>> from rummykit.variants import HUNGARIAN
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


def failure(
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


def explanation(
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


def times_word(count: int) -> str:
    """``twice``, ``three times`` …"""
    return (
        render("times_twice") if count == 2 else render("times_many", count_word=number_word(count))
    )


class MeldSum:
    """Melds added up in a sentence (``5♥ 6♥ 7♥ + Q♠ Q♥ Q♦``), their cards written with the
    language's rank letters when local letters are on.

    >>> from rummykit.cards import as_cards
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


def the_cards(cards: Iterable[Card], word: str = "and") -> str:
    """``the 6♥ and the 7♥`` (``word="or"``: ``the A♥ or the 4♥``)."""
    return join([render("the_card", card=c) for c in cards], word)


def rank_phrase(rank: int, plural: bool) -> str:
    """``a 9``, ``an 8``, ``an ace``; plural ``9s``, ``aces`` (each rank its own template where
    a language needs it: the letters and the 8, the rest from ``rank_phrase``)."""
    form = "plural" if plural else "phrase"
    key = rank_name(rank).lower()
    code = f"rank_{form}_{key}"
    return render(code) if code in TEMPLATES else render(f"rank_{form}", rank=str(rank))


def suit_name(suit: str) -> str:
    """``hearts``: the suit's name as a run is "of" it."""
    return render(f"suit_{SUIT_CODES[suit]}")


def joker_reps(meld: Meld) -> list[Card | None]:
    return [rep for card, rep in zip(meld.cards, meld.represents, strict=False) if card.is_joker]


def jokers_phrase(cards: Sequence[Card]) -> str:
    """``the joker is the 6♥`` / ``the jokers are the 6♥ and the 7♥``."""
    if len(cards) == 1:
        return render("jokers_phrase_one", card=cards[0])
    return render("jokers_phrase_many", cards=the_cards(cards))


def reading_phrase(meld: Meld) -> str:
    """What the jokers of one reading stand for, as a phrase (to list readings as wholes).

    >>> from rummykit.melds import make_meld
    >>> from rummykit.variants import HUNGARIAN
    >>> reading_phrase(make_meld("🃏 2♥ 3♥", joker_as="4♥"))
    'the joker is the 4♥'
    >>> reading_phrase(make_meld("K♥ 🃏 🃏", HUNGARIAN.derive(jokers_per_meld=2), joker_as="K♠"))
    'the jokers are two of the missing K♠, K♦ and K♣'
    """
    reps = joker_reps(meld)
    fixed = [rep for rep in reps if rep is not None]
    if len(fixed) == len(reps):
        return jokers_phrase(fixed)
    missing = join(meld.missing_suits(), "and")
    if len(reps) == 1:
        return render("jokers_phrase_set_one", cards=missing)
    return render("jokers_phrase_set_many", count_word=number_word(len(reps)), cards=missing)
