"""Every relative link in the lessons and the pages that come with them leads to a file, on
each route a class takes: ``make lab`` (JupyterLab on the repository), ``rummykit notebooks``
(the pip route: a folder of copies, each language, each edition) and the JupyterLite site
(``lite/build.py``'s staging). The links are followed from the lessons to the pages they open,
and from those pages on."""

from __future__ import annotations

import importlib.util
import posixpath
from pathlib import Path

import pytest

from rummykit.tutorials import copy_notebooks, linked_pages, links

ROOT = Path(__file__).resolve().parent.parent


def broken_links(folder: Path, starts: list[Path]) -> list[str]:
    """Follow the relative links from ``starts`` through every .md/.ipynb they reach inside
    ``folder``; each that leads nowhere (or out of the folder), as ``file -> target``."""
    broken, seen, todo = [], set(), list(starts)
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        seen.add(page)
        for target in links(page.read_text(encoding="utf-8")):
            reached = Path(posixpath.normpath(page.parent / target))
            if not reached.is_relative_to(folder) or not reached.is_file():
                broken.append(f"{page.relative_to(folder)} -> {target}")
            elif reached.suffix in (".md", ".ipynb"):
                todo.append(reached)
    return sorted(broken)


def lessons(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in (".ipynb", ".md"))


def test_under_make_lab_every_link_leads_to_a_file_of_the_repository() -> None:
    """``make lab`` serves the repository: the lessons' links reach docs/ as they are."""
    starts = lessons(ROOT / "notebooks")
    assert any("docs/pt/rules.md" in p.read_text(encoding="utf-8") for p in starts)
    assert broken_links(ROOT, starts) == []


@pytest.mark.parametrize("edition", ["student", "teacher"])
@pytest.mark.parametrize("language", ["en", "pt", "fi"])
def test_the_copied_lessons_links_all_lead_to_a_copied_file(
    tmp_path: Path, language: str, edition: str
) -> None:
    """``rummykit notebooks`` copies the pages the lessons link to (a translation's rules and
    glossary, and the English rules they refer to) and makes every link point at a copy;
    a link to a page it doesn't copy is left as words."""
    written = copy_notebooks(tmp_path, language=language, edition=edition)
    assert broken_links(tmp_path, lessons(tmp_path)) == []
    names = {p.relative_to(tmp_path).as_posix() for p in written}
    assert {name for name, _ in linked_pages(language)} <= names
    if language != "en":
        first = next(p for p in written if p.name.startswith("01_"))
        text = first.read_text(encoding="utf-8")
        assert "](rules.md" in text and "](glossary.md" in text  # the links stay links
        assert "](rules-en.md" in (tmp_path / "rules.md").read_text(encoding="utf-8")
        english = (tmp_path / "rules-en.md").read_text(encoding="utf-8")
        assert english == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    else:
        translated = (tmp_path / "pt" / "01_combinacoes.ipynb").read_text(encoding="utf-8")
        assert "](rules.md" in translated  # pt/rules.md, beside it
        assert "](rules-en.md" in (tmp_path / "pt" / "rules.md").read_text(encoding="utf-8")
        assert "](rules.md" in (tmp_path / "README.md").read_text(encoding="utf-8")


def test_the_lite_site_holds_every_page_its_lessons_link_to(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    staged = build.stage_files(tmp_path)
    assert Path("docs/rules.md") in staged and Path("docs/pt/glossary.md") in staged
    assert broken_links(tmp_path, lessons(tmp_path / "notebooks")) == []
    assert broken_links(tmp_path, lessons(tmp_path / "docs")) == []
