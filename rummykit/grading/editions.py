"""The student and teacher editions of a lesson notebook, made from the one the repository keeps.

The repository's notebooks are the **teacher edition**: every exercise answered, its feedback
stored, a teacher's note at the top. Cells say what they are by their tags:

- ``exercise``: poses an exercise (makes it, prints its question);
- ``answer``: the learner's answer (``answer = ...``) and its check;
- ``teacher``: for the teacher only (the note, an answer key, a worksheet with its key).

The **student edition** leaves out the teacher's cells, blanks every answer that is written
out (``answer = ""``), and keeps no stored output of an exercise or an answer — nor any
output that holds a verdict mark (✔, ✘), an answer key or a widget's saved state:

>>> lesson = {"cells": [
...     {"cell_type": "markdown", "metadata": {"tags": ["teacher"]}, "source": "Note"},
...     {"cell_type": "code", "metadata": {"tags": ["answer"]}, "execution_count": 3,
...      "source": 'answer = "run"  # ← your answer\\nprint(exercise1.check(answer))',
...      "outputs": [{"output_type": "stream", "name": "stdout", "text": "✘ You said…"}]},
... ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
>>> student = student_edition(lesson)
>>> len(student["cells"]), student["cells"][0]["source"].splitlines()[0]
(1, 'answer = ""  # ← your answer')
>>> student["cells"][0]["outputs"], student["cells"][0]["execution_count"]
([], None)

It needs only the standard library: the JupyterLite build and ``rummykit notebooks`` use it.
"""

from __future__ import annotations

import ast
import copy
import json
import re
from collections.abc import Iterable
from typing import Any, Literal

from rummykit.errors import RummykitError
from rummykit.messages import render

__all__ = [
    "EDITIONS",
    "MARKS",
    "TAGS",
    "Edition",
    "answer_literal",
    "edition",
    "exercise_names",
    "key_prefixes",
    "lesson_language",
    "student_edition",
    "tags",
]

Edition = Literal["student", "teacher"]
EDITIONS: tuple[Edition, ...] = ("student", "teacher")
"""The editions of a lesson: the student's (the default) and the teacher's."""

TAGS = ("exercise", "answer", "teacher")
"""The cell tags the editions read."""

MARKS = ("✔", "✘")
"""The marks of a verdict on an answer: never in a student edition."""

_LANGUAGES = ("en", "pt", "fi")
_ANSWER = re.compile(r"^(?P<lead>\s*answer\w*\s*=\s*)(?P<value>.*?)(?P<comment>\s*#.*)?$")


def tags(cell: dict[str, Any]) -> list[str]:
    """A cell's tags (none: an empty list)."""
    found = cell.get("metadata", {}).get("tags", [])
    return [t for t in found if isinstance(t, str)] if isinstance(found, list) else []


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def lesson_language(notebook: dict[str, Any], default: str = "en") -> str:
    """The language a lesson is written in: its ``metadata.rummykit.language``, else
    ``default``.

    >>> lesson_language({"metadata": {"rummykit": {"language": "fi"}}})
    'fi'
    """
    meta = notebook.get("metadata", {}).get("rummykit", {})
    language = meta.get("language") if isinstance(meta, dict) else None
    return language if language in _LANGUAGES else default


def key_prefixes() -> tuple[str, ...]:
    """How an answer key's entry begins, in every language ("Answer: ", "Resposta: " …)."""
    return tuple(
        dict.fromkeys(
            render("exercise_key", {"answer": ""}, language).rstrip(". ") + " "
            for language in _LANGUAGES
        )
    )


def answer_literal(line: str) -> tuple[str, str, str] | None:
    """An answer line split into its lead (``answer = ``), its written-out value and its
    comment — when the value is a literal (a string or a number: a key to blank), else
    ``None`` (``answer = MyAgent`` is the learner's own code, not a key).

    >>> answer_literal('answer = 36  # ← your answer (a number)')
    ('answer = ', '36', '  # ← your answer (a number)')
    >>> answer_literal("answer = MyAgent") is None
    True
    """
    m = _ANSWER.match(line)
    if not m:
        return None
    value = m.group("value")
    try:
        ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return m.group("lead"), value, m.group("comment") or ""


def _blank_answers(source: str) -> str:
    lines = []
    for line in source.split("\n"):
        found = answer_literal(line)
        lines.append(line if found is None else f'{found[0]}""{found[2]}')
    return "\n".join(lines)


def _holds_key(text: str) -> bool:
    """Whether an output's text gives an answer away: a verdict mark, or a key entry."""
    return any(mark in text for mark in (*MARKS, *key_prefixes()))


def _output_text(output: dict[str, Any]) -> str:
    return json.dumps(output, ensure_ascii=False)


def _clear(cell: dict[str, Any]) -> None:
    cell["outputs"] = []
    cell["execution_count"] = None


def student_edition(notebook: dict[str, Any]) -> dict[str, Any]:
    """The student edition of a lesson (a new notebook; the one given is left as it is)."""
    out = copy.deepcopy(notebook)
    cells = []
    for cell in out.get("cells", []):
        marked = tags(cell)
        if "teacher" in marked:
            continue
        if cell.get("cell_type") == "code":
            if "answer" in marked:
                cell["source"] = _blank_answers(_source(cell))
            outputs = cell.get("outputs", [])
            widget = any(
                "application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in outputs
            )
            if (
                {"exercise", "answer"} & set(marked)
                or widget
                or any(_holds_key(_output_text(o)) for o in outputs)
            ):
                _clear(cell)
        cells.append(cell)
    out["cells"] = cells
    out.get("metadata", {}).pop("widgets", None)  # the saved widget state: views need a kernel
    return out


def edition(notebook: dict[str, Any], which: Edition = "student") -> dict[str, Any]:
    """The ``student`` or ``teacher`` edition of a lesson (the teacher's is the lesson as the
    repository keeps it).

    >>> edition({"cells": []}, "teacher")
    {'cells': []}
    """
    if which == "teacher":
        return copy.deepcopy(notebook)
    if which == "student":
        return student_edition(notebook)
    raise RummykitError(render("edition_unknown", edition=which, choices=", ".join(EDITIONS)))


def exercise_names(cells: Iterable[dict[str, Any]]) -> list[str]:
    """The exercises an answer cell checks (``exercise1.check(answer)``), in order."""
    names = []
    for cell in cells:
        if "answer" in tags(cell):
            names += re.findall(r"\b(\w+)\.check\(", _source(cell))
    return names
