"""The lessons as a class gets them: the student edition (no verdict, no mark, no key), the
teacher edition (the repository's notebooks), and lesson plans that add up to 45 minutes."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from rummykit.cli import main
from rummykit.grading.editions import (
    MARKS,
    answer_literal,
    edition,
    key_prefixes,
    student_edition,
    tags,
)
from rummykit.messages import render

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(p.relative_to(NOTEBOOKS).as_posix() for p in NOTEBOOKS.rglob("*.ipynb"))
LANGUAGES = ("en", "pt", "fi")


def load(name: str) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return notebook


def source(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def feedback_heads() -> set[str]:
    """How feedback on an answer begins, in every language ("You said", "Right: " …)."""
    heads = set()
    for language in LANGUAGES:
        for code in ("exercise_number_wrong", "exercise_number_right"):
            heads.add(render(code, {"given": "", "expected": ""}, language).split(" ")[0] + " ")
    return heads


def assert_nothing_given_away(notebook: dict[str, Any], name: str) -> None:
    text = json.dumps(notebook, ensure_ascii=False)
    for mark in MARKS:
        assert mark not in text, f"{name}: {mark!r}"
    for prefix in key_prefixes():
        assert prefix not in text, f"{name}: a key ({prefix!r})"
    for head in ("✔ Right", "✘ You said", "You said "):
        assert head not in text, f"{name}: {head!r}"
    for cell in notebook["cells"]:
        assert "teacher" not in tags(cell), f"{name}: a teacher's cell"
        if {"exercise", "answer"} & set(tags(cell)):
            assert cell["outputs"] == [] and cell["execution_count"] is None, name
        if "answer" in tags(cell):
            for line in source(cell).splitlines():
                found = answer_literal(line)
                assert found is None or found[1] == '""', f"{name}: {line}"
    assert "widgets" not in notebook["metadata"]


@pytest.mark.parametrize("name", LESSONS)
def test_the_student_edition_of_every_lesson_gives_no_answer_away(name: str) -> None:
    teacher = load(name)
    student = student_edition(teacher)
    assert_nothing_given_away(student, name)
    # ... where the teacher's gives them all: the test could fail
    text = json.dumps(teacher, ensure_ascii=False)
    assert any(mark in text for mark in MARKS)
    assert any(prefix in text for prefix in key_prefixes())
    assert any("teacher" in tags(c) for c in teacher["cells"])
    # the lesson itself is all there: every cell but the teacher's, in order
    kept = [c["id"] for c in teacher["cells"] if "teacher" not in tags(c)]
    assert [c["id"] for c in student["cells"]] == kept
    assert student_edition(student) == student  # a student edition of a student edition


@pytest.mark.parametrize("name", LESSONS)
def test_every_answer_cell_checks_an_exercise_posed_before_it(name: str) -> None:
    posed: set[str] = set()
    answers = 0
    for cell in load(name)["cells"]:
        if "exercise" in tags(cell):
            posed |= set(re.findall(r"^(exercise\d+) = ", source(cell), flags=re.MULTILINE))
        if "answer" in tags(cell):
            answers += 1
            checked = re.findall(r"\b(exercise\d+)\.check\(answer\)", source(cell))
            assert checked and set(checked) <= posed, (name, source(cell))
            assert re.search(r"^answer = ", source(cell), flags=re.MULTILINE)
    assert answers >= 1


def test_the_teacher_edition_is_the_repositorys_notebook() -> None:
    lesson = load("01_melds.ipynb")
    assert edition(lesson, "teacher") == lesson
    with pytest.raises(ValueError, match="'answers' is not an edition: choose student, teacher"):
        edition(lesson, "answers")  # type: ignore[arg-type]


def beside(text: str) -> str:
    """A translated lesson's links to its language's pages of docs/, as ``rummykit notebooks``
    makes them: to the copies it puts in the lesson's folder (tests/test_notebook_links.py)."""
    return re.sub(r"\]\(\.\./\.\./docs/(?:pt|fi)/", "](", text)


def test_rummykit_notebooks_writes_the_student_edition_unless_asked(tmp_path: Path) -> None:
    assert main(["notebooks", str(tmp_path / "class")]) == 0
    for name in LESSONS:
        copied = json.loads((tmp_path / "class" / name).read_text(encoding="utf-8"))
        assert copied == json.loads(beside(json.dumps(student_edition(load(name)))))
        assert_nothing_given_away(copied, name)
    assert main(["notebooks", "--edition", "teacher", str(tmp_path / "mine")]) == 0
    for name in LESSONS:
        teacher = (NOTEBOOKS / name).read_text(encoding="utf-8")
        assert (tmp_path / "mine" / name).read_text(encoding="utf-8") == beside(teacher)
    assert main(["notebooks", "--edition", "answers", str(tmp_path / "x")]) == 2


