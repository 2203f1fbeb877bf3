"""The teacher's guide in Portuguese and Finnish (docs/pt/teaching.md, docs/fi/teaching.md):
its lesson plans add up and name the sections and exercises of that language's lessons, its
examples print what rummykit prints, and what it says of notebook 06's stored run is what the
run shows."""

from __future__ import annotations

import doctest
import re
import textwrap
from pathlib import Path

import pytest
from test_editions import load, source, tags

from rummykit import set_language

ROOT = Path(__file__).resolve().parent.parent
GUIDES = {"pt": ROOT / "docs" / "pt" / "teaching.md", "fi": ROOT / "docs" / "fi" / "teaching.md"}
PATHS = {"pt": "Caminho", "fi": "Polku"}
DOES = {
    "pt": {
        "preparar": "setup",
        "executar": "run",
        "pular": "skip",
        "exercícios": "exercises",
        "discutir": "discuss",
    },
    "fi": {
        "valmistelu": "setup",
        "aja": "run",
        "ohita": "skip",
        "tehtävät": "exercises",
        "keskustelu": "discuss",
    },
}
EXERCISES = {"pt": "exercícios", "fi": "tehtävät"}
AND = {"pt": "e", "fi": "ja"}
NOT_PLANNED = {
    "pt": ("Resumo", "Exercícios", "E depois", "Nota para o professor"),
    "fi": ("Kertaus", "Yhteenveto", "Tehtävät", "Mitä seuraavaksi", "Opettajalle"),
}


@pytest.fixture(autouse=True)
def _english_after() -> object:
    yield
    set_language(None)


def plans(lang: str) -> dict[str, list[tuple[int, str, str, str]]]:
    text = GUIDES[lang].read_text(encoding="utf-8")
    found = {}
    pattern = rf"^## ({PATHS[lang]} \d+[^\n]*)\n(.*?)(?=^## )"
    for title, body in re.findall(pattern, text, re.M | re.S):
        rows = re.findall(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", body, flags=re.M)
        found[title] = [
            (int(m), n.strip(), DOES[lang][d.strip()], c.strip()) for m, n, d, c in rows
        ]
    return found


def lesson(lang: str, number: str) -> str:
    (name,) = [
        p.relative_to(ROOT / "notebooks").as_posix()
        for p in (ROOT / "notebooks" / lang).glob(f"{number}_*.ipynb")
    ]
    return name


def headings(name: str) -> list[str]:
    out = []
    for cell in load(name)["cells"]:
        if cell["cell_type"] == "markdown":
            for line in source(cell).splitlines():
                if line.startswith("#"):
                    out.append(line.lstrip("#").strip().split(" · ", 1)[-1])
    return out


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_each_plan_adds_up_to_45_minutes_or_less(lang: str) -> None:
    found = plans(lang)
    assert len(found) == 2, list(found)
    for path, rows in found.items():
        assert len(rows) >= 8, path
        assert 35 <= sum(m for m, *_ in rows) <= 45, path
        does = [do for _, _, do, _ in rows]
        assert does[0] == "setup" and does[-1] == "discuss", path
        for minutes, _, do, _ in rows:
            assert (minutes == 0) == (do == "skip"), (path, minutes, do)


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_each_plan_names_the_sections_and_exercises_of_the_languages_lessons(lang: str) -> None:
    for path, rows in plans(lang).items():
        planned: dict[str, set[str]] = {}
        for _, number, do, cells in rows:
            if do not in ("run", "skip", "exercises"):
                continue
            name = lesson(lang, number)
            if do == "exercises":
                posed = {
                    n
                    for c in load(name)["cells"]
                    if "exercise" in tags(c)
                    for n in re.findall(r"^exercise(\d+) = ", source(c), flags=re.M)
                }
                wanted = re.findall(r"\d+", cells)
                assert set(wanted) <= posed, (path, number, cells)
                note = next(source(c) for c in load(name)["cells"] if "teacher" in tags(c))
                said = ", ".join(wanted[:-1]) + f" {AND[lang]} {wanted[-1]}"
                assert said in " ".join(note.split()), (path, number, said)
                continue
            heads = headings(name)
            for section in re.findall(r"\*([^*]+)\*", cells):
                matches = [h for h in heads if h.startswith(section)]
                assert matches, f"{path}: {number} has no section {section!r}"
                planned.setdefault(name, set()).update(matches)
        for name, seen in planned.items():
            level2 = [
                line.lstrip("#").strip().split(" · ", 1)[-1]
                for cell in load(name)["cells"]
                if cell["cell_type"] == "markdown"
                for line in source(cell).splitlines()
                if re.match(r"^##? ", line)
            ]
            left = [h for h in level2 if h not in seen and not h.startswith(NOT_PLANNED[lang])]
            assert not left, f"{path}: {name} leaves {left} neither run nor skipped"


@pytest.mark.parametrize("lang", sorted(GUIDES))
def test_the_guides_examples_print_what_rummykit_prints(lang: str) -> None:
    text = GUIDES[lang].read_text(encoding="utf-8")
    fences = re.findall(r"^( *)```(\w+)\n(.*?)^\1```", text, re.M | re.S)  # indented too
    blocks = [textwrap.dedent(b) for _, kind, b in fences if kind == "python"]
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names: dict[str, object] = {}
    for number, body in enumerate(blocks):
        test = parser.get_doctest(body, names, f"{lang}[{number}]", str(GUIDES[lang]), 0)
        runner.run(test, clear_globs=False)
        names.update(test.globs)
    assert runner.failures == 0 and runner.tries > 30


@pytest.mark.parametrize(
    ("lang", "notebook", "after"),
    [("pt", "pt/06_sala_de_aula.ipynb", "depois de"), ("fi", "fi/06_luokassa.ipynb", "")],
)
def test_the_guide_states_06s_interval_as_the_stored_run_shows_it(
    lang: str, notebook: str, after: str
) -> None:
    cell = next(c for c in load(notebook)["cells"] if "narrowing_chart(result" in source(c))
    printed = "".join("".join(o.get("text", "")) for o in cell["outputs"])
    runs = re.findall(r"(\d+)\D+?: ([+-]\S+) (\[[^]]+\])", printed)
    assert len(runs) >= 10, printed
    stated = re.findall(r"([+-]\d+,\d+) (\[[^]]+\])", " ".join(GUIDES[lang].read_text().split()))
    assert stated, "the guide no longer states 06's interval"
    shown = {(d, ci) for _, d, ci in runs}
    assert set(stated) <= shown, (stated, shown)
    assert (runs[-1][1], runs[-1][2]) == stated[-1]  # the last: after all the rounds
