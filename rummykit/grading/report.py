"""What the class got right and wrong: per student and per rule, from nbgrader and quiz exports.

:func:`class_report` reads an nbgrader course — the scores in its gradebook
(``gradebook.db``, through nbgrader's own :class:`~nbgrader.api.Gradebook`) and, in its
autograded notebooks, the judgement behind each score (the data :func:`~rummykit.grading.grade`
stores beside the feedback) — and any quiz tallies exported by
:meth:`~rummykit.exercises.Quiz.save` or the quiz widget. Each answer counts once: a quiz
keeps a student's first answer to each question.

The report shows each student's answers, and each rule the questions were about — the rule's
id and sentence, the reason codes behind the answers, how many were right and wrong, and who
missed it — as an HTML page with a chart (:meth:`ClassReport.html`) and as CSV
(:meth:`ClassReport.csv`):

>>> from rummykit.exercises import MeldKind, OpeningValue, Quiz
>>> quiz = Quiz([MeldKind("K♠ A♠ 2♠"), OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"])], "Melds")
>>> _ = quiz.check(1, "run", student="Ana"), quiz.check(2, 45, student="Ana")
>>> _ = quiz.check(1, "no meld", student="Ben"), quiz.check(1, "run", student="Ben")
>>> report = ClassReport.from_answers(answers_from_quiz(quiz.to_dict()))
>>> report
ClassReport(students=2, answers=3, right=2)
>>> for row in report.by_rule():
...     print(row.rule, row.right, row.wrong, row.missed_by)
H4 1 1 ('Ana',)
H8 1 0 ()
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from rummykit.errors import RummykitError
from rummykit.messages import render

__all__ = [
    "Answer",
    "ClassReport",
    "ReportError",
    "RuleRow",
    "answers_from_course",
    "answers_from_game",
    "answers_from_quiz",
    "class_report",
    "class_report_command",
    "read_game_spec",
    "read_quiz",
    "rule_sentence",
]

_RULES = {f"H{n}" for n in range(1, 16)} | {f"R{n}" for n in range(1, 13)}


class ReportError(RummykitError):
    """A course or a quiz export can't be read; the message names the file and what is wrong."""


def rule_sentence(rule: str) -> str:
    """The one-sentence statement of a rule, in the current language.

    >>> rule_sentence("H4")
    'A set is 3 or 4 cards of one rank in different suits; a run is 3 or more cards in order in one suit, the ace at either end but never in the middle (K-A-2).'
    """
    return render(f"rule_{rule}") if rule in _RULES else render("report_no_rule")


@dataclass(frozen=True)
class Answer:
    """One student's answer to one question, as judged."""

    student: str
    source: str  # the assignment, or the quiz's title
    question: int
    kind: str
    correct: bool
    given: str
    expected: str
    rules: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    readable: bool = True
    points: float | None = None
    max_points: float | None = None
    message: str = ""

    def row(self) -> dict[str, Any]:
        """The answer as one CSV row."""
        return {
            "student": self.student,
            "source": self.source,
            "question": self.question,
            "kind": self.kind,
            "correct": int(self.correct),
            "readable": int(self.readable),
            "points": "" if self.points is None else f"{self.points:g}",
            "max_points": "" if self.max_points is None else f"{self.max_points:g}",
            "given": self.given,
            "expected": self.expected,
            "rules": " ".join(self.rules),
            "codes": " ".join(self.codes),
            "message": self.message,
        }


@dataclass(frozen=True)
class RuleRow:
    """How the class did on the questions about one rule."""

    rule: str
    sentence: str
    right: int
    wrong: int
    missed_by: tuple[str, ...]
    codes: tuple[tuple[str, int], ...]  # the reason codes of the wrong answers, most first

    @property
    def share_wrong(self) -> float:
        """The share of answers that were wrong, from 0 to 1."""
        return self.wrong / (self.right + self.wrong) if self.right + self.wrong else 0.0


