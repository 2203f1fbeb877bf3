"""Every sentence rummykit says, as a template keyed by a stable code.

Checks and the referee never build sentences themselves: they pick a code and fill in
parameters, and :func:`render` turns that into a sentence of the current language (see
:mod:`rummykit.language`). English is this table; Portuguese and Finnish are gettext
catalogues keyed by the same codes (``rummykit/locale``, made from this table by ``make pot``).
A parameter that is itself a sentence (a :class:`Text`, as :func:`render` returns) is said
again in the language of the sentence it goes into, so the data stays language-free.

>>> render("run_gap", cards="5♥ 6♥ 8♥", missing="the 7♥")
'5♥ 6♥ 8♥ skips the 7♥: the cards of a run follow one another.'

Parameters that are sequences (of cards, say) are written with spaces between them. A
whole number written ``{count:cards}`` comes with its noun, singular or plural (the
templates ``count_cards_one`` and ``count_cards_other``):

>>> render("play_other", seat=2, count=1), render("play_other", seat=2, count=3)
('Seat 2: 1 card.', 'Seat 2: 3 cards.')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rummykit.language import (
    catalogue,
    check_language,
    describe_unknown_with,
    get_language,
    set_language,
    within,
)

__all__ = [
    "LANGUAGES",
    "NOTES",
    "RANK_PATTERNS",
    "TEMPLATES",
    "Series",
    "Text",
    "TranslationWarning",
    "add_templates",
    "decimal",
    "gender_word",
    "get_language",
    "in_language",
    "join",
    "number_choice",
    "number_word",
    "read_ranks_with",
    "render",
    "set_language",
    "write_cards_with",
    "write_ranks_with",
]

TEMPLATES: dict[str, str] = {
    # --- reading input -------------------------------------------------------------------
    "card_parse_error": (
        "'{token}' is not a card: ranks are A, 2–10, J, Q, K; suits ♠♥♦♣ or s h d c; "
        "jokers 🃏 or Jk"
    ),
    "unknown_variant": "'{name}' is not a variant: choose one of {choices}",
    "bad_seat": "seat must be from 0 to {last}, not {seat}",
    "bad_dealer": "dealer must be a seat from 0 to {last}, not {dealer}",
    "unknown_option": "'{name}' is not an option of {variant}: options are {choices}",
    "bad_option_value": "option '{name}' of {variant} takes {expected}, not {value!r}",
    "bad_option_text": "'{text}' is not an option setting: write KEY=VALUE, e.g. ace_high=true",
    "card_letters_ambiguous": (
        "'{text}' reads two ways: {local} with the language's suit letters, {english} with the "
        "English ones — write the suits as ♠ ♥ ♦ ♣ to say which"
    ),
    "card_letters_mixed": (
        "'{text}' mixes two ways of writing suits: {local} with the language's letters, "
        "{english} with the English ones — write every card one way"
    ),
    "list_one": "{item}",
    "interval": "[{low}, {high}]",
    # a share in a table cell: "51.7%" (Finnish writes a space before the sign)
    "percent": "{value}%",
    "label_valid": "✔ valid",
    "label_invalid": "✘ not valid",
    # --- the command line ----------------------------------------------------------------
    "cli_description": (
        "Learn rummy by asking why: check cards against the rules of Hungarian Rummy or "
        "Rommi and read every reason, with the rule it cites."
    ),
    "cli_check_help": "is this a valid meld, and why?",
    "cli_check_description": (
        "Check whether cards form a valid meld and explain why, citing the rules. "
        "Exit status: 0 valid, 1 not valid, 2 bad input."
    ),
    "cli_variant_help": "the variant whose rules apply: {choices} (default: {default})",
    "cli_option_help": (
        "a house rule as KEY=VALUE, e.g. ace_high=true, opening_threshold=40 or "
        "hand_sizes=2:7,3:10; repeat for more. Options: {choices}"
    ),
    "cli_json_help": "print the verdict as one JSON object",
    "cli_cards_help": "the cards, as one quoted string or several: 'K♠ A♠ 2♠', Ks As 2s, 10h, Jk",
    "cli_hand_sizes_expected": "cards per player by number of players, e.g. 2:7,3:10",
    "cli_no_cards": "no cards to check: write them like 'K♠ A♠ 2♠' or Ks As 2s",
    "cli_error": "rummykit {command}: {message}",
    # --- the notebooks folder ---------------------------------------------------------------
    "tutorials_cli_notebooks_help": "copy the tutorial notebooks into a folder",
    "tutorials_cli_notebooks_description": (
        "Copy the tutorial notebooks that come with rummykit, and their README, into a folder "
        "(created if needed). Files already there are left alone unless you add --force. "
        "Exit status: 0 copied, 2 nothing copied."
    ),
    "tutorials_cli_folder_help": "the folder to copy the notebooks into",
    "tutorials_cli_force_help": (
        "overwrite notebooks already in the folder (changes made in them are lost)"
    ),
    "tutorials_cli_lab_help": "open the tutorial notebooks in JupyterLab",
    "tutorials_cli_lab_description": (
        "Copy the tutorial notebooks into a folder if they aren't there yet (notebooks already "
        "there are kept as they are) and open JupyterLab on it. Needs JupyterLab: "
        'pip install "rummykit[notebook]".'
    ),
    "tutorials_cli_lab_folder_help": "the folder for the notebooks (default: {default})",
    "tutorials_cli_lab_force_help": (
        "copy fresh notebooks over the ones already in the folder (changes made in them are lost)"
    ),
    "tutorials_cli_no_browser_help": "start JupyterLab without opening a browser",
    "tutorials_cli_port_help": "the port JupyterLab listens on, on this computer (default: its own)",
    "tutorials_written": "Copied {count:files} into {folder}:",
    "tutorials_written_file": "  {name}",
    "tutorials_next": "Start with {first}: rummykit lab {folder} opens them in JupyterLab.",
    "tutorials_opening": "Opening JupyterLab in {folder}; Ctrl-C stops it.",
    "tutorials_would_overwrite": (
        "{folder} already holds {names}, so nothing was copied: choose another folder, or add "
        "--force to overwrite {count:files} (changes made in them are lost)"
    ),
    "tutorials_not_a_folder": "{folder} is a file, not a folder: give a folder for the notebooks",
    "tutorials_cannot_write": "can't write the notebooks into {folder}: {error}",
    "tutorials_missing": (
        "this installation of rummykit has no tutorial notebooks: reinstall it with "
        'pip install --force-reinstall "rummykit[notebook]"'
    ),
    "tutorials_no_jupyterlab": (
        "JupyterLab is not installed here. Install rummykit with its notebook extra, "
        'pip install "rummykit[notebook]", then run rummykit lab again.'
    ),
    "count_files_one": "{n} file",
    "count_files_other": "{n} files",
    "tutorials_cli_edition_help": (
        "student (the default): no answers, no stored feedback, no teacher's notes; teacher: "
        "the lessons with their answers, feedback and a teacher's note (not for the class)"
    ),
    "tutorials_edition_student": (
        "This is the student edition: the answers are left to the students "
        "(for the teacher's, add --edition teacher)."
    ),
    "tutorials_edition_teacher": (
        "This is the teacher edition: every exercise answered, its feedback stored, a teacher's "
        "note at the top of each lesson. Don't hand it out to the class."
    ),
    "edition_unknown": "'{edition}' is not an edition: choose {choices}",
    # --- meld checks: failures -----------------------------------------------------------
    "or_join": "{head} or {last}",
    "and_join": "{head} and {last}",
    "too_few_cards": "A meld needs at least three cards; {cards} has {count_word}.",
    "too_few_cards_none": "A meld needs at least three cards; none were given.",
    "identical_cards": (
        "{cards} appears {times}: two identical cards never count in a {set_word}."
    ),
    "identical_cards_many": (
        "{cards} each appear {times}: two identical cards never count in a {set_word}."
    ),
    "set_rank_mismatch": "Not a {set_word}: {cards} is not {rank_phrase}.",
    "set_rank_mismatch_many": "Not a {set_word}: {cards} are not {rank_phrase}.",
    "set_too_large": (
        "A {set_word} holds at most four cards, one of each suit; {cards} has {count_word}."
    ),
    "run_suit_mismatch": "Not a run: {cards} is not {suit_phrase}, and a run keeps to one suit.",
    "run_suit_mismatch_many": (
        "Not a run: {cards} are not {suit_phrase}, and a run keeps to one suit."
    ),
    "run_suits_different": (
        "Not a run: {cards} are {count_word} different suits, and a run keeps to one suit."
    ),
    "run_suits_mixed": "Not a run: {cards} mixes {suit_names}, and a run keeps to one suit.",
    "run_gap": "{cards} skips {missing}: the cards of a run follow one another.",
    "run_gap_joker": (
        "{cards} skips {missing} — {gaps_word} gaps and only {jokers_phrase} to fill them: "
        "the cards of a run follow one another."
    ),
    "run_duplicate_rank": "{cards} appears {times}: each rank stands once in a run.",
    "run_duplicate_rank_many": "{cards} each appear {times}: each rank stands once in a run.",
    "run_duplicate_ace": (
        "{cards} appears {times}: the ace is low ({ranks_a23}) or high ({ranks_qka}) in a run, "
        "never both."
    ),
    "run_too_long": (
        "{cards} needs {count} cards in a row, but a run holds at most {limit}: {span}."
    ),
    "run_wraps": (
        "{cards} wraps around the ace: in a run the ace goes {ace_places}, never between {between}."
    ),
    "run_wraps_joker": (
        "{cards}: the joker would have to be the {stands_for}, and {shape} wraps around the ace."
    ),
    "ace_low_not_allowed": (
        "{cards} puts the ace below the 2; in {variant} the ace only follows the king "
        "({ranks_qka})."
    ),
    "ace_low_not_allowed_joker": (
        "{cards}: the joker would have to be the {stands_for}, below the 2; in {variant} the "
        "ace only follows the king ({ranks_qka})."
    ),
    "ace_low_nowhere": "{cards} puts the ace below the 2; in {variant} no run holds an ace.",
    "ace_low_nowhere_joker": (
        "{cards}: the joker would have to be the {stands_for}, below the 2; in {variant} no "
        "run holds an ace."
    ),
    "ace_high_not_allowed": (
        "{cards} puts the ace above the king; in {variant} the ace only comes before the 2 "
        "({ranks_a23})."
    ),
    "ace_high_not_allowed_joker": (
        "{cards}: the joker would have to be the {stands_for}, above the king; in {variant} "
        "the ace only comes before the 2 ({ranks_a23})."
    ),
    "ace_high_nowhere": "{cards} puts the ace above the king; in {variant} no run holds an ace.",
    "ace_high_nowhere_joker": (
        "{cards}: the joker would have to be the {stands_for}, above the king; in {variant} no "
        "run holds an ace."
    ),
    "too_many_jokers": "{cards} holds {count_word} jokers; a meld may hold only {limit_word}.",
    "jokers_not_allowed": "{variant} is played without jokers: {cards} can't be used.",
    "jokers_not_allowed_house": (
        "Under your house rules a meld holds no joker: {cards} can't be used."
    ),
    "not_in_deck": (
        "{variant} uses {decks_word}, so there {is_are} only {copies_word} {card} — this meld "
        "holds {count_word}."
    ),
    "not_in_deck_many": (
        "{variant} uses {decks_word}, so there {is_are} only {copies_word} of each card — this "
        "meld holds {counts}."
    ),
    "not_in_deck_joker": (
        "{variant} has only {copies_word} jokers — this meld holds {count_word} {card}."
    ),
    "card_times": "{count_word} {card}",
    "decks_word_one": "one deck",
    "decks_word_many": "{count_word} decks",
    "there_is": "is",
    "there_are": "are",
    "the_card": "the {card}",
    "card_worth": "the {card} (worth {points})",
    "times_twice": "twice",
    "times_many": "{count_word} times",
    "missing_range": "{count:cards}, the {first} to the {last}",
    "missing_ranges": "{count:cards}, {ranges}",
    "missing_span": "the {first} to the {last}",
    "jokers_one": "one joker",
    "jokers_many": "{count_word} jokers",
    "span_ace_low": "from {rank_a} to {rank_k}",
    "span_ace_high": "from 2 to {rank_a}",
    "span_no_ace": "from 2 to {rank_k}",
    "ace_place_low": "below the 2 ({ranks_a23})",
    "ace_place_high": "above the king ({ranks_qka})",
    "ace_place_none": "nowhere in a run",
    "between_them": "them",
    "between_king_and_two": "the king and the 2",
    # --- meld checks: explanations of valid melds ----------------------------------------
    "meld_invalid": "{cards} is not a valid meld in {variant}.",
    "valid_run": "{cards} is a run of {suit_name} from {low} to {high}.",
    "valid_run_open": "{cards} is a run of {suit_name}.",
    "valid_set": "{cards} is a {set_word} of {rank_plural}.",
    "joker_is": "The joker stands for the {stands_for}.",
    "jokers_are": "The jokers stand for {stands_for}.",
    "joker_is_one_of": ("The joker stands for {choices} — say which when you lay it down."),
    "joker_in_set": "The joker stands for the missing {choices}.",
    "joker_in_set_one_of": "The joker stands for one of the missing suits: {choices}.",
    "jokers_in_set_some_of": ("The jokers stand for {count_word} of the missing suits: {choices}."),
    "meld_readings": ("{cards} makes a meld in {count_word} ways; say which when you lay it down."),
    "reading_run": "As a run of {suit_name} from {low} to {high}, {jokers}: worth {points}.",
    "reading_set": "As a {set_word} of {rank_plural}, {jokers}: worth {points}.",
    "reading_run_free": "As a run of {suit_name} from {low} to {high}, {jokers}.",
    "reading_set_free": "As a {set_word} of {rank_plural}, {jokers}.",
    "jokers_phrase_one": "the joker is the {card}",
    "jokers_phrase_many": "the jokers are {cards}",
    "jokers_phrase_set_one": "the joker is one of the missing {cards}",
    "jokers_phrase_set_many": "the jokers are {count_word} of the missing {cards}",
    "meld_value": "Worth {points} toward the opening.",
    "meld_value_readings": "Worth {choices} toward the opening.",
    "value_as": "{points} as {cards}",
    "meld_hand_value": "Its cards count {points} in hand.",
    "kind_set": "set",
    "kind_group": "group",
    "kind_run": "run",
    # --- meld checks: house rules named in words -----------------------------------------
    "variant_with_house_rules": "{title} with {rules}",
    "house_ace_low_on": "the ace also below the 2",
    "house_ace_low_off": "no ace below the 2",
    "house_ace_above_king_on": "the ace also above the king",
    "house_ace_above_king_off": "no ace above the king",
    "house_jokers_per_meld_none": "no jokers in a meld",
    "house_jokers_per_meld_one": "one joker per meld",
    "house_jokers_per_meld": "up to {count_word} jokers in a meld",
    "house_opening_threshold": "an opening of {points}",
    "house_opening_none": "no opening threshold",
    "house_ace_value": "aces worth {points}",
    "house_face_value": "face cards worth {points}",
    "house_discard_to_win_on": "the final-discard rule",
    "house_discard_to_win_off": "no final discard",
    "house_cut_card_on": "a cut card",
    "house_cut_card_off": "no cut card",
    "house_joker_exchange_on": "joker exchanges",
    "house_joker_exchange_off": "no joker exchange",
    # --- lay-offs ------------------------------------------------------------------------
    "layoff_verb_one": "fits",
    "layoff_verb_many": "fit",
    "layoff_ok": "{cards} {fit} onto {meld}, making {result}.",
    "layoff_ok_if": "{cards} {fit} onto {meld} if {jokers}, making {result}.",
    "layoff_fails_if": "If {jokers}, {cards} can't go onto {meld}.",
    "layoff_invalid": "{cards} can't go onto {meld}.",
    "layoff_not_a_meld": "{meld} is not a meld on which cards can be laid off.",
    "layoff_no_cards": "Choose at least one card to lay off onto {meld}.",
    "layoff_changes_kind": (
        "{cards} would turn {meld} into another kind of meld; it is a {kind}, and a lay-off "
        "keeps it a {kind} (melds on the table are never rearranged)."
    ),
    "layoff_moves_joker": (
        "{cards} would need the joker in {meld} to move, but it stands for {stands_for} "
        "and a lay-off can't change that — exchange the joker instead."
    ),
    "layoff_ok_joker": "{cards} {fit} onto {meld}, making {result}, the joker as {stands_for}.",
    "layoff_ok_jokers": ("{cards} {fit} onto {meld}, making {result}, the jokers as {stands_for}."),
    "layoff_ok_joker_open": "{cards} {fit} onto {meld}, making {readings}.",
    "layoff_ok_joker_reading": "{result} with the joker as {stands_for}",
    "layoff_ok_jokers_reading": "{result} with the jokers as {stands_for}",
    "condition_if": "if {jokers}",
    "jokers_in_one": "the joker in {meld} is the {card}",
    "jokers_in_many": "the jokers in {meld} are {cards}",
    "jokers_in_set": "{meld} is a {set_word}",
    "jokers_it_is": "it is the {card}",
    "jokers_they_are": "they are {cards}",
    "jokers_it_is_set": "it is a {set_word}",
    "joker_as_mismatch": (
        "{cards} can't be laid down so that {wanted}; it can be laid down so that {choices}."
    ),
    # --- the opening ---------------------------------------------------------------------
    "opening_meld_value": "{meld}: {points}.",
    "opening_meld_value_readings": "{meld}: {choices}.",
    "value_if": "{points} {condition}",
    "total_range": "{low} to {high}, depending on what the jokers stand for",
    "opening_total_ok": "Your melds total {total}; opening needs {threshold} — you can open.",
    "opening_total_ok_readings": (
        "Your melds total {choices}; opening needs {threshold} — you can open either way."
    ),
    "opening_short": (
        "Your melds total {total}; opening needs {threshold} — {missing} more. Add a meld, or "
        "take these back."
    ),
    "opening_short_readings": (
        "Your melds total {choices}; opening needs {threshold} — at least {missing} more. Add "
        "a meld, or take these back."
    ),
    "opening_total_readings": (
        "Your melds total {choices}; opening needs {threshold} — say which when you lay it down."
    ),
    "opening_blocked": (
        "Your valid melds total {total} (an opening needs {threshold}), but this opening can't "
        "go down as it is."
    ),
    "opening_blocked_readings": (
        "Your valid melds total {choices} (an opening needs {threshold}), but this opening "
        "can't go down as it is."
    ),
    "opening_none": "An opening needs at least one meld.",
    "no_melds": "Choose at least one meld to lay down.",
    "opening_not_required": "{variant} has no opening threshold: any valid meld may go down.",
    "opening_bad_meld": "{meld} is not a valid meld, so it can't count toward the opening.",
    "opening_bad_meld_free": "{meld} is not a valid meld, so it can't go down.",
    "opening_card_reused": (
        "{card} is used {times} across these melds; {variant} has only {copies_word}."
    ),
    # --- the referee: actions as words ------------------------------------------------
    "action_cut": "cut the deck at {height:cards}",
    "action_draw_stock": "draw from the stock",
    "action_draw_discard": "take the top of the discard pile",
    "action_draw_cut_card": "take the cut card",
    "action_meld": "meld {cards}",
    "action_joker_as": " (joker as {card})",
    "action_jokers_as": " (jokers as {cards})",
    # a move and what its jokers stand for: one sentence, said again in any language
    "action_with_jokers": "{action}{jokers}",
    "action_layoff": "lay off {cards} onto meld {meld}",
    "action_exchange": "exchange {card} for the joker in meld {meld}",
    "action_undo": "undo the last move",
    "action_return_cut": "give back the cut card",
    "action_discard": "discard {card}",
    "meld_number": "meld {number}",
    # the same moves as a learner types them (rummykit.game.parse_action reads these back)
    "command_cut": "cut {height}",
    "command_draw_stock": "draw",
    "command_draw_discard": "take discard",
    "command_draw_cut_card": "take cut",
    "command_meld": "meld {cards}",
    "command_meld_as": "meld {cards} as {jokers}",
    "command_layoff": "lay off {cards} onto {meld}",
    "command_layoff_as": "lay off {cards} onto {meld} as {jokers}",
    "command_exchange": "exchange {card} from {meld}",
    "command_undo": "undo",
    "command_return_cut": "return cut",
    "command_discard": "discard {card}",
    # other ways to type each move, besides the one above, separated by |; words in [brackets]
    # may be left out. parse_action reads them in the language spoken (and English always)
    "command_also_cut": "cut the deck at {height} | cut at {height}",
    "command_also_draw_stock": "d | draw [from] [the] stock | draw s",
    "command_also_draw_discard": "take the discard | draw [the] discard | take [the] pile | t d",
    "command_also_draw_cut_card": "take the cut card | take cut card | draw [the] cut",
    "command_also_meld": "lay down {cards}",
    "command_also_meld_as": "lay down {cards} with the joker as {jokers}",
    "command_also_layoff": "lay off {cards} on {meld} | lay off {cards} onto meld {meld}",
    "command_also_layoff_as": "lay off {cards} onto meld {meld} with the joker as {jokers}",
    "command_also_exchange": "exchange {card} in {meld} | exchange {card} from meld {meld}",
    "command_also_undo": "take back",
    "command_also_return_cut": "give back [the] cut [card] | return the cut card",
    "command_also_discard": "throw {card} | throw away {card}",
    "bad_action_text": (
        "'{text}' is not a move: try draw, take discard, take cut, meld 5h 6h 7h, "
        "lay off 7h onto 2, exchange 6h from 1, discard 9s, undo, return cut"
    ),
    "bad_action_data": "{data!r} is not an action: its type must be one of {choices}",
    "bad_action_field": "a '{kind}' action has a missing or bad field: {field}",
    "bad_action_unknown": "a '{kind}' action has no field '{field}': its fields are {choices}",
    "bad_action_card": "a '{kind}' action has a bad field '{field}': {error}",
    "bad_meld_number": (
        "'{text}': there is no meld {number} — melds on the table are numbered from 1"
    ),
    # --- the referee: refusals -----------------------------------------------------------
    "action_refused": "Not allowed: {action}.",
    "action_ok": "Allowed: {action}.",
    "round_over": "The round is over: no more moves.",
    "not_your_turn": "It is seat {current}'s turn, not seat {seat}'s.",
    "cut_not_now": "The deck has already been cut.",
    "cut_bad_height": "Cut somewhere from 1 to {most} cards.",
    "cut_first": "Seat {seat} must cut the deck first.",
    "draw_first": "Draw first: from the stock or the discard pile.",
    "draw_first_cut": "Draw first: from the stock, the discard pile, or the cut card.",
    "already_drew": "You have already drawn this turn: lay down, lay off, or discard.",
    "already_drew_discard_only": "You have already drawn this turn: discard to end it.",
    "starter_discards": (
        "You start the round with one card more: your first turn is a discard only, no draw."
    ),
    "discard_empty": "The discard pile is empty: draw from the stock.",
    "discard_take_again": (
        "You already took the discard and put it back this turn: draw from the stock."
    ),
    "no_cut_card_rule": "{variant} has no cut card.",
    "cut_card_second_attempt": (
        "You already tried the cut card this turn — one attempt per turn. Draw from the stock "
        "or the discard pile."
    ),
    "cut_card_gone": "There is no cut card beside the stock to take.",
    "cut_not_taken": "You don't hold the cut card, so there is nothing to give back.",
    "card_not_in_hand": "You don't hold {cards}.",
    "first_turn_no_opening": (
        "Nobody may open on their very first turn — you can open from your next turn."
    ),
    "not_opened_layoff": (
        "Lay-offs come after your opening: first lay down {threshold} points of your own melds."
    ),
    "not_opened_exchange": (
        "Joker exchanges come after your opening: first lay down {threshold} points of your "
        "own melds."
    ),
    "no_such_meld": ("There is no meld {number} on the table: melds are numbered 1 to {count}."),
    "no_such_meld_one": "There is no meld {number} on the table: the only meld is meld 1.",
    "no_such_meld_none": "There is no meld {number}: no melds are on the table yet.",
    "joker_ambiguous": "Say what the joker stands for: {choices_text}.",
    "jokers_ambiguous": "Say what the jokers stand for: {choices_text}.",
    "joker_as_impossible": "The joker can't be the {card} here; it can be {choices}.",
    "must_keep_discard": ("Keep a card to discard: in {variant} you go out with a final discard."),
    "exchange_not_allowed": "{variant} has no joker exchange.",
    "no_joker_in_meld": "There is no joker in {meld}.",
    "joker_in_small_set": (
        "The joker in {meld} stays where it is until all four suits are on the table: first "
        "lay off a natural {choices}, then hand in the last suit to take the joker."
    ),
    "joker_wrong_card": (
        "The joker in {meld} stands for the {stands_for}, not the {card}: hand in the "
        "{stands_for} to take it."
    ),
    "jokers_wrong_card": (
        "The jokers in {meld} stand for {stands_for}, not the {card}: hand in one of those to "
        "take its joker."
    ),
    "nothing_to_undo": "There is nothing to undo this turn.",
    "turn_opening_short": (
        "Your melds total {total}; opening needs {threshold} — {missing} more. Add a meld, or "
        "take these back."
    ),
    "discard_take_unplayed": (
        "You took {card} from the discard pile, so it must be on the table before you discard."
    ),
    "discard_take_not_in_opening": (
        "You took {card} from the discard pile before opening, so it must be part of your "
        "opening melds."
    ),
    "cut_card_must_go_out": (
        "You took the cut card {card}, so you must go out this turn — or give it back and draw "
        "as usual."
    ),
    "joker_replay": "You took the joker from {meld}; play it again before you discard.",
    # --- the referee: where a turn stands ------------------------------------------------
    "status_cut": "Seat {seat} cuts the deck.",
    "status_draw": "Seat {seat} draws: from the stock or the discard pile.",
    "status_draw_cut": "Seat {seat} draws: from the stock, the discard pile, or the cut card.",
    "status_play": "Seat {seat} plays: lay down, lay off, or discard to end the turn.",
    "status_play_start": (
        "Seat {seat} plays its first turn: discard only — it starts with one card more, "
        "so it doesn't draw."
    ),
    "status_play_first_turn": (
        "Seat {seat} plays its first turn: discard only — nobody opens on their very first turn."
    ),
    "status_over": "The round is over.",
    "status_opening": "Opening: {points} of {threshold} points so far.",
    # --- the referee: what happened -------------------------------------------------------
    "event_cut": "Seat {seat} cut the deck at {height}; the cut card is {card}.",
    "event_draw_stock": "Seat {seat} drew from the stock.",
    "event_draw_discard": "Seat {seat} took {card} from the discard pile.",
    "event_draw_cut": "Seat {seat} took the cut card {card}.",
    "event_return_cut": "Seat {seat} gave back the cut card {card}.",
    "event_meld": "Seat {seat} laid down {cards} (meld {number}).",
    "event_layoff": "Seat {seat} laid off {cards} onto meld {number}.",
    "event_layoff_joker": (
        "Seat {seat} laid off {cards} onto meld {number}, the joker as {stands_for}."
    ),
    "event_layoff_jokers": (
        "Seat {seat} laid off {cards} onto meld {number}, the jokers as {stands_for}."
    ),
    "event_exchange": "Seat {seat} exchanged {card} for the joker in meld {number}.",
    "event_undo": "Seat {seat} took back a move.",
    "event_discard": "Seat {seat} discarded {card}.",
    "event_reshuffle": "The stock ran out: the discard pile (but its top card) became a new stock of {count}.",
    "event_stock_empty": "Seat {seat} asked for a card, but the stock is empty: the deal ends.",
    "event_stock_empty_again": (
        "Seat {seat} asked for a card, but the stock ran out a second time: "
        "the round ends with no winner."
    ),
    "event_stock_empty_no_reshuffle": (
        "Seat {seat} asked for a card, but the stock is empty and the discard pile holds nothing "
        "under its top card to reshuffle: the round ends with no winner."
    ),
    "event_stock_empty_no_pile": (
        "Seat {seat} asked for a card, but the stock and the discard pile are both empty: "
        "the round ends with no winner."
    ),
    "event_no_progress": (
        "Nobody melded or laid off for a whole round of turns with the stock empty: the deal ends."
    ),
    # --- the referee: scoring ------------------------------------------------------------
    "score_went_out": "Seat {seat} went out: {points}.",
    "score_out": "Seat {seat} went out.",
    "score_went_out_hand": (
        "Seat {seat} opened and went out in the same turn with their own melds: {points}."
    ),
    "score_unopened": "Seat {seat} never opened: a flat {points}.",
    "score_hand": "Seat {seat} holds {cards}: {points}.",
    "score_no_winner": (
        "The stock ran out a second time: no winner; everyone scores what they hold."
    ),
    "score_nothing_to_reshuffle": (
        "The stock is empty and the discard pile holds no card under its top card to reshuffle: "
        "no winner; everyone scores what they hold."
    ),
    "score_deal_ended": "The deal ended with no winner; everyone scores what they hold.",
    "score_empty_stock": "A card was asked for from the empty stock: the deal ends.",
    "score_no_progress": (
        "A whole round of turns passed with the stock empty and nothing laid down: the deal ends."
    ),
    "score_lowest_hand": "Seat {seat} holds the lowest hand ({value}) and wins the round.",
    "score_lowest_hand_tie": (
        "Seat {seat} holds the lowest hand ({value}), tied — the first in seat order wins."
    ),
    "score_winner_takes": "Seat {seat} wins the round and scores {points}.",
    # --- saved games --------------------------------------------------------------------
    "record_not_json": "this is not JSON: {error}",
    "record_not_object": "a saved game is a JSON object with format, version, setup and actions",
    "record_bad_format": "format is {found!r}; rummykit reads {choices}",
    "record_bad_version": (
        "this file is version {found} of the game format; rummykit reads version {version}"
    ),
    "record_bad_field": "'{field}' must be {expected}",
    "record_unknown_field": "'{field}' is not a field rummykit knows there: the fields are {choices}",
    "record_bad_setup": "'{field}': {error}",
    "record_bad_cards": "'{field}' holds a card that can't be read: {error}",
    "record_bad_meld": "'{field}' is not a valid meld: {error}",
    "record_too_many": (
        "'{field}': the hands, discard, table and cut_card hold more than {copies} {card} — "
        "{variant} has only {copies}"
    ),
    "record_not_in_deck": (
        "'{field}': the position holds {card}, but {variant} is played without it"
    ),
    "record_cards_unaccounted": (
        "'{field}': every card must be somewhere exactly once ({count} in all) across "
        "{where}hands, stock, discard, table and cut_card: {card} is {problem}"
    ),
    "record_missing": "missing",
    "record_too_often": "there too often",
    "record_bad_action": "'{field}' (action {number}) can't be read: {error}",
    "record_illegal_action": (
        "'{field}' (action {number}, seat {seat}: {action}) is not legal at that point: {why}"
    ),
    "record_expect_object": "an object",
    "record_expect_list": "a list",
    "record_expect_whole_or_null": "a whole number or null",
    "record_expect_whole": "a whole number of 0 or more",
    "record_expect_bool": "true or false",
    "record_expect_range": "a whole number from {low} to {high}",
    "record_expect_wholes": "{count} whole numbers",
    "record_expect_bools": "{count} true/false values",
    "record_expect_cards": "a list of cards",
    "record_expect_card": "one card or null",
    "record_expect_variant": "a variant name: hungarian or rommi",
    "record_expect_no_result": "null: a finished round can't be resumed",
    "record_expect_unfinished": "draw or play (a finished round can't be resumed)",
    "record_expect_represents": "{count} cards or nulls: what each card of the meld stands for",
    "record_expect_kind": "run or set",
    "record_expect_kind_is": "{kind}: these cards make a {kind}",
    "record_expect_start": "a place where this run can start, such as {start}",
    "record_expect_hands": "{count} hands",
    "record_expect_melds": "a list of melds",
    "record_expect_no_cut_card": "null: {variant} has no cut card",
    "record_expect_phase": "draw, play or over",
    "record_expect_all_opened": "all true: {variant} has no opening, so everyone has opened",
    "record_expect_no_draw": "null: in the draw phase nothing has been drawn yet",
    "record_expect_drew": (
        "stock, discard or cut_card — or start, on the first turn of a starter who is dealt "
        "more cards"
    ),
    "record_expect_cards_to_act": (
        "a hand with cards: it is this seat's turn and the round isn't over"
    ),
    "record_expect_turn": "a turn object saying what was taken this turn",
    "record_expect_same_drew": "{drew}, the same as the position's drew",
    "record_expect_meld_indices": "indices of melds on the table (there are {count})",
    "record_expect_joker_moves": "freed or placed: one per exchange and per joker laid down",
    "record_expect_phase_play": "play: the turn records moves, so the seat to act has drawn",
    "record_expect_own_melds": "indices of different melds laid down by seat {seat} this turn",
    "record_expect_meld_points": (
        "the points this turn's new melds were laid down with: 0 up to what they are worth now"
    ),
    "record_expect_placed": (
        "the cards put on the table this turn (those of new melds included), still there but "
        "for jokers taken back by an exchange"
    ),
    "record_expect_taken": (
        "a card taken from the discard pile this turn (drew is discard), now in the hand or "
        "on the table"
    ),
    "record_expect_cut_taken": (
        "the cut card taken this turn (drew is cut_card), now in the hand or on the table"
    ),
    "record_expect_step": "a saved move: its kind and the state before it",
    "record_expect_step_kind": "one of {choices}",
    "record_expect_step_phase": "draw before a discard or cut_card step, play before a {kind} step",
    "record_expect_taken_step": "a card whose take (a discard step) is saved in turn.steps",
    "record_expect_cut_step": "the cut card whose take (a cut_card step) is saved in turn.steps",
    "record_expect_steps_drew": "moves of a turn that drew from the {drew}",
    "record_expect_rng": "a saved random state",
    "deal_too_large": (
        "{variant} can't deal {players} players {size:cards} each: the deck has {deck} cards, "
        "which must also give the face-up card and at least one card for the stock, and no "
        "hand is dealt more than {limit} cards (larger hands make hints and computer opponents "
        "slow); the largest hand for {players} players is {largest}"
    ),
    "deal_too_large_extra": (
        "{variant} can't deal {players} players {size:cards} each: the deck has {deck} cards, "
        "which must also give {extra} more to the starter, the face-up card and at least one "
        "card for the stock, and no hand is dealt more than {limit} cards (larger hands make "
        "hints and computer opponents slow); the largest hand for {players} players is {largest}"
    ),
    # --- matches --------------------------------------------------------------------------
    "standing": "{place}. seat {seat}: {total}",
    "match_round_unfinished": "finish the current round before dealing the next one",
    "match_over": "the match is over",
    "match_too_long": "a round took more than {count} actions — stopped",
    # --- exercises, puzzles and the mistake review ----------------------------------------
    "exercise_mark_right": "✔",
    "exercise_mark_wrong": "✘",
    "exercise_bad_answer": "'{answer}' is not an answer here: answer {accepted}",
    "exercise_no_answer": "No answer yet: answer {accepted}.",
    "exercise_in_variant": "{variant}: {question}",
    "exercise_kind_needs_opening": (
        "{kind} questions need an opening threshold, which {variant} doesn't have: choose "
        "among {choices}"
    ),
    "exercise_accepts_number": "a whole number, like 45",
    "exercise_accepts_card": "one card of the hand: {cards}",
    "exercise_accepts_kind": "run, set or no meld",
    "exercise_accepts_reason": "the letter of a sentence: {letters}",
    "exercise_accepts_seat": "a seat number, from 0 to {last}",
    "exercise_accepts_meld": "a meld number from 1 to {last}, several (1 and 3), all, or none",
    "exercise_accepts_yes_no": "yes or no",
    "exercise_accepts_go_out": "no, or the card you discard last: one of {cards}",
    "exercise_accepts_melds": (
        "the melds, separated by + (or commas, or semicolons), like 7h 8h 9h + Qs Qd Qc — or no"
    ),
    "exercise_accepts_joker": "the card you hand in and the meld number, like 6h from 1 (melds 1 to {last}), or none",
    "exercise_unknown_code": "'{code}' is not a reason code: choose among {choices}",
    "exercise_unknown_kind": "'{kind}' is not a kind of exercise: choose among {choices}",
    "exercise_no_such": "There is no exercise {number}: this quiz has {count}.",
    "exercise_key": "Answer: {answer}.",
    "exercise_key_title": "{title} — answer key",
    "exercise_worksheet_title": "Worksheet",
    "exercise_answer_line": "Your answer:",
    "exercise_student": "(no name)",
    "exercise_tally": "{right} right out of {asked}",
    "exercise_yes": "yes",
    "exercise_no": "no",
    "exercise_seat": "seat {seat}",
    "exercise_total": "seat {seat}: {total}",
    "exercise_hand": "Your hand:",
    "exercise_meld": "meld {number}",
    "exercise_meld_label": "Meld {number}: {cards}",
    "exercise_number_right": "Right: {given}.",
    "exercise_number_wrong": "You said {given}, but the answer is {expected}.",
    "exercise_number_slip": "You said {given}, but {slip}.",
    "exercise_kind_prompt": "{variant}: is {cards} a run, a set, or no meld?",
    "exercise_kind_run": "a run",
    "exercise_kind_set": "a set",
    "exercise_kind_none": "no meld",
    "exercise_kind_right": "Right: {cards} is {kind}.",
    "exercise_kind_wrong": "You said {given}, but {cards} is {kind}.",
    "exercise_reason_prompt": "{variant}: is {cards} a valid meld? If not, why not?",
    "exercise_reason_right": "Right: {given}.",
    "exercise_reason_wrong": "You said {given}, but",
    "exercise_reason_true_not_why": "You said {given} — true of these cards, but not why they fail:",
    "exercise_reason_valid": "It is a valid meld.",
    "exercise_reason_too_few_cards": "It has fewer than three cards.",
    "exercise_reason_identical_cards": "Two identical cards stand in one set.",
    "exercise_reason_set_rank_mismatch": "The cards are of different ranks.",
    "exercise_reason_set_too_large": "A set can't hold that many cards.",
    "exercise_reason_run_suit_mismatch": "The cards are of different suits.",
    "exercise_reason_run_gap": "The run skips a card that no joker fills.",
    "exercise_reason_run_duplicate_rank": "One rank appears twice in the run.",
    "exercise_reason_run_too_long": "The run would need more than 13 cards.",
    "exercise_reason_run_wraps": "The run turns the corner at the ace ({ranks_ka2}).",
    "exercise_reason_ace_low_not_allowed": "The ace stands below the 2, where this variant doesn't allow it.",
    "exercise_reason_ace_high_not_allowed": "The ace stands above the king, where this variant doesn't allow it.",
    "exercise_reason_too_many_jokers": "It holds more jokers than a meld may.",
    "exercise_reason_jokers_not_allowed": "This variant is played without jokers.",
    "exercise_reason_not_in_deck": "The deck doesn't hold that many copies of a card.",
    "exercise_opening_prompt": "What are {melds} worth toward the opening ({rule})?",
    "exercise_no_opening": "{variant} has no opening threshold, so there is no opening total to count.",
    "exercise_mistake_ace": (
        "you counted the ace as 1: toward the opening an ace is worth {value}, below the 2 as "
        "above the king ({rule})"
    ),
    "exercise_mistake_joker": (
        "you counted the joker as {counted}: toward the opening a joker is worth the card it "
        "stands for, here the {card}, worth {value} ({rule})"
    ),
    "exercise_mistake_faces": (
        "you counted {rank_j}, {rank_q} and {rank_k} as 11, 12 and 13: each is worth {value} ({rule})"
    ),
    "exercise_mistake_left_out": "you left out {meld}, worth {points}",
    "exercise_score_out": "Seat {seat} goes out by discarding {card}.",
    "exercise_score_out_melds": "Seat {seat} lays down {melds} and goes out by discarding {card}.",
    "exercise_score_holds": "Seat {seat} holds {cards}.",
    "exercise_score_holds_opened": "Seat {seat} has opened and holds {cards}.",
    "exercise_score_holds_unopened": "Seat {seat} has not opened and holds {cards}.",
    "exercise_score_question": "What does seat {seat} score for this round?",
    "exercise_score_last_card": (
        "seat {seat} must hold exactly one card besides the melds it lays down: the one it "
        "goes out with"
    ),
    "exercise_mistake_unopened": (
        "a seat that never opened scores a flat {points}, whatever it holds ({rule})"
    ),
    "exercise_mistake_opened": (
        "seat {seat} has opened, so it counts what it holds instead of the flat penalty ({rule})"
    ),
    "exercise_mistake_hand_joker": "a joker left in hand costs {value} ({rule})",
    "exercise_mistake_hand_ace": "an ace left in hand counts {value} here ({rule})",
    "exercise_mistake_all_hands": "the winner takes what is left in every other hand ({rule})",
    "exercise_mistake_out_hand": (
        "going out scores {points} here: the seat opened and went out in the same turn with "
        "its own melds ({rule})"
    ),
    "exercise_mistake_out_plain": (
        "going out scores {points} here: only opening and going out in the same turn with "
        "one's own melds doubles it ({rule})"
    ),
    "exercise_match_prompt": "{variant}, a whole match: the rounds scored {rounds}. Who wins the match?",
    "exercise_match_prompt_ahead": (
        "{variant}, {count} rounds into the match (of {total}): the rounds scored {rounds}. "
        "Who is ahead?"
    ),
    "exercise_match_prompt_ahead_target": (
        "{variant}, {count} rounds into a game to {target}: the rounds scored {rounds}. "
        "Who is ahead?"
    ),
    "exercise_match_too_long": "a match of {variant} has {rounds} rounds: give at most {rounds}",
    "exercise_match_over": (
        "in {variant} the game ends when a total reaches {target}, as one did after round "
        "{number}: leave out the rounds after it"
    ),
    "exercise_match_lowest_leads": "The lowest total leads.",
    "exercise_match_highest_leads": "The highest total leads.",
    "exercise_match_round": "round {number}: {points}",
    "exercise_match_rounds": "give each round's points, one number per seat, the same seats every round",
    "exercise_match_totals": "Totals: {totals}.",
    "exercise_match_lowest": "The lowest total wins.",
    "exercise_match_highest": "The highest total wins.",
    "exercise_mistake_highest": (
        "You said {given}, but in {variant} the lowest total wins, not the highest ({rule})."
    ),
    "exercise_mistake_lowest": (
        "You said {given}, but in {variant} the highest total wins, not the lowest ({rule})."
    ),
    "exercise_seat_right": "Right: {given}.",
    "exercise_seat_wrong": "You said {given}, but the answer is {expected}.",
    "exercise_turn_prompt": "May seat {seat} discard now and end the turn?",
    "exercise_turn_not_play": "the turn must be in its play phase: after the draw, before the discard",
    "exercise_turn_may_end": "Nothing stands in the way: a discard ends the turn.",
    "exercise_turn_first": "It is seat {seat}'s very first turn of the round.",
    "exercise_turn_played": "Seat {seat} has played {turns:turns} this round.",
    "exercise_turn_opened": "Seat {seat} has played {turns:turns} this round and has opened.",
    "exercise_turn_unopened": (
        "Seat {seat} has played {turns:turns} this round and has not opened yet."
    ),
    "count_turns_one": "{n} turn",
    "count_turns_other": "{n} turns",
    "exercise_turn_first_take": (
        "Seat {seat} took {card} on its first draw of the round, so it may simply keep it ({rule})."
    ),
    "exercise_turn_right": "Right: {given}.",
    "exercise_turn_wrong_yes": "You said {given}, but the turn can't end yet.",
    "exercise_turn_wrong_no": "You said {given}, but the turn may end now.",
    "exercise_deadwood_prompt": (
        "{variant}: with the best melds, how many points of deadwood does {hand} leave?"
    ),
    "exercise_mistake_all_cards": "you counted every card: the cards in melds are not deadwood",
    "exercise_discard_prompt": "{variant}: which card do you discard from {hand} to keep the least deadwood?",
    "exercise_discard_small": "a discard exercise needs a hand of at least two cards",
    "exercise_discard_leaves": "Discarding {card} leaves the least: {arrangement}",
    "exercise_discard_right": "Right: without {given}: {arrangement}",
    "exercise_discard_wrong": (
        "You said {given}, but without it: {arrangement} That is {more:points} more than the "
        "best discard leaves."
    ),
    "exercise_layoff_prompt": "Onto which meld can {cards} be laid off ({rule})?",
    "exercise_layoff_cards": "To lay off:",
    "exercise_layoff_no_table": "a lay-off exercise needs at least one meld on the table",
    "exercise_layoff_none": "none",
    "exercise_layoff_right": "Right: {given}.",
    "exercise_layoff_wrong": "You said {given}, but",
    "exercise_layoff_wrong_none": "You said {given}, but {cards} fits on the table.",
    "exercise_layoff_nowhere": "{cards} fits onto no meld on the table.",
    "exercise_layoff_also": "It also fits onto {melds}.",
    "exercise_go_out_prompt": (
        "You have opened, drawn, and hold {hand}. Can you go out this turn, and with which "
        "final discard?"
    ),
    "exercise_go_out_answer": "go out, discarding {cards}",
    "exercise_go_out_right": "Right: {given}.",
    "exercise_go_out_right_no": "Right: not this turn.",
    "exercise_go_out_wrong_no": "You said {given}, but you can go out this turn.",
    "exercise_go_out_wrong_cannot": "You said {given}, but this hand can't go out this turn.",
    "exercise_go_out_wrong_card": "You said {given}, but keeping {card} back for the discard leaves cards you can't place.",
    "exercise_go_out_also": "Discarding {cards} goes out too.",
    "exercise_find_opening_prompt": (
        "Your hand: {hand}. Find the opening of at least {threshold} worth the most points "
        "({rule}), keeping a card to discard."
    ),
    "exercise_find_opening_none": "no opening: the best melds make only {points}",
    "exercise_find_opening_right": "Right: {given} is worth {points}, the most this hand can open with.",
    "exercise_find_opening_right_none": "Right: this hand can't open yet.",
    "exercise_find_opening_wrong_none": "You said {given}, but this hand can open.",
    "exercise_find_opening_short": "You said {given}, worth {points}, but that doesn't open:",
    "exercise_find_opening_less": "You said {given}, worth {points}, but the best opening is worth {best}:",
    "exercise_find_opening_bad_meld": "You said {given}, but {meld} is not a meld:",
    "exercise_find_opening_no_discard": "You said {given}, but that uses every card: keep one to discard.",
    "exercise_not_in_hand": "You said {given}, but you don't hold {cards}.",
    "exercise_melds_separate": (
        "To lay down several melds, separate them with + (or commas, or semicolons): "
        "As 2s 3s + Kh Kd Kc."
    ),
    "exercise_find_opening_also": "{melds} is worth as much.",
    "exercise_joker_prompt": "You have opened and hold {hand}. Which joker on the table can you free, and with which card ({rule})?",
    "exercise_joker_answer": "{card} for the joker in meld {number}",
    "exercise_joker_answer_after": (
        "{card} for the joker in meld {number}, after laying off {laid} onto it"
    ),
    "exercise_joker_also": "Also right: {ways}.",
    "exercise_joker_nothing": "No card in this hand frees a joker on the table.",
    "exercise_joker_then": "Then play the joker again before you discard ({rule}).",
    "exercise_joker_right": "Right: {given}.",
    "exercise_joker_right_none": "Right: no joker can be freed with this hand.",
    "exercise_joker_wrong": "You said {given}, but the referee refuses it.",
    "exercise_joker_wrong_none": "You said {given}, but one joker can be freed.",
    "exercise_accepts_move": "a move, like discard K♠, meld 5♥ 6♥ 7♥, draw or take discard",
    "exercise_predict_prompt": "{variant}: seat {seat} holds {hand} and {phase}.",
    "exercise_predict_question": "What does {level} play?",
    "exercise_predict_table": "On the table: {melds}.",
    "exercise_predict_pile": "The top of the discard pile is {card}.",
    "exercise_predict_cut": "The cut card is {card}.",
    "exercise_predict_phase_draw": "is about to draw",
    "exercise_predict_phase_play": "has drawn",
    "exercise_predict_right": "Right: {level} plays {move}.",
    "exercise_predict_right_tie": "Right: {move} scores as high as {chosen}, which {level} plays.",
    "exercise_predict_also": "As good, by its trace: {moves}.",
    "exercise_predict_wrong": "You said {given}, but {level} plays {move}.",
    "exercise_predict_illegal": (
        "You said {given}, but that move is not allowed here; {level} plays {move}."
    ),
    "exercise_happens_over": "the round is already over: give a position where a seat is to act",
    "exercise_happens_state": (
        "Seat {seat} holds {hand}; the stock holds {stock:cards} and the discard pile {pile:cards}."
    ),
    "exercise_happens_prompt": (
        "Seat {seat} plays: {move}. Does the referee refuse the move, does the round end, or "
        "does play go on?"
    ),
    "exercise_happens_stock_first": "The stock has not run out before in this round.",
    "exercise_happens_stock_again": (
        "The stock has run out once already in this round, and was rebuilt then ({rule})."
    ),
    "exercise_accepts_happens": "refused, ends or goes on",
    "exercise_happens_refused": "the referee refuses the move",
    "exercise_happens_ends": "the round ends",
    "exercise_happens_goes_on": "play goes on",
    "exercise_happens_right": "Right: {given}.",
    "exercise_happens_wrong": "You said {given}, but {actual}.",
    "exercise_interval_prompt": (
        "After {games} rounds, {first} − {second} is {difference} points per round, with the "
        "95% interval [{low}, {high}]. Does this show that {first} is stronger than {second}?"
    ),
    "exercise_interval_none": "a comparison needs its confidence interval: play more than one game",
    "exercise_interval_holds_zero": (
        "The interval holds zero: these rounds can't tell which of the two is stronger."
    ),
    "exercise_interval_leaves_zero": (
        "The interval leaves zero out: {better} is stronger, with 95% confidence."
    ),
    "exercise_agent_prompt": (
        "Your agent plays {rounds} rounds of {variant} against {level}: is every move it makes "
        "legal, with a trace that explains it?"
    ),
    "exercise_accepts_agent": (
        "your agent: a class with a name and a decide(observation) method, or one made from it"
    ),
    "exercise_agent_answer": "an agent whose every move is legal and explained",
    "exercise_agent_rules": (
        "An agent sees only its own seat's observation and chooses one of the legal actions, "
        "with a trace that says why."
    ),
    "exercise_agent_broken_init": "your agent can't be made: {error}",
    "exercise_agent_raised": "Its decide raised {error}.",
    "exercise_agent_no_decision": "Its decide returned {got}, not a Decision with a Trace.",
    "exercise_agent_endless": "The round went on past {moves} moves: does your agent ever discard?",
    "exercise_agent_wrong": "{name} stopped in round {round}, at its move {move}:",
    "exercise_agent_right": (
        "{name} played {rounds:rounds}, {moves} moves, every one legal and explained."
    ),
    "exercise_agent_score": "Points per round: {name} {mine}, {level} {theirs}.",
    "puzzle_title": "Puzzle: {kind} (grade {grade})",
    "puzzle_kind_opening": "find the opening",
    "puzzle_kind_go_out": "going out",
    "puzzle_kind_discard": "the best discard",
    "puzzle_kind_layoff": "where does it fit?",
    "puzzle_kind_joker": "free a joker",
    "puzzle_worksheet_title": "Rummy puzzles",
    "puzzle_unknown_kind": "'{kind}' is not a kind of puzzle: choose among {choices}",
    "puzzle_bad_grade": "{grade!r} is not a grade: choose 1, 2 or 3",
    "puzzle_hungarian_only": "{kind} puzzles are played under Hungarian Rummy: leave out variant",
    "puzzle_not_found": "no {kind} puzzle found for seed {seed}",
    "review_line": (
        "Move {number} — you: “{played}”; the {level} player: “{suggested}”. {reason} "
        "Cost: about {cost} points."
    ),
    "review_line_nothing": (
        "Move {number} — you put nothing on the table; the {level} player: “{suggested}”. "
        "{reason} Cost: about {cost} points."
    ),
    "review_line_kept": (
        "Move {number} — you: “{played}”; the {level} player keeps those cards in hand. "
        "{reason} Cost: about {cost} points."
    ),
    "review_hand": "Your hand at that moment:",
    "review_why_more": "Why? The computer player's whole reasoning",
    "review_none": (
        "{decisions:decisions} weighed against the {level} computer player: none cost you "
        "anything it can count."
    ),
    "review_headline_one": (
        "{decisions:decisions} weighed against the {level} computer player: 1 cost you about "
        "{cost} expected points."
    ),
    "review_headline": (
        "{decisions:decisions} weighed against the {level} computer player: {count} cost you "
        "about {cost} expected points in all."
    ),
    "review_costliest": "The costliest {shown}:",
    "review_more": "…and {count} more, each costing less (--all shows them).",
    "review_cards_more": "{cards} and {count:other_cards}",
    "count_other_cards_one": "{n} other card",
    "count_other_cards_other": "{n} other cards",
    "review_reason_draw_out": "With {card} you could have gone out this turn.",
    "review_reason_take_opening": (
        "Taking {card} raises your best opening from {before} to {after} points."
    ),
    "review_reason_leave_opening": "{card} adds nothing to your best opening ({before} points).",
    "review_reason_take": (
        "Taking {card} leaves {take} points of deadwood, against about {stock} expected with a "
        "stock card."
    ),
    "review_reason_stock": (
        "A stock card is expected to leave about {stock} points of deadwood, against {take} "
        "with {card}."
    ),
    "review_reason_joker": "Keep the joker: it fits almost any meld.",
    "review_reason_ai_term_threat": (
        "Seat {seat} could go out with {card}: it did in {count} of {samples} hands the "
        "computer tried for it."
    ),
    "review_reason_ai_term_threat_opening": (
        "Seat {seat} could open with {card}: it did in {count} of {samples} hands the "
        "computer tried for it."
    ),
    "review_reason_ai_term_feed_took": (
        "Seat {seat} took {took} from the discard pile, and {card} goes with it."
    ),
    "review_reason_ai_term_feed_layoff": "Seat {seat} can lay {card} off onto meld {meld}.",
    "review_reason_ai_term_feed_joker": "A joker helps any hand, seat {seat}'s too.",
    "review_reason_lowest": (
        "Throwing {card} wins the deal about {a}% of the time, against {b}% after throwing {yours}."
    ),
    "review_reason_opening": (
        "After throwing {card}, {a:unseen_cards} would let you open next turn, against {b} "
        "after throwing {yours}."
    ),
    "review_reason_waits": (
        "With {card} in your hand, {cards} would go into a meld or onto the table; without it "
        "they won't ({count:unseen_cards})."
    ),
    "review_reason_deadwood": (
        "Throwing {card} leaves {a:points} that can't be melded or laid off, against {b} after "
        "throwing {yours}."
    ),
    "review_reason_score": (
        "By the computer's count “{theirs}” is worth {a} expected points and “{yours}” {b}."
    ),
    "review_reason_go_out": "You could have gone out this turn.",
    "review_reason_open": "You could have opened with {cards}: {points} points, {threshold} needed (H8).",
    "review_reason_hold": "Keeping {cards} in hand for now leaves the others nowhere to lay them off.",
    "review_reason_meld": (
        "Laying down {cards} too would leave {a:points} in your hand before the discard, "
        "against {b}."
    ),
    "review_reason_layoff": (
        "Laying off {cards} too would leave {a:points} in your hand before the discard, "
        "against {b}."
    ),
    "review_reason_other": (
        "Its moves leave {a:points} in your hand before the discard, against {b}."
    ),
    "review_reason_other_score": "Its moves leave a hand worth more by its count.",
    "count_decisions_one": "{n} decision",
    "count_decisions_other": "{n} decisions",
    "review_no_decisions": "Seat {seat} made no decisions in this record: nothing to review.",
    "review_unreadable": "can't read {path}: {error}",
    "review_bad_source": "a {source} is not a game: give a Game, a saved game's JSON, or its path",
    "review_button": "Review my round",
    "review_next": "next mistake",
    "review_previous": "previous mistake",
    "review_position": "Mistake {number} of {total}",
    "quiz_title": "Question {number} of {total}",
    "quiz_check": "Check",
    "quiz_back": "back",
    "quiz_next": "next",
    "review_cli_help": "what your decisions in a saved round cost, by a computer player's count",
    "review_cli_description": (
        "Replay a saved round and weigh one seat's draws, plays and discards against a "
        "computer player in the same position: a one-line summary and the costliest "
        "mistakes, each with the better move, why in one sentence, and its cost in the "
        "computer's expected points."
    ),
    "review_cli_file_help": (
        "a saved game (JSON): rummykit play --save FILE, game.to_json() or "
        "rummykit.game.record.save(game, path) writes it"
    ),
    "review_cli_seat_help": "the seat to review (default: 0)",
    "review_cli_level_help": "the computer player to compare with: easy, normal or hard (default: hard)",
    "review_cli_all_help": "list every mistake, not only the 3 costliest",
    "review_cli_detail_help": "show the computer player's whole reasoning under each mistake",
    "review_cli_json_help": "print the review as one JSON object",
    # --- teaching a class: nbgrader assignments and the class report ---------------------
    "assignment_cli_help": "make a lesson an nbgrader assignment",
    "assignment_cli_description": (
        "Write a lesson notebook as an nbgrader source assignment in a course folder: each "
        "checked exercise an autograded answer, with hidden tests that call rummykit's checker. "
        "Then run nbgrader's own commands (generate_assignment, release_assignment, collect, "
        "autograde, generate_feedback). Exit status: 0 written, 2 not."
    ),
    "assignment_cli_notebook_help": (
        "the lesson: a notebook file, or the name of one that comes with rummykit "
        "(01_melds, pt/01_combinacoes)"
    ),
    "assignment_cli_course_help": (
        "the nbgrader course folder (created if needed; the assignment goes into its source/)"
    ),
    "assignment_cli_name_help": "the assignment's name (default: the lesson's, like 01_melds)",
    "assignment_cli_points_help": "points for each exercise (default: 1)",
    "assignment_cli_force_help": "write over the assignment's notebook if it is there already",
    "assignment_no_lesson": (
        "'{name}' is neither a notebook file nor a lesson that comes with rummykit: the "
        "lessons are {choices}"
    ),
    "assignment_not_notebook": "{name} is not a notebook: {error}",
    "assignment_no_check": (
        "an answer cell must check its exercise, as in print(exercise1.check(answer)); this one "
        "starts {cell}"
    ),
    "assignment_bad_points": "the points for each exercise must be above 0, not {points}",
    "assignment_no_exercises": (
        "this notebook has no answer cells (cells tagged answer): there is nothing to grade"
    ),
    "assignment_bad_name": "'{name}' can't name an assignment: use letters, digits, -, _ and .",
    "assignment_exists": "{path} is there already: add --force to write over it",
    "assignment_cannot_write": "can't write into {path}: {error}",
    "assignment_checked_later": (
        "Exercise {number} is checked when your teacher grades the assignment: the feedback "
        "will explain your answer."
    ),
    "assignment_intro": (
        "**An assignment: {count:exercises}, {points} points.** Write each answer where the "
        "cell says your answer, between the quotes, and run every cell from the top. Your "
        "answers are checked when your teacher grades the assignment, and the feedback explains "
        "each one."
    ),
    "count_exercises_one": "{n} exercise",
    "count_exercises_other": "{n} exercises",
    "assignment_written": "Written: {path} ({count:exercises}, each checked by rummykit).",
    "assignment_next": (
        "Next, in {course}: nbgrader generate_assignment {name}, then release_assignment, "
        "collect, autograde and generate_feedback (docs/teaching.md shows each step)."
    ),
    "report_cli_help": "what the class got right and wrong, per student and per rule",
    "report_cli_description": (
        "Read an nbgrader course's gradebook and autograded notebooks, and quiz tallies "
        "exported as JSON, and write class-report.html (with a chart) and class-report.csv: "
        "per student and per rule, what was right and what was wrong. Exit status: 0 written, "
        "2 nothing to report."
    ),
    "report_cli_course_help": "the nbgrader course folder, the one holding gradebook.db",
    "report_cli_assignment_help": "only this assignment (repeat for more; default: every one)",
    "report_cli_quiz_help": (
        "a quiz export (the quiz widget's Export, or quiz.save(FILE)); repeat for more"
    ),
    "report_cli_output_help": "the folder to write the report into (default: the course folder)",
    "report_title": "{title}: what the class got right and wrong",
    "report_default_title": "Class report",
    "report_student_line": "{student}: {right} right out of {asked}",
    "report_rule_line": "{rule}: {right} right, {wrong} wrong; missed by {students}",
    "report_chart_title": "The share of wrong answers, by rule",
    "report_chart_bar": "{wrong} of {total} wrong",
    "report_rules_heading": "By rule",
    "report_students_heading": "By student",
    "report_col_source": "assignment or quiz",
    "report_col_question": "question",
    "report_col_result": "result",
    "report_col_given": "answer",
    "report_col_rules": "rules",
    "report_col_feedback": "feedback",
    "report_col_rule": "rule",
    "report_col_sentence": "what the rule says",
    "report_col_right": "right",
    "report_col_wrong": "wrong",
    "report_col_missed": "missed by",
    "report_col_codes": "reason codes of the wrong answers",
    "report_no_rule": (
        "Questions about no rule of the game: deadwood, the best discard, the computer's "
        "play, your own agent."
    ),
    "report_no_rule_short": "no rule",
    "report_bad_quiz": "{name} is not a rummykit quiz export: {field} is missing or wrong",
    "report_unreadable": "can't read {path}: {error}",
    "report_no_gradebook": "{path} holds no gradebook.db: run nbgrader autograde there first",
    "report_no_nbgrader": (
        'reading an nbgrader course needs nbgrader: pip install "rummykit[grading]"'
    ),
    "report_empty": (
        "nothing to report: give an nbgrader course with autograded rummykit assignments, "
        "quiz exports (--quiz FILE) or played games (--game FILE)"
    ),
    "report_written": "Written: {html} and {csv}.",
    "quiz_export": "Export",
    "quiz_exported": "Saved to {path}.",
    "rule_H1": "Two 52-card decks and 4 jokers, 108 cards, for 2 to 4 players.",
    "rule_H2": (
        "Seats are numbered clockwise; play and the deal pass to the left, and the dealer "
        "moves one seat each round."
    ),
    "rule_H3": (
        "Everyone gets 14 cards and the player to the dealer's left 15, who starts with a "
        "discard; a cut card lies face up beside the stock."
    ),
    "rule_H4": (
        "A set is 3 or 4 cards of one rank in different suits; a run is 3 or more cards in "
        "order in one suit, the ace at either end but never in the middle ({ranks_ka2})."
    ),
    "rule_H5": (
        "A joker stands for one card, at most one joker per meld, and counts as the card it "
        "stands for."
    ),
    "rule_H6": "A turn: draw one card, lay down what you can, discard one card.",
    "rule_H7": (
        "Your first draw of a round may take the discard and keep it; a later take must be on "
        "the table by the end of that turn."
    ),
    "rule_H8": (
        "To open, lay down new melds worth at least 51 in one turn ({rank_j}, {rank_q}, {rank_k} and the ace 10); "
        "lay-offs and joker exchanges come after."
    ),
    "rule_H9": "Nobody may open on their very first turn of a round.",
    "rule_H10": (
        "The cut card may be taken only to go out in that same turn; otherwise it goes back "
        "and you draw as usual."
    ),
    "rule_H11": (
        "An opened player may hand in the card a joker stands for and take the joker, and must "
        "play it again in that turn."
    ),
    "rule_H12": (
        "Going out, the last card by a discard, scores −10, or −20 when you open and go out in "
        "one turn with your own melds."
    ),
    "rule_H13": (
        "The others pay for the cards in their hands (the ace 10, a joker 20), or a flat 100 "
        "if they never opened."
    ),
    "rule_H14": "A match is seven rounds; the lowest total wins.",
    "rule_H15": (
        "An empty stock is rebuilt once from the discard pile; when it runs out again, the "
        "round ends with no winner."
    ),
    "rule_R1": "One 52-card deck, no jokers, 2 to 4 players.",
    "rule_R2": (
        "Two players get 7 cards each, three or four get 10 each; one card face up starts the "
        "discard pile."
    ),
    "rule_R3": (
        "A group is 3 or 4 cards of one rank in different suits; a run is 3 or more cards in "
        "order in one suit, the ace high only ({ranks_qka})."
    ),
    "rule_R4": (
        "A turn: draw from the stock or the discard pile, meld and lay off as you like, then "
        "discard."
    ),
    "rule_R5": "There is no opening threshold: anyone may meld and lay off from their first turn.",
    "rule_R6": "A lay-off must leave the meld legal, and any player's meld may be extended.",
    "rule_R7": (
        "A round ends the moment a player has no cards left after a legal move (with "
        "discard_to_win, only by a discard)."
    ),
    "rule_R8": (
        "The round's winner scores what the others hold: the ace 1 (11 with ace_high), {rank_j}, "
        "{rank_q} and {rank_k} 10, the others their value."
    ),
    "rule_R9": "Rounds go on until a score reaches the target (100); the highest score wins.",
    "rule_R10": "Asking to draw from an empty stock ends the deal: the lowest hand wins the round.",
    "rule_R11": (
        "With the stock empty, a whole lap without a meld or a lay-off ends the deal as in R10."
    ),
    "rule_R12": (
        "Computer players see only their own hand and what is public, and choose among the "
        "legal moves."
    ),
    # --- the one-page rules (rummykit.handouts) --------------------------------------------
    "handout_title": "{variant} on one page",
    "handout_section_game": "The game",
    "handout_section_deal": "The deal",
    "handout_section_melds": "Melds",
    "handout_section_turn": "A turn",
    "handout_section_opening": "The opening",
    "handout_section_cut_card": "The cut card",
    "handout_section_jokers": "Jokers",
    "handout_section_scoring": "Going out and scoring",
    "handout_section_typing": "Typing cards and moves in rummykit",
    "handout_cards": (
        "Cards: the rank, then the suit — K♠, 10♥ — or with letters: Ks, Th (s spades, "
        "h hearts, d diamonds, c clubs). A joker: 🃏 or Jk."
    ),
    "handout_move_draw": "draw from the stock",
    "handout_move_take": "take the top of the discard pile",
    "handout_move_cut": "take the cut card (only to go out this turn)",
    "handout_move_meld": "lay down a meld",
    "handout_move_layoff": "add cards to meld 2 on the table",
    "handout_move_discard": "discard a card, ending your turn",
    "handout_move_undo": "take back your last move this turn",
    # --- charts ---------------------------------------------------------------------------
    "tournament_upto_range": "a tournament of {total:games} can stop after 1 to {total} games, not {games}",
    "chart_bad_steps": "a chart needs at least one step, not {steps}",
    "chart_unknown_agent": "'{agent}' did not play in this tournament: the agents are {agents}",
    "chart_better_high": "higher is better",
    "chart_better_low": "lower is better",
    "chart_standings_title": (
        "{variant}: points per seat and {unit}, with 95% confidence intervals ({better})"
    ),
    "chart_axis_points": "points per seat and {unit}",
    "chart_row": "{label}: {estimate} {ci}",
    "chart_narrowing_title": (
        "{first} − {second}: the difference in points per {unit} as games are added, "
        "with its 95% confidence interval"
    ),
    "chart_axis_games_round": "rounds played",
    "chart_axis_games_match": "matches played",
    "chart_axis_difference": "{first} − {second}, points per {unit}",
    "chart_zero": "no difference",
    "chart_games_round": "{games:rounds}",
    "chart_games_match": "{games:matches}",
    "chart_step": "after {games}: {difference} {ci} — {verdict}",
    "chart_settled": (
        "From {games} on, the interval leaves zero out: {better} is stronger, with 95% confidence."
    ),
    "chart_settled_mark": "from {games} on, zero is out",
    "chart_not_settled": (
        "Even after {games}, the interval still holds zero: play more before you believe either "
        "is stronger."
    ),
    "count_games_one": "{n} game",
    "count_games_other": "{n} games",
    "count_rounds_one": "{n} round",
    "count_rounds_other": "{n} rounds",
    "count_matches_one": "{n} match",
    "count_matches_other": "{n} matches",
    # --- the solver: arrangements, going out, the opening, lay-offs ----------------------
    "solver_arrangement": "Melds {melds}; deadwood {deadwood} = {value}.",
    "solver_no_deadwood": "Melds {melds}; no deadwood.",
    "solver_no_melds": "No meld in this hand: deadwood {deadwood} = {value}.",
    "solver_arrangement_layoff": "Melds {melds}; lay off {laid}; deadwood {deadwood} = {value}.",
    "solver_no_deadwood_layoff": "Melds {melds}; lay off {laid}; no deadwood.",
    "solver_no_melds_layoff": "No meld in this hand; lay off {laid}; deadwood {deadwood} = {value}.",
    "solver_then_discard": "Then discard {card}.",
    "solver_nothing_to_discard": "There is no card to discard: the hand is empty.",
    "solver_mask_cards": (
        "a hand mask holds distinct natural cards only (bit 15 × suit + rank): no jokers, "
        "no twin cards"
    ),
    "solver_opening_ok": "{melds} = {total}: you can open.",
    "solver_opening_short": "{melds} = {total}: {missing} short of the {threshold} needed to open.",
    "solver_opening_none": "No meld in this hand yet: nothing toward the {threshold} needed to open.",
    "solver_opening_free": "{melds} = {total}: {variant} has no opening threshold, so you can meld now.",
    "solver_opening_none_free": "No meld in this hand yet.",
    "solver_layoff": "{cards} onto {meld} (meld {index}), making {result}.",
    "solver_step_meld": "meld {meld}",
    "solver_step_layoff": "lay {cards} onto {meld}",
    "solver_step_discard": "discard {card}",
    "solver_go_out": "You can go out: {plan}.",
    "solver_cannot_go_out": "You can't go out yet: {cards} would stay in hand.",
    "solver_cannot_go_out_discard": (
        "You can't go out yet: {cards} would stay in hand besides the discard."
    ),
    # --- the computer opponents' reasoning ---------------------------------------------
    "unknown_level": "'{name}' is not an AI level: choose one of {choices}",
    "agent_not_its_turn": (
        "Seat {seat} has no legal actions to choose from: it is not its turn"
        " (an agent decides only when the referee offers its seat a move)."
    ),
    "ai_header": "{agent} (seat {seat}) thinks:",
    "ai_candidates_header": "  options weighed, in expected points (higher is better):",
    "ai_candidate": "{action}: {why} — score {score}",
    "ai_chosen": "Chosen: {action}. {why}",
    "ai_col_move": "move",
    "ai_col_score": "score",
    "ai_col_why": "why",
    "ai_fallback": "No plan applied, so the first legal move.",
    "ai_cut_middle": "Cut at the middle of the deck.",
    "ai_cut_goes_out": "The cut card {card} lets me go out this turn.",
    "ai_cut_not_out": "The cut card {card} would not let me go out, so I leave it (H10).",
    "ai_why_cut": "Taking the cut card {card}: with it I can go out this turn.",
    "ai_discard_goes_out": "With {card} from the discard pile I can go out this turn.",
    "ai_why_discard_out": "Taking {card}: it lets me go out.",
    "ai_discard_mine": "I threw {card} away earlier this round; taking it back would go round in circles.",
    "ai_discard_makes_meld": "{card} on the discard pile completes a meld in my hand.",
    "ai_discard_no_meld": "{card} on the discard pile makes no meld with my hand.",
    "ai_discard_not_best": (
        "{card} on the discard pile would go into a meld, but not in an arrangement that "
        "leaves the least deadwood."
    ),
    "ai_why_discard_meld": "Taking {card}: it completes a meld.",
    "ai_compare_draws_played": (
        "My deadwood is {now}; with {card} from the discard pile played this turn (H7) and my "
        "worst card thrown away it would be {take}; with a card from the stock, {stock} "
        "expected."
    ),
    "ai_compare_draws": (
        "My deadwood is {now}; with {card} from the discard pile and my worst card thrown "
        "away it would be {take}; with a card from the stock, {stock} expected."
    ),
    "ai_return_cut": "I can't go out with the cut card {card}, so it goes back (H10).",
    "ai_why_return_cut": "Giving back the cut card, then drawing normally.",
    "ai_stuck": "My moves this turn don't let the turn end, so I take them back.",
    "ai_why_undo": "Taking back the last move.",
    "ai_why_go_out": "Going out: this is the next step.",
    "ai_first_turn": "Nobody may open on their first turn (H9), so I only discard.",
    "ai_opening": "I can open: {points:points} of melds, {threshold} needed.",
    "ai_why_open": "Laying down my opening.",
    "ai_cannot_open": "My best opening is {points:points}; {threshold} are needed, so I wait.",
    "ai_meld": "{cards} is a meld of my best arrangement, keeping a card back to discard.",
    "ai_why_meld": "Laying down a meld: fewer points left in hand.",
    "ai_layoff": "{cards} fits onto meld {meld}.",
    "ai_why_layoff": "Laying off a single card.",
    "ai_exchange": "Handing in {card} for the joker in meld {meld}: the joker fits a meld of mine.",
    "ai_why_exchange": "Exchanging for the joker: it is worth more in my hand.",
    "ai_memory": "Seat {seat} has taken {count:cards} from the discard pile: {cards}.",
    "ai_note_value": "{value:points} of deadwood",
    # the traces as an analysis board: options in expected points, each a sum of named terms
    "ai_term": "{value}  {text}",
    "ai_term_short": "{value} for {label}",
    "ai_terms": "{terms}",
    "ai_option": "{action}: {score} points",
    "ai_behind": " ({diff} behind the best)",
    "ai_as_good": " (as good as the best)",
    "ai_plan": "plan: {text}",
    "ai_rough_option": "{action} {score}",
    "ai_score_cell": "{score}",
    "ai_not_searched": "{count:options} not searched ({why}): {options}",
    "ai_not_searched_plain": "{count:options} not searched: {options}",
    "ai_label_deadwood_after": "the deadwood left",
    "ai_label_deadwood_now": "the deadwood now",
    "ai_label_habit": "easy's habit",
    "ai_label_caution": "caution",
    "ai_label_joker": "keeping the joker",
    "ai_label_outs": "outs given up",
    "ai_label_feed": "feeding the next player",
    "ai_label_round_ends": "the round ending first",
    "ai_label_next_draw": "my next draw",
    "ai_label_go_out": "going out",
    "ai_label_threat": "the next player going out",
    "ai_label_opening_gain": "opening points gained",
    "ai_label_open_chance": "opening next turn",
    "ai_label_opening_points": "opening points expected",
    "ai_term_no_deadwood": "every card left is in a meld: no deadwood",
    "ai_term_deadwood_left": "{value:points} of deadwood left in hand: {cards}",
    "ai_term_easy_no_meld": (
        "easy takes a card only when it makes a meld with cards of its hand, in an "
        "arrangement that leaves the least deadwood, and {card} doesn't"
    ),
    "ai_term_take": "with {card} taken and my worst card thrown away: {value:points} of deadwood",
    "ai_term_cut_back": (
        "the cut card {card} goes back unless it takes me out this turn (H10), and I draw "
        "again: counted as no change, {value:points} of deadwood"
    ),
    "ai_term_take_played": (
        "with {card} taken and played this turn (H7), and my worst card thrown away: "
        "{value:points} of deadwood"
    ),
    "ai_term_take_unplayable": (
        "{card} taken now would have to be played this turn (H7), and it can't be: counted "
        "as no change, {value:points} of deadwood"
    ),
    "ai_term_take_first_turn": (
        "{card} taken now would have to go into my opening this turn (H7), and nobody may "
        "open on their first turn (H9): counted as no change, {value:points} of deadwood"
    ),
    "ai_term_take_opening": (
        "{card} taken now would have to go into my opening this turn (H7); the best opening "
        "holding it is {points} ({threshold} needed): counted as no change, {value:points} "
        "of deadwood"
    ),
    "ai_term_take_no_opening": (
        "{card} taken now would have to go into my opening this turn (H7), and no opening "
        "holding it reaches {threshold}: counted as no change, {value:points} of deadwood"
    ),
    "ai_term_stock_same": (
        "a stock card, counted as no change (this level doesn't estimate the stock): "
        "{value:points} of deadwood"
    ),
    "ai_term_caution": (
        "a take shows the others what I collect: normal wants it to gain more than 4 points"
    ),
    "ai_term_no_caution": "{card} goes with two cards in my hand ({cards}): no caution needed",
    "ai_term_joker_normal": "a joker fits almost any meld later: normal counts 60 points for it",
    "ai_term_joker_hard": "a joker fits almost any meld later: hard counts 40 points for it",
    "ai_term_joker_take": "a joker fits almost any meld later: hard counts 40 points for it",
    "ai_term_outs": (
        "throwing it gives up {count:unseen_cards} that would make a meld with it and "
        "{partners}: {cards} (normal counts {weight} points each)"
    ),
    "ai_term_outs_many": (
        "throwing it gives up {count:unseen_cards} that would make a meld with it and one of "
        "{partners}: {cards} (normal counts {weight} points each)"
    ),
    "ai_term_dead_partner": (
        "its partner {partner} needs {needs}, and none of those is unseen: no live out"
    ),
    "ai_term_no_partner": "no card among my loose cards could make a meld with it",
    "ai_term_feed_joker": "a joker is welcome in any hand, seat {seat}'s too",
    "ai_term_feed_took": (
        "seat {seat} took {took} from the discard pile, and this card goes with it"
    ),
    "ai_term_feed_layoff": "seat {seat} has opened and can lay it off onto meld {meld} ({cards})",
    "ai_term_round_ends_hands": (
        "if the round ends before my next turn (about {chance}% by the others' hand sizes), "
        "I'm caught with {value:points}"
    ),
    "ai_term_round_ends_stock": (
        "if the round ends before my next turn (about {chance}%: the stock is nearly empty), "
        "I'm caught with {value:points}"
    ),
    "ai_term_round_ends_hands_holding": (
        "if the round ends before my next turn (about {chance}% by the others' hand sizes), "
        "I'm caught with {value:points}, the melds I hold back included"
    ),
    "ai_term_round_ends_stock_holding": (
        "if the round ends before my next turn (about {chance}%: the stock is nearly empty), "
        "I'm caught with {value:points}, the melds I hold back included"
    ),
    "ai_term_next_draw": (
        "if the round goes on ({weight}%), after my next draw and discard I expect {value} "
        "points of deadwood on average over the {total} unseen cards (0 for a card that "
        "takes me out)"
    ),
    "ai_term_next_draw_sure": (
        "after my next draw and discard I expect {value} points of deadwood on average over "
        "the {total} unseen cards (0 for a card that takes me out)"
    ),
    "ai_term_go_out": (
        "{count} of the {total} unseen cards take me out ({cards}); going out is worth "
        "about {bonus} points, counted at {weight}%"
    ),
    "ai_term_threat": (
        "seat {seat} would go out with it in {count} of {samples} sampled hands; that costs "
        "me about {cost} points"
    ),
    "ai_term_threat_opening": (
        "seat {seat} could open with it in {count} of {samples} sampled hands, escaping the "
        "flat penalty: about {cost} points to me"
    ),
    "ai_term_not_searched": (
        "scored by its deadwood now, counted against it: no less than the {count} searched "
        "options leave (at most {limit}), and the next draw can only lower it"
    ),
    "ai_term_not_searched_lowest": (
        "scored as it is: its deadwood now is no less than the {count} searched options "
        "leave (at most {limit}), and a draw can only lower it; its score is its chance of "
        "the lowest hand against the others' {cards} cards at about {rate} points a card, "
        "times about {pot} points"
    ),
    "ai_term_opening_gain": "my best opening goes from {before} to {after} with {card}",
    "ai_term_stock_no_sure_gain": "a stock card adds nothing for sure to my opening",
    "ai_term_open_chance": (
        "{count} of the {total} unseen cards let me open next turn ({cards}), escaping the "
        "flat {penalty}"
    ),
    "ai_term_open_chance_none": (
        "none of the {total} unseen cards lets me open next turn: nothing counted for "
        "escaping the flat {penalty}"
    ),
    "ai_term_open_chance_all": (
        "my melds already reach the {threshold} needed, so any card I draw lets me open "
        "next turn, escaping the flat {penalty}"
    ),
    "ai_term_opening_points": (
        "opening points: {now} now; after the next draw {expected} expected, counting up to "
        "the {threshold} needed, at half a point each"
    ),
    "ai_term_opening_not_searched": (
        "scored by its opening points now (counting up to the {threshold} needed, at half a "
        "point each): no more than the {count} searched options keep (at least {limit})"
    ),
    "ai_plan_no_melds": "no meld",
    "ai_plan_nothing": (
        "keeps {melds}; no unseen card would go into a meld or onto the table, better than any swap"
    ),
    "ai_plan_waits": (
        "keeps {melds} and waits for {cards}: {count:unseen_cards} that would go into a meld "
        "or onto the table, better than any swap"
    ),
    "ai_can_go_out_plan": "I can empty my hand this turn: {plan}.",
    "ai_discard_no_gain": (
        "{card} completes a meld, but with it my deadwood would not go down, so I leave it."
    ),
    "ai_why_stock_easy": "Drawing from the stock: the discard doesn't make a meld for me.",
    "ai_discard_change": (
        "With {card} from the discard pile (and my worst card thrown away) my deadwood goes "
        "from {before} to {after}."
    ),
    "ai_why_discard_change": "Taking {card}: my deadwood goes from {before} to {after}.",
    "ai_why_stock_normal": "Drawing from the stock: {card} doesn't gain me enough.",
    "ai_why_stock_opening": "Drawing from the stock: {card} adds nothing to my opening.",
    "ai_why_stock_expected": (
        "Drawing from the stock: a card from it is worth more on average than {card}."
    ),
    "ai_why_stock_mine": "Drawing from the stock: I threw {card} away myself.",
    "ai_why_stock_before_opening": "Drawing from the stock: I leave {card} before my opening.",
    "ai_why_stock_unusable": "Drawing from the stock: I couldn't play {card} this turn.",
    "ai_why_stock_only": "Drawing from the stock: there is no other draw.",
    "ai_why_end_deal_R": (
        "Asking the empty stock for a card rather than take {card}: that ends the deal, and "
        "the lowest hand wins (R10)."
    ),
    "ai_why_end_deal_only_R": (
        "Asking the empty stock for a card, the only draw left: that ends the deal, and the "
        "lowest hand wins (R10)."
    ),
    "ai_why_end_deal_H": (
        "Asking the empty stock for a card rather than take {card}: that ends the round with "
        "no winner, every player paying their hand (H15)."
    ),
    "ai_why_end_deal_only_H": (
        "Asking the empty stock for a card, the only draw left: that ends the round with no "
        "winner, every player paying their hand (H15)."
    ),
    "ai_term_end_deal_R": (
        "asking the empty stock for a card ends the deal (R10) with my hand as it is: "
        "{value:points} in hand"
    ),
    "ai_term_end_deal_H": (
        "asking the empty stock for a card ends the round (H15) with my hand as it is: I pay "
        "{value:points} (H13)"
    ),
    "ai_term_rule_end_deal": (
        "taking {card} would play on, and I end the deal now instead (the step above says "
        "why): this rules it out"
    ),
    "ai_discard_unusable_opened": (
        "{card} on the discard pile makes no meld with my cards and fits no meld on the "
        "table, and a card taken now must be played this turn (H7)."
    ),
    "ai_discard_unusable_first_turn": (
        "{card} on the discard pile would have to be played this turn (H7), and nobody may "
        "open on their first turn (H9)."
    ),
    "ai_discard_unusable_opening": (
        "No opening of {threshold} or more would hold {card}, and a card taken now must be "
        "used in the opening this turn (H7, H8)."
    ),
    "ai_hold_melds_stock": (
        "I keep my melds in hand for now: every other player holds {count} or more cards and "
        "the stock still has {stock:cards}; on the table my melds would give them places to "
        "lay off."
    ),
    "ai_hold_melds_short": (
        "I keep my melds in hand for now: the stock still has {stock:cards}, enough for "
        "every player to draw before my next turn, and every other player holds {count} or "
        "more cards; on the table my melds would give them places to lay off, and at the "
        "empty stock the lowest hand wins (R10)."
    ),
    "ai_hold_layoffs_short_one": (
        "I keep {cards} in hand for now, though it fits onto the table: there is one "
        "card of each kind (R1), so nobody else can take its place, and melds are never "
        "rearranged (R6); it will still fit at my last turn, and laid off now it would tell "
        "the others what I hold."
    ),
    "ai_hold_layoffs_short_many": (
        "I keep {cards} in hand for now, though they fit onto the table: there is one "
        "card of each kind (R1), so nobody else can take their places, and melds are never "
        "rearranged (R6); they will still fit at my last turn, and laid off now they would "
        "tell the others what I hold."
    ),
    "ai_empty_stock_mean": (
        "The stock is empty: asking it for a card ends the deal, and the lowest hand wins. "
        "Mine is worth {mine}; the smallest other hand, at {mean} points a card unseen, is "
        "about {others}."
    ),
    "ai_empty_stock_lowest": (
        "The stock is empty: asking it for a card ends the deal, and the lowest hand wins "
        "(R10). Mine is worth {mine}; against the others' {cards} cards at about {rate} "
        "points a card, it is the lowest about {chance}% of the time; I end the deal when "
        "that is at least an even share, {limit}%."
    ),
    "ai_term_just_taken": (
        "I took {card} from the discard pile this turn: throwing it straight back gains "
        "nothing, so this rules it out"
    ),
    "ai_label_just_taken": "the card just taken",
    "ai_why_discard_ahead": "Discarding {card}: {score} points, {diff} ahead of {other}.",
    "ai_why_discard_tie": "Discarding {card}: {score} points, as good as {other}.",
    "ai_why_discard_only": "Discarding {card}: the only card I may throw away.",
    "ai_why_greedy_stock": "Drawing from the stock: greedy always does.",
    "ai_term_greedy_value": "greedy throws its highest loose card; this one is worth {value:points}",
    "ai_term_greedy_meld": "it is part of a meld, and greedy keeps its melds",
    "ai_label_card_value": "the card's value",
    "ai_note_partners": "{count:partner_cards} in hand",
    "ai_why_stock": "Drawing from the stock.",
    "ai_why_discard": "Discarding {card} (score {score}).",
    "ai_note_single": "{card}: {value:points} of deadwood, not in a meld",
    "ai_note_deadwood_after": "deadwood after: {value}",
    "ai_note_expected": "expected deadwood after the next draw: {value}",
    "ai_note_safe": "not wanted by seat {seat} as far as I can see",
    "count_partner_cards_one": "{n} partner card",
    "count_partner_cards_other": "{n} partner cards",
    "ai_known_hand_one": "Seat {seat} still holds {cards}: it took it from the discard pile.",
    "count_unseen_cards_one": "{n} unseen card",
    "count_unseen_cards_other": "{n} unseen cards",
    "count_options_one": "{n} option",
    "count_options_other": "{n} options",
    "ai_known_hand_many": "Seat {seat} still holds {cards}: it took them from the discard pile.",
    "ai_term_inline": "{value} {text}",
    "ai_option_line": "{head} — {terms}",
    "ai_label_ruled_out": "a draw ruled out",
    "ai_term_draw_out": "with {card} I can go out this turn: no deadwood left",
    "ai_term_stock_rule": (
        "a stock card, counted as no change (a rule decides this draw, not an estimate): "
        "{value:points} of deadwood"
    ),
    "ai_term_rule_cut": (
        "the cut card {card} is mine only if it takes me out this turn (H10), and it doesn't: "
        "this rules it out"
    ),
    "ai_term_rule_not_lowest": (
        "asking the empty stock for a card ends the deal, and my hand is likely not the "
        "lowest: this rules it out"
    ),
    "ai_term_rule_mine": (
        "I threw {card} away myself earlier this round: taking it back goes round in "
        "circles, so this rules it out"
    ),
    "ai_term_rule_before_opening": (
        "this level doesn't take the discard before its opening: this rules it out"
    ),
    "ai_term_rule_before_opening_easy": (
        "easy never takes the discard before its opening: this rules it out"
    ),
    "ai_term_rule_before_opening_normal": (
        "before its opening, normal takes the discard only on its first draw, when the card "
        "may simply be kept: this rules it out"
    ),
    "ai_term_rule_greedy": "greedy always draws from the stock: this rules the discard out",
    "ai_term_rule_agent": "{agent} picks another draw by its own rule: this rules this one out",
    "ai_term_rule_unusable": (
        "a card taken now must be played this turn, and I can't play {card} (see above): "
        "this rules it out"
    ),
    "ai_label_later_draws": "my later draws",
    "ai_label_later_out": "going out later",
    "ai_label_lowest_hand": "winning the deal",
    "ai_term_later_draws": (
        "counting only the cards that go into a meld or onto the table (a swap for a "
        "costlier card doesn't count here), the best of {draws} draws (the stock's cards "
        "left for me, at most {cap}) is expected to leave {value} points of deadwood, "
        "against {one} with the next draw alone: {gain} fewer, counted at {weight}%"
    ),
    "ai_term_lowest_hand_one": (
        "this deal is short and will likely end at the empty stock, where the lowest hand "
        "wins (R10): after my next draw I win it about {chance}% of the time — by going out, "
        "or with the lowest hand against the others' {cards} cards at about {rate} points a "
        "card — and the winner takes about {pot} points"
    ),
    "ai_term_lowest_hand_many": (
        "this deal is short and will likely end at the empty stock, where the lowest hand "
        "wins (R10): with the best of my next {draws} draws I win it about {chance}% of the "
        "time — by going out, or with the lowest hand against the others' {cards} cards at "
        "about {rate} points a card — and the winner takes about {pot} points"
    ),
    "ai_term_later_out": (
        "one of those {draws} draws takes me out with a chance of about {chance}% ({extra}% "
        "more than the next draw alone); going out is worth about {bonus} points, counted "
        "at {weight}%"
    ),
    # --- hints and the widgets -------------------------------------------------------------
    "hint_not_your_turn": "It is not seat {seat}'s turn, so there is nothing to suggest.",
    "hint_not_yours": "It is not your turn, so there is nothing to suggest.",
    "hint_summary": "Play “{command}”: {why}.",
    "hint_details_header": "Why — the hard computer player's reasoning, as if it held your cards:",
    "hint_generic": "it is what the hard computer player would do in your place",
    "hint_ai_why_go_out": "it is the next step of going out this turn",
    "hint_ai_why_cut": "with the cut card {card} you can go out this turn (H10)",
    "hint_ai_why_return_cut": "you can't go out with the cut card, so give it back and draw (H10)",
    "hint_ai_why_discard_out": "with {card} you can go out this turn",
    "hint_ai_why_keep_going": "ending the deal now would not leave you with the lowest hand",
    "hint_ai_why_discard_change": "your deadwood goes from {before} to {after}",
    "hint_ai_why_discard_opening": "{card} adds to your opening",
    "hint_ai_why_stock_expected": "a card from the stock is worth more on average than {card}",
    "hint_ai_why_stock_opening": "{card} adds nothing to your opening",
    "hint_ai_why_stock_mine": "you threw {card} away yourself",
    "hint_ai_why_stock_unusable": "you couldn't play {card} this turn, and you would have to (H7)",
    "hint_ai_why_stock_only": "there is no other draw",
    "hint_ai_why_stock_before_opening": "leave {card} before your opening",
    "hint_ai_why_open": "your melds reach the opening (H8)",
    "hint_plan": "it {plan} — {diff} points ahead of {other} by the hard player's count",
    "hint_plan_tie": "it {plan} — as good as {other} by the hard player's count",
    "hint_ai_why_meld": "a meld on the table leaves fewer points in your hand",
    "hint_ai_why_layoff": "it leaves fewer points in your hand",
    "hint_ai_why_exchange": "the joker is worth more in your hand, and it fits a meld of yours",
    "hint_ai_why_undo": "your moves this turn don't let the turn end",
    "hint_ai_why_discard_ahead": "{score} points by the hard player's count, {diff} ahead of {other}",
    "hint_ai_why_discard_tie": "{score} points by the hard player's count, as good as {other}",
    "hint_ai_why_discard_only": "it is the only card you may throw away",
    "widget_you": "You",
    "widget_selected": "selected",
    "widget_ai_name": "Seat {seat} ({level} AI)",
    "widget_one_human": "exactly one seat is yours; give every other seat an AI level",
    "widget_waiting": "{name} is playing…",
    "widget_opening": "Opening: {points} of {threshold}",
    "widget_opponent_label": "{name}: {count:cards}",
    "widget_joker_is": "🃏 = {card}",
    "widget_meld_label": "Meld {number} ({owner}): {cards}",
    "widget_totals": "Match totals: {totals}",
    "widget_select_one_discard": "Select exactly one card to discard (or drag it onto the discard pile).",
    "widget_select_meld": "Select the cards of your meld first, then press Meld.",
    "widget_select_layoff": "Select the cards to lay off first, then click the meld on the table.",
    "widget_select_exchange": "Select the one card the joker stands for, then click Exchange on that meld.",
    "widget_unknown_message": "That button did nothing: unknown message.",
    "widget_hint_not_your_turn": "Hints are for your own turn.",
    "widget_no_next_round": "There is no next round to deal yet.",
    "widget_new_round": "Round {number} is dealt.",
    "widget_stock": "Stock",
    "widget_discard_pile": "Discard pile",
    "widget_cut_card": "Cut card",
    "widget_your_hand": "Your hand",
    "widget_table": "Table",
    "widget_draw_button": "Draw from stock",
    "widget_take_discard_button": "Take discard",
    "widget_take_cut_button": "Take cut card",
    "widget_discard_button": "Discard",
    "widget_meld_button": "Meld",
    "widget_layoff_hint": "Select cards, then click a meld to lay off",
    "widget_exchange_button": "Exchange joker",
    "widget_undo_button": "Undo",
    "widget_return_cut_button": "Give back cut card",
    "widget_hint_button": "Hint",
    "widget_hint_why": "Why? The hard computer player's reasoning, as if it held your cards",
    "widget_sort_suit": "Sort by suit",
    "widget_sort_rank": "Sort by rank",
    "widget_next_round_button": "Next round",
    "widget_ai_moves": "Computer moves (click to see why)",
    "widget_scores": "Scores",
    "widget_round_over": "Round over",
    "widget_match_over_title": "Match over",
    "widget_no_melds": "No melds on the table yet.",
    "stepper_move": "decision",
    "stepper_prev": "← back",
    "stepper_next": "forward →",
    "stepper_empty": "No AI decisions in this game yet.",
    "stepper_title": "Decision {number} of {total} — seat {seat}",
    "stepper_hand": "Its hand:",
    "stepper_discard": "Discard pile top: {card}; stock: {stock:cards}.",
    "stepper_memory": "What it remembers: seat {seat} took {cards} from the discard pile.",
    "stepper_played_other": "In the game, this seat played instead: {action}.",
    "checker_variant": "variant",
    "checker_cards": "cards",
    "checker_undo": "⌫ Undo",
    "checker_clear": "Clear",
    "checker_empty": (
        "Type cards or click them in the palette; {undo} takes the last card away, {clear} "
        "starts again."
    ),
    # --- tournaments (rummykit.tournament, rummykit simulate) --------------------------------
    "tournament_unknown_agent": (
        "'{spec}' is not an agent: use a level ({levels}) or module:Name for your own agent"
    ),
    "tournament_import_failed": "could not load the agent '{spec}': {error}",
    "tournament_not_factory": "'{spec}' is not a class or function that makes an agent",
    "tournament_game_failed": ("game {index} (deal seed {seed}, seats: {seating}) failed: {error}"),
    "tournament_bad_unit": "'{unit}' is not a tournament unit: choose round or match",
    "tournament_no_games": "a tournament needs at least one game",
    "tournament_bad_lineup": (
        "{count} agents for {players} seats: give from one agent up to one per seat"
    ),
    "tournament_unit_round": "round",
    "tournament_unit_match": "match",
    "tournament_title": (
        "{variant}{options}, {players} players, {games} × {unit} (seed {seed}); seats: {lineup}."
    ),
    "tournament_seating": "Each game's seating is drawn from the seed.",
    "tournament_seating_duplicate": (
        "Each deal is played once from every seat (seating drawn from the seed, then rotated)."
    ),
    "tournament_better_low": (
        "Points per seat and {unit}: lower is better. Intervals are 95% confidence intervals."
    ),
    "tournament_better_high": (
        "Points per seat and {unit}: higher is better. Intervals are 95% confidence intervals."
    ),
    "tournament_col_place": "#",
    "tournament_col_agent": "agent",
    "tournament_col_seats": "seats",
    "tournament_col_mean": "mean",
    "tournament_col_ci": "95% CI",
    "tournament_col_std": "std",
    "tournament_col_win": "wins",
    "tournament_col_win_ci": "95% CI",
    "tournament_differences": "Differences in points per seat and {unit}, paired by deal:",
    "tournament_difference": "{first} − {second}: {difference} {ci} — {verdict}",
    "tournament_clear": "{better} is stronger",
    "tournament_no_clear": "no clear difference",
    # --- agents in their own process and leagues ---------------------------------------
    "protocol_not_a_message": (
        "'{line}' is not a JSON object with a \"type\": every line of the agent protocol is "
        'one JSON object, e.g. {{"type": "action", "id": 1, "text": "draw"}}'
    ),
    "protocol_expected": "a '{expected}' line was due, but the agent sent '{got}'",
    "protocol_version": "the agent speaks protocol {version}; this referee speaks only {ours}",
    "protocol_bad_field": "the field '{field}' must be {expected}",
    "protocol_bad_observation": "the observation could not be read: {error}",
    "protocol_missing_key": "'{key}' is missing",
    "protocol_wrong_id": "the answer is for question {got}, but the question was {ident}",
    "protocol_no_action": (
        'the answer holds neither an "action" (the action\'s JSON form) nor a "text" '
        '(its text form, e.g. "discard 9s")'
    ),
    "protocol_bad_action": "the answer's action could not be read: {error}",
    "protocol_unknown_question": "there is no question {ident} to answer",
    "agent_no_reasons": "The program gave no reasons.",
    "agent_referee_error": "the referee reported an error: {message}",
    "agent_no_command": "a ProcessAgent needs a command: the program to run and its arguments",
    "forfeit_timeout": "no answer within {detail} s",
    "forfeit_crash": "the program ended (exit status {detail})",
    "forfeit_garbage": "it answered outside the protocol: {detail}",
    "forfeit_illegal": "an illegal action after the referee's verdict: {detail}",
    "forfeit_error": "it reported an error: {detail}",
    "forfeit_variant": "it doesn't play {detail}",
    "forfeit_start": "the program could not be started: {detail}",
    "forfeit_line": "{agent} (seat {seat}) forfeits: {message}.",
    "agent_spec_form": (
        "'{spec}' does not name an agent: write FILE.py:Name or package.module:Name, where "
        "Name is a class or function that makes the agent"
    ),
    "agent_no_attribute": "it defines no '{attr}'",
    "agent_no_file": "there is no file {path}",
    "cli_agent_help": "serve a computer player over the agent protocol (JSON lines)",
    "cli_agent_description": (
        "Play as an agent program: say hello, then read the referee's decide messages on "
        "standard input and answer each with an action and its reasoning on standard output "
        "(the agent protocol, docs/agents.md). Stops at bye or at the end of the input."
    ),
    "cli_agent_level_help": (
        "the built-in level to serve: easy, normal, hard, or any other rummykit.ai offers "
        "(default: normal)"
    ),
    "cli_agent_spec_help": (
        "serve your own agent instead: a class (or function making one) as FILE.py:Name or "
        "package.module:Name"
    ),
    "cli_agent_name_help": "the name to give in the hello (default: the agent's own)",
    "forfeit_heading": "Forfeits ({count:games}):",
    "forfeit_game": "game {index} (deal seed {seed}): {line}",
    "forfeit_stderr": "      stderr: {line}",
    "league_bad_entry": (
        '{entry} is not a league entry: give exactly one of "level" (easy, normal, hard), '
        '"python" (FILE.py:Name) or "command" (a program speaking the agent protocol)'
    ),
    "league_no_manifest": "cannot read the league manifest {path}: {error}",
    "league_bad_manifest": "the league manifest {path} is not valid: {error}",
    "league_no_list": 'it must be a JSON object with a list "agents"',
    "league_unknown_setting": "the league manifest has unknown settings {names}: known are {choices}",
    "league_same_name": 'two entrants share the name {names}: give each a "name" of its own',
    "league_too_few": (
        "a league at {players} players needs at least {players} entrants, not {count}"
    ),
    "league_bad_schedule": "'{schedule}' is not a schedule: choose round_robin, swiss or auto",
    "league_program_failed": "{name} could not play: {why}. Its standard error: {stderr}",
    "league_no_stderr": "(nothing)",
    "league_wrong_variant": "{name} does not play {variant}: it plays {plays}",
    "league_title": (
        "League: {variant}{options}, {players} players, {entrants} entrants, {count:games}, "
        "seed {seed}."
    ),
    "league_schedule_round_robin": (
        "Round robin: every table of entrants meets, {games} games each; every deal is "
        "played once from every seat."
    ),
    "league_schedule_swiss": (
        "Swiss schedule, {rounds} rounds: entrants with similar results meet, {games} games a "
        "table; every deal is played once from every seat."
    ),
    "league_pairwise": (
        "Points per round the row's entrant did better than the column's, in the games both "
        "played (* clear at 95%):"
    ),
    "league_col_place": "#",
    "league_col_agent": "agent",
    "league_col_samples": "seat-rounds",
    "league_col_mean": "mean",
    "league_col_ci": "95% CI",
    "league_col_win": "wins",
    "league_col_win_ci": "95% CI",
    "league_col_forfeits": "forfeits",
    "cli_league_help": "a league between the agents listed in a folder's league.json",
    "cli_league_description": (
        "Play every agent listed in DIR/league.json (built-in levels, Python files, programs "
        "speaking the agent protocol) against the others, seats rotated and deals "
        "duplicated, and print the standings with 95% confidence intervals, every pair's "
        "difference and every forfeit. Options given here override the manifest's."
    ),
    "cli_league_folder_help": "the league folder: league.json and the agents it lists",
    "cli_league_variant_help": "the variant to play (default: the manifest's, or rommi)",
    "cli_league_games_help": "games per table (default: the manifest's, or one deal per seat twice)",
    "cli_league_schedule_help": "round_robin, swiss, or auto: round robin for up to 8 entrants",
    "cli_league_rounds_help": "Swiss rounds (default: log2 of the entrants, plus one)",
    "cli_league_time_limit_help": "seconds a program may think per decision (default: 10)",
    "cli_league_scheduler_help": (
        "play on a Dask cluster: the scheduler's address, e.g. tcp://10.0.0.5:8786 "
        "(needs rummykit[cluster])"
    ),
    "cli_league_html_help": "also write the leaderboard as an HTML file",
    "cli_league_json_help": "print the result as one JSON object",
    "cli_league_no_dask": "--scheduler needs Dask: pip install 'rummykit[cluster]'",
    # --- the sandbox, and a league no entrant can stop (rummykit.agents.sandbox, workers) ------
    "sandbox_bad_limit": "the limit {name} must be a whole number from 1 to 1000000, not {value!r}",
    "sandbox_exit_status": "bwrap ended with exit status {status}",
    "sandbox_not_linux": "bubblewrap runs only on Linux, and this is {platform}",
    "sandbox_no_bwrap": (
        "bubblewrap (bwrap) is not installed: on Debian or Ubuntu, apt install bubblewrap"
    ),
    "sandbox_unknown": "'{name}' is not a sandbox: choose {choices}",
    "sandbox_unavailable": "no sandbox for the agent programs here: {why}",
    "sandbox_limits_only": (
        "No sandbox here ({why}): agent programs run with the resource limits only."
    ),
    "sandbox_line_bwrap": (
        "Sandbox: bubblewrap, each program in namespaces of its own (its own processes only, "
        "no network), its own files read-only; each process at most {memory} MiB of memory, "
        "{cpu} CPU seconds, {file_size} MiB files, {open_files} open files; {processes_text}."
    ),
    "sandbox_processes": "at most {processes} processes and threads in all",
    "sandbox_processes_root": "no process limit (the kernel does not hold root to it)",
    "sandbox_line_none": (
        "No sandbox (sandbox none): programs ran as the organiser's own user, with the limits "
        "only: each process at most {memory} MiB of memory, {cpu} CPU seconds, {file_size} MiB "
        "files, {open_files} open files."
    ),
    "sandbox_line_missing": (
        "No sandbox here ({why}): programs ran with the limits only: each process at most "
        "{memory} MiB of memory, {cpu} CPU seconds, {file_size} MiB files, {open_files} open "
        "files."
    ),
    "protocol_line_too_long": (
        "the line is {size} bytes long, over the protocol's limit of {limit} bytes (1 MiB)"
    ),
    "protocol_too_deep": "the line is nested deeper than {limit} levels, the protocol's limit",
    "protocol_number_too_long": (
        "a number in the line ({start}…) is longer than {limit} characters, the protocol's limit"
    ),
    "protocol_not_json_constant": "{name} is not JSON: every number must be finite",
    "protocol_version_type": (
        '"protocol" must be a whole number (the version, {ours}), not {value} ({kind})'
    ),
    "protocol_expects_versions": "a list of protocol versions (whole numbers)",
    "json_type_string": "a string",
    "json_type_number": "a number with a fraction",
    "json_type_boolean": "a boolean",
    "json_type_null": "no value",
    "json_type_array": "an array",
    "json_type_object": "an object",
    "forfeit_unread": ("it did not read the referee's line within {detail} s (its input was full)"),
    "forfeit_closed_output": "the program closed its standard output but kept running",
    "forfeit_cpu_limit": "the program used up its {detail} CPU seconds and was stopped",
    "forfeit_file_limit": "the program wrote a file over its limit of {detail} MiB",
    "forfeit_signal": "the program was killed by the signal {detail}",
    "workers_died": "the worker playing it ended (exit status {status})",
    "workers_error": "the referee could not play it: {error}",
    "workers_stalled": "no result within {limit} s: its worker froze and was replaced",
    "workers_lost": "{reason} (tried {tries:times})",
    "count_times_one": "{n} time",
    "count_times_other": "{n} times",
    "league_unknown_entry_key": ("a league entry has unknown keys {names}: known are {choices}"),
    "league_bad_limit": "the limits of {name} are not valid: {error}",
    "league_bad_folder": "{folder} is not a folder inside the league folder {league}",
    "league_bad_setting": "a league setting is not valid: {error}",
    "tournament_no_module": "there is no module {module}, installed or in the league folder",
    "league_lost_heading": "Lost games ({count:games}, counted for nobody):",
    "league_lost_game": "game {index} (deal seed {seed}), {seating}: {reason}",
    "league_checksums": "Files written (SHA-256; sha256sum -c checks these lines):",
    "cli_league_start_limit_help": "seconds a program may take to say hello (default: 30)",
    "cli_league_game_limit_help": (
        "seconds of wall clock a game may take before its worker is replaced and the game "
        "tried again (default: 600, or 200 times the slowest program's time limit)"
    ),
    "cli_league_sandbox_help": (
        "where programs run: bwrap (bubblewrap, or refuse to start), none (the limits "
        "only), auto (bwrap where it works; the default)"
    ),
    "cli_league_save_help": "also write the whole result as a JSON file",
    # --- the card table widget (set-up errors) ---------------------------------------------
    "widget_ai_count": (
        "ai: give one level for every computer seat, one per seat ({players}), or one per "
        "computer seat ({others}) — not {count}"
    ),
    "widget_clear_button": "Clear selection",
    # the learner is "You": the engine's sentences about the learner's seat, second person
    "widget_you_event_cut": "You cut the deck at {height}; the cut card is {card}.",
    "widget_you_event_draw_stock": "You drew from the stock.",
    "widget_you_event_draw_discard": "You took {card} from the discard pile.",
    "widget_you_event_draw_cut": "You took the cut card {card}.",
    "widget_you_event_return_cut": "You gave back the cut card {card}.",
    "widget_you_event_meld": "You laid down {cards} (meld {number}).",
    "widget_you_event_layoff": "You laid off {cards} onto meld {number}.",
    "widget_you_event_layoff_joker": (
        "You laid off {cards} onto meld {number}, the joker as {stands_for}."
    ),
    "widget_you_event_layoff_jokers": (
        "You laid off {cards} onto meld {number}, the jokers as {stands_for}."
    ),
    "widget_you_event_exchange": "You exchanged {card} for the joker in meld {number}.",
    "widget_you_event_undo": "You took back a move.",
    "widget_you_event_discard": "You discarded {card}.",
    "widget_you_event_stock_empty": "You asked for a card, but the stock is empty: the deal ends.",
    "widget_you_event_stock_empty_again": (
        "You asked for a card, but the stock ran out a second time: the round ends with no winner."
    ),
    "widget_you_event_stock_empty_no_reshuffle": (
        "You asked for a card, but the stock is empty and the discard pile holds nothing under "
        "its top card to reshuffle: the round ends with no winner."
    ),
    "widget_you_event_stock_empty_no_pile": (
        "You asked for a card, but the stock and the discard pile are both empty: "
        "the round ends with no winner."
    ),
    "widget_you_status_cut": "Your cut: choose where to cut the deck.",
    "widget_you_status_draw": "Your turn: draw from the stock or the discard pile.",
    "widget_you_status_draw_cut": (
        "Your turn: draw from the stock, the discard pile, or the cut card."
    ),
    "widget_you_status_play": "Your turn: lay down, lay off, or discard to end the turn.",
    "widget_you_status_play_start": (
        "Your first turn: discard only — you start with one card more, so you don't draw."
    ),
    "widget_you_status_play_first_turn": (
        "Your first turn: discard only — nobody opens on their very first turn."
    ),
    "widget_you_score_went_out": "You went out: {points}.",
    "widget_you_score_out": "You went out.",
    "widget_you_score_went_out_hand": (
        "You opened and went out in the same turn with your own melds: {points}."
    ),
    "widget_you_score_unopened": "You never opened: a flat {points}.",
    "widget_you_score_hand": "You hold {cards}: {points}.",
    "widget_you_score_lowest_hand": "You hold the lowest hand ({value}) and win the round.",
    "widget_you_score_lowest_hand_tie": (
        "You hold the lowest hand ({value}), tied — the first in seat order wins."
    ),
    "widget_you_score_winner_takes": "You win the round and score {points}.",
    "widget_you_not_your_turn": "It is {current_name}'s turn, not yours.",
    "widget_you_cut_first": "Cut the deck first: choose where with the slider.",
    # the card table: a finished round, scores, the cut, what each control would do
    "widget_round_you_won_out": "You went out and won the round!",
    "widget_round_you_won_lowest": "You won the round with the lowest hand!",
    "widget_round_won_out": "{name} went out and won the round.",
    "widget_round_won_lowest": "{name} won the round with the lowest hand.",
    "widget_round_no_winner": "The round ended with no winner.",
    "widget_round_single": "This table plays one round: make a new Table to play again.",
    "widget_next_round_prompt": "Press Next round to deal round {number}.",
    "widget_match_you_won": "The match is over: you won!",
    "widget_match_won": "The match is over: {names} won.",
    "widget_score_entry": "{name} {points}",
    "widget_standing": "{place}. {name}: {total}",
    "widget_nothing_selected": "No cards are selected.",
    "widget_your_turn": "Your turn",
    "widget_opened": "opened",
    "widget_your_moves": "Your moves",
    "widget_no_moves": "No moves yet.",
    "widget_score_sheet": "Score sheet",
    "widget_round_column": "Round",
    "widget_total_row": "Total",
    "widget_cut_title": (
        "You cut the deck: choose how many cards to lift; the bottom card of the lifted "
        "packet is turned face up as the cut card. (H3)"
    ),
    "widget_cut_slider": "Cards to lift",
    "widget_cut_button": "Cut here",
    "widget_drawn": "just drawn",
    "stepper_memory_none": "What it remembers: seat {seat} has taken nothing from the discard pile.",
    "stepper_slider_label": "Decision number",
    "widget_reasoning_note": (
        "The computer's reasoning shows its cards: open-cards teaching. Make the table with "
        "show_reasoning=False to keep them hidden."
    ),
    "widget_reasoning_hidden": "The computer's reasoning and cards are hidden.",
    "widget_ai_moves_plain": "Computer moves",
    # --- the widgets for screen readers, keyboards and colour vision (accessibility) ----------
    "widget_card_name": "{corner}, {label}",
    "widget_settings": "Settings",
    "widget_four_colour": "Four-colour deck: diamonds blue, clubs green",
    "checker_palette": "Cards to add",
    # --- rummykit simulate and rummykit play --------------------------------------------------
    "ai_opening_with": (
        "My best opening is {before:points}; with {card} from the discard pile it would be "
        "{after} ({threshold} needed)."
    ),
    "ai_why_discard_opening": "Taking {card}: it adds to my opening.",
    "ai_hold_melds": (
        "I keep my melds in hand for now: every other player holds {count} or more cards, and "
        "on the table my melds would give them places to lay off."
    ),
    "ai_empty_stock": (
        "The stock is empty: asking it for a card ends the deal, and the lowest hand wins. "
        "Mine is worth {mine}; the lowest other hand is likely about {others}."
    ),
    "ai_why_keep_going": "Taking {card} rather than end the deal now: my hand is not the lowest yet.",
    "ai_say": "{text}",
    "ai_no_take_before_opening": (
        "Before my opening I leave {card} on the discard pile and draw from the stock."
    ),
    "ai_note_threat_opening": (
        "seat {seat} could open with it in {chance}% of the hands it may hold"
    ),
    "cli_no_tqdm": (
        "(no progress bar: tqdm is not installed — pip install 'rummykit[cli]' to get one)"
    ),
    "cli_simulate_help": "a seeded tournament between computer opponents",
    "cli_simulate_description": (
        "Play many seeded rounds between agents, seats rotated so seat order doesn't bias the "
        "result, and print each agent's mean score and win rate with 95% confidence intervals."
    ),
    "cli_players_help": "number of players (default: 2)",
    "cli_agents_help": (
        "comma-separated agents, cycled over the seats: easy, normal, hard, or module:Name "
        "for your own agent (default: hard,normal)"
    ),
    "cli_games_help": "rounds (or matches) to play (default: 500)",
    "cli_seed_help": "the tournament's seed: the same seed gives the same result (default: 1)",
    "cli_workers_help": "processes to play in (default: 2)",
    "cli_unit_help": "what one game is: a round (one deal, default) or a whole match",
    "cli_no_duplicate_help": (
        "a new deal for every game, instead of each deal played once from every seat"
    ),
    "cli_quiet_help": "no progress bar",
    "cli_simulate_json_help": "print the result, every game included, as one JSON object",
    "cli_play_help": "play against the computer in the terminal",
    "cli_play_description": (
        "Play a match against computer opponents, typing your moves. You are seat 0. "
        "Type help for the move syntax, hint for a suggestion, quit to stop."
    ),
    "cli_ai_help": "the computer's level: easy, normal or hard (default: normal)",
    "cli_play_seed_help": "deal with this seed (the same seed, the same cards)",
    "cli_explain_help": "print the reasoning behind every computer move",
    "play_welcome": (
        "{variant} against {level} computer opponents, {players} players, seed {seed}. "
        "You are seat 0."
    ),
    "play_help_short": "Type help for the moves, hint for a suggestion, quit to stop.",
    "play_help": (
        "Moves (cards as K♠, Ks or 10h; a joker as Jk):\n"
        "  draw                      draw from the stock\n"
        "  take discard              take the top of the discard pile\n"
        "  take cut                  take the cut card (Hungarian: only to go out)\n"
        "  meld 5h 6h 7h             lay down a meld (meld Jk 2h 3h as 4h: say what the joker is)\n"
        "  lay off 7h onto 2         add cards to meld number 2 on the table\n"
        "  exchange 6h from 1        hand in the card a joker stands for and take the joker\n"
        "  discard 9s                discard a card, ending your turn\n"
        "  undo                      take back your last move this turn\n"
        "  return cut                give back the cut card\n"
        "Also: show (the table again), hint (a suggestion), hint why (and its reasoning), "
        "help, quit."
    ),
    "play_hint_why": "(Type hint why for the reasoning behind it.)",
    "play_saved": "Saved to {path}: rummykit review {path} weighs your decisions.",
    "play_save_failed": "Could not save to {path} ({error}); the game goes on unsaved.",
    "cli_save_help": "save each round to this file as it is played (round 2 on to NAME-2.json …), for rummykit review",
    "play_try_help": "Type help for the moves.",
    # what a player types besides moves, separated by | (English is always read too)
    "play_words_quit": "quit | exit | q",
    "play_words_help": "help | ? | h",
    "play_words_hint": "hint",
    "play_words_hint_why": "hint why | why",
    "play_words_show": "show | look | table | hand",
    "play_round": "— Round {number} (dealer: seat {dealer}) —",
    "play_prompt": "your move> ",
    "play_next_round_prompt": "Press Enter for the next round (or type quit): ",
    "play_bye": "Game stopped. Goodbye!",
    "play_match_over": "The match is over. Standings:",
    "play_you_drew": "You drew {card} from the stock.",
    "play_you": "You",
    "play_seat": "Seat {seat}",
    "play_table": "Table:",
    "play_no_table": "Table: no melds yet.",
    "play_piles": "Discard pile: {top} on top, {pile} in the pile · Stock: {stock} left",
    "play_cut_card": " · Cut card: {card}",
    "play_other": "Seat {seat}: {count:cards}.",
    "play_other_opened": "Seat {seat}: {count:cards}, opened.",
    "play_hand": "Your hand ({count}): {cards}",
    "play_suggest": "Suggestion: {action}. {why}",
    "play_round_over": "The round is over.",
    "play_total": "seat {seat}: {total}",
    "play_totals": "Match totals: {totals}.",
    "play_open_cards": (
        "--explain is on: before each computer move you will see its reasoning, and with it "
        "the computer's cards. This is open-cards teaching; play without --explain for a "
        "real game."
    ),
    "play_cut_prompt": "You cut the deck: how many cards do you lift? (1–{most}, Enter: {default}) ",
    "play_cut_not_a_number": "'{text}' is not a number of cards: type a number from 1 to {most}.",
    "joker_as_no_joker": (
        "{cards} holds no joker that could stand for the {card}: lay the cards down without "
        "saying what a joker stands for."
    ),
    # --- the language layer: grammar pieces and choosing a language -----------------------
    "unknown_language": "'{name}' is not a language rummykit speaks: choose one of {choices}",
    "list_separator": ", ",
    "decimal_separator": ".",
    # argparse's own error messages (rummykit.cli_help)
    "cli_arg_error": "{prog}: error: {message}",
    "cli_arg_required": "the following arguments are required: {names}",
    "cli_arg_unrecognized": "unrecognized arguments: {names}",
    "cli_arg_one_required": "one of the arguments {names} is required",
    "cli_arg_ambiguous": "ambiguous option: {option} could match {matches}",
    "cli_arg_problem": "argument {argument}: {problem}",
    "cli_arg_invalid_choice": "invalid choice: {value} (choose from {choices})",
    "cli_arg_invalid_value": "invalid {kind} value: {value}",
    "cli_arg_expected_one": "expected one argument",
    "cli_arg_expected_at_most_one": "expected at most one argument",
    "cli_arg_expected_some": "expected at least one argument",
    "cli_arg_not_allowed": "not allowed with argument {other}",
    "cli_arg_ignored": "ignored explicit argument {value}",
    "cli_lang_help": (
        "the language to speak: {choices} (default: the locale's, from LC_ALL, LC_MESSAGES or "
        "LANG; else English)"
    ),
    "cli_local_letters_help": (
        "write cards with the language's rank letters (Portuguese V D R, Finnish D R) instead "
        "of J Q K"
    ),
    "cli_usage": "usage: ",
    "cli_positionals": "positional arguments",
    "cli_optionals": "options",
    "cli_help_help": "show this help message and exit",
    "cli_version_help": "show program's version number and exit",
    "protocol_expects_string": "a string",
    "protocol_expects_variant_names": "a list of variant names",
    "protocol_expects_object": "an object",
    "protocol_expects_name": "a name",
    "protocol_expects_list": "a list",
    "protocol_expects_notes": "notes",
    "option_expected_bool": "true or false",
    "option_expected_whole": "a whole number of 0 or more",
    "option_expected_hand_sizes": "cards per player by number of players, e.g. {{2: 7, 3: 10}}",
    "option_expected_players": "{low} to {high}",
    "exercise_words_yes": "yes|y|valid|ok|true",
    "exercise_words_no": "no|none|nothing|neither|no meld|not a meld|invalid|n",
    "exercise_words_run": "run",
    "exercise_words_set": "set|group",
    "exercise_words_points": "points|point|pts|pt",
    "exercise_words_all": "all|all of them|every meld|all melds|every one|each",
    "exercise_words_and": "and|&",
    "exercise_words_meld": "meld|melds|onto|on|to|number|numbers",
    "exercise_words_refused": "refused|refuse|it is refused|the referee refuses|not allowed|illegal|forbidden",
    "exercise_words_ends": "ends|end|the round ends|round ends|it ends|over|the round is over",
    "exercise_words_goes_on": "goes on|play goes on|go on|continues|play continues|allowed|nothing",
    "ai_level_easy": "easy",
    "ai_level_normal": "normal",
    "ai_level_hard": "hard",
    "ai_level_greedy": "greedy",
    "variant_title_hungarian": "Hungarian Rummy",
    "variant_title_rommi": "Rommi",
    "rank_gender": "A= 2= 3= 4= 5= 6= 7= 8= 9= 10= J= Q= K= joker=",
    "card_label": "{rank} of {suit}",
    "card_label_joker": "joker",
    "card_at_fault": "{label} (at fault)",
    "card_joker_corner": "JOKER",
    "rank_word_a": "ace",
    "rank_word_j": "jack",
    "rank_word_q": "queen",
    "rank_word_k": "king",
    "suit_spades": "spades",
    "suit_hearts": "hearts",
    "suit_diamonds": "diamonds",
    "suit_clubs": "clubs",
    "suit_one_spades": "a spade",
    "suit_one_hearts": "a heart",
    "suit_one_diamonds": "a diamond",
    "suit_one_clubs": "a club",
    "rank_phrase": "a {rank}",
    "rank_phrase_8": "an 8",
    "rank_phrase_a": "an ace",
    "rank_phrase_j": "a jack",
    "rank_phrase_q": "a queen",
    "rank_phrase_k": "a king",
    "rank_plural": "{rank}s",
    "rank_plural_a": "aces",
    "rank_plural_j": "jacks",
    "rank_plural_q": "queens",
    "rank_plural_k": "kings",
    "number_0": "no",
    "number_1": "one",
    "number_2": "two",
    "number_3": "three",
    "number_4": "four",
    "number_5": "five",
    "number_6": "six",
    "number_7": "seven",
    "number_8": "eight",
    "number_9": "nine",
    "number_10": "ten",
    # --- the classroom server (rummykit classroom) and the student's page ---------------------
    "class_variant": "Variant",
    "class_level": "Computer",
    "class_new_game": "New game",
    "classroom_cli_help": "serve the card table to a class, through Voilà",
    "classroom_cli_description": (
        "Serve a page with only the card table (a choice of variant and of the computer's "
        "level) to the students' browsers, through Voilà: each student gets their own game, and "
        "no one can run code. A kernel left idle with no page open is shut down. Needs Voilà: "
        'pip install "rummykit[classroom]".'
    ),
    "classroom_cli_ip_help": (
        "the address to listen on (default: {default}, this computer only); "
        "--ip 0.0.0.0 lets the computers of the class network in"
    ),
    "classroom_cli_port_help": "the port to listen on (default: {default})",
    "classroom_cli_variant_help": "the variant the page starts with: {choices} (default: {default})",
    "classroom_cli_level_help": (
        "the computer's level the page starts with: {choices} (default: {default})"
    ),
    "classroom_cli_timeout_help": (
        "seconds a student's game may sit idle with no page open before its kernel is shut "
        "down (default: {default})"
    ),
    "classroom_cli_interval_help": (
        "seconds between two checks for idle kernels (default: {default})"
    ),
    "classroom_cli_preheat_help": (
        "keep this many kernels started ahead for the next pages (default: {default}; 0 for none)"
    ),
    "classroom_no_voila": (
        "Voilà is not installed here. Install rummykit with its classroom extra, "
        'pip install "rummykit[classroom]", then run rummykit classroom again.'
    ),
    "classroom_bad_port": "--port {value} is not a port: give a whole number from 1 to 65535",
    "classroom_bad_seconds": (
        "{option} {value} is not a number of seconds: give a whole number from {least} up"
    ),
    "classroom_bad_preheat": (
        "--preheat {value} is not a number of kernels: give a whole number from 0 up"
    ),
    "classroom_bad_ip": (
        "--ip {value} is not an IP address: give one like 127.0.0.1 (this computer only) or "
        "0.0.0.0 (every network)"
    ),
    "classroom_interval_too_long": (
        "--cull-interval {interval} is longer than --cull-timeout {timeout}: check at least as often "
        "as a kernel may sit idle"
    ),
    "classroom_serving": "Serving the card table with Voilà; Ctrl-C stops it.",
    "classroom_share": "Students open: {url}",
    "classroom_share_local": (
        "Only this computer can open it; add --ip 0.0.0.0 to serve the class network."
    ),
    "classroom_culling": (
        "A game idle for {timeout} s with no page open is shut down (checked every {interval} s)."
    ),
    "classroom_cli_code_help": (
        "the class code students type before they get a table: 4 to 20 letters, digits or "
        "hyphens (default: a new code of 6 letters and digits, printed at the start)"
    ),
    "classroom_cli_max_help": (
        "the most students with a table at once; one more gets a page saying the class is full "
        "(default: {default}, from this computer's memory)"
    ),
    "classroom_cli_cards_help": (
        "the computer's cards: open (its reasoning names the cards it holds; the default) or "
        "closed (its reasoning without its hidden cards)"
    ),
    "classroom_bad_code": (
        "--code {value} is not a class code: give 4 to 20 letters, digits or hyphens"
    ),
    "classroom_bad_max": (
        "--max-students {value} is not a number of students: give a whole number from 1 up"
    ),
    "classroom_bad_cards": "--cards {value} is not a choice: give open or closed",
    "classroom_code": "Class code: {code} (students type it on the page; --code sets your own)",
    "classroom_limit": (
        "At most {count:students} at once (this computer has {memory} GB of memory; "
        "{each} MB counted a student; --max-students sets another number)."
    ),
    "classroom_cards_open": (
        "The computer's cards are open: its reasoning names the cards it holds "
        "(--cards closed hides them)."
    ),
    "classroom_cards_closed": (
        "The computer's cards are closed: its reasoning leaves out the cards it holds."
    ),
    "class_page_title": "Rummy table",
    "class_page_code_intro": "Type the class code your teacher gave you to get your table.",
    "class_page_code_label": "Class code",
    "class_page_start": "Start my table",
    "class_page_wrong_code": "That is not the class code. Check it with your teacher and try again.",
    "class_page_starting": "Your table is being dealt; this page opens it in a moment.",
    "class_page_wait": (
        "Too many wrong class codes came from this computer in the last minute. Wait "
        "{seconds:seconds}, then type the code again."
    ),
    "class_page_back": "Back to the class code",
    "class_page_full": (
        "The class is full: {count:students} at most, and every place is taken. Ask your "
        "teacher, or try again when someone has left."
    ),
    "count_seconds_one": "{n} second",
    "count_seconds_other": "{n} seconds",
    "count_students_one": "{n} student",
    "count_students_other": "{n} students",
    "class_reasoning_note": (
        "The computer's reasoning shows its cards: open-cards teaching, as your teacher chose."
    ),
    # --- the browser (JupyterLite: Python in a web page, no processes) ----------------------
    "lite_insecure_banner": (
        "This site came over plain http from another computer, so the browser doesn't let "
        "Python see the notebooks' folder: a notebook can't open the files beside it, and files "
        "Python writes don't show in the file browser. Served over https, it can."
    ),
    "lite_banner_close": "Close this message",
    "browser_no_workers": (
        "In the browser the games are played one after another in this page: a web page can't "
        "start worker processes, so workers={workers} plays like workers=1 (the same results, "
        "only slower)."
    ),
    "browser_no_programs": (
        "{command} is a program of its own, and a browser page can't start programs: play it "
        "from a Python installed on a computer (pip install rummykit), or write the agent in "
        "the notebook as a class with a decide(observation) method."
    ),
    # --- the table server (rummykit tables, rummykit.server) ------------------------------
    "tables_cli_help": "serve tables where learners and programs play each other (WebSocket)",
    "tables_cli_description": (
        "Serve tables of 2–4 seats over WebSocket: the server deals, referees and keeps every "
        "accepted action in a database before it answers, so a restart loses nothing. The "
        "teacher creates tables with the teacher code; learners join with a table code."
    ),
    "tables_cli_ip_help": "the address to listen on (default: {default}; 0.0.0.0 for the class network)",
    "tables_cli_port_help": "the port to listen on (default: {default})",
    "tables_cli_db_help": (
        "where the tables are kept: a file (SQLite, default: {default}) or a "
        "postgresql://user:password@host/database URL"
    ),
    "tables_cli_teacher_help": (
        "the teacher code (default: a new one, printed at the start; or RUMMYKIT_TEACHER_CODE)"
    ),
    "tables_cli_records_help": "a folder where the record of every closed table is written",
    "tables_cli_pace_help": "seconds a computer player waits before it moves (default: {default})",
    "tables_listening": (
        "Tables served on {url} (seats: {ws}); kept in {db}; {restored} open tables restored."
    ),
    "tables_teacher_code": "Teacher code: {code}",
    "tables_not_installed": (
        'the table server needs tornado and SQLAlchemy: pip install "rummykit[tables]" '
        '(and psycopg for PostgreSQL: pip install "rummykit[tables-postgres]")'
    ),
    "tables_bad_db": (
        "--db '{value}' is neither a file path (SQLite) nor a postgresql:// or sqlite:// URL"
    ),
    "tables_db_version": (
        "the database holds tables of schema version {found}; this rummykit reads version "
        "{ours}: use another --db, or the rummykit that wrote it"
    ),
    "tables_db_unusable": "the database can't be used: {error}",
    "tables_db_refused": "the database refused the write: {error}",
    "tables_db_doubled": "table {table} already has an action number {seq}: not stored twice",
    "tables_db_gap": "table {table} is missing actions before number {seq}: the database was changed by hand",
    "tables_bad_settings": "a table's settings must be {expected}",
    "tables_unknown_setting": "'{name}' is not a table setting; the settings are {known}",
    "tables_bad_setting": "{name} can't be {value}: it must be {expected}",
    "tables_expects_seconds": "a number of seconds from 0 to 86400, or null",
    "tables_expects_seats": 'a list of 2–4 seats, each "human" or a computer level',
    "tables_expects_seed": "a whole number from 0 to 2⁶³−1, or null",
    "tables_bad_variant": "the table's rules can't be used: {error}",
    "tables_bad_seat_kind": (
        "seat {seat} is '{value}': a seat is human or a computer level ({levels})"
    ),
    "tables_no_such_table": "there is no open table with the code {table}",
    "tables_bad_token": "that seat token is not one of table {table}'s",
    "tables_full": "every learner's seat at table {table} is taken: ask your teacher for another table",
    "tables_seat_name": "Seat {seat}",
    "tables_seat_learner": "Seat {seat} ({name})",
    "tables_round_over": "the round at table {table} is over",
    "tables_stale": (
        "that answer is for question {got}, but the table is at question {position}: "
        "the game moved on, nothing was played"
    ),
    "tables_not_your_turn": "it is seat {current}'s turn, not seat {seat}'s",
    "tables_forged": "this connection plays for {field} {mine}, not {value}: refused",
    "tables_bad_message": "the message was not read: {error}",
    "tables_binary": "only text messages (JSON) are read",
    "tables_hello_twice": "this connection already has its seat",
    "tables_no_hello": "no hello within {seconds} s: the connection is closed",
    "tables_rate": "too many messages: at most {rate} a second",
    "tables_bad_teacher_code": "the teacher code is missing or wrong",
    "tables_too_many_tries": "too many wrong teacher codes from this address: wait a minute",
    "tables_http_error": "the request failed (HTTP {status})",
    "tables_too_big": "the request is larger than {limit} bytes",
    "tables_bad_json": "the request is not JSON settings: {error}",
    "tables_notice_clock": (
        "Seat {seat} ({name}) ran out of its {seconds} s: the {level} computer player plays "
        "this turn for it."
    ),
    "tables_notice_away": (
        "Seat {seat} ({name}) has been away for {seconds} s: the {level} computer player "
        "plays for it until it comes back."
    ),
    "tables_notice_back": "Seat {seat} ({name}) is back and plays again.",
    "tables_seat_elsewhere": (
        "this seat is open in {max} other places: the oldest connection is closed"
    ),
    "tables_client_not_connected": "not connected to the table yet: connect() first",
    "tables_client_closed": "the table server closed the connection",
    "tables_widget_no_mirror": (
        "the table needs the seat's own position: make the client with mirror=True"
    ),
    "tables_widget_waiting": "Your move is on its way to the table: wait for its answer.",
    "tables_widget_one_round": "A served table plays one round: ask your teacher for the next table.",
    "tables_widget_over": "The round is over.",
    "tables_widget_other_moves": "The other players' moves",
    "tables_classroom_help": (
        "also serve tables where the students play each other (rummykit tables, on the next "
        "port; the teacher code is printed)"
    ),
    # --- w32: the teacher's page of the table server (rummykit/server/templates) -----------
    "tables_page_title": "Table play: the teacher's page",
    "tables_page_languages": "Language",
    "tables_page_code_heading": "Teacher code",
    "tables_page_code_intro": (
        "The table server printed the teacher code when it started. This page keeps it in "
        "this browser tab only, and sends it with every request."
    ),
    "tables_page_code_use": "Use this code",
    "tables_page_code_ok": "The code is right: the tables below are updated every two seconds.",
    "tables_page_new_heading": "New tables",
    "tables_page_variant": "Variant",
    "tables_page_options": "House rules",
    "tables_page_options_hint": (
        "KEY=VALUE, separated by spaces, as rummykit check --option takes them "
        "(e.g. opening_threshold=40); empty: the variant's own rules."
    ),
    "tables_page_options_bad": "'{text}' is not a house rule: write KEY=VALUE, e.g. opening_threshold=40",
    "tables_page_seats": "Seats",
    "tables_page_seat_none": "no seat",
    "tables_page_seat_human": "a learner",
    "tables_page_seat_computer": "computer: {level}",
    "tables_page_clock": "Move clock in seconds (empty: none)",
    "tables_page_count": "How many tables",
    "tables_page_create": "Create",
    "tables_page_created": "New tables: {codes}",
    "tables_page_tables_heading": "Tables",
    "tables_page_open_cards": "Show every hand (open cards)",
    "tables_page_none": "No tables yet.",
    "tables_page_table": "Table {table}",
    "tables_page_status_open": "playing",
    "tables_page_status_over": "round over",
    "tables_page_status_closed": "closed",
    "tables_page_round": "Round {round}, move {position}; seat {current} is to play.",
    "tables_page_totals": "Match totals: {totals}",
    "tables_page_seat": "Seat",
    "tables_page_who": "Who",
    "tables_page_connection": "Connection",
    "tables_page_cards": "Cards",
    "tables_page_score": "Score",
    "tables_page_hand": "Hand",
    "tables_page_free": "free",
    "tables_page_connected": "connected",
    "tables_page_not_connected": "not connected",
    "tables_page_computer_playing": "the computer plays for them",
    "tables_page_computer": "computer",
    "tables_page_melds": "On the table",
    "tables_page_no_melds": "no melds yet",
    "tables_page_discard": "Discard pile (top last)",
    "tables_page_stock": "Cards in the stock: {count}",
    "tables_page_log": "Log",
    "tables_page_record": "Save the record",
    "tables_page_close": "Close the table",
    "tables_page_closed": "Table {table} is closed; its record is kept.",
    "tables_page_lost": "The table server does not answer: trying again.",
    "tables_page_hidden": "hidden",
    "round_result_bad_ending": (
        "'{value}' is not how a round ends: went_out, stock_exhausted, nothing_to_reshuffle, "
        "empty_stock or no_progress"
    ),
    "tables_page_elsewhere": "played by another server of the school: watched from here",
    "tables_played_elsewhere": (
        "table {table} is played by another server of the school: close it from that server's "
        "teacher page"
    ),
    # --- w32: several servers on one database, the per-address cap --------------------
    "tables_cli_server_id_help": (
        "this server's name in the database (default: the computer's name and the port): "
        "the same server restarted gets its tables back at once"
    ),
    "tables_cli_lease_help": (
        "seconds this server holds its tables without renewing before another server on the "
        "same database may take them over (default: {default})"
    ),
    "tables_cli_per_address_help": (
        "the most WebSocket connections one network address may hold at once (default: {default})"
    ),
    "tables_cli_bad_number": "{option} must be a number above 0, not {value}",
    "tables_lease_lost": "table {table} is now played by another server: this one let it go",
    "tables_taken_over": "table {table} taken over: the server that played it stopped renewing its lease",
    "tables_db_migrated": "the database was brought from schema version {old} to {new}",
    "tables_too_many_connections": (
        "too many connections from your address (at most {count} at once): close a tab and try "
        "again"
    ),
    "tables_client_unreachable": "the table server at {url} can't be reached: {error}",
    # --- w32: joining from the JupyterLite site; the reverse proxy (X-Forwarded-For) -----
    "tables_client_needs_wss": (
        "this page came over https, and the browser opens only secure connections from it: "
        "ask for the table server's wss:// address instead of {url}"
    ),
    "tables_cli_trusted_proxy_help": (
        "the reverse proxy in front of this server, ADDRESS[,ADDRESS]: a learner's address is "
        "read from the X-Real-IP or X-Forwarded-For header of a connection from these "
        "addresses only (default: none; every connection counts as its own address)"
    ),
    "tables_cli_bad_proxy": (
        "--trusted-proxy '{value}' is not an IP address: give the proxy's address, e.g. "
        "10.0.0.2 (several separated by commas)"
    ),
    "tables_trusting_proxy": (
        "Learners' addresses are read from X-Real-IP / X-Forwarded-For on connections from "
        "{proxies} only."
    ),
    # --- w32: the table-code box of the classroom page (rummykit classroom --tables) -----
    "class_table_code": "Table code",
    "class_table_name": "Your name",
    "class_table_join": "Join the table",
    "class_table_bad_code": "'{code}' is not a table code: your teacher gives you one, like K7QXM2PA",
    "class_table_need_name": "Type your name, so that your teacher sees who sits at the table.",
    "class_table_joining": "Joining table {table}…",
    "class_table_join_failed": "Table {table} could not be joined: {error}",
    "class_table_joined": "You play at table {table}, in seat {seat}.",
    # --- w32: played games in the class report (rummykit class-report --game) ------------
    "report_cli_game_help": (
        "a played game (a table's record, or any saved game) whose decisions go into the "
        "report, each reviewed against the hard computer player; =NAME,NAME,... names the "
        "students of its seats in order (- for a computer's seat); repeat for more games"
    ),
    "report_game_seat": "{game}, seat {seat}",
    "report_game_source": "game {game}",
    "report_bad_game": "{path} is not a saved game: {error}",
    # --- numbers with their nouns: {n:cards} in a template picks one of these by n -------
    "count_cards_one": "{n} card",
    "count_cards_other": "{n} cards",
    "count_points_one": "{n} point",
    "count_points_other": "{n} points",
}
"""English templates, keyed by reason or message code."""

LANGUAGES: dict[str, dict[str, str]] = {"en": TEMPLATES}
"""Templates added in code by language (:func:`add_templates`); the shipped translations are
the gettext catalogues of :mod:`rummykit.language`."""

NOTES: dict[str, str] = {
    "rank_gender": (
        "Not a sentence: the grammatical gender of each rank, for languages whose articles "
        "agree with it. Write RANK=GENDER for each, e.g. A=m Q=f; a template then picks a word "
        "by the gender of a card placeholder with {card:m=o|f=a}. Leave as is if your "
        "language has no gender."
    ),
    "there_is": "Not a sentence: the verb of not_in_deck for one deck ('so there is only one 9♠').",
    "there_are": "Not a sentence: the verb of not_in_deck for two decks ('so there are only two K♦').",
    "layoff_verb_one": "Not a sentence: the verb {fit} of the layoff_ok sentences, for one card.",
    "layoff_verb_many": "Not a sentence: the verb {fit} of the layoff_ok sentences, for several cards.",
    "exercise_words_yes": (
        "Not a sentence: the words a learner may type for yes in an exercise, separated by |. "
        "The English ones are read as well."
    ),
    "exercise_words_no": (
        "Not a sentence: the words a learner may type for no (none, no meld) in an exercise, "
        "separated by |. The English ones are read as well."
    ),
    "exercise_words_run": (
        "Not a sentence: the words a learner may type for a run, separated by |. The English "
        "ones are read as well."
    ),
    "exercise_words_set": (
        "Not a sentence: the words a learner may type for a set (group), separated by |. The "
        "English ones are read as well."
    ),
    "exercise_words_points": (
        "Not a sentence: the words a learner may type after a number (45 points), separated "
        "by |. The English ones are read as well."
    ),
    "exercise_words_all": (
        "Not a sentence: the words a learner may type for every meld on the table, separated "
        "by |. The English ones are read as well."
    ),
    "exercise_words_and": (
        "Not a sentence: the words a learner may type between two meld numbers (1 and 3), "
        "separated by |. The English ones are read as well."
    ),
    "exercise_words_meld": (
        "Not a sentence: single words a learner may type around meld numbers (onto meld 3), "
        "separated by |. The English ones are read as well."
    ),
    "exercise_words_refused": (
        "Not a sentence: the words a learner may type for 'the referee refuses the move', "
        "separated by |. The English ones are read as well."
    ),
    "exercise_words_ends": (
        "Not a sentence: the words a learner may type for 'the round ends', separated by |. "
        "The English ones are read as well."
    ),
    "exercise_words_goes_on": (
        "Not a sentence: the words a learner may type for 'play goes on', separated by |. "
        "The English ones are read as well."
    ),
    "list_separator": "Not a sentence: what stands between the items of a list but the last two.",
    "cli_arg_invalid_value": "{kind} is the name of a Python type, such as int: keep it as it is.",
    "cli_arg_error": "{prog} is the command (rummykit check); {message} is one of the cli_arg_ sentences.",
    "decimal_separator": (
        "Not a sentence: the mark between the whole part of a number and its decimals "
        "(37.5 in English)."
    ),
    "ai_score_cell": "Not a sentence: an option's score alone, in a table's column (+4.3).",
}
"""Notes for translators, by code: they go into the catalogue as comments."""


def number_word(n: int) -> str:
    """``two`` for 2, up to ten (a word of the current language); digits beyond.

    >>> number_word(2), number_word(14)
    ('two', '14')
    """
    return render(f"number_{n}") if 0 <= n <= 10 else str(n)


def add_templates(templates: Mapping[str, str], language: str = "en") -> None:
    """Add sentences for new codes — e.g. the notes of your own agent's reasoning.

    Existing codes can't be replaced (that would change what rummykit says elsewhere).
    Give ``language`` to add the same codes' sentences in another language.

    >>> add_templates({"my_agent_likes": "I like {card}."})
    >>> render("my_agent_likes", card="7♥")
    'I like 7♥.'
    """
    table = LANGUAGES.setdefault(language, {})
    clash = sorted(set(templates) & set(table))
    if any(table[code] != templates[code] for code in clash):
        raise ValueError(f"these codes already have sentences: {', '.join(clash)}")
    table.update(templates)


class Series(tuple[object, ...]):
    """Items written one after another with the language's list separator (``a, b, c``)."""

    __slots__ = ()


