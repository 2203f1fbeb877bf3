"""The teacher's page of the table server: the words and choices its template and script get, in one language.

The page itself is ``templates/teacher.html`` (a tornado template: every value escaped) with
``static/teacher.js`` and ``static/teacher.css`` beside it; the page asks for the teacher code
and then speaks to the teacher's API (``/api/tables``) with it, so the HTML carries no
table and no code. Its sentences come from the message templates (``tables_page_*``), said
here in the page's language: :func:`page_context` is everything the template is given.

>>> context = page_context("fi")
>>> context["lang"], context["text"]["tables_page_create"]
('fi', 'Luo')
>>> [value for value, _ in context["seat_kinds"]]
['human', 'easy', 'normal', 'hard', 'greedy']
>>> page_language("pt-BR", None), page_language("xx", "fi"), page_language("", None)
('pt', 'fi', 'en')
"""

from __future__ import annotations

import json
import string
from typing import Any

from rummykit.ai.levels import AGENTS
from rummykit.language import LANGUAGE_NAMES, UnknownLanguage, check_language
from rummykit.messages import TEMPLATES, in_language, render
from rummykit.variants import VARIANTS

__all__ = ["PAGE_TEXTS", "SCRIPT_TEXTS", "page_context", "page_language"]

PAGE_TEXTS = (
    "tables_page_title",
    "tables_page_languages",
    "tables_page_code_heading",
    "tables_page_code_intro",
    "tables_page_code_use",
    "tables_page_new_heading",
    "tables_page_variant",
    "tables_page_options",
    "tables_page_options_hint",
    "tables_page_seats",
    "tables_page_seat_none",
    "tables_page_clock",
    "tables_page_count",
    "tables_page_create",
    "tables_page_tables_heading",
    "tables_page_open_cards",
    "tables_page_none",
)
"""The sentences the template shows."""

SCRIPT_TEXTS = (
    "tables_page_code_ok",
    "tables_page_options_bad",
    "tables_page_created",
    "tables_page_none",
    "tables_page_table",
    "tables_page_status_open",
    "tables_page_status_over",
    "tables_page_status_closed",
    "tables_page_round",
    "tables_page_totals",
    "tables_page_seat",
    "tables_page_who",
    "tables_page_connection",
    "tables_page_cards",
    "tables_page_score",
    "tables_page_hand",
    "tables_page_free",
    "tables_page_connected",
    "tables_page_not_connected",
    "tables_page_computer_playing",
    "tables_page_computer",
    "tables_page_melds",
    "tables_page_no_melds",
    "tables_page_discard",
    "tables_page_stock",
    "tables_page_log",
    "tables_page_record",
    "tables_page_close",
    "tables_page_elsewhere",
    "tables_page_closed",
    "tables_page_lost",
    "tables_page_hidden",
    "tables_seat_name",
    "tables_bad_teacher_code",
)
"""The sentences the script fills in (``{name}`` placeholders left for it to fill)."""


def page_language(asked: str, default: str | None) -> str:
    """The page's language: the one asked for (``?lang=pt``) when rummykit speaks it, else
    the server's (``default``), else English."""
    for code in (asked, default or ""):
        if code:
            try:
                return check_language(code)
            except UnknownLanguage:
                continue
    return "en"


def _unfilled(code: str, language: str) -> str:
    """A template said in ``language`` with its placeholders kept (``{table}``), for the script."""
    names = {field for _, field, _, _ in string.Formatter().parse(TEMPLATES[code]) if field}
    return str(render(code, None, language, **{name: "{" + name + "}" for name in names}))


def page_context(language: str) -> dict[str, Any]:
    """What the teacher's template is given: the language and the other languages, the
    page's sentences (``text``), the script's (``script_text``, JSON), the variants and the
    kinds of seat to choose from."""
    levels = [name for name in ("easy", "normal", "hard", "greedy") if name in AGENTS]
    return {
        "lang": language,
        "languages": [(code, name) for code, name in LANGUAGE_NAMES.items()],
        "text": {code: str(render(code, None, language)) for code in PAGE_TEXTS},
        # JSON inside a <script> element: no "</" in it, so no text can end the element
        "script_text": json.dumps(
            {code: _unfilled(code, language) for code in SCRIPT_TEXTS}, ensure_ascii=False
        ).replace("</", "<\\/"),
        "seat_labels": [str(render("tables_seat_name", None, language, seat=n)) for n in range(4)],
        "variants": [
            (name, in_language(rules.title, language)) for name, rules in VARIANTS.items()
        ],
        "seat_kinds": [("human", str(render("tables_page_seat_human", None, language)))]
        + [
            (
                level,
                str(
                    render(
                        "tables_page_seat_computer",
                        None,
                        language,
                        level=render(f"ai_level_{level}", None, language),
                    )
                ),
            )
            for level in levels
        ],
    }