@dataclass
class ClassReport:
    """Every answer of a class, and what they add up to per student and per rule."""

    answers: list[Answer] = field(default_factory=list)
    title: str = ""

    @classmethod
    def from_answers(cls, answers: Iterable[Answer], title: str = "") -> ClassReport:
        """A report of these answers."""
        return cls(list(answers), title)

    def __repr__(self) -> str:
        right = sum(a.correct for a in self.answers)
        return (
            f"ClassReport(students={len(self.students())}, answers={len(self.answers)}, "
            f"right={right})"
        )

    def students(self) -> list[str]:
        """The students, in name order."""
        return sorted({a.student for a in self.answers})

    def by_student(self) -> dict[str, list[Answer]]:
        """Each student's answers, by source and question."""
        out: dict[str, list[Answer]] = {s: [] for s in self.students()}
        for answer in sorted(self.answers, key=lambda a: (a.source, a.question)):
            out[answer.student].append(answer)
        return out

    def by_rule(self) -> list[RuleRow]:
        """Each rule the questions were about, in rule order (a question about no rule —
        a strategy question — counts under none)."""
        groups: dict[str, list[Answer]] = {}
        for answer in self.answers:
            for rule in answer.rules or ("",):
                groups.setdefault(rule, []).append(answer)

        def order(rule: str) -> tuple[int, str, int]:
            return (rule == "", rule[:1], int(rule[1:]) if rule[1:].isdigit() else 0)

        rows = []
        for rule in sorted(groups, key=order):
            answers = groups[rule]
            wrong = [a for a in answers if not a.correct]
            codes = Counter(c for a in wrong for c in a.codes)
            rows.append(
                RuleRow(
                    rule,
                    rule_sentence(rule),
                    len(answers) - len(wrong),
                    len(wrong),
                    tuple(sorted({a.student for a in wrong})),
                    tuple(codes.most_common()),
                )
            )
        return rows

    # --- CSV ----------------------------------------------------------------------------

    def csv(self) -> str:
        """Every answer, one row each (student, source, question, kind, right or wrong,
        points, what was given and expected, the rules and reason codes, the feedback)."""
        out = io.StringIO()
        fields = list(Answer("", "", 0, "", False, "", "").row())
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for answer in sorted(self.answers, key=lambda a: (a.student, a.source, a.question)):
            writer.writerow(answer.row())
        return out.getvalue()

    # --- text and HTML --------------------------------------------------------------------

    def lines(self) -> list[str]:
        """The report as text: each student's score, then each rule."""
        lines = [render("report_title", title=self.title or render("report_default_title"))]
        for student, answers in self.by_student().items():
            right = sum(a.correct for a in answers)
            lines.append(
                render("report_student_line", student=student, right=right, asked=len(answers))
            )
        for row in self.by_rule():
            label = row.rule or render("report_no_rule_short")
            who = ", ".join(row.missed_by) or "—"
            lines.append(
                render(
                    "report_rule_line",
                    rule=label,
                    right=row.right,
                    wrong=row.wrong,
                    students=who,
                )
            )
        return lines

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def chart_svg(self) -> str:
        """A bar per rule: the share of answers about it that were wrong."""
        rows = self.by_rule()
        bar, height, left = 300, 22, 70
        parts = []
        for i, row in enumerate(rows):
            y = 8 + i * height
            width = round(bar * row.share_wrong)
            label = escape(row.rule or render("report_no_rule_short"))
            words = escape(render("report_chart_bar", wrong=row.wrong, total=row.right + row.wrong))
            parts.append(
                f'<text x="{left - 6}" y="{y + 14}" text-anchor="end">{label}</text>'
                f'<rect x="{left}" y="{y + 2}" width="{bar}" height="{height - 6}" '
                'fill="#e9ecef"/>'
                f'<rect x="{left}" y="{y + 2}" width="{width}" height="{height - 6}" '
                'fill="#d9480f"><title>' + words + "</title></rect>"
                f'<text x="{left + bar + 8}" y="{y + 14}">{words}</text>'
            )
        total = 16 + height * len(rows)
        title = escape(render("report_chart_title"))
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + bar + 180}" '
            f'height="{total}" role="img" aria-label="{title}" '
            'font-family="sans-serif" font-size="13">'
            f"<title>{title}</title>{''.join(parts)}</svg>"
        )

    def _repr_html_(self) -> str:
        mark = {True: render("exercise_mark_right"), False: render("exercise_mark_wrong")}
        rule_rows = "".join(
            "<tr>"
            f"<td>{escape(row.rule or '—')}</td><td>{escape(row.sentence)}</td>"
            f"<td>{row.right}</td><td>{row.wrong}</td>"
            f"<td>{escape(', '.join(row.missed_by))}</td>"
            f"<td>{escape(', '.join(f'{c} ({n})' for c, n in row.codes))}</td>"
            "</tr>"
            for row in self.by_rule()
        )
        students = []
        for student, answers in self.by_student().items():
            cells = "".join(
                f"<tr><td>{escape(a.source)}</td><td>{a.question}</td>"
                f"<td>{escape(mark[a.correct])}</td><td>{escape(a.given)}</td>"
                f"<td>{escape(' '.join(a.rules))}</td><td>{escape(a.message)}</td></tr>"
                for a in answers
            )
            right = sum(a.correct for a in answers)
            head = render("report_student_line", student=student, right=right, asked=len(answers))
            students.append(
                f"<h3>{escape(head)}</h3><table><tr>"
                + "".join(
                    f"<th>{escape(render(code))}</th>"
                    for code in (
                        "report_col_source",
                        "report_col_question",
                        "report_col_result",
                        "report_col_given",
                        "report_col_rules",
                        "report_col_feedback",
                    )
                )
                + f"</tr>{cells}</table>"
            )
        header = "".join(
            f"<th>{escape(render(code))}</th>"
            for code in (
                "report_col_rule",
                "report_col_sentence",
                "report_col_right",
                "report_col_wrong",
                "report_col_missed",
                "report_col_codes",
            )
        )
        title = escape(render("report_title", title=self.title or render("report_default_title")))
        return (
            f'<div class="rk-report"><h2>{title}</h2>'
            f"<h3>{escape(render('report_rules_heading'))}</h3>{self.chart_svg()}"
            f"<table><tr>{header}</tr>{rule_rows}</table>"
            f"<h3>{escape(render('report_students_heading'))}</h3>{''.join(students)}</div>"
        )

    def html(self) -> str:
        """The report as a whole HTML page."""
        title = escape(render("report_title", title=self.title or render("report_default_title")))
        style = (
            "body{font-family:sans-serif;max-width:60rem;margin:auto}"
            "table{border-collapse:collapse;margin:.5rem 0}"
            "td,th{border:1px solid #ccc;padding:.2rem .4rem;text-align:left;vertical-align:top}"
        )
        return (
            '<!DOCTYPE html><html><head><meta charset="utf-8">'
            f"<title>{title}</title><style>{style}</style></head>"
            f"<body>{self._repr_html_()}</body></html>"
        )

    def save(self, folder: str | os.PathLike[str]) -> tuple[Path, Path]:
        """Write ``class-report.html`` and ``class-report.csv`` into ``folder``."""
        target = Path(folder)
        target.mkdir(parents=True, exist_ok=True)
        page = target / "class-report.html"
        table = target / "class-report.csv"
        page.write_text(self.html(), encoding="utf-8")
        table.write_text(self.csv(), encoding="utf-8")
        return page, table