def join(items: Sequence[object], word: str = "or") -> str:
    """Join phrases the language's way: ``a, b or c`` (``word`` is ``"or"`` or ``"and"``).

    >>> join(["the A♥", "the 4♥"])
    'the A♥ or the 4♥'
    >>> join(["a", "b", "c"], "and")
    'a, b and c'
    """
    if len(items) <= 1:
        if items and not isinstance(items[0], str):  # a card: written as the sentence writes it
            return render("list_one", item=items[0])
        return items[0] if items and isinstance(items[0], str) else ""
    return render(f"{word}_join", head=Series(items[:-1]), last=items[-1])


class Text(str):
    """A sentence rendered in one language that remembers how it was made, so that it can be
    rendered again in another: its ``code`` and language-free ``params``.

    A ``Text`` given as a parameter of another template is rendered in that template's
    language.

    >>> t = render("the_card", card="7♥")
    >>> t, t.code, t.language
    ('the 7♥', 'the_card', 'en')
    """

    code: str
    params: Mapping[str, object]
    language: str

    def __new__(cls, text: str, code: str, params: Mapping[str, object], language: str) -> Text:
        self = super().__new__(cls, text)
        self.code, self.params, self.language = code, params, language
        return self

    def render(self, language: str | None = None) -> str:
        """The same sentence in ``language`` (default: the current one)."""
        return render(self.code, self.params, language)

    def __reduce__(self) -> tuple[object, ...]:
        return (Text, (str(self), self.code, dict(self.params), self.language))


