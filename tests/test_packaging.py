"""The pip route: the sdist and the wheel build, the wheel installs into a fresh venv with no
network, its ``rummykit`` checks a meld and copies out the tutorial notebooks it carries; and
``rummykit notebooks`` / ``rummykit lab`` behave in a source checkout too."""

from __future__ import annotations

import email
import email.message
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from rummykit import __version__, tutorials
from rummykit.cli import explain_lines, main
from rummykit.grading.editions import student_edition
from rummykit.melds import check_meld
from rummykit.messages import render

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted(
    path.relative_to(ROOT / "notebooks").as_posix()
    for path in (ROOT / "notebooks").rglob("*")
    if path.suffix == ".ipynb" or path.name == "README.md"
    if ".ipynb_checkpoints" not in path.parts
)
MELD = "K♠ A♠ 2♠"
HANDOUTS = ["handout-hungarian.html", "handout-rommi.html"]
# the pages the lessons link to, copied with them (each translation's beside its lessons, with
# the English rules its rules page refers to): tests/test_notebook_links.py follows the links
PAGES = ["rules.md"] + [
    f"{language}/{page}"
    for language in ("fi", "pt")
    for page in ("rules.md", "glossary.md", "rules-en.md")
]


def words(text: str) -> str:
    """``text`` with each Markdown link left as its words: the copies' links are made to
    point at the copies (tests/test_notebook_links.py), the rest must be as written."""
    return re.sub(r"\[([^\]\n]*)\]\([^()\s]*\)", r"\1", text)


def files_in(folder: Path) -> list[str]:
    """Every file under ``folder``, as paths relative to it (``pt/01_combinacoes.ipynb``)."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def clean_env(**more: str) -> dict[str, str]:
    """The environment without this worktree on PYTHONPATH, so the installed wheel is what runs."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "PYTHONIOENCODING": "utf-8", **more}


def run(*command: str | Path, cwd: Path, **more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=clean_env(**more),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )


# --- building and installing (once for the module) ------------------------------------------


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``python -m build``: the sdist, then the wheel built from the unpacked sdist."""
    out = tmp_path_factory.mktemp("dist")
    built = run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT, cwd=out)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    (wheel,) = out.glob("rummykit-*.whl")
    (sdist,) = out.glob("rummykit-*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


@pytest.fixture(scope="module")
def venv(dists: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel installed, from the file and nowhere else."""
    home = tmp_path_factory.mktemp("venv")
    # no pip inside (ensurepip is slow); this venv's pip installs into it
    made = run(sys.executable, "-m", "venv", "--without-pip", home / "env", cwd=home)
    assert made.returncode == 0, made.stderr
    bin_dir = home / "env" / ("Scripts" if os.name == "nt" else "bin")
    installed = run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        bin_dir / "python",
        "install",
        "--disable-pip-version-check",
        "--no-index",
        "--no-deps",
        dists["wheel"],
        cwd=home,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return bin_dir


def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        text = archive.read(f"rummykit-{__version__}.dist-info/METADATA").decode()
    return email.message_from_string(text)


# --- what the archives hold -------------------------------------------------------------------


def test_the_wheel_carries_every_notebook_as_it_is_in_the_repository(
    dists: dict[str, Path],
) -> None:
    inside = sorted(n for n in wheel_names(dists["wheel"]) if n.startswith("rummykit/notebooks/"))
    assert inside == [f"rummykit/notebooks/{name}" for name in NOTEBOOKS]
    assert any(name.endswith(".ipynb") for name in NOTEBOOKS)
    with zipfile.ZipFile(dists["wheel"]) as archive:
        for name in NOTEBOOKS:
            assert (
                archive.read(f"rummykit/notebooks/{name}")
                == (ROOT / "notebooks" / name).read_bytes()
            )


def test_the_wheel_carries_the_teachers_guides(dists: dict[str, Path]) -> None:
    with zipfile.ZipFile(dists["wheel"]) as archive:
        for name in ("teaching.md", "pt/teaching.md", "fi/teaching.md"):
            assert archive.read(f"rummykit/guides/{name}") == (ROOT / "docs" / name).read_bytes()


