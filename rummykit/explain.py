"""Explanations as data: :class:`Reason` and :class:`Verdict`, and the reason-code catalogue.

A check never returns a bare ``True``/``False``. It returns a :class:`Verdict` whose reasons
say what was found, name the cards and cite the rule:

>>> from rummykit import check_meld
>>> verdict = check_meld("K♠ A♠ 2♠")
>>> bool(verdict), verdict.codes
(False, ('run_wraps',))
>>> print(verdict.failures[0])
K♠ A♠ 2♠ wraps around the ace: in a run the ace goes below the 2 (A-2-3) or above the king (Q-K-A), never between them. (H4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rummykit.cards import Card
from rummykit.drawing import verdict_html
from rummykit.errors import RummykitError
from rummykit.messages import render


class Rulebook(Protocol):
    """What a catalogue entry asks of a variant: its rulebook and the rule id of a topic."""

    @property
    def rulebook(self) -> str: ...

    def rule(self, topic: str) -> str: ...


__all__ = [
    "CATALOGUE",
    "Code",
    "Reason",
    "Verdict",
    "VerdictError",
    "cite",
    "example_sentence",
    "help_code",
    "rule_code",
]


@dataclass(frozen=True, slots=True)
class Reason:
    """One finding of a check: a stable ``code``, the ``rule`` it cites, the ``cards`` at fault.

    ``failing`` reasons make a verdict fail; the others explain (what a valid meld is, what a
    joker stands for, how many points it is worth).
    """

    code: str
    rule: str | None = None
    cards: tuple[Card, ...] = ()
    params: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)
    failing: bool = True
    template: str | None = field(default=None, compare=False)

    @property
    def message(self) -> str:
        """The sentence for this reason, without the rule citation (current language)."""
        return render(self.template or self.code, self.params)

    def render(self, language: str | None = None) -> str:
        """The sentence with its rule citation, in ``language`` (default: the current one).

        >>> from rummykit import check_meld
        >>> check_meld("9♠ 9♥").failures[0].render("en")
        'A meld needs at least three cards; 9♠ 9♥ has two. (H4)'
        """
        message = render(self.template or self.code, self.params, language)
        return f"{message} ({self.rule})" if self.rule else message

    def __str__(self) -> str:
        return self.render()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form: code, rule, message, cards (as text)."""
        return {
            "code": self.code,
            "rule": self.rule,
            "message": self.message,
            "cards": [str(c) for c in self.cards],
            "failing": self.failing,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to a check: ``ok`` or not, and every reason why.

    ``bool(verdict)`` is ``verdict.ok``. ``kind`` is ``"run"``, ``"set"`` or ``None``;
    ``points`` is the value toward the opening (``None`` when it is not a meld); ``jokers``
    lists, for each joker, every card it may stand for.
    """

    reasons: tuple[Reason, ...] = ()
    cards: tuple[Card, ...] = ()
    kind: str | None = None
    points: int | None = None
    jokers: tuple[tuple[Card, ...], ...] = ()
    variant: str = ""
    details: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)

    @property
    def ok(self) -> bool:
        """True when no reason fails."""
        return not any(r.failing for r in self.reasons)

    def __bool__(self) -> bool:
        return self.ok

    @property
    def failures(self) -> tuple[Reason, ...]:
        """The reasons that make this verdict fail."""
        return tuple(r for r in self.reasons if r.failing)

    @property
    def codes(self) -> tuple[str, ...]:
        """The codes of the failing reasons, in order."""
        return tuple(r.code for r in self.failures)

    @property
    def rules(self) -> tuple[str, ...]:
        """Every rule id cited, once each, in order."""
        seen: dict[str, None] = {}
        for r in self.reasons:
            if r.rule:
                seen.setdefault(r.rule, None)
        return tuple(seen)

    @property
    def highlighted(self) -> frozenset[Card]:
        """The cards any failing reason names."""
        return frozenset(c for r in self.failures for c in r.cards)

    @property
    def message(self) -> str:
        """The explanation as one readable paragraph (same as ``str(verdict)``)."""
        return str(self)

    def render(self, language: str | None = None) -> str:
        """The explanation as one paragraph in ``language`` (default: the current one). The
        verdict holds no sentence, only codes and data, so any language can say it.

        >>> from rummykit import check_meld
        >>> check_meld("9♠ 9♥").render("en")
        '9♠ 9♥ is not a valid meld in Hungarian Rummy. A meld needs at least three cards; 9♠ 9♥ has two. (H4)'
        """
        return " ".join(r.render(language) for r in self.reasons)

    def __str__(self) -> str:
        return self.render()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form of the verdict."""
        return {
            "ok": self.ok,
            "kind": self.kind,
            "points": self.points,
            "variant": self.variant,
            "cards": [str(c) for c in self.cards],
            "jokers": [[str(c) for c in options] for options in self.jokers],
            "reasons": [r.to_dict() for r in self.reasons],
        }

    def _repr_html_(self) -> str:
        return verdict_html(self)

    @classmethod
    def of(cls, reasons: Iterable[Reason], **fields: Any) -> Verdict:
        """Build a verdict from reasons (a convenience for checks)."""
        return cls(reasons=tuple(reasons), **fields)


class VerdictError(RummykitError):
    """An error that carries the :class:`Verdict` saying why: its ``code`` is the first
    failing reason's, and :meth:`render` says the whole verdict in a language."""

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(str(verdict))
        self.verdict = verdict
        self.code = verdict.codes[0] if verdict.codes else "not_allowed"
        self.params = verdict.failures[0].params if verdict.failures else {}

    def render(self, language: str | None = None) -> str:
        return self.verdict.render(language)


@dataclass(frozen=True, slots=True)
class Code:
    """What a reason code means and whom it cites: a rule topic, or nobody (a help).

    ``topic`` is the rule topic a reason with this code cites (``variant.rule(topic)``, e.g.
    ``"meld"`` → H4 or R3); ``None`` marks a *help*, a sentence of the software's own that
    cites no rule. ``only`` names the rulebook(s) whose rule says it (``"R"``: Rommi's rule
    says it, Hungarian's rules don't, so there it cites nothing). ``example`` holds the
    parameters that render the code's template as an example sentence.
    """

    topic: str | None
    meaning: str
    example: Mapping[str, object] = field(default_factory=dict)
    only: str = "HR"

    @property
    def is_rule(self) -> bool:
        """Whether reasons with this code cite a rule (else: a help, citing none)."""
        return self.topic is not None

    def rule(self, variant: Rulebook) -> str | None:
        """The rule id this code cites in ``variant`` (None for a help)."""
        if self.topic is None or variant.rulebook not in self.only:
            return None
        try:
            return variant.rule(self.topic)
        except KeyError:  # a topic only one rulebook has (Rommi's endless-round rule)
            return None


def rule_code(topic: str, meaning: str, *, only: str = "HR", **example: object) -> Code:
    """A catalogue entry for a code that cites the rule of ``topic``."""
    return Code(topic, meaning, example, only)


def help_code(meaning: str, **example: object) -> Code:
    """A catalogue entry for a help: the software's own sentence, citing no rule."""
    return Code(None, meaning, example)


def cite(code: str, variant: Rulebook) -> str | None:
    """The rule id a reason with ``code`` cites in ``variant`` (None: a help).

    >>> from rummykit import HUNGARIAN, ROMMI
    >>> cite("run_wraps", HUNGARIAN), cite("run_wraps", ROMMI), cite("no_such_meld", ROMMI)
    ('H4', 'R3', None)
    """
    return CATALOGUE[code].rule(variant)


def example_sentence(code: str) -> str:
    """The code's template rendered with its catalogue example.

    >>> example_sentence("run_gap")
    '5♥ 6♥ 8♥ skips the 7♥: the cards of a run follow one another.'
    """
    return render(code, CATALOGUE[code].example)


# Every reason code anything in rummykit gives — the meld checks, the referee, scoring, the
# widgets — with the rule topic it cites (rule_code) or none (help_code) and an example.
# Add an entry here for every new code (tests/test_sentences.py finds the codes in use).
CATALOGUE: dict[str, Code] = {
    # --- why a meld fails (rummykit.melds) ---
    "too_few_cards": rule_code(
        "meld", "a meld has fewer than three cards", cards="9♠ 9♥", count_word="two"
    ),
    "identical_cards": rule_code(
        "meld",
        "a set holds two identical cards",
        cards="9♠",
        times="twice",
        each="",
        set_word="set",
    ),
    "set_rank_mismatch": rule_code(
        "meld",
        "a set holds cards of different ranks",
        cards="10♥",
        rank_phrase="a 9",
        set_word="set",
    ),
    "set_too_large": rule_code(
        "meld",
        "a set holds more than four cards",
        cards="9♠ 9♥ 9♦ 9♣ 🃏",
        count_word="five",
        set_word="set",
    ),
    "run_suit_mismatch": rule_code(
        "meld", "a run holds cards of different suits", cards="10♥", suit_phrase="a spade"
    ),
    "run_gap": rule_code(
        "meld", "a run skips a card that no joker fills", cards="5♥ 6♥ 8♥", missing="the 7♥"
    ),
    "run_duplicate_rank": rule_code(
        "meld", "a run holds one rank twice", cards="7♥", times="twice", each=""
    ),
    "run_too_long": rule_code(
        "meld",
        "a run would need more than 13 cards",
        cards="A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ 🃏",
        count=14,
        limit=13,
        span="from A to K or from 2 to A",
    ),
    "run_wraps": rule_code(
        "meld",
        "a run turns the corner at the ace (K-A-2)",
        cards="K♠ A♠ 2♠",
        ace_places="below the 2 (A-2-3) or above the king (Q-K-A)",
        between="them",
    ),
    "ace_low_not_allowed": rule_code(
        "meld", "the ace stands below the 2 where it may not", cards="A♥ 2♥ 3♥", variant="Rommi"
    ),
    "ace_high_not_allowed": rule_code(
        "meld",
        "the ace stands above the king where it may not",
        cards="Q♥ K♥ A♥",
        variant="Hungarian Rummy with no ace above the king",
    ),
    "too_many_jokers": rule_code(
        "joker",
        "a meld holds more jokers than allowed",
        cards="5♥ 🃏 🃏",
        count_word="two",
        limit_word="one",
    ),
    "jokers_not_allowed": rule_code(
        "joker", "the variant is played without jokers", cards="🃏", variant="Rommi"
    ),
    "not_in_deck": rule_code(
        "deck",
        "the meld holds more copies of a card than the deck",
        variant="Rommi",
        decks_word="one deck",
        is_are="is",
        copies_word="one",
        card="9♠",
        count_word="two",
    ),
    # --- what a meld is (rummykit.melds) ---
    "meld_invalid": help_code(
        "the head of an invalid meld's verdict", cards="K♠ A♠ 2♠", variant="Hungarian Rummy"
    ),
    "valid_run": rule_code(
        "meld", "a valid run", cards="5♥ 🃏 7♥", suit_name="hearts", low="5", high="7"
    ),
    "valid_run_open": rule_code(
        "meld", "a valid run whose ends are open", cards="🃏 2♥ 3♥", suit_name="hearts"
    ),
    "valid_set": rule_code(
        "meld", "a valid set", cards="9♠ 9♥ 9♦", rank_plural="9s", set_word="set"
    ),
    "joker_is": rule_code("joker", "the one card a joker stands for", only="H", stands_for="6♥"),
    "jokers_are": rule_code(
        "joker", "the cards several jokers stand for", only="H", stands_for="the 6♥ and the 7♥"
    ),
    "joker_is_one_of": rule_code(
        "joker",
        "a joker whose card the player names",
        only="H",
        choices="the A♥ (worth 10) or the 4♥ (worth 4)",
    ),
    "joker_in_set": rule_code(
        "joker", "the missing suit a joker stands for", only="H", choices="9♣"
    ),
    "joker_in_set_one_of": rule_code(
        "joker",
        "a set's joker stands for one of the missing suits",
        only="H",
        choices="the 9♠ or the 9♣",
    ),
    "meld_readings": rule_code(
        "joker",
        "cards that make a meld in several ways, each a whole reading",
        only="H",
        cards="5♥ 🃏 🃏",
        count_word="three",
    ),
    "reading_run": rule_code(
        "joker",
        "one reading: a run, what each joker stands for, its value",
        only="H",
        suit_name="hearts",
        low="5",
        high="7",
        jokers="the jokers are the 6♥ and the 7♥",
        points=18,
    ),
    "reading_set": rule_code(
        "joker",
        "one reading: a set, what its jokers stand for, its value",
        only="H",
        rank_plural="5s",
        set_word="set",
        jokers="the jokers are two of the missing 5♠, 5♦ and 5♣",
        points=15,
    ),
    "meld_value": rule_code(
        "opening", "a valid meld's value toward the opening", only="H", points=18
    ),
    "meld_value_readings": rule_code(
        "opening",
        "a meld's value in each reading",
        only="H",
        choices="15 as A♥ 2♥ 3♥ or 9 as 2♥ 3♥ 4♥",
    ),
    "joker_as_mismatch": rule_code(
        "joker",
        "the jokers can't stand for the cards a player names",
        only="H",
        cards="🃏 2♥ 3♥",
        wanted="the joker is the 5♥",
        choices="the joker is the A♥ or the joker is the 4♥",
    ),
    # --- lay-offs (rummykit.melds) ---
    "layoff_ok": rule_code(
        "meld",
        "cards that fit onto a meld",
        cards="7♥",
        fit="fits",
        meld="4♥ 5♥ 6♥",
        result="4♥ 5♥ 6♥ 7♥",
    ),
    "layoff_ok_if": rule_code(
        "joker",
        "cards that fit onto a meld only in some readings of its jokers",
        only="H",
        cards="4♥",
        fit="fits",
        meld="🃏 2♥ 3♥",
        jokers="the joker is the A♥",
        result="🃏 2♥ 3♥ 4♥",
    ),
    "layoff_fails_if": rule_code(
        "joker",
        "cards that don't fit onto a meld in a reading of its jokers",
        only="H",
        cards="4♥",
        meld="🃏 2♥ 3♥",
        jokers="the joker is the 4♥",
    ),
    "layoff_ok_joker": rule_code(
        "joker",
        "a joker that fits onto a meld, and what it stands for there",
        only="H",
        cards="🃏",
        fit="fits",
        meld="3♠ 4♠ 5♠ 7♠",
        result="3♠ 4♠ 5♠ 🃏 7♠",
        stands_for="the 6♠",
    ),
    "layoff_ok_jokers": rule_code(
        "joker",
        "jokers that fit onto a meld, and what they stand for there",
        only="H",
        cards="🃏 🃏",
        fit="fit",
        meld="3♠ 4♠ 5♠ 8♠",
        result="3♠ 4♠ 5♠ 🃏 🃏 8♠",
        stands_for="the 6♠ and the 7♠",
    ),
    "layoff_ok_joker_open": rule_code(
        "joker",
        "a joker that fits onto either end of a run",
        only="H",
        cards="🃏",
        fit="fits",
        meld="3♠ 4♠ 5♠",
        readings="3♠ 4♠ 5♠ 🃏 with the joker as the 6♠ or 🃏 3♠ 4♠ 5♠ with the joker as the 2♠",
    ),
    "layoff_invalid": help_code(
        "the head of a refused lay-off's verdict", cards="10♦", meld="9♠ 9♥ 9♦"
    ),
    "layoff_not_a_meld": help_code("the meld to lay off onto is not a valid meld", meld="K♠ A♠ 2♠"),
    "layoff_no_cards": help_code("a lay-off without cards", meld="4♥ 5♥ 6♥"),
    "layoff_changes_kind": rule_code(
        "layoff",
        "a lay-off would turn a meld into another kind (melds are never rearranged)",
        only="R",  # R6 says it; no Hungarian rule does (H6 is the turn's order)
        cards="5♠",
        meld="5♥ 🃏 🃏",
        kind="run",
    ),
    "layoff_moves_joker": rule_code(
        "joker",
        "a lay-off would need a joker to stand for another card",
        only="H",
        cards="6♥",
        meld="5♥ 🃏 7♥",
        stands_for="the 6♥",
    ),
    # --- the opening (rummykit.melds) ---
    "opening_meld_value": rule_code(
        "opening", "one meld's value", only="H", meld="3♣ 4♣ 5♣", points=12
    ),
    "opening_total_ok": rule_code(
        "opening", "an opening reaches the threshold", only="H", total=84, threshold=51
    ),
    "opening_short": rule_code(
        "opening", "an opening falls short", only="H", total=36, threshold=51, missing=15
    ),
    "opening_blocked": rule_code(
        "opening",
        "an opening with enough points that can't go down as it is",
        only="H",
        total=54,
        threshold=51,
    ),
    "opening_total_readings": rule_code(
        "opening",
        "an opening's total in each reading of its jokers",
        only="H",
        choices="51 if the joker in 🃏 2♥ 3♥ is the A♥ or 45 if it is the 4♥",
        threshold=51,
    ),
    "opening_none": rule_code("opening", "an opening without melds", only="H"),
    "no_melds": help_code("nothing to lay down"),
    "opening_not_required": rule_code(
        "opening", "the variant has no opening threshold", variant="Rommi"
    ),
    "opening_bad_meld": rule_code(
        "opening", "an invalid meld counts nothing toward the opening", only="H", meld="K♠ A♠ 2♠"
    ),
    "opening_bad_meld_free": help_code("an invalid meld can't go down", meld="K♠ A♠ 2♠"),
    "opening_card_reused": rule_code(
        "deck",
        "melds use a card more often than the deck holds",
        card="9♠",
        times="twice",
        variant="Rommi",
        copies_word="one",
    ),
    # --- the referee: refusals (rummykit.game) ---
    "action_refused": help_code("the head of a refusal", action="discard 9♠"),
    "action_ok": help_code("an allowed action", action="discard 9♠"),
    "round_over": rule_code("turn", "the round is over"),
    "not_your_turn": rule_code("turn", "another seat is to play", current=1, seat=2),
    "cut_not_now": rule_code("deal", "the deck was already cut"),
    "cut_bad_height": rule_code("deal", "a cut outside the deck", most=80),
    "cut_first": rule_code("deal", "the deck must be cut first", seat=1),
    "draw_first": rule_code("turn", "a turn starts with a draw"),
    "nothing_to_undo": help_code("undo with nothing to undo"),
    "cut_not_taken": rule_code("cut_card", "giving back a cut card not taken"),
    "starter_discards": rule_code("deal", "the starter's first turn is a discard"),
    "already_drew": rule_code("turn", "a second draw in one turn"),
    "discard_empty": rule_code("turn", "taking from an empty discard pile"),
    "discard_take_again": help_code("taking back a discard put back this turn"),
    "no_cut_card_rule": rule_code("turn", "the variant has no cut card", variant="Rommi"),
    "cut_card_second_attempt": rule_code("cut_card", "a second try at the cut card"),
    "cut_card_gone": rule_code("cut_card", "the cut card was already taken"),
    "card_not_in_hand": rule_code("turn", "playing cards not held", cards="9♠"),
    "first_turn_no_opening": rule_code("first_turn", "no opening on the first turn"),
    "not_opened_layoff": rule_code("opening", "a lay-off before opening", threshold=51),
    "not_opened_exchange": rule_code("opening", "a joker exchange before opening", threshold=51),
    "must_keep_discard": rule_code(
        "going_out", "the last card must be discarded", variant="Hungarian Rummy"
    ),
    "no_such_meld": help_code("a meld number not on the table", number=4, count=3),
    "joker_as_impossible": rule_code(
        "joker", "a joker meaning the cards don't allow", card="5♥", choices="the A♥ or the 4♥"
    ),
    "joker_as_no_joker": rule_code(
        "joker", "a joker meaning for cards without such a joker", cards="4♥ 5♥ 6♥", card="7♥"
    ),
    "joker_ambiguous": rule_code(
        "joker", "a joker whose meaning must be named", choices_text="the A♥ or the 4♥"
    ),
    "exchange_not_allowed": rule_code(
        "joker_exchange", "the variant has no joker exchange", variant="Rommi"
    ),
    "no_joker_in_meld": rule_code("joker_exchange", "no joker to exchange", meld="4♥ 5♥ 6♥"),
    "joker_in_small_set": rule_code(
        "joker_exchange",
        "a set's joker can't be exchanged yet",
        meld="9♥ 9♣ 🃏",
        choices="9♠ or 9♦",
    ),
    "joker_wrong_card": rule_code(
        "joker_exchange",
        "handing in a card the joker doesn't stand for",
        meld="5♥ 🃏 7♥",
        stands_for="6♥",
        card="8♥",
    ),
    "cut_card_must_go_out": rule_code("cut_card", "the cut card taken but not out", card="7♥"),
    "turn_opening_short": rule_code(
        "opening", "a turn's opening falls short", total=36, threshold=51, missing=15
    ),
    "discard_take_unplayed": rule_code(
        "discard_take", "a card taken from the discard pile not played", card="7♥"
    ),
    "discard_take_not_in_opening": rule_code(
        "discard_take", "a card taken from the discard pile not in the opening", card="7♥"
    ),
    "joker_replay": rule_code(
        "joker_exchange", "an exchanged joker not played again", meld="5♥ 🃏 7♥"
    ),
    # --- the referee: scoring (rummykit.game.scoring) ---
    "score_went_out": rule_code("going_out", "the score for going out", seat=1, points=-10),
    "score_went_out_hand": rule_code(
        "going_out", "the score for opening and going out at once", seat=1, points=-20
    ),
    "score_out": rule_code("going_out", "who went out", seat=1),
    "score_unopened": rule_code("penalty", "a flat penalty for never opening", seat=2, points=100),
    "score_hand": rule_code("penalty", "a hand's penalty", seat=2, cards="K♠ 7♥", points=17),
    "score_winner_takes": rule_code("penalty", "the winner's gain", seat=1, points=17),
    "score_no_winner": rule_code("empty_stock", "the stock ran out twice"),
    "score_nothing_to_reshuffle": rule_code(
        "empty_stock", "an empty stock with nothing under the discard pile's top card"
    ),
    "score_deal_ended": rule_code("empty_stock", "the deal ended without a winner"),
    "score_empty_stock": rule_code("empty_stock", "a draw from the empty stock ends the deal"),
    "score_no_progress": rule_code("endless", "a whole round of turns without progress"),
    "score_lowest_hand": rule_code(
        "empty_stock", "the lowest hand wins the deal", seat=1, value=12
    ),
    "score_lowest_hand_tie": rule_code(
        "empty_stock", "tied lowest hands: seat order decides", seat=1, value=12
    ),
    # --- the card table widget (rummykit.widgets) ---
    "widget_select_one_discard": help_code("a discard needs one selected card"),
    "widget_select_meld": help_code("a meld needs selected cards"),
    "widget_select_layoff": help_code("a lay-off needs selected cards"),
    "widget_select_exchange": help_code("an exchange needs the selected card"),
    "widget_unknown_message": help_code("a message the widget does not know"),
    # a served table (rummykit tables) joined from the Table widget
    "tables_widget_waiting": help_code("a move is on its way to the table server"),
    "tables_widget_one_round": help_code("a served table plays one round"),
    "tables_widget_over": help_code("the served table's round is over"),
    "widget_no_next_round": help_code("no next round to deal"),
}