def in_language(text: str, language: str | None = None) -> str:
    """``text`` in ``language`` (default: the current one): a :class:`Text` is rendered
    again, any other string (a name, a number) stays as it is.

    >>> in_language(render("label_valid", language="en")), in_language("Ann")
    ('✔ valid', 'Ann')
    """
    return text.render(language) if isinstance(text, Text) else text


def _forms(template: str) -> dict[str, str]:
    """A translation's forms: ``hertat||gen=herttojen`` → {"": "hertat", "gen": "herttojen"}."""
    if "||" not in template:
        return {"": template}
    first, *others = template.split("||")
    forms = {"": first}
    for other in others:
        name, _, text = other.partition("=")
        forms[name.strip()] = text
    return forms


def _template(code: str, language: str, form: str = "") -> str:
    english = TEMPLATES.get(code) if language == "en" else None
    if english is not None:
        return english
    own = LANGUAGES.get(language, {}).get(code)
    if own is None:
        english = TEMPLATES[code] if code in TEMPLATES else LANGUAGES["en"][code]
        found = catalogue(language)
        own = english if found is None else found.pgettext(code, english)
    forms = _forms(own)
    return forms.get(form, forms[""])


def _plural(base: str, n: int, language: str) -> str:
    one, other = TEMPLATES[f"{base}_one"], TEMPLATES[f"{base}_other"]
    found = None if language == "en" else catalogue(language)
    if found is None:
        return one if n == 1 else other
    return found.npgettext(base, one, other, n)


