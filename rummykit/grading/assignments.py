"""A lesson as an nbgrader source assignment, and :func:`grade`, which its hidden tests call.

``rummykit assignment NOTEBOOK COURSE_DIR`` writes ``COURSE_DIR/source/NAME/NOTEBOOK.ipynb``:
the lesson without its teacher's cells, each checked exercise turned into

- an **autograded answer** cell — ``answer3 = ""`` for the student to fill in, the solution
  (``answer3 = exercise3.solution``) between nbgrader's ``### BEGIN SOLUTION`` and
  ``### END SOLUTION``;
- a locked **test** cell worth ``points``, whose hidden test calls :func:`grade`: the
  exercise's own checker judges the answer, and the cell's result is the points earned (as
  nbgrader reads partial credit) shown as the engine's feedback, in the lesson's language.

The lesson's other code cells are locked (nbgrader restores them before grading), so a stray
edit can't change an exercise. Then the teacher runs nbgrader's own commands, unchanged:
``nbgrader generate_assignment NAME``, ``release_assignment``, ``collect``, ``autograde``,
``generate_feedback``. The cells are written with nbgrader's metadata (schema 3) as plain
JSON: making an assignment needs no nbgrader, grading one does.

>>> from rummykit.exercises import MeldKind
>>> graded = grade(MeldKind("K♠ A♠ 2♠"), "run")
>>> graded
0
>>> graded.data["correct"], graded.data["rules"]
(False, ['H4'])
>>> grade(MeldKind("K♠ A♠ 2♠"), "no meld", points=2)
2
>>> print(grade(MeldKind("K♠ A♠ 2♠"), "x45"))
✘ 'x45' is not an answer here: answer run, set or no meld
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from rummykit.errors import RummykitError
from rummykit.exercises import AnswerError, Exercise, Feedback
from rummykit.grading.editions import answer_literal, lesson_language, tags
from rummykit.language import speaking
from rummykit.messages import render

__all__ = [
    "FEEDBACK_MIME",
    "AssignmentError",
    "Graded",
    "assignment_command",
    "assignment_notebook",
    "find_lesson",
    "grade",
    "make_assignment",
    "nbgrader_config",
]

FEEDBACK_MIME = "application/vnd.rummykit.feedback+json"
"""The output type a graded cell stores its feedback under, as data (read by the class report)."""

SCHEMA = 3  # nbgrader's cell metadata schema
CHECK_ID = "rk-check-{number}"  # the grade id of exercise {number}'s test cell
ANSWER_ID = "rk-answer-{number}"
CELL_ID = "rk-cell-{index}"


class AssignmentError(RummykitError):
    """A lesson can't be made into an assignment, or not where asked; the message says why."""


# --- grading one answer ---------------------------------------------------------------------


@dataclass(frozen=True)
class Graded:
    """One graded answer: the points earned out of ``max_points``, and the feedback.

    In a notebook its value is the number of points — what nbgrader reads as the test cell's
    partial credit — and it shows itself as the engine's feedback (HTML), with the same
    judgement as data (:data:`FEEDBACK_MIME`) for the class report.
    """

    points: float
    max_points: float
    data: dict[str, Any] = field(default_factory=dict)
    html: str = ""
    text: str = ""

    def __repr__(self) -> str:
        return f"{self.points:g}"

    def __str__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        return self.html

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, Any]:
        return {"text/plain": repr(self), "text/html": self.html, FEEDBACK_MIME: self.data}


def grade(exercise: Exercise, answer: object, points: float = 1) -> Graded:
    """Judge ``answer`` with the exercise's own checker: all the points when it is right,
    none when it is wrong or can't be read — never an error, so the feedback a student gets
    back is the engine's sentences, not a traceback."""
    try:
        feedback: Feedback = exercise.check(answer)
    except AnswerError as error:
        line = f"{render('exercise_mark_wrong')} {error}"
        data = {
            "kind": exercise.kind,
            "correct": False,
            "readable": False,
            "given": str(answer)[:200],
            "expected": exercise.answer,
            "message": str(error),
            "codes": [],
            "rules": list(exercise.rules),
            "others": [],
        }
        return Graded(0, points, data, f'<p class="rk-answer-error">{escape(line)}</p>', line)
    data = {**feedback.to_dict(), "readable": True}
    earned = float(points) if feedback.correct else 0.0
    return Graded(earned, points, data, feedback._repr_html_(), str(feedback))


