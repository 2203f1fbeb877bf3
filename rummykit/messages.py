"""Every sentence rummykit says, as a template keyed by a stable code.

Checks and the referee never build sentences themselves: they pick a code and fill in
parameters, and :func:`render` turns that into English. A translation is another table with
the same keys.

>>> render("run_gap", cards="5♥ 6♥ 8♥", missing="the 7♥")
'5♥ 6♥ 8♥ skips the 7♥: the cards of a run follow one another.'

Parameters that are sequences (of cards, say) are written with spaces between them.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["LANGUAGES", "TEMPLATES", "join", "number_word", "render"]

TEMPLATES: dict[str, str] = {
    # --- reading input -------------------------------------------------------------------
    "card_parse_error": (
        "'{token}' is not a card: ranks are A, 2–10, J, Q, K; suits ♠♥♦♣ or s h d c; "
        "jokers 🃏 or Jk"
    ),
    "unknown_variant": "'{name}' is not a variant: choose one of {choices}",
    "unknown_option": "'{name}' is not an option of {variant}: options are {choices}",
    "bad_option_value": "option '{name}' of {variant} takes {expected}, not {value!r}",
    "bad_option_text": "'{text}' is not an option setting: write KEY=VALUE, e.g. ace_high=true",
    "label_valid": "✔ valid",
    "label_invalid": "✘ not valid",
    # --- meld checks: failures -----------------------------------------------------------
    "or_join": "{head} or {last}",
    "and_join": "{head} and {last}",
    "too_few_cards": "A meld needs at least three cards; {cards} has {count_word}.",
    "identical_cards": "{card} appears twice: two identical cards never count in a set.",
    "set_rank_mismatch": "Not a set: {cards} is not {rank_phrase}.",
    "set_rank_mismatch_many": "Not a set: {cards} are not {rank_phrase}.",
    "set_too_large": (
        "A set holds at most four cards, one of each suit; this one has {count_word}."
    ),
    "run_suit_mismatch": "Not a run: {cards} is not {suit_phrase}, and a run keeps to one suit.",
    "run_suit_mismatch_many": (
        "Not a run: {cards} are not {suit_phrase}, and a run keeps to one suit."
    ),
    "run_gap": "{cards} skips {missing}: the cards of a run follow one another.",
    "run_gap_joker": (
        "{cards} skips {missing}, more than {jokers_phrase} can fill: the cards of a run "
        "follow one another."
    ),
    "run_duplicate_rank": "{card} appears twice: each rank stands once in a run.",
    "run_duplicate_ace": (
        "{card} appears twice: the ace is low (A-2-3) or high (Q-K-A) in a run, never both."
    ),
    "run_too_long": (
        "{cards} needs {count} cards in a row, but a run holds at most {limit}: "
        "from {low} to {high}."
    ),
    "run_wraps": (
        "{cards} wraps around the ace: in a run the ace goes {ace_places}, never between them."
    ),
    "run_wraps_joker": (
        "{cards}: the joker would have to be the {stands_for}, and {shape} wraps around the ace."
    ),
    "ace_low_not_allowed": (
        "{cards} puts the ace below the 2; in {variant} the ace only follows the king (Q-K-A)."
    ),
    "ace_low_not_allowed_joker": (
        "{cards}: the joker would have to be the {stands_for}, below the 2; in {variant} the "
        "ace only follows the king (Q-K-A)."
    ),
    "ace_high_not_allowed": (
        "{cards} puts the ace above the king; in {variant} the ace only comes before the 2 (A-2-3)."
    ),
    "ace_high_not_allowed_joker": (
        "{cards}: the joker would have to be the {stands_for}, above the king; in {variant} "
        "the ace only comes before the 2 (A-2-3)."
    ),
    "too_many_jokers": "{cards} holds {count_word} jokers; a meld may hold only {limit_word}.",
    "jokers_not_allowed": "{variant} is played without jokers: {cards} can't be used.",
    "not_in_deck": (
        "{variant} uses {decks_word}, so there {is_are} only {copies_word} {card} — this meld "
        "holds {count_word}."
    ),
    "not_in_deck_joker": (
        "{variant} has only {copies_word} jokers — this meld holds {count_word}."
    ),
    # --- meld checks: explanations of valid melds ----------------------------------------
    "meld_invalid": "{cards} is not a valid meld in {variant}:",
    "valid_run": "{cards} is a run of {suit_name} from {low} to {high}.",
    "valid_run_open": "{cards} is a run of {suit_name}.",
    "valid_set": "{cards} is a set of {rank_plural}.",
    "joker_is": "The joker stands for the {stands_for}.",
    "joker_is_one_of": ("The joker stands for {choices} — say which when you lay it down."),
    "joker_in_set": "The joker stands for the missing {choices}.",
    "joker_in_set_one_of": "The joker stands for one of the missing suits: {choices}.",
    "meld_value": "Worth {points} toward the opening.",
    "meld_value_readings": "Worth {choices} toward the opening.",
    "value_as": "{points} as {cards}",
    "meld_hand_value": "Its cards count {points} in hand.",
    # --- lay-offs ------------------------------------------------------------------------
    "layoff_ok": "{cards} {fit} onto {meld}, making {result}.",
    "layoff_invalid": "{cards} can't go onto {meld}:",
    "layoff_no_cards": "Choose at least one card to lay off onto {meld}.",
    "layoff_changes_kind": (
        "{meld} is a {kind}; a lay-off keeps it a {kind} (melds on the table are never rearranged)."
    ),
    "layoff_moves_joker": (
        "The joker in {meld} stands for the {stands_for}; a lay-off can't change that — "
        "exchange the joker instead."
    ),
    # --- the opening ---------------------------------------------------------------------
    "opening_meld_value": "{meld}: {points}.",
    "opening_total_ok": "Your melds total {total}; opening needs {threshold} — you can open.",
    "opening_short": (
        "Your melds total {total}; opening needs {threshold} — {missing} more. Add a meld, or "
        "take these back."
    ),
    "opening_none": "An opening needs at least one meld.",
    "opening_not_required": "{variant} has no opening threshold: any valid meld may go down.",
    "opening_bad_meld": "{meld} is not a valid meld, so it can't count toward the opening.",
    "opening_card_reused": (
        "{card} is used {count_word} times across these melds; {variant} has only {copies_word}."
    ),
}
"""English templates, keyed by reason or message code."""

LANGUAGES: dict[str, dict[str, str]] = {"en": TEMPLATES}
"""Template tables by language code; add a table with the same keys to translate."""

_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)


def number_word(n: int) -> str:
    """``two`` for 2, up to ten; digits beyond.

    >>> number_word(2), number_word(14)
    ('two', '14')
    """
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def join(items: list[str], word: str = "or") -> str:
    """Join phrases the English way: ``a, b or c``.

    >>> join(["the A♥", "the 4♥"])
    'the A♥ or the 4♥'
    """
    if len(items) <= 1:
        return "".join(items)
    return render(f"{word}_join", head=", ".join(items[:-1]), last=items[-1])


def _text(value: object) -> object:
    if isinstance(value, (tuple, list)):
        return " ".join(str(v) for v in value)
    return value


def render(code: str, params: Mapping[str, object] | None = None, /, **more: object) -> str:
    """The sentence for ``code`` with its parameters filled in (English).

    >>> render("too_few_cards", cards="9♠ 9♥", count_word="two")
    'A meld needs at least three cards; 9♠ 9♥ has two.'
    """
    values = {**(params or {}), **more}
    template = TEMPLATES[code]
    return template.format_map({k: _text(v) for k, v in values.items()})