def decimal(value: float, spec: str = "+.2f", language: str | None = None) -> str:
    """``value`` written with ``spec`` and the decimal mark of ``language`` (default: the
    current one) — for numbers set outside a sentence, a table's cells.

    >>> decimal(1.5, language="en"), decimal(1.5, language="pt"), decimal(-0.25, ".1f", "fi")
    ('+1.50', '+1,50', '-0,2')
    """
    lang = get_language() if language is None else check_language(language)
    return format(value, spec).replace(".", _template("decimal_separator", lang))


def _is_decimal(text: str) -> bool:
    """Whether ``text`` is a number with decimals as the agents write them (``+4.3``,
    ``−12.0``, ``15.3``): a sign or none, digits, one dot, digits.

    >>> _is_decimal("+4.3"), _is_decimal("−12.0"), _is_decimal("1.1.0"), _is_decimal("9♠")
    (True, True, False, False)
    """
    whole, dot, part = text.lstrip("+-−").partition(".")
    return bool(dot) and whole.isdigit() and part.isdigit() and whole.isascii() and part.isascii()


class _Decimal(float):
    """A number with decimals in a sentence, written with the language's decimal mark
    (``37,5`` in Portuguese and Finnish)."""

    language = "en"

    def __format__(self, spec: str) -> str:
        text = format(float(self), spec)
        return text.replace(".", _template("decimal_separator", self.language))