# --- reading quiz exports -----------------------------------------------------------------------


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError
    return tuple(value)


def answers_from_quiz(data: object, name: str = "quiz") -> list[Answer]:
    """The answers of a quiz export (:meth:`~rummykit.exercises.Quiz.to_dict`); a bad export
    raises :class:`ReportError` naming the field."""
    if not isinstance(data, dict) or data.get("format") != "rummykit-quiz":
        raise ReportError(render("report_bad_quiz", name=name, field="format"))
    if data.get("version") != 1:
        raise ReportError(render("report_bad_quiz", name=name, field="version"))
    title = data.get("title") if isinstance(data.get("title"), str) else ""
    answers = data.get("answers")
    if not isinstance(answers, list):
        raise ReportError(render("report_bad_quiz", name=name, field="answers"))
    out = []
    for i, item in enumerate(answers):
        where = f"answers[{i}]"
        try:
            if not isinstance(item, dict):
                raise TypeError
            student, number = item["student"], item["number"]
            if not isinstance(student, str) or isinstance(number, bool):
                raise TypeError
            if not isinstance(number, int) or not isinstance(item["correct"], bool):
                raise TypeError
            out.append(
                Answer(
                    student or render("exercise_student"),
                    title or name,
                    number,
                    str(item.get("kind", "")),
                    item["correct"],
                    str(item.get("given", "")),
                    str(item.get("expected", "")),
                    _strings(item.get("rules", [])),
                    _strings(item.get("codes", [])),
                    message=str(item.get("message", "")),
                )
            )
        except (KeyError, TypeError):
            raise ReportError(render("report_bad_quiz", name=name, field=where)) from None
    return out