# --- a lesson as a source assignment ----------------------------------------------------------


def find_lesson(name: str | os.PathLike[str]) -> tuple[str, dict[str, Any]]:
    """A lesson by path, or by its name among the notebooks that come with rummykit
    (``01_melds``, ``pt/02_rodada_hungara.ipynb``): its file name and its content."""
    path = Path(name)
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        label = path.name
    else:
        from rummykit.tutorials import tutorial_files

        wanted = str(name).removesuffix(".ipynb")
        found = [
            (n, item)
            for n, item in tutorial_files()
            if n.endswith(".ipynb") and wanted in (n.removesuffix(".ipynb"), Path(n).stem)
        ]
        if not found:
            lessons = [
                n.removesuffix(".ipynb") for n, _ in tutorial_files() if n.endswith(".ipynb")
            ]
            raise AssignmentError(
                render("assignment_no_lesson", name=str(name), choices=", ".join(lessons))
            )
        label, item = found[0]
        label = Path(label).name
        text = item.read_text(encoding="utf-8")
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        raise AssignmentError(
            render("assignment_not_notebook", name=str(name), error=error.msg)
        ) from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise AssignmentError(render("assignment_not_notebook", name=str(name), error="no cells"))
    return label, notebook


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _meta(**fields: Any) -> dict[str, Any]:
    return {"nbgrader": {"schema_version": SCHEMA, **fields}}


def _code(source: str, metadata: dict[str, Any]) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": metadata,
        "outputs": [],
        "source": source,
    }


def _answer_cells(
    cell: dict[str, Any], number: int, points: float, language: str
) -> list[dict[str, Any]]:
    """The answer cell of exercise ``number`` as nbgrader cells: the student's answer, then
    the locked test cell."""
    source = _source(cell)
    checked = re.findall(r"\b(\w+)\.check\(", source)
    if not checked:
        raise AssignmentError(render("assignment_no_check", cell=source.splitlines()[0][:60]))
    exercise = checked[0]
    variable = f"answer{number}"
    lines = [line for line in source.split("\n") if not re.search(r"\b\w+\.check\(", line)]
    rewritten = []
    literal = False
    for line in lines:
        found = answer_literal(line)
        if found is not None:
            literal = True
            lead, _, comment = found
            rewritten.append(f'{lead.replace("answer", variable, 1)}""{comment}')
            rewritten += [
                "### BEGIN SOLUTION",
                f"{variable} = {exercise}.solution",
                "### END SOLUTION",
            ]
        else:
            rewritten.append(re.sub(r"^(\s*)answer\b", rf"\g<1>{variable}", line))
    answer_meta = (
        _meta(grade=False, solution=True, locked=False, grade_id=ANSWER_ID.format(number=number))
        if literal
        else {}
    )
    with speaking(language):
        later = render("assignment_checked_later", number=number)
    test = "\n".join(
        [
            f"# {later}",
            "### BEGIN HIDDEN TESTS",
            "from rummykit.grading import grade",
            f"grade({exercise}, globals().get({variable!r}), points={points:g})",
            "### END HIDDEN TESTS",
        ]
    )
    check_meta = _meta(
        grade=True,
        solution=False,
        locked=True,
        points=points,
        grade_id=CHECK_ID.format(number=number),
    )
    return [_code("\n".join(rewritten).rstrip("\n"), answer_meta), _code(test, check_meta)]