class _Word(str):
    """A plain parameter: a format spec it doesn't know (a form) leaves it as it is; a
    gender choice (``m=o|f=a``) reads the string as a card (events keep cards as text); a
    number choice (``one=kortti|many=kortit``) counts the cards it holds."""

    language = "en"

    def __format__(self, spec: str) -> str:
        if "=" in spec:
            if _is_number_choice(spec):
                return number_choice(spec, str(self))
            return gender_word(spec, _rank_of_text(str(self)), self.language)
        return str(self)


def _is_number_choice(spec: str) -> bool:
    return spec.startswith("one=") or "|one=" in spec


def number_choice(spec: str, cards: str) -> str:
    """The word of a number choice ``one=korttia|many=kortteja`` for the cards written in
    ``cards``: ``one`` for a single card, ``many`` for more.

    >>> number_choice("one=the card|many=the cards", "7♥ 8♥"), number_choice("one=it|many=them", "K♠")
    ('the cards', 'it')
    """
    choices = dict(part.partition("=")[::2] for part in spec.split("|"))
    marks = sum(cards.count(mark) for mark in "♠♥♦♣🃏")
    count = marks or len(cards.split())
    return choices.get("one" if count == 1 else "many", next(iter(choices.values())))


def gender_word(spec: str, rank: str, language: str | None = None) -> str:
    """The word of a gender choice ``m=o|f=a`` for a rank (``Q``, ``7``, ``joker``), by the
    gender the language's ``rank_gender`` entry gives it (the first word when it gives none).

    >>> gender_word("m=o|f=a", "Q", "en")
    'o'
    """
    genders = _template("rank_gender", language or get_language())
    found = dict(item.partition("=")[::2] for item in genders.split()).get(rank, "")
    choices = dict(part.partition("=")[::2] for part in spec.split("|"))
    return choices.get(found, next(iter(choices.values())))