def read_quiz(path: str | os.PathLike[str]) -> list[Answer]:
    """The answers of a quiz export file."""
    source = Path(path)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReportError(render("report_unreadable", path=str(source), error=error)) from None
    return answers_from_quiz(data, source.name)


# --- reading a played game (a table server's record, or any saved game) ------------------------


def answers_from_game(
    source: str | os.PathLike[str],
    names: Sequence[str] | None = None,
    level: str = "hard",
) -> list[Answer]:
    """The decisions of a played round as answers: every draw, play and discard of each
    seat, reviewed against the ``level`` computer player (:func:`rummykit.mistakes.review`),
    is an answer, wrong when it cost expected points (the review's sentence says why). A
    mistake cites no rule: game answers count under "no rule" (strategy).

    ``names`` are the students of the seats in order (a table server's public view has
    them); a seat named ``-`` or left out when names are given is not reported (a computer's
    seat). Without names every seat is reported, named after the file and its seat. A file
    that is not a saved game raises :class:`ReportError`."""
    from rummykit.game.actions import Action
    from rummykit.game.record import RecordError
    from rummykit.mistakes import review

    path = Path(source)
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text)
        players = int(data["players"])
        reviews = {}
        for seat in range(players):
            name = (names[seat] if seat < len(names) else "-") if names is not None else ""
            if name.strip() == "-":
                continue
            student = name.strip() or render("report_game_seat", game=path.stem, seat=seat)
            reviews[student] = review(text, seat, level)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReportError(render("report_unreadable", path=str(path), error=error)) from None
    except (RecordError, ValueError, KeyError, TypeError) as error:
        raise ReportError(render("report_bad_game", path=str(path), error=error)) from None
    actions = data.get("actions", [])
    game = render("report_game_source", game=path.stem)
    out = []
    for student, result in reviews.items():
        mistakes = {(m.number, m.kind): m for m in result.mistakes}
        for number, kind in result.weighed:
            item = actions[number - 1]
            played = Action.from_dict({k: v for k, v in item.items() if k != "seat"})
            mistake = mistakes.get((number, kind))
            out.append(
                Answer(
                    student,
                    game,
                    number,
                    f"game_{kind}",
                    mistake is None,
                    ", ".join(str(a) for a in mistake.yours)
                    if mistake is not None and mistake.yours
                    else str(played),
                    ", ".join(str(a) for a in (mistake.theirs or (mistake.suggested,)))
                    if mistake is not None
                    else "",
                    codes=(mistake.reason.code,) if mistake is not None else (),
                    message=str(mistake.reason) if mistake is not None else "",
                )
            )
    return out


# --- reading an nbgrader course ---------------------------------------------------------------


