"""Reading a learner's typed answer (words, numbers, cards) in English and in the current
language, and judging a number.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from rummykit.cards import Card, format_cards, parse_card
from rummykit.exercises.base import Feedback, bad_answer, code_of, make_feedback
from rummykit.messages import TEMPLATES, render

__all__: list[str] = []  # its names serve the package's other modules; none is public API

# --- reading answers ------------------------------------------------------------------------

_DASHES = str.maketrans(dict.fromkeys("‐‑‒–—―−﹣－", "-"))
_QUOTES = "\"'“”‘’«»„‚`´"
_TRAILING = ".!?,;:…"


def clean_answer(text: str) -> str:
    """A typed answer without what doesn't change it: spaces, quotes around it, punctuation
    after it; every dash a hyphen (``"– 20."`` is ``"- 20"``)."""
    text = " ".join(text.translate(_DASHES).split())
    text = text.strip(_QUOTES + " ").rstrip(_TRAILING + " ").strip(_QUOTES + " ")
    return text


def answer_words(answer: object) -> str:
    """The answer as lower-case words: ``"Set."`` and ``"  set"`` are ``"set"``,
    ``"no-meld"`` is ``"no meld"``."""
    if not isinstance(answer, str):
        return ""
    text = clean_answer(unicodedata.normalize("NFKC", answer)).lower()
    return " ".join(text.replace("-", " ").split())


_NUMBER = re.compile(r"([+-]?)\s*([0-9]{1,7})(?:\s+(\w+))?")


def read_int(answer: object, accepted: str = "") -> int:
    """A whole number from an int or from text: ``45``, ``"45 points"``, ``"– 20"``, ``"-20."``."""
    accepted = accepted or render("exercise_accepts_number")
    if isinstance(answer, bool):
        raise bad_answer(answer, accepted)
    if isinstance(answer, int):
        return answer
    if isinstance(answer, float) and answer.is_integer() and abs(answer) < 10**7:
        return int(answer)
    if isinstance(answer, str):
        text = clean_answer(unicodedata.normalize("NFKC", answer)).lower()
        m = _NUMBER.fullmatch(text)
        if m and (m.group(3) is None or says(m.group(3), "points")):
            return int(m.group(1) + m.group(2))
    raise bad_answer(answer, accepted)


def read_card(
    answer: object, choices: Sequence[Card], accepted: str = "", typed: object = None
) -> Card:
    """A card of ``choices`` from the answer (``typed``: what the learner typed, when
    ``answer`` is already a part of it, for the error message)."""
    accepted = accepted or render(
        "exercise_accepts_card", cards=format_cards(dict.fromkeys(choices))
    )
    shown = answer if typed is None else typed
    card: Card
    if isinstance(answer, Card):
        card = answer
    elif isinstance(answer, str):
        text = re.sub(r"^discard\s+", "", clean_answer(answer), flags=re.I)
        try:
            card = parse_card(text)
        except ValueError:
            raise bad_answer(shown, accepted) from None
    else:
        raise bad_answer(shown, accepted)
    if card not in choices:
        raise bad_answer(shown, accepted)
    return card


def says(words: str, meaning: str) -> bool:
    """Whether a learner's (normalised) words mean ``meaning`` (yes, no, run, set): the
    English words always, and the current language's (``exercise_words_<meaning>``).

    >>> says("y", "yes"), says("group", "set"), says("maybe", "no")
    (True, True, False)
    """
    code = f"exercise_words_{meaning}"
    accepted = f"{TEMPLATES[code]}|{render(code)}".split("|")
    return words in {answer_words(w) for w in accepted}


# --- counting: the opening, a round, a match --------------------------------------------------


def check_number(
    answer: object,
    expected: int,
    slips: Sequence[tuple[int, str]],
    lines: tuple[str, ...],
    cards: tuple[Card, ...] = (),
) -> Feedback:
    """Judge a number; a wrong one that a known slip explains is told that slip."""
    given = read_int(answer)
    slip = next((s for n, s in slips if n == given), None)
    wrong = render("exercise_number_wrong", given=given, expected=expected)
    codes: tuple[str, ...] = ()
    if slip is not None and given != expected:
        wrong = render("exercise_number_slip", given=given, slip=slip)
        codes = code_of(slip)
    return make_feedback(
        given == expected,
        str(given),
        str(expected),
        render("exercise_number_right", given=given),
        wrong,
        lines,
        cards,
        codes=codes,
    )