_RANK_READERS: list[Callable[[str], str]] = []


def read_ranks_with(reader: Callable[[str], str]) -> None:
    """How to read a card's rank (``Q``, ``joker``; ``""`` when it is no card) from text, so
    that a gender choice works on cards given as text: :mod:`rummykit.cards` gives it."""
    _RANK_READERS[:] = [reader]


def _rank_of_text(text: str) -> str:
    return _RANK_READERS[0](text) if _RANK_READERS else ""


_CARD_WRITERS: list[Callable[[str], str]] = []
_SUITS = "♠♥♦♣"


def write_cards_with(writer: Callable[[str], str]) -> None:
    """How cards given as text (``"Q♥"``, ``"Q♠ or K♠"``: a move's or a computer player's
    words made a string) are written again in a sentence, so that they take the cards'
    letters of the sentence (``D♥`` with Finnish letters on): :mod:`rummykit.cards` gives it."""
    _CARD_WRITERS[:] = [writer]


_RANK_WRITERS: list[Callable[[int], str]] = []


def write_ranks_with(writer: Callable[[int], str]) -> None:
    """How a rank is written in a sentence (``Q``, or ``D`` with Finnish letters on), so that
    the rank letters of a template's own text follow the cards' letters: :mod:`rummykit.cards`
    gives it."""
    _RANK_WRITERS[:] = [writer]