def test_the_wheel_holds_every_file_of_the_package_and_its_license(dists: dict[str, Path]) -> None:
    tracked = subprocess.run(
        ["git", "ls-files", "rummykit"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    names = set(wheel_names(dists["wheel"]))
    assert set(tracked) <= names, sorted(set(tracked) - names)
    assert f"rummykit-{__version__}.dist-info/licenses/LICENSE" in names
    stray = [n for n in names if "__pycache__" in n or "checkpoint" in n or n.endswith(".pyc")]
    assert not stray


def test_the_metadata_declares_no_core_dependency_and_the_notebook_extra(
    dists: dict[str, Path],
) -> None:
    meta = metadata(dists["wheel"])
    assert meta["Name"] == "rummykit" and meta["Version"] == __version__
    assert meta["License-Expression"] == "MIT"
    assert "notebook" in meta.get_all("Provides-Extra", [])
    requires = meta.get_all("Requires-Dist", [])
    assert all("extra ==" in line for line in requires), "the core must need nothing"
    for package in ("jupyterlab", "ipywidgets", "anywidget"):
        assert any(
            line.startswith(package) and "extra == 'notebook'" in line.replace('"', "'")
            for line in requires
        ), package


def test_the_sdist_holds_what_a_build_needs(dists: dict[str, Path]) -> None:
    with tarfile.open(dists["sdist"]) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    needed = {"pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "PKG-INFO"}
    needed |= {f"notebooks/{name}" for name in NOTEBOOKS}
    # the wheel was built from this sdist: every file in it comes from one in the sdist
    needed |= {
        name.replace("rummykit/notebooks/", "notebooks/", 1).replace("rummykit/guides/", "docs/", 1)
        for name in wheel_names(dists["wheel"])
        if not name.startswith("rummykit-")
    }
    # the .mo catalogues are compiled from the .po files while the wheel is built
    compiled = {name for name in needed if name.endswith(".mo")}
    needed = (needed - compiled) | {name[: -len(".mo")] + ".po" for name in compiled}
    assert needed <= names, sorted(needed - names)
    assert not [n for n in names if "__pycache__" in n or n.startswith((".venv", "docs/_build"))]


# --- the installed wheel, in a venv of its own ------------------------------------------------


def test_the_installed_command_checks_a_meld(venv: Path, tmp_path: Path) -> None:
    where = run(venv / "python", "-c", "import rummykit; print(rummykit.__file__)", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv.parent), where.stdout + where.stderr
    checked = run(venv / "rummykit", "check", MELD, cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    assert checked.stdout.splitlines() == explain_lines(check_meld(MELD))
    assert checked.stderr == ""


def test_the_installed_command_copies_every_notebook(venv: Path, tmp_path: Path) -> None:
    folder = tmp_path / "class" / "lessons"
    copied = run(venv / "rummykit", "notebooks", folder, cwd=tmp_path)
    assert copied.returncode == 0, copied.stderr
    copied_files = sorted(
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
    )
    assert copied_files == sorted([*NOTEBOOKS, *HANDOUTS, *PAGES])
    for name in HANDOUTS:  # the rules on one page, made in the language spoken (English here)
        assert 'lang="en"' in (folder / name).read_text(encoding="utf-8")
    for name in NOTEBOOKS:
        assert render("tutorials_written_file", name=name) in copied.stdout.splitlines()
        if name.endswith(".ipynb"):  # the student edition of each lesson
            notebook = json.loads((folder / name).read_text(encoding="utf-8"))
            assert notebook["nbformat"] == 4 and notebook["cells"], name
            lesson = json.loads((ROOT / "notebooks" / name).read_text(encoding="utf-8"))
            expected = json.dumps(student_edition(lesson))
            assert words(json.dumps(notebook)) == words(expected), name
        else:
            original = (ROOT / "notebooks" / name).read_text(encoding="utf-8")
            assert words((folder / name).read_text(encoding="utf-8")) == words(original)
    count = len(NOTEBOOKS) + 2 + len(PAGES)
    assert render("tutorials_written", count=count, folder=str(folder)) in copied.stdout
    assert render("tutorials_edition_student") in copied.stdout
    teacher = tmp_path / "teacher"
    mine = run(venv / "rummykit", "notebooks", "--edition", "teacher", teacher, cwd=tmp_path)
    assert mine.returncode == 0, mine.stderr

    def same(copy: Path, source: Path) -> bool:
        return words(copy.read_text(encoding="utf-8")) == words(source.read_text(encoding="utf-8"))

    for name in NOTEBOOKS:  # the teacher edition: the lessons as the repository keeps them
        assert same(teacher / name, ROOT / "notebooks" / name), name
    # and the teacher's guide, from the wheel, and the English rules the lessons link to
    assert same(teacher / "teaching.md", ROOT / "docs" / "teaching.md")
    assert (teacher / "rules.md").read_bytes() == (ROOT / "docs" / "rules.md").read_bytes()
    portuguese = tmp_path / "licoes"
    pt = run(
        venv / "rummykit",
        "notebooks",
        "--lang",
        "pt",
        "--edition",
        "teacher",
        portuguese,
        cwd=tmp_path,
    )
    assert pt.returncode == 0, pt.stderr
    assert (portuguese / "01_combinacoes.ipynb").is_file() and not (
        portuguese / "01_melds.ipynb"
    ).exists()
    assert same(portuguese / "teaching.md", ROOT / "docs" / "pt" / "teaching.md")
    assert same(portuguese / "rules.md", ROOT / "docs" / "pt" / "rules.md")
    assert (portuguese / "rules-en.md").read_bytes() == (ROOT / "docs" / "rules.md").read_bytes()
    assert 'lang="pt"' in (portuguese / "handout-hungarian.html").read_text(encoding="utf-8")

    # a learner's edits survive a second run, which copies nothing and says why
    first = folder / NOTEBOOKS[0]
    first.write_text("my answers", encoding="utf-8")
    again = run(venv / "rummykit", "notebooks", folder, cwd=tmp_path)
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr.startswith(f"rummykit notebooks: {folder} already holds ")
    assert "--force" in again.stderr and "Traceback" not in again.stderr
    assert first.read_text(encoding="utf-8") == "my answers"

    forced = run(venv / "rummykit", "notebooks", "--force", folder, cwd=tmp_path)
    assert forced.returncode == 0
    lesson = json.loads((ROOT / "notebooks" / NOTEBOOKS[0]).read_text(encoding="utf-8"))
    assert json.loads(first.read_text(encoding="utf-8")) == student_edition(lesson)


def test_lab_without_jupyterlab_says_which_extra_to_install(venv: Path, tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    answer = run(venv / "rummykit", "lab", folder, cwd=tmp_path)
    assert answer.returncode == 2
    assert answer.stderr.strip() == render(
        "cli_error", command="lab", message=render("tutorials_no_jupyterlab")
    )
    assert 'pip install "rummykit[notebook]"' in answer.stderr
    assert not folder.exists()


def test_the_widgets_import_where_the_notebook_extra_is_installed() -> None:
    # the fresh venv has no ipywidgets/anywidget (that would need the network): the project's
    # venv has the notebook extra, and the wheel's metadata declares it (test above)
    imported = subprocess.run(
        [sys.executable, "-c", "from rummykit.widgets import Table, MeldChecker; print('ok')"],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert imported.stdout.strip() == "ok", imported.stderr


# --- rummykit notebooks and rummykit lab in a source checkout (in this process) --------------


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The commands ``rummykit lab`` would start, recorded instead of run."""
    commands: list[list[str]] = []
    monkeypatch.setattr(tutorials, "replace_process", lambda command: commands.append(command) or 0)
    return commands


def test_a_source_checkout_copies_the_repository_notebooks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert Path(str(tutorials.notebooks_source())) == ROOT / "notebooks"
    assert main(["notebooks", str(tmp_path / "new")]) == 0
    assert files_in(tmp_path / "new") == sorted([*NOTEBOOKS, *HANDOUTS, *PAGES])
    out = capsys.readouterr().out
    first = min(name for name in NOTEBOOKS if name.endswith(".ipynb"))
    assert render("tutorials_next", folder=str(tmp_path / "new"), first=first) in out


def test_one_file_in_the_way_stops_the_whole_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clash = NOTEBOOKS[-1]
    (tmp_path / clash).parent.mkdir(exist_ok=True)
    (tmp_path / clash).write_text("mine", encoding="utf-8")
    assert main(["notebooks", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"already holds {clash}, so nothing was copied" in err
    assert render("count_files_one", n=1) in err
    assert files_in(tmp_path) == [clash]
    assert (tmp_path / clash).read_text(encoding="utf-8") == "mine"


def test_a_file_where_the_folder_should_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("x", encoding="utf-8")
    assert main(["notebooks", str(target)]) == 2
    assert render("tutorials_not_a_folder", folder=str(target)) in capsys.readouterr().err
    assert main(["notebooks", str(target / "inside")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"rummykit notebooks: can't write the notebooks into {target / 'inside'}: "
    )
    assert "Traceback" not in err


def test_lab_refuses_a_file_for_a_folder_and_starts_nothing(
    tmp_path: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("x", encoding="utf-8")
    assert main(["lab", str(target)]) == 2
    assert capsys.readouterr().err.strip() == render(
        "cli_error", command="lab", message=render("tutorials_not_a_folder", folder=str(target))
    )
    assert started == []


def test_no_notebooks_anywhere_is_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tutorials, "_CHECKOUT", tmp_path / "nowhere")
    assert main(["notebooks", str(tmp_path / "out")]) == 2
    assert render("tutorials_missing") in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_lab_copies_only_what_is_missing_and_opens_the_folder(
    tmp_path: Path, started: list[list[str]], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / NOTEBOOKS[0]).write_text("my answers", encoding="utf-8")
    assert main(["lab", str(folder), "--no-browser", "--port", "8899"]) == 0
    assert (folder / NOTEBOOKS[0]).read_text(encoding="utf-8") == "my answers"
    copied_files = sorted(
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
    )
    assert copied_files == sorted([*NOTEBOOKS, *HANDOUTS, *PAGES])
    out = capsys.readouterr().out
    count = len(NOTEBOOKS) + 1 + len(PAGES)
    assert render("tutorials_written", count=count, folder=str(folder)) in out
    assert render("tutorials_written_file", name=NOTEBOOKS[0]) not in out.splitlines()
    (command,) = started
    assert command[:3] == [sys.executable, "-m", "jupyterlab"]
    assert command[-1] == str(folder) and {"--no-browser", "--port=8899"} <= set(command)
    assert ("--allow-root" in command) == (os.geteuid() == 0)

    # a second time nothing is copied; --force brings back the original notebook
    assert main(["lab", str(folder)]) == 0
    assert "Copied" not in capsys.readouterr().out
    assert main(["lab", "--force", str(folder)]) == 0
    lesson = json.loads((ROOT / "notebooks" / NOTEBOOKS[0]).read_text(encoding="utf-8"))
    assert json.loads((folder / NOTEBOOKS[0]).read_text(encoding="utf-8")) == student_edition(
        lesson
    )


def test_lab_defaults_to_a_folder_in_the_current_one(
    tmp_path: Path, started: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["lab"]) == 0
    assert started[0][-1] == tutorials.DEFAULT_FOLDER
    assert files_in(tmp_path / tutorials.DEFAULT_FOLDER) == sorted([*NOTEBOOKS, *HANDOUTS, *PAGES])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_rummykit_lab_starts_jupyterlab_on_the_folder(tmp_path: Path) -> None:
    port, token = free_port(), "rummykit-test-" + os.urandom(8).hex()
    folder = tmp_path / "lessons"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "JUPYTER_TOKEN": token,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "rummykit", "lab", str(folder), "--no-browser", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        listing: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and server.poll() is None and not listing:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/contents")
            request.add_header("Authorization", f"token {token}")
            try:
                with urllib.request.urlopen(request, timeout=2) as answer:
                    listing = [item["name"] for item in json.load(answer)["content"]]
            except (ConnectionError, urllib.error.URLError, TimeoutError):
                time.sleep(0.2)
        if not listing:
            os.killpg(server.pid, signal.SIGTERM)
            log = server.communicate(timeout=20)[0].decode(errors="replace")
            pytest.fail(f"rummykit lab did not answer on 127.0.0.1:{port}:\n{log[-3000:]}")
        # the server's root is the folder, and the notebooks are in it
        assert sorted(listing) == sorted(
            {*(name.split("/")[0] for name in NOTEBOOKS), *HANDOUTS, "rules.md"}
        )
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()


def test_the_wheel_carries_the_compiled_catalogues_and_speaks_them(
    dists: dict[str, Path], venv: Path, tmp_path: Path
) -> None:
    """The build hook compiles every .po (from the sdist) into the .mo read at run time."""
    from rummykit import language, pofiles

    pofiles.compile_all()  # the source tree's own, for the expected sentences
    names = set(wheel_names(dists["wheel"]))
    with tarfile.open(dists["sdist"]) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    pos = sorted((ROOT / "rummykit" / "locale").glob("*/LC_MESSAGES/rummykit.po"))
    assert {p.parent.parent.name for p in pos} >= {"pt", "fi"}
    assert "hatch_build.py" in in_sdist
    for po in pos:
        where = po.relative_to(ROOT).as_posix()
        assert where in in_sdist and where.replace(".po", ".mo") in names
    for lang in ("pt", "fi"):
        checked = run(venv / "rummykit", "check", "--lang", lang, MELD, cwd=tmp_path)
        assert checked.returncode == 1, checked.stderr
        with language.speaking(lang):
            expected = explain_lines(check_meld(MELD))
        assert checked.stdout.splitlines() == expected
        assert expected != explain_lines(check_meld(MELD))
