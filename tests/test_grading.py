"""Lessons as nbgrader assignments, graded by nbgrader's own commands, and the class report.

The whole cycle runs here, offline, as a teacher and three students would run it: ``rummykit
assignment``, then ``nbgrader generate_assignment``, ``release_assignment``, each student's
``fetch_assignment`` and ``submit`` (one answers everything right, one everything wrong, one
types answers that can't be read), ``collect``, ``autograde`` and ``generate_feedback``; the
scores are read from nbgrader's gradebook, the feedback pages are read, and the class report
is made from the course.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from nbgrader.api import Gradebook

from rummykit.cli import main
from rummykit.exercises import Exercise, MeldKind, OpeningValue, Quiz
from rummykit.grading.assignments import (
    AssignmentError,
    assignment_notebook,
    find_lesson,
    grade,
    make_assignment,
)
from rummykit.grading.editions import tags
from rummykit.grading.report import ClassReport, ReportError, answers_from_quiz, class_report

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LESSON = "01_melds"
STUDENTS = ("ana", "ben", "cho")  # all right, all wrong, unreadable


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return "".join(text) if isinstance(text, list) else str(text)


def lesson_exercises(name: str = LESSON) -> list[Exercise]:
    """The lesson's exercises, made by running its exercise cells (01's need nothing else)."""
    _, notebook = find_lesson(name)
    space: dict[str, Any] = {}
    for cell in notebook["cells"]:
        if "exercise" in tags(cell):
            exec(source(cell).replace("print(", "(lambda *a: None)("), space)
    return [space[f"exercise{n}"] for n in range(1, 7)]


def a_wrong_answer(exercise: Exercise) -> str:
    """An answer the checker reads and finds wrong, worked out by trying."""
    for candidate in ("run", "set", "no meld", "a", "b", "c", "d", "e", "0", "1", "999"):
        try:
            if not exercise.check(candidate).correct:
                return candidate
        except ValueError:
            continue
    raise AssertionError(exercise)


# --- the source assignment ---------------------------------------------------------------------


def test_a_lesson_becomes_an_nbgrader_source_assignment(tmp_path: Path) -> None:
    path = make_assignment(LESSON, tmp_path / "course", points=2)
    assert path == tmp_path / "course" / "source" / LESSON / f"{LESSON}.ipynb"
    built = json.loads(path.read_text(encoding="utf-8"))
    cells = built["cells"]
    graded = [c for c in cells if c["metadata"].get("nbgrader", {}).get("grade")]
    answers = [c for c in cells if c["metadata"].get("nbgrader", {}).get("solution")]
    assert len(graded) == len(answers) == 6
    for number, (answer, check) in enumerate(zip(answers, graded), start=1):
        assert source(answer).splitlines()[0].startswith(f'answer{number} = ""  # ← your answer')
        assert (
            f"### BEGIN SOLUTION\nanswer{number} = exercise{number}.solution\n### END SOLUTION"
            in source(answer)
        )
        meta = check["metadata"]["nbgrader"]
        assert meta == {
            "schema_version": 3,
            "grade": True,
            "solution": False,
            "locked": True,
            "points": 2,
            "grade_id": f"rk-check-{number}",
        }
        assert (
            f"### BEGIN HIDDEN TESTS\nfrom rummykit.grading import grade\n"
            f"grade(exercise{number}, globals().get('answer{number}'), points=2)\n"
            "### END HIDDEN TESTS"
        ) in source(check)
    assert not any("teacher" in tags(c) for c in cells)
    assert all(c["outputs"] == [] for c in cells if c["cell_type"] == "code")
    locked = [c for c in cells if c["metadata"].get("nbgrader", {}).get("locked")]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert len(locked) == len(code) - 6  # every code cell but the answers
    assert "An assignment: 6 exercises, 12 points." in source(cells[0])
    ids = [c["id"] for c in cells]
    assert len(set(ids)) == len(ids)
    config = (tmp_path / "course" / "nbgrader_config.py").read_text(encoding="utf-8")
    assert "c.CourseDirectory.course_id = 'course'" in config
    assert 'c.ClearSolutions.code_stub = {"python": ""}' in config


def test_the_assignment_speaks_the_lessons_language(tmp_path: Path) -> None:
    path = make_assignment("pt/01_combinacoes", tmp_path / "curso")
    built = json.loads(path.read_text(encoding="utf-8"))
    text = "\n".join(source(c) for c in built["cells"])
    assert "**Uma tarefa: 6 exercícios, 6 pontos.**" in text
    assert "# O exercício 1 é verificado quando o professor corrigir a tarefa" in text
    fi = make_assignment("fi/03_rommi", tmp_path / "kurssi")
    assert "tarkistetaan, kun opettaja arvioi" in fi.read_text(encoding="utf-8")


def test_an_agent_answer_stays_the_students_own_code(tmp_path: Path) -> None:
    built = assignment_notebook(find_lesson("06_classroom")[1])
    answers = [c for c in built["cells"] if "answer2 = MyAgent" in source(c)]
    assert answers and "nbgrader" not in answers[0]["metadata"]  # not replaced by nbgrader


def test_making_an_assignment_refuses_what_it_cant_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(AssignmentError, match="'07_poker' is neither a notebook file nor a lesson"):
        make_assignment("07_poker", tmp_path)
    make_assignment(LESSON, tmp_path)
    with pytest.raises(AssignmentError, match="is there already: add --force"):
        make_assignment(LESSON, tmp_path)
    make_assignment(LESSON, tmp_path, force=True)
    with pytest.raises(AssignmentError, match="must be above 0, not -1"):
        make_assignment(LESSON, tmp_path, points=-1, force=True)
    with pytest.raises(AssignmentError, match="can't name an assignment"):
        make_assignment(LESSON, tmp_path, name="../escape")
    empty = tmp_path / "empty.ipynb"
    empty.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    with pytest.raises(AssignmentError, match="no answer cells"):
        make_assignment(empty, tmp_path)
    garbage = tmp_path / "garbage.ipynb"
    garbage.write_text("{not json")
    with pytest.raises(AssignmentError, match="is not a notebook"):
        make_assignment(garbage, tmp_path)
    assert main(["assignment", "07_poker", str(tmp_path)]) == 2
    assert "rummykit assignment: '07_poker'" in capsys.readouterr().err


def test_grade_gives_the_points_and_the_engines_feedback_never_an_error() -> None:
    right = grade(OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"]), 45, points=3)
    assert repr(right) == "3" and right.points == 3.0
    assert "Your melds total 45" in right.html
    wrong = grade(OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"]), 36)
    assert repr(wrong) == "0" and wrong.data["codes"] == ["exercise_mistake_ace"]
    for garbage in (None, "x45", object(), ["x"]):
        unread = grade(MeldKind("K♠ A♠ 2♠"), garbage)
        assert repr(unread) == "0" and unread.data["readable"] is False
        assert "\n" not in unread.text
    bundle = right._repr_mimebundle_()
    assert bundle["text/plain"] == "3"
    assert bundle["application/vnd.rummykit.feedback+json"]["correct"] is True


# --- the whole cycle, with nbgrader's own commands ---------------------------------------------


def nbgrader(*args: str, cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"nbgrader {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course where three students did lesson 01 as an assignment, graded and fed back."""
    top = tmp_path_factory.mktemp("nbgrader")
    course = top / "course"
    exchange = top / "exchange"
    exchange.mkdir()
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",  # nbgrader runs alembic
        "JUPYTER_CONFIG_DIR": str(top / "config"),  # nothing from this machine's config
    }
    make_assignment(LESSON, course)
    with open(course / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write(f"c.Exchange.root = {str(exchange)!r}\n")
    nbgrader("generate_assignment", LESSON, cwd=course, env=env)
    nbgrader("release_assignment", LESSON, cwd=course, env=env)
    exercises = lesson_exercises()
    answers = {
        "ana": [repr(e.solution) for e in exercises],
        "ben": [repr(a_wrong_answer(e)) for e in exercises],
        "cho": [repr(t) for t in ("x45", "=45", "zz", "x45", "—", "maybe?")],
    }
    for student in STUDENTS:
        home = top / student
        home.mkdir()
        where = ["--course", "course", f"--Exchange.root={exchange}"]
        nbgrader("fetch_assignment", LESSON, *where, cwd=home, env=env)
        path = home / LESSON / f"{LESSON}.ipynb"
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            found = re.match(r'answer(\d+) = ""', source(cell))
            if found:
                number = int(found.group(1))
                cell["source"] = source(cell).replace(
                    f'answer{number} = ""', f"answer{number} = {answers[student][number - 1]}", 1
                )
        path.write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
        nbgrader("submit", LESSON, *where, f"--student={student}", cwd=home, env=env)
    nbgrader("collect", LESSON, cwd=course, env=env)
    nbgrader("autograde", LESSON, cwd=course, env=env)
    nbgrader("generate_feedback", LESSON, cwd=course, env=env)
    return course


def test_nbgrader_scores_the_three_students_from_rummykits_checks(course: Path) -> None:
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {}
        for student in STUDENTS:
            submission = gradebook.find_submission(LESSON, student)
            (notebook,) = submission.notebooks
            scores[student] = (
                submission.score,
                submission.max_score,
                sorted((g.name, g.score) for g in notebook.grades),
            )
    assert scores["ana"][:2] == (6.0, 6.0)
    assert scores["ben"][:2] == (0.0, 6.0)
    assert scores["cho"][:2] == (0.0, 6.0)
    assert [name for name, _ in scores["ana"][2]] == [f"rk-check-{n}" for n in range(1, 7)]


def test_the_autograded_notebooks_hold_no_error_in_any_test_cell(course: Path) -> None:
    for student in STUDENTS:
        path = course / "autograded" / student / LESSON / f"{LESSON}.ipynb"
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            if cell["metadata"].get("nbgrader", {}).get("grade"):
                types = [o["output_type"] for o in cell["outputs"]]
                assert types == ["execute_result"], (student, types)


def test_the_feedback_pages_show_the_engines_sentences(course: Path) -> None:
    pages = {
        s: (course / "feedback" / s / LESSON / f"{LESSON}.html").read_text(encoding="utf-8")
        for s in STUDENTS
    }
    assert pages["ana"].count("✔ Right") == 6
    assert "✘ You said" not in pages["ana"] and "is not an answer here" not in pages["ana"]
    assert pages["ben"].count("✘ You said") == 6
    assert (
        "K♥ 🃏 2♥: the joker would have to be the A♥, and K-A-2 wraps around the ace. (H4)"
        in pages["ben"]
    )
    assert pages["cho"].count("is not an answer here: answer") == 6
    for page in pages.values():
        assert "Traceback (most recent call last)" not in page
        assert "ename" not in page and "AnswerError" not in page


def test_the_class_report_reads_the_course(course: Path, tmp_path: Path) -> None:
    report = class_report(course)
    assert repr(report) == "ClassReport(students=3, answers=18, right=6)"
    by_student = report.by_student()
    assert [sum(a.correct for a in by_student[s]) for s in STUDENTS] == [6, 0, 0]
    assert all(not a.readable for a in by_student["cho"])
    rows = {row.rule: row for row in report.by_rule()}
    assert rows["H4"].missed_by == ("ben", "cho")
    assert rows["H4"].right == 3  # ana's answers to exercises 1, 2 and 3
    assert "run_wraps" in dict(rows["H4"].codes)
    assert rows["R3"].sentence.startswith("A group is 3 or 4 cards")
    table = list(csv.DictReader(io.StringIO(report.csv())))
    assert len(table) == 18
    assert {r["student"] for r in table} == set(STUDENTS)
    assert all(r["points"] in ("0", "1") and r["max_points"] == "1" for r in table)
    page = report.html()
    assert "<svg" in page and "H4" in page and "ben, cho" in page
    assert main(["class-report", str(course), "--output", str(tmp_path)]) == 0
    assert (tmp_path / "class-report.csv").read_text(encoding="utf-8") == report.csv()
    assert main(["class-report", str(course), "--assignment", "02_nothing"]) == 2


# --- quiz exports -----------------------------------------------------------------------------


def test_a_quiz_export_counts_first_answers_and_reads_back(tmp_path: Path) -> None:
    quiz = Quiz([MeldKind("K♠ A♠ 2♠"), OpeningValue(["A♥ 2♥ 3♥", "Q♠ Q♦ Q♣"])], "Melds")
    quiz.check(1, "run", student="Ana")
    quiz.check(1, "no meld", student="Ana")  # a second try: shown, not counted
    quiz.check(2, "45", student="Ana")
    path = quiz.save(tmp_path / "quiz-ana.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [(a["number"], a["correct"], a["tries"]) for a in data["answers"]] == [
        (1, False, 2),
        (2, True, 1),
    ]
    assert "answer" not in data["exercises"][0]  # a student's file is no answer key
    report = class_report(quizzes=[path])
    assert [(a.question, a.correct) for a in report.answers] == [(1, False), (2, True)]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "format"),
        ({"format": "rummykit-quiz", "version": 9}, "version"),
        ({"format": "rummykit-quiz", "version": 1, "answers": "x"}, "answers"),
        ({"format": "rummykit-quiz", "version": 1, "answers": [{"student": "A"}]}, r"answers\[0\]"),
        (
            {
                "format": "rummykit-quiz",
                "version": 1,
                "answers": [{"student": "A", "number": True, "correct": True}],
            },
            r"answers\[0\]",
        ),
        (
            {
                "format": "rummykit-quiz",
                "version": 1,
                "answers": [{"student": "A", "number": 1, "correct": True, "rules": [3]}],
            },
            r"answers\[0\]",
        ),
    ],
)
def test_a_tampered_quiz_export_is_refused_naming_the_field(data: object, field: str) -> None:
    with pytest.raises(ReportError, match=rf"is not a rummykit quiz export: {field} is missing"):
        answers_from_quiz(data, "quiz.json")


def test_the_report_command_says_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["class-report", str(tmp_path)]) == 2
    assert "holds no gradebook.db" in capsys.readouterr().err
    assert main(["class-report"]) == 2
    assert "nothing to report" in capsys.readouterr().err
    bad = tmp_path / "quiz.json"
    bad.write_text("{")
    assert main(["class-report", "--quiz", str(bad)]) == 2
    assert "can't read" in capsys.readouterr().err
    assert isinstance(ClassReport.from_answers([]), ClassReport)
