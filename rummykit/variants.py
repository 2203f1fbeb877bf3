"""The two variants as plain, immutable data — and house rules derived from them.

Code asks the variant (``variant.ace_low``, ``variant.opening_threshold``); it never asks
for a variant's name. A house rule is a derived variant, and every check and explanation
follows it:

>>> HUNGARIAN.opening_threshold, ROMMI.opening_threshold
(51, 0)
>>> house = HUNGARIAN.derive(opening_threshold=40, ace_above_king=False)
>>> house.opening_threshold, house.ace_above_king, house.rule("meld")
(40, False, 'H4')
>>> variant("rommi", ace_high=True).card_value(Card("A♠"))
11
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from rummykit.cards import ACE, JACK, Card, make_deck
from rummykit.errors import RummykitError
from rummykit.messages import in_language, number_word, render

__all__ = [
    "HUNGARIAN",
    "MAX_HAND_SIZE",
    "ROMMI",
    "VARIANTS",
    "Variant",
    "VariantError",
    "variant",
]

MAX_HAND_SIZE = 18
"""The most cards a hand may be dealt (hand size plus the starter's extra cards).

The solver and the computer opponents search arrangements of a hand: the hard agent's
slowest decision grows from about 0.7 s with the 15 cards of a Hungarian starter to 1.4 s
at 18 cards and 2.6 s at 21 (docs/rules.md, House rules)."""


class VariantError(RummykitError):
    """A variant name or option was not understood."""


#: Rule ids by topic, per rulebook. Checks cite ``variant.rule(topic)``.
_RULEBOOKS: dict[str, dict[str, str]] = {
    "H": {
        "deck": "H1",
        "seats": "H2",
        "deal": "H3",
        "meld": "H4",
        "joker": "H5",
        "turn": "H6",
        "discard_take": "H7",
        "opening": "H8",
        "first_turn": "H9",
        "cut_card": "H10",
        "joker_exchange": "H11",
        "layoff": "H4",  # a lay-off must leave the meld valid (H4), after the opening (H8)
        "going_out": "H12",
        "penalty": "H13",
        "match": "H14",
        "empty_stock": "H15",
    },
    "R": {
        "deck": "R1",
        "seats": "R4",
        "deal": "R2",
        "meld": "R3",
        "joker": "R1",
        "turn": "R4",
        "discard_take": "R4",
        "opening": "R5",
        "first_turn": "R5",
        "cut_card": "R4",
        "joker_exchange": "R1",
        "layoff": "R6",
        "going_out": "R7",
        "penalty": "R8",
        "match": "R9",
        "empty_stock": "R10",
        "endless": "R11",
    },
}

_OPTIONS: tuple[str, ...] = (
    "players_min",
    "players_max",
    "hand_sizes",
    "starter_extra",
    "ace_low",
    "ace_above_king",
    "jokers_per_meld",
    "opening_threshold",
    "no_opening_first_turn",
    "ace_high",
    "ace_points",
    "face_points",
    "joker_points",
    "discard_to_win",
    "cut_card",
    "first_draw_keeps_discard",
    "discard_take_must_play",
    "joker_exchange",
    "go_out_points",
    "go_out_hand_points",
    "unopened_penalty",
    "rounds",
    "target",
    "reshuffle_discards",
)
"""The fields a house rule may change (docs/rules.md says what each does)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """A rummy variant as data: the deck, meld rules, card values, turn and scoring rules.

    Use the built-in :data:`HUNGARIAN` and :data:`ROMMI`, :func:`variant` by name, or
    :meth:`derive` for house rules.
    """

    name: str
    title: str
    rulebook: str  # "H" or "R": which numbered rules the explanations cite
    source: str
    version: str
    decks: int
    jokers: int
    players_min: int
    players_max: int
    hand_sizes: tuple[tuple[int, int], ...]
    starter_extra: int
    ace_low: bool
    ace_above_king: bool
    jokers_per_meld: int
    opening_threshold: int
    no_opening_first_turn: bool
    ace_points: int
    face_points: int
    joker_points: int
    discard_to_win: bool
    cut_card: bool
    first_draw_keeps_discard: bool
    discard_take_must_play: bool
    joker_exchange: bool
    go_out_points: int
    go_out_hand_points: int
    unopened_penalty: int
    rounds: int
    target: int
    reshuffle_discards: bool
    ace_high: bool = False
    low_score_wins: bool = True
    base: str = field(default="", compare=False)

    # --- asking the variant ------------------------------------------------------------

    def rule(self, topic: str) -> str:
        """The rule id to cite for a topic (``"meld"`` → ``"H4"`` or ``"R3"``)."""
        return _RULEBOOKS[self.rulebook][topic]

    def opening_barred(self, turns_taken: int) -> bool:
        """Whether a seat that has finished ``turns_taken`` turns is barred from opening now:
        nobody opens on their very first turn (H9). The one place this rule is spelled.

        >>> HUNGARIAN.opening_barred(0), HUNGARIAN.opening_barred(1)
        (True, False)
        """
        return self.no_opening_first_turn and turns_taken == 0

    @property
    def ace_value(self) -> int:
        """What an ace is worth: in hand, and toward the opening."""
        return 11 if self.ace_high else self.ace_points

    def card_value(self, card: Card) -> int:
        """A card's value in hand (H13, R8) and toward the opening (H8).

        >>> HUNGARIAN.card_value(Card("🃏")), HUNGARIAN.card_value(Card("A♥"))
        (20, 10)
        >>> ROMMI.card_value(Card("A♥")), ROMMI.card_value(Card("Q♣"))
        (1, 10)
        """
        if card.is_joker:
            return self.joker_points
        if card.rank == ACE:
            return self.ace_value
        if card.rank >= JACK:
            return self.face_points
        return card.rank

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player (the starter gets :attr:`starter_extra` more)."""
        self.check_players(players)
        return dict(self.hand_sizes)[players]

    def check_players(self, players: int) -> None:
        """Raise :class:`VariantError` unless the variant is played by ``players`` people."""
        sizes = dict(self.hand_sizes)
        if not (self.players_min <= players <= self.players_max) or players not in sizes:
            raise VariantError(
                render(
                    "bad_option_value",
                    name="players",
                    variant=self.title,
                    expected=render(
                        "option_expected_players", low=self.players_min, high=self.players_max
                    ),
                    value=players,
                )
            )

    def deck(self) -> tuple[Card, ...]:
        """The variant's full deck, unshuffled (108 cards for Hungarian, 52 for Rommi)."""
        return make_deck(self.decks, self.jokers)

    def copies(self, card: Card) -> int:
        """How many of this card the deck holds."""
        return self.jokers if card.is_joker else self.decks

    @property
    def decks_word(self) -> str:
        """``one deck`` / ``two decks`` — for explanations."""
        if self.decks == 1:
            return render("decks_word_one")
        return render("decks_word_many", count_word=number_word(self.decks))

    # --- house rules -------------------------------------------------------------------

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        """The fields a house rule may change."""
        return _OPTIONS

    def options(self) -> dict[str, object]:
        """Every option's current value (what :meth:`derive` accepts)."""
        return {name: getattr(self, name) for name in _OPTIONS}

    def changes(self) -> dict[str, object]:
        """The options in which this variant differs from the built-in one it came from."""
        built_in = VARIANTS.get(self.base or self.name)
        if built_in is None:
            return self.options()
        return {k: v for k, v in self.options().items() if built_in.options()[k] != v}

    def derive(self, **options: Any) -> Variant:
        """A house-rule variant: this one with some options changed.

        Unknown options and values of the wrong type raise :class:`VariantError`.

        >>> ROMMI.derive(target=50).target
        50
        >>> ROMMI.derive(jokers=2)
        Traceback (most recent call last):
        ...
        rummykit.variants.VariantError: 'jokers' is not an option of Rommi: options are ...
        """
        values: dict[str, object] = {}
        for name, value in options.items():
            if name not in _OPTIONS:
                raise VariantError(
                    render(
                        "unknown_option",
                        name=name,
                        variant=self.title,
                        choices=", ".join(sorted(_OPTIONS)),
                    )
                )
            values[name] = self._coerce(name, value)
        if not values:
            return self
        derived = dataclasses.replace(self, base=self.base or self.name, **values)  # type: ignore[arg-type]
        derived.check_deal()
        return derived

    def check_deal(self) -> None:
        """Raise :class:`VariantError` unless every table size can be dealt from the deck.

        Each player count the variant allows needs its hands, the starter's extra cards, the
        face-up card (the cut card or the first discard) and at least one card left for the
        stock; and no hand may be dealt more than :data:`MAX_HAND_SIZE` cards.

        >>> variant("rommi", hand_sizes={2: 30})
        Traceback (most recent call last):
        ...
        rummykit.variants.VariantError: Rommi can't deal 2 players 30 cards each: ...
        """
        deck = self.decks * 52 + self.jokers
        extra = self.starter_extra
        for players, size in self.hand_sizes:
            if not self.players_min <= players <= self.players_max:
                continue
            need = players * size + extra + 2
            if need <= deck and size + extra <= MAX_HAND_SIZE:
                continue
            largest = max(0, min((deck - extra - 2) // players, MAX_HAND_SIZE - extra))
            raise VariantError(
                render(
                    "deal_too_large_extra" if extra else "deal_too_large",
                    variant=self.title,
                    players=players,
                    size=size,
                    extra=extra,
                    deck=deck,
                    limit=MAX_HAND_SIZE,
                    largest=largest,
                )
            )

    def _coerce(self, name: str, value: object) -> object:
        current = getattr(self, name)
        if isinstance(current, bool):
            if isinstance(value, bool):
                return value
            expected = render("option_expected_bool")
        elif isinstance(current, int):
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return value
            if name in ("go_out_points", "go_out_hand_points") and isinstance(value, int):
                return value
            expected = render("option_expected_whole")
        else:  # hand_sizes
            try:
                pairs = dict(value)  # type: ignore[call-overload]
                sizes = tuple(sorted((int(p), int(n)) for p, n in pairs.items()))
            except (TypeError, ValueError):
                sizes = ()
            if sizes and all(n > 0 for _, n in sizes):
                return sizes
            expected = render("option_expected_hand_sizes")
        raise VariantError(
            render(
                "bad_option_value", name=name, variant=self.title, expected=expected, value=value
            )
        )

    def __str__(self) -> str:
        title = in_language(self.title)  # in the current language
        changed = self.changes()
        if not changed:
            return title
        settings = ", ".join(f"{k}={v}" for k, v in changed.items())
        return f"{title} ({settings})"


HUNGARIAN = Variant(
    name="hungarian",
    title=render("variant_title_hungarian", language="en"),
    rulebook="H",
    source="Hungarian Rummy (Römi), translated from the Portuguese seed text",
    version="1",
    decks=2,
    jokers=4,
    players_min=2,
    players_max=4,
    hand_sizes=((2, 14), (3, 14), (4, 14)),
    starter_extra=1,
    ace_low=True,
    ace_above_king=True,
    jokers_per_meld=1,
    opening_threshold=51,
    no_opening_first_turn=True,
    ace_points=10,
    face_points=10,
    joker_points=20,
    discard_to_win=True,
    cut_card=True,
    first_draw_keeps_discard=True,
    discard_take_must_play=True,
    joker_exchange=True,
    go_out_points=-10,
    go_out_hand_points=-20,
    unopened_penalty=100,
    rounds=7,
    target=0,
    reshuffle_discards=True,
    low_score_wins=True,
)
"""Hungarian Rummy (H1–H15): 108 cards, 51-point opening, cut card, 7 rounds, low score wins."""

ROMMI = Variant(
    name="rommi",
    title=render("variant_title_rommi", language="en"),
    rulebook="R",
    source="CardVerse variant",
    version="1.1.0",
    decks=1,
    jokers=0,
    players_min=2,
    players_max=4,
    hand_sizes=((2, 7), (3, 10), (4, 10)),
    starter_extra=0,
    ace_low=False,
    ace_above_king=True,
    jokers_per_meld=0,
    opening_threshold=0,
    no_opening_first_turn=False,
    ace_points=1,
    face_points=10,
    joker_points=0,
    discard_to_win=False,
    cut_card=False,
    first_draw_keeps_discard=False,
    discard_take_must_play=False,
    joker_exchange=False,
    go_out_points=0,
    go_out_hand_points=0,
    unopened_penalty=0,
    rounds=0,
    target=100,
    reshuffle_discards=False,
    ace_high=False,
    low_score_wins=False,
)
"""Rommi, CardVerse variant 1.1.0 (R1–R12): 52 cards, no jokers, ace high only, to 100."""

VARIANTS: dict[str, Variant] = {v.name: v for v in (HUNGARIAN, ROMMI)}
"""The built-in variants by name."""


def variant(name: str | Variant, /, **options: Any) -> Variant:
    """A built-in variant by name, with options for house rules.

    >>> variant("rommi", ace_high=True, target=50).target
    50
    >>> variant("poker")
    Traceback (most recent call last):
    ...
    rummykit.variants.VariantError: 'poker' is not a variant: choose one of hungarian, rommi
    """
    if isinstance(name, Variant):
        return name.derive(**options)
    key = name.strip().lower()
    if key not in VARIANTS:
        raise VariantError(render("unknown_variant", name=name, choices=", ".join(VARIANTS)))
    return VARIANTS[key].derive(**options)