RANK_PATTERNS: dict[str, tuple[int, ...]] = {
    "ranks_qka": (12, 13, 1),
    "ranks_a23": (1, 2, 3),
    "ranks_ka2": (13, 1, 2),
    "rank_a": (1,),
    "rank_j": (11,),
    "rank_q": (12,),
    "rank_k": (13,),
}
"""The rank letters a template writes in its own text (``the ace only follows the king
({ranks_qka})``): filled in by :func:`render` with the letters the cards are written with."""


class _Ranks:
    """Ranks joined by dashes (``Q-K-A``), each written as the sentence writes its cards."""

    __slots__ = ("ranks",)

    def __init__(self, ranks: tuple[int, ...]) -> None:
        self.ranks = ranks

    def __format__(self, spec: str) -> str:
        if not _RANK_WRITERS:  # pragma: no cover - rummykit.cards is always imported
            return "-".join(map(str, self.ranks))
        return "-".join(_RANK_WRITERS[0](r) for r in self.ranks)

    def __str__(self) -> str:
        return self.__format__("")


_RANK_VALUES = {name: _Ranks(ranks) for name, ranks in RANK_PATTERNS.items()}


def _with_ranks(template: str, values: Mapping[str, object]) -> Mapping[str, object]:
    """``values`` with the rank patterns the template writes (``{ranks_qka}``) added."""
    if "{rank" not in template:
        return values
    return {**_RANK_VALUES, **values}