def _judgements(notebook: Path) -> dict[str, dict[str, Any]]:
    """The judgement :func:`~rummykit.grading.grade` stored in each test cell of an
    autograded notebook, by the cell's grade id."""
    from rummykit.grading.assignments import FEEDBACK_MIME

    try:
        data = json.loads(notebook.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    found = {}
    for cell in data.get("cells", []) if isinstance(data, dict) else []:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        for output in cell.get("outputs", []):
            judged = output.get("data", {}).get(FEEDBACK_MIME)
            if isinstance(grade_id, str) and isinstance(judged, dict):
                found[grade_id] = judged
    return found


def answers_from_course(
    course_dir: str | os.PathLike[str], assignments: Sequence[str] = ()
) -> list[Answer]:
    """The answers of an nbgrader course: each autograded test cell of rummykit's
    (``rk-check-N``), its score from the gradebook and its judgement from the autograded
    notebook. Needs nbgrader (``pip install "rummykit[grading]"``)."""
    from rummykit.grading.assignments import CHECK_ID

    course = Path(course_dir)
    database = course / "gradebook.db"
    if not database.is_file():
        raise ReportError(render("report_no_gradebook", path=str(course)))
    try:
        from nbgrader.api import Gradebook  # type: ignore[import-untyped]
    except ImportError:
        raise ReportError(render("report_no_nbgrader")) from None
    prefix = CHECK_ID.format(number="")
    out = []
    with Gradebook(f"sqlite:///{database}") as gradebook:
        for assignment in gradebook.assignments:
            if assignments and assignment.name not in assignments:
                continue
            for submission in gradebook.assignment_submissions(assignment.name):
                student = submission.student.id
                for notebook in submission.notebooks:
                    autograded = (
                        course / "autograded" / student / assignment.name / f"{notebook.name}.ipynb"
                    )
                    judged = _judgements(autograded)
                    for grade in notebook.grades:
                        if not str(grade.name).startswith(prefix):
                            continue
                        number = int(str(grade.name)[len(prefix) :])
                        data = judged.get(str(grade.name), {})
                        out.append(
                            Answer(
                                student,
                                assignment.name,
                                number,
                                str(data.get("kind", "")),
                                bool(data.get("correct", bool(grade.score))),
                                str(data.get("given", "")),
                                str(data.get("expected", "")),
                                tuple(map(str, data.get("rules", []))),
                                tuple(map(str, data.get("codes", []))),
                                bool(data.get("readable", True)),
                                float(grade.score) if grade.score is not None else None,
                                float(grade.max_score) if grade.max_score is not None else None,
                                str(data.get("message", "")),
                            )
                        )
    return out


def class_report(
    course_dir: str | os.PathLike[str] | None = None,
    *,
    assignments: Sequence[str] = (),
    quizzes: Sequence[str | os.PathLike[str]] = (),
    title: str = "",
    games: Sequence[str] = (),
) -> ClassReport:
    """What a class got right and wrong: the rummykit exercises of an nbgrader course
    (``course_dir``; only ``assignments`` when given), quiz exports (``quizzes``, JSON
    files written by :meth:`~rummykit.exercises.Quiz.save` or the quiz widget) and played
    games (``games``: ``FILE`` or ``FILE=NAME,NAME,…``, see :func:`read_game_spec`)."""
    answers: list[Answer] = []
    if course_dir is not None:
        answers += answers_from_course(course_dir, assignments)
    for path in quizzes:
        answers += read_quiz(path)
    for spec in games:
        answers += answers_from_game(*read_game_spec(spec))
    if not answers:
        raise ReportError(render("report_empty"))
    return ClassReport.from_answers(answers, title)


def read_game_spec(spec: str) -> tuple[str, list[str] | None]:
    """A ``--game`` argument: a saved game's path, and after ``=`` the students of its seats
    in order (``-`` for a computer's seat).

    >>> read_game_spec("K7QXM2PA.json=Ana,Ben,-")
    ('K7QXM2PA.json', ['Ana', 'Ben', '-'])
    >>> read_game_spec("round.json")
    ('round.json', None)
    """
    path, sep, names = spec.rpartition("=")
    if not sep or Path(spec).exists():
        return spec, None
    return path, [name.strip() for name in names.split(",")]


def class_report_command(
    course_dir: str | None,
    assignments: Sequence[str],
    quizzes: Sequence[str],
    output: str | None,
    games: Sequence[str] = (),
) -> int:
    """``rummykit class-report COURSE_DIR``: 0 when the report is written, 2 when not."""
    import sys

    try:
        report = class_report(course_dir, assignments=assignments, quizzes=quizzes, games=games)
        folder = output or course_dir or "."
        page, table = report.save(folder)
    except (ReportError, OSError) as error:
        print(render("cli_error", command="class-report", message=str(error)), file=sys.stderr)
        return 2
    print(report)
    print(render("report_written", html=str(page), csv=str(table)))
    return 0
