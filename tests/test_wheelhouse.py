"""Installing without the index and without the internet: ``make wheelhouse`` builds a folder
with every wheel ``rummykit[notebook]`` and ``rummykit[classroom]`` need, and a fresh venv
installs from it with ``pip --no-index`` alone, then checks a meld with ``rummykit check``,
copies the lessons out and runs one (01, the teacher's edition) with ``jupyter nbconvert --execute``. And ``make lab``
installs what a learner needs, the notebook extra, not the test and docs tools."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def clean_env(**more: str) -> dict[str, str]:
    """The environment without this worktree on PYTHONPATH, so the installed wheel is what runs."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PYTHONIOENCODING": "utf-8", **more}


def run(*command: str | Path, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=clean_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def test_make_lab_installs_the_notebook_extra_only() -> None:
    if shutil.which("make") is None:  # pragma: no cover - make is a requirement of the repo
        pytest.fail("make is not installed")
    plan = run("make", "-n", "-B", "lab", cwd=ROOT).stdout
    installs = [line for line in plan.splitlines() if " install -e " in line]
    assert installs and all("'.[notebook]'" in line for line in installs), installs
    # the test and docs tools come with make test / make docs
    full = run("make", "-n", "-B", "venv", cwd=ROOT).stdout
    assert "'.[test,docs]'" in full


def test_a_wheelhouse_installs_with_no_index_and_runs_a_lesson(tmp_path: Path) -> None:
    wheels = tmp_path / "wheelhouse"
    made = run("make", "wheelhouse", f"PYTHON={sys.executable}", f"WHEELHOUSE={wheels}", cwd=ROOT)
    names = sorted(path.name for path in wheels.iterdir())
    assert f"{len(names)} wheels in {wheels}" in made.stdout
    assert all(name.endswith(".whl") for name in names)  # wheels only: nothing left to build
    for needed in ("rummykit-", "voila-", "jupyterlab-", "ipywidgets-", "anywidget-", "ipykernel-"):
        assert any(name.startswith(needed) for name in names), needed

    # a fresh venv, pip allowed no index: everything comes from the folder
    run(sys.executable, "-m", "venv", tmp_path / "env", cwd=tmp_path)
    python = tmp_path / "env" / "bin" / "python"
    run(python, "-m", "pip", "--disable-pip-version-check", "install", "-q", "--no-index",
        "--find-links", wheels, "rummykit[notebook,classroom]", cwd=tmp_path)  # fmt: skip
    check = subprocess.run(
        [str(tmp_path / "env" / "bin" / "rummykit"), "check", "K♠ A♠ 2♠"],
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert check.returncode == 1 and "wraps around the ace" in check.stdout, check

    lessons = tmp_path / "lessons"
    # the teacher edition: its exercises are answered, so the lesson runs to the end
    run(tmp_path / "env" / "bin" / "rummykit", "notebooks", lessons, "--edition", "teacher",
        cwd=tmp_path)  # fmt: skip
    run(tmp_path / "env" / "bin" / "jupyter", "nbconvert", "--to", "notebook", "--execute",
        "--output", tmp_path / "ran.ipynb", lessons / "01_melds.ipynb", cwd=tmp_path)  # fmt: skip
    ran = json.loads((tmp_path / "ran.ipynb").read_text(encoding="utf-8"))
    outputs = [o for cell in ran["cells"] for o in cell.get("outputs", [])]
    assert outputs and not [o for o in outputs if o.get("output_type") == "error"]
    text = json.dumps(outputs, ensure_ascii=False)
    assert "is not a valid meld in Hungarian Rummy" in text


# --- the lessons' links to pages, under make lab and the pip route ---------------------------

LINK = re.compile(r"\]\(([^)#\s]+\.(?:md|ipynb|html))(?:#[^)]*)?\)")


def relative_links(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return [link for link in LINK.findall(text) if "://" not in link]


def test_under_make_lab_every_lesson_link_stays_inside_the_server_s_root() -> None:
    # make lab serves the repository (the folder it runs in) and opens notebooks/README.md
    checked = 0
    for notebook in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for link in relative_links(notebook):
            target = (notebook.parent / link).resolve()
            assert target.is_relative_to(ROOT) and target.is_file(), (notebook.name, link)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("language", ["pt", "fi"])
def test_the_pip_route_copies_what_the_lessons_link_to(language: str, tmp_path: Path) -> None:
    from rummykit.tutorials import copy_notebooks

    copy_notebooks(tmp_path, language=language)
    links = 0
    for notebook in sorted(tmp_path.glob("*.ipynb")):
        for link in relative_links(notebook):
            assert (tmp_path / link).is_file(), (notebook.name, link)
            links += 1
    assert links >= 3  # the rules and glossary pages, and the lessons between them
    rules = (tmp_path / "rules.md").read_text(encoding="utf-8")
    source = (ROOT / "docs" / language / "rules.md").read_text(encoding="utf-8")
    # the same page, its link to the English rules made to the copy beside it
    assert "](../rules.md" in source and "](../rules.md" not in rules
    assert rules == source.replace("](../rules.md", "](rules-en.md")
    english = (tmp_path / "rules-en.md").read_text(encoding="utf-8")
    assert english == (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