class _Phrase:
    """A :class:`Text` parameter in a template of ``language``: ``{x}`` writes it in that
    language, ``{x:gen}`` in its form ``gen`` (when the translation has one)."""

    __slots__ = ("language", "text")

    def __init__(self, text: Text, language: str) -> None:
        self.text, self.language = text, language

    def __format__(self, spec: str) -> str:
        if not spec and self.text.language == self.language:
            return str(self.text)
        if _is_number_choice(spec):
            return number_choice(spec, _render(self.text.code, self.text.params, self.language))
        return _render(self.text.code, self.text.params, self.language, spec)

    def __str__(self) -> str:
        return self.__format__("")


class _Count(int):
    """A whole number in a sentence: ``{n:cards}`` writes it with its noun, from the
    plural entry ``count_cards`` of the language's catalogue."""

    language = "en"

    def __format__(self, spec: str) -> str:
        if spec.isidentifier():
            return _plural(f"count_{spec}", int(self), self.language).format(n=int(self))
        return format(int(self), spec)


class _Spoken:
    """A value that says itself in a sentence (a card, a rank: they have ``spoken``)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __format__(self, spec: str) -> str:
        return str(self.value.spoken(spec))  # type: ignore[attr-defined]

    def __str__(self) -> str:
        return self.__format__("")


def _value(value: object, language: str) -> object:
    if language == "en":
        return _value_en(value)
    if isinstance(value, Text):
        return _Phrase(value, language)
    if isinstance(value, str):
        if _is_decimal(value):  # a number written with one decimal, e.g. "+4.3", "15.3"
            value = value.replace(".", _template("decimal_separator", language))
        elif _CARD_WRITERS and any(
            mark in value for mark in _SUITS
        ):  # cards as text: the sentence's letters
            value = _CARD_WRITERS[0](value)
        word = _Word(value)
        word.language = language
        return word
    if type(value) is int:
        count = _Count(value)
        count.language = language
        return count
    if type(value) is float:
        decimal = _Decimal(value)
        decimal.language = language
        return decimal
    if hasattr(type(value), "spoken"):  # a card or a rank, written in the current language
        return _Spoken(value)
    if isinstance(value, Series):
        separator = _template("list_separator", language)
        return _Word(separator.join(format(_value(v, language), "") for v in value))
    if isinstance(value, (tuple, list)):
        return _Word(" ".join(format(_value(v, language), "") for v in value))
    return value


def _value_en(value: object) -> object:
    """:func:`_value` for English, the fast way: English templates use no forms and no gender
    choices, so plain strings, cards and ranks go in as they are."""
    kind = type(value)
    if kind is str:
        return value
    if kind is int:
        return _Count(value)  # type: ignore[call-overload]  # an int: type(value) is int
    if isinstance(value, Text):
        return value if value.language == "en" else _Phrase(value, "en")
    if isinstance(value, Series):
        return TEMPLATES["list_separator"].join(format(_value_en(v), "") for v in value)
    if isinstance(value, (tuple, list)):
        return " ".join(format(_value_en(v), "") for v in value)
    return value


def _render(code: str, params: Mapping[str, object], language: str, form: str = "") -> str:
    """The sentence, in ``language``: called inside :func:`render`, which makes ``language``
    the current one while it runs (objects that write themselves speak it too)."""
    if language == "en" and not form and code in TEMPLATES:
        english = TEMPLATES[code]
        return english.format_map(
            _with_ranks(english, {k: _value_en(v) for k, v in params.items()})
        )
    template = _template(code, language, form)
    values = _with_ranks(template, {k: _value(v, language) for k, v in params.items()})
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError, AttributeError) as error:
        if language == "en" and not form:
            raise
        # a translation whose placeholders don't fit: English rather than nothing (a test
        # checks every translation's placeholders)
        import warnings

        warnings.warn(
            f"the {language} sentence for {code!r} does not fit its parameters ({error!r}); "
            "English said instead",
            TranslationWarning,
            stacklevel=3,
        )
        english = _template(code, "en")
        return english.format_map(
            _with_ranks(english, {k: _value(v, "en") for k, v in params.items()})
        )


class TranslationWarning(UserWarning):
    """A translated template could not be filled in with its parameters (English was said)."""


def render(
    code: str,
    params: Mapping[str, object] | None = None,
    language: str | None = None,
    /,
    **more: object,
) -> str:
    """The sentence for ``code`` with its parameters filled in, in ``language`` (default:
    the current language, see :mod:`rummykit.language`). ``language`` may also be given by
    keyword: it is never a template's parameter.

    The result is a :class:`Text`: a ``str`` that can be rendered again in another language.

    >>> render("too_few_cards", cards="9♠ 9♥", count_word="two")
    'A meld needs at least three cards; 9♠ 9♥ has two.'
    """
    if "language" in more:
        chosen = more.pop("language")
        if chosen is not None and not isinstance(chosen, str):
            raise TypeError(f"language must be a language code, not {chosen!r}")
        language = chosen
    current = get_language()
    lang = current if language is None else check_language(language)
    values = {**(params or {}), **more}
    if lang == current:
        return Text(_render(code, values, lang), code, values, lang)
    with within(lang):
        return Text(_render(code, values, lang), code, values, lang)


describe_unknown_with(
    lambda code, accepted: render("unknown_language", name=code, choices=", ".join(accepted))
)