def test_the_help_of_rummykit_notebooks_offers_the_editions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["notebooks", "--help"]) == 0
    assert "--edition {student,teacher}" in capsys.readouterr().out


def test_the_jupyterlite_site_stages_the_student_edition(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    before = list(sys.path)
    staged = build.stage_files(tmp_path)
    assert Path("docs/rules.md") in staged
    assert Path("docs/pt/teaching.md") in staged and Path("docs/fi/teaching.md") in staged
    for folder, language in (("notebooks", "en"), ("notebooks/pt", "pt"), ("notebooks/fi", "fi")):
        page = (tmp_path / folder / "handout-rommi.html").read_text(encoding="utf-8")
        assert f'lang="{language}"' in page and "R3" in page
    for name in LESSONS:
        copied = json.loads((tmp_path / "notebooks" / name).read_text(encoding="utf-8"))
        assert copied == student_edition(load(name)), name
    assert sys.path == before  # the build borrowed rummykit's source and gave the path back


def test_the_jupyterlite_site_stores_its_zips_unchanged_but_unpacked(tmp_path: Path) -> None:
    """lite/build.py's ``stored``: the same members, names, order, dates, modes and bytes, none
    deflated; the same archive on every run."""
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    source = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as whl:
        module = zipfile.ZipInfo("demo/__init__.py", (2020, 5, 17, 10, 0, 0))
        whl.writestr(module, "x = 1\n" * 50, compress_type=zipfile.ZIP_DEFLATED)
        script = zipfile.ZipInfo("demo-1.0.data/scripts/run", (1999, 1, 2, 3, 4, 6))
        script.external_attr = 0o100755 << 16
        whl.writestr(script, b"#!python\n", compress_type=zipfile.ZIP_DEFLATED)
        whl.writestr("demo-1.0.dist-info/RECORD", "")
    first = build.stored(source, tmp_path / "a" / source.name)
    again = build.stored(source, tmp_path / "b" / source.name)
    assert first.read_bytes() == again.read_bytes()
    with zipfile.ZipFile(source) as old, zipfile.ZipFile(first) as new:
        pairs = list(zip(old.infolist(), new.infolist(), strict=True))
        for was, now in pairs:
            assert (now.filename, now.date_time, now.external_attr) == (
                was.filename,
                was.date_time,
                was.external_attr,
            )
            assert now.compress_type == zipfile.ZIP_STORED
            assert new.read(now) == old.read(was)
        assert old.getinfo("demo/__init__.py").compress_type == zipfile.ZIP_DEFLATED


def test_the_classroom_page_holds_no_lesson_and_no_answer() -> None:
    page = json.loads((ROOT / "rummykit" / "classroom.ipynb").read_text(encoding="utf-8"))
    assert student_edition(page)["cells"] == page["cells"]
    assert_nothing_given_away(page, "classroom.ipynb")


def test_an_unanswered_answer_cell_shows_one_line_in_a_real_kernel() -> None:
    """The student edition of 01's first exercise, run by Jupyter's own kernel: the answer
    cell's output is the sentence, and nothing else — no traceback."""
    nbclient = pytest.importorskip("nbclient")
    lesson = student_edition(load("01_melds.ipynb"))
    pose = next(c for c in lesson["cells"] if "exercise" in tags(c))
    answer = next(c for c in lesson["cells"] if "answer" in tags(c))
    notebook = {
        "cells": [pose, answer],
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    import nbformat

    node = nbformat.reads(json.dumps(notebook), as_version=4)
    nbclient.NotebookClient(node, timeout=120, allow_errors=True).execute()
    (output,) = node.cells[1].outputs
    assert output.output_type == "error"
    assert output.traceback == ["No answer yet: answer run, set or no meld."]


# --- lesson plans that add up -------------------------------------------------------------------

TEACHING = ROOT / "docs" / "teaching.md"
DOES = {"setup", "run", "skip", "exercises", "discuss"}


def plans() -> dict[str, list[tuple[int, str, str, str]]]:
    """Each path of docs/teaching.md: its rows (minutes, notebook, do, cells), as the page
    has them."""
    text = TEACHING.read_text(encoding="utf-8")
    found = {}
    for title, body in re.findall(r"^## (Path \d+[^\n]*)\n(.*?)(?=^## )", text, re.M | re.S):
        rows = re.findall(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", body, flags=re.M)
        found[title] = [(int(m), n.strip(), d.strip(), c.strip()) for m, n, d, c in rows]
    return found


def headings(name: str) -> list[str]:
    """The notebook's headings, without their #s and the lesson's number ("Melds: runs…")."""
    out = []
    for cell in load(name)["cells"]:
        if cell["cell_type"] == "markdown":
            for line in source(cell).splitlines():
                if line.startswith("#"):
                    out.append(line.lstrip("#").strip().split(" · ", 1)[-1])
    return out


def lesson(number: str) -> str:
    (name,) = [n for n in LESSONS if "/" not in n and n.startswith(f"{number}_")]
    return name


def test_the_plans_are_read_from_the_page() -> None:
    assert list(plans()) == [
        "Path 1 — the rules: melds → a Hungarian turn → play",
        "Path 2 — how an AI thinks: inside the AI → classroom",
    ]
    assert all(len(rows) >= 8 for rows in plans().values())


@pytest.mark.parametrize("path", sorted(plans()))
def test_each_lesson_plan_adds_up_to_45_minutes_or_less_setup_and_discussion_included(
    path: str,
) -> None:
    rows = plans()[path]
    total = sum(minutes for minutes, *_ in rows)
    assert 35 <= total <= 45, f"{path}: {total} minutes"
    does = [do for _, _, do, _ in rows]
    assert set(does) <= DOES
    assert does[0] == "setup" and does[-1] == "discuss"
    for minutes, _, do, _ in rows:
        assert (minutes == 0) == (do == "skip"), (path, minutes, do)


@pytest.mark.parametrize("path", sorted(plans()))
def test_each_plan_names_real_sections_and_exercises_and_every_section_is_run_or_skipped(
    path: str,
) -> None:
    planned: dict[str, set[str]] = {}
    for _, number, do, cells in plans()[path]:
        if do not in ("run", "skip", "exercises"):
            continue
        name = lesson(number)
        heads = headings(name)
        if do == "exercises":
            posed = {
                n
                for c in load(name)["cells"]
                if "exercise" in tags(c)
                for n in re.findall(r"^exercise(\d+) = ", source(c), flags=re.M)
            }
            assert set(re.findall(r"\d+", cells)) <= posed, (path, number, cells)
            continue
        for section in re.findall(r"\*([^*]+)\*", cells):
            matches = [h for h in heads if h.startswith(section)]
            assert matches, f"{path}: {number} has no section {section!r}"
            planned.setdefault(name, set()).update(matches)
    for name, seen in planned.items():  # every ## section of a notebook used: run or skipped
        level2 = [
            line.lstrip("#").strip().split(" · ", 1)[-1]
            for cell in load(name)["cells"]
            if cell["cell_type"] == "markdown"
            for line in source(cell).splitlines()
            if re.match(r"^##? ", line)
        ]
        left = [
            h
            for h in level2
            if h not in seen
            and not h.startswith(("Recap", "Exercises", "What next", "Teacher's note"))
        ]
        assert not left, f"{path}: {name} leaves {left} neither run nor skipped"


def test_the_teachers_notes_agree_with_the_plans() -> None:
    for path, rows in plans().items():
        for _, number, do, cells in rows:
            if do == "exercises":
                numbers = re.findall(r"\d+", cells)
                said = (
                    ", ".join(numbers[:-1]) + f" and {numbers[-1]}"
                    if len(numbers) > 1
                    else numbers[0]
                )
                note = next(
                    source(c) for c in load(lesson(number))["cells"] if "teacher" in tags(c)
                )
                assert f"exercise {said}" in note.replace("exercises", "exercise").replace(
                    "\n", " "
                ), (
                    path,
                    number,
                    said,
                )


# --- every objective has a checked exercise ------------------------------------------------------

#: Objectives that cite no rule, and what an exercise cell of the lesson must hold to check it
#: (the class of the exercise, or the house rule it is posed under).
CHECKED_WITHOUT_RULE = {
    "03_rommi.ipynb": {"switch on Rommi's house rules": 'variant("rommi", '},
    "04_play.ipynb": {
        "play a round": "BestDiscard",
        "read a review": "PredictMove",
        "solve rummy puzzles": "FindOpening",
    },
    "05_inside_the_ai.ipynb": {"": "PredictMove"},
    "06_classroom.ipynb": {
        "answer rules questions": "QuizWidget",  # the quiz at the keyboard checks each answer
        "read a tournament": "ReadInterval",
        "write a computer player": "AgentCheck",
    },
    "pt/03_rommi.ipynb": {"ligar as regras da casa do Rommi": 'variant("rommi", '},
    "pt/04_jogar.ipynb": {
        "jogar uma rodada": "BestDiscard",
        "ler a revisão": "PredictMove",
        "resolver desafios": "FindOpening",
    },
    "pt/05_dentro_da_ia.ipynb": {"": "PredictMove"},
    "pt/06_sala_de_aula.ipynb": {
        "responder perguntas sobre as regras": "QuizWidget",
        "ler os resultados de um torneio": "ReadInterval",
        "escrever um jogador do computador": "AgentCheck",
    },
    "fi/03_rommi.ipynb": {"ottaa käyttöön Rommin omat säännöt": 'variant("rommi", '},
    "fi/04_pelaa.ipynb": {
        "pelata unkarilaisen rommin kierroksen": "BestDiscard",
        "lukea kierroksesi läpikäynnin": "PredictMove",
        "ratkaista rommipulmia": "FindOpening",
    },
    "fi/05_tekoalyn_sisalla.ipynb": {"": "PredictMove"},
    "fi/06_luokassa.ipynb": {
        "vastata kaikenlaisiin sääntökysymyksiin": "QuizWidget",
        "lukea turnauksen tulokset": "ReadInterval",
        "kirjoittaa oman tietokonepelaajan": "AgentCheck",
    },
}


def objectives(name: str) -> list[str]:
    """The bullets after "By the end of this lesson you will be able to:" ("você vai saber:",
    "jälkeen osaat"), one line each."""
    first = source(load(name)["cells"][0])
    lead = r"(?:be able\s+to:|você\s+vai\s+saber:|jälkeen\s+osaat)\n\n"
    block = re.split(lead, first, maxsplit=1)[1].split("\n\n", 1)[0]
    return [" ".join(b.split()) for b in re.split(r"^- ", block, flags=re.M) if b.strip()]


@pytest.mark.parametrize("name", LESSONS)
def test_every_objective_has_a_checked_exercise(name: str) -> None:
    cells = load(name)["cells"]
    key = next(
        c for c in cells if "teacher" in tags(c) and "exercise.rules" in source(c)
    )  # the lesson's answer key: each exercise's key, then the rules it is about
    stored = "".join("".join(o.get("text", "")) for o in key["outputs"])
    checked: set[str] = set()
    for listed in re.findall(r"^   (?:rules|regras|säännöt): (.*)$", stored, flags=re.M):
        checked |= set(re.findall(r"[HR]\d+", listed))
    posed = " ".join(source(c) for c in cells if "exercise" in tags(c))
    for objective in objectives(name):
        rules = set(re.findall(r"[HR]\d+", objective))
        for span in re.findall(r"([HR])(\d+)–[HR]?(\d+)", objective):
            rules |= {f"{span[0]}{n}" for n in range(int(span[1]), int(span[2]) + 1)}
        if rules:
            assert rules & checked, f"{name}: {objective!r} — no exercise's key cites {rules}"
            continue
        found = [
            cls for start, cls in CHECKED_WITHOUT_RULE.get(name, {}).items() if start in objective
        ]
        assert found, f"{name}: {objective!r} has no checked exercise"
        code = source_all(cells)
        assert any(cls in posed or (cls == "QuizWidget" and cls in code) for cls in found), (
            name,
            objective,
            found,
        )


def source_all(cells: list[dict[str, Any]]) -> str:
    return " ".join(source(c) for c in cells if c["cell_type"] == "code")


# --- what the page says the notebooks show, they show ----------------------------------------------


def test_teaching_md_states_06s_interval_as_its_stored_run_shows_it() -> None:
    cells = load("06_classroom.ipynb")["cells"]
    cell = next(c for c in cells if "narrowing_chart(result" in source(c))
    lines = "".join("".join(o.get("text", "")) for o in cell["outputs"]).splitlines()
    runs = {
        int(n): (d, f"[{lo}, {hi}]", verdict)
        for n, d, lo, hi, verdict in (
            re.fullmatch(r"after (\d+) rounds: (\S+) \[(\S+), (\S+)\] — (.+)", line).groups()
            for line in lines
            if line.startswith("after ")
        )
    }
    page = " ".join(TEACHING.read_text(encoding="utf-8").split())
    said = re.search(
        r"first leaves zero out after (\d+) rounds \((\S+) (\[[^]]+\])\); after (\d+) "
        r"rounds it is (\S+) (\[[^]]+\])",
        page,
    )
    assert said, "teaching.md no longer states 06's interval"
    first, d1, ci1, last, d2, ci2 = said.groups()
    assert runs[int(first)][:2] == (d1, ci1) and "stronger" in runs[int(first)][2]
    assert all("no clear" in runs[n][2] for n in runs if n < int(first))  # the first time
    assert runs[int(last)][:2] == (d2, ci2) and int(last) == max(runs)


def test_the_answer_literal_reader_blanks_keys_only() -> None:
    assert answer_literal('answer = "7h 8h 9h + Qs Qd Qc"  # ← x')[1] == '"7h 8h 9h + Qs Qd Qc"'
    assert answer_literal("answer = -20")[1] == "-20"
    assert answer_literal("answer = [1, 3]")[1] == "[1, 3]"
    assert answer_literal("answer = MyAgent  # ← your agent") is None
    assert answer_literal("answers = 3")[1] == "3"
    assert answer_literal("print(answer)") is None
    assert ast.literal_eval('""') == ""