def assignment_notebook(notebook: dict[str, Any], points: float = 1) -> dict[str, Any]:
    """The nbgrader source version of a lesson (a new notebook)."""
    if points <= 0:
        raise AssignmentError(render("assignment_bad_points", points=points))
    language = lesson_language(notebook)
    cells: list[dict[str, Any]] = []
    number = 0
    for index, cell in enumerate(notebook.get("cells", [])):
        marked = tags(cell)
        if "teacher" in marked:
            continue
        if cell.get("cell_type") != "code":
            cells.append(
                {
                    "cell_type": cell.get("cell_type", "markdown"),
                    "metadata": {},
                    "source": _source(cell),
                }
            )
            continue
        if "answer" in marked:
            number += 1
            cells += _answer_cells(cell, number, points, language)
            continue
        meta = _meta(grade=False, solution=False, locked=True, grade_id=CELL_ID.format(index=index))
        cells.append(_code(_source(cell), meta))
    if not number:
        raise AssignmentError(render("assignment_no_exercises"))
    with speaking(language):
        intro = render("assignment_intro", count=number, points=f"{number * points:g}")
    cells.insert(0, {"cell_type": "markdown", "metadata": {}, "source": intro})
    metadata = {
        key: value
        for key, value in notebook.get("metadata", {}).items()
        if key in ("kernelspec", "language_info", "rummykit")
    }
    metadata.setdefault(
        "kernelspec", {"display_name": "Python 3", "language": "python", "name": "python3"}
    )
    for index, cell in enumerate(cells):  # nbformat 4.5 wants a unique id for each cell
        cell["id"] = f"rk-{index}"
    return {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def nbgrader_config(course: str) -> str:
    """The ``nbgrader_config.py`` written into a new course folder: the course id, and an
    empty stub for solutions (the answer line above each solution is the student's start)."""
    return "\n".join(
        [
            "# nbgrader's configuration for this course (written by rummykit assignment).",
            "c = get_config()  # noqa: F821",
            f"c.CourseDirectory.course_id = {course!r}",
            '# each answer cell already starts the answer (answer1 = ""): the solution',
            "# region is replaced by nothing, not by nbgrader's `raise NotImplementedError()`",
            'c.ClearSolutions.code_stub = {"python": ""}',
            "# lessons that play tournaments take a while to run",
            "c.ExecutePreprocessor.timeout = 300",
            "",
        ]
    )


def make_assignment(
    notebook: str | os.PathLike[str],
    course_dir: str | os.PathLike[str],
    *,
    name: str | None = None,
    points: float = 1,
    force: bool = False,
) -> Path:
    """Write the lesson ``notebook`` (a path, or the name of a lesson that comes with
    rummykit) as the source assignment ``name`` (default: the lesson's name) of the nbgrader
    course in ``course_dir``; return the notebook written.

    A ``nbgrader_config.py`` is written too when the course has none.
    """
    label, lesson = find_lesson(notebook)
    assignment = name or Path(label).stem
    if not re.fullmatch(r"[A-Za-z0-9_.-]+", assignment):
        raise AssignmentError(render("assignment_bad_name", name=assignment))
    built = assignment_notebook(lesson, points)
    course = Path(course_dir)
    target = course / "source" / assignment / label
    if target.exists() and not force:
        raise AssignmentError(render("assignment_exists", path=str(target)))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(built, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        config = course / "nbgrader_config.py"
        if not config.exists():
            config.write_text(nbgrader_config(course.resolve().name), encoding="utf-8")
    except OSError as error:
        raise AssignmentError(
            render("assignment_cannot_write", path=str(course), error=error.strerror or error)
        ) from None
    return target


def assignment_command(
    notebook: str, course_dir: str, name: str | None, points: float, force: bool
) -> int:
    """``rummykit assignment NOTEBOOK COURSE_DIR``: 0 when written, 2 when not."""
    import sys

    try:
        path = make_assignment(notebook, course_dir, name=name, points=points, force=force)
    except AssignmentError as error:
        print(render("cli_error", command="assignment", message=str(error)), file=sys.stderr)
        return 2
    built = json.loads(path.read_text(encoding="utf-8"))
    count = sum(1 for c in built["cells"] if c.get("metadata", {}).get("nbgrader", {}).get("grade"))
    print(render("assignment_written", path=str(path), count=count))
    print(render("assignment_next", course=course_dir, name=path.parent.name))
    return 0
