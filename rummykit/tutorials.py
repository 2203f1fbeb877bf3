"""The tutorial notebooks that come with rummykit: copy them to a folder, open JupyterLab there.

A wheel carries the notebooks as package data (``rummykit/notebooks``); a source checkout
finds them in the repository's ``notebooks/`` folder. They are copied as the **student
edition** — no answers, no stored feedback, no teacher's notes — unless the teacher edition
is asked for (:mod:`rummykit.grading.editions`).

>>> import tempfile
>>> names = [name for name, _ in tutorial_files()]
>>> "01_melds.ipynb" in names and "README.md" in names
True
>>> with tempfile.TemporaryDirectory() as folder:
...     written = copy_notebooks(folder, language="en")
...     copied = sorted(path.relative_to(folder).as_posix() for path in written)
>>> pages = [name for name, _ in linked_pages("en")]  # the rules the lessons link to
>>> copied == sorted([*names, *pages, "handout-hungarian.html", "handout-rommi.html"])
True

With another language, that language's lessons (at the top of the folder), its handouts and
the rules and glossary pages its lessons link to (and the English rules those refer to):

>>> with tempfile.TemporaryDirectory() as folder:
...     written = copy_notebooks(folder, language="pt", edition="teacher")
...     copied = sorted(path.relative_to(folder).as_posix() for path in written)
>>> copied[:2], copied[-6:]
(['01_combinacoes.ipynb', '02_rodada_hungara.ipynb'], ['glossary.md', 'handout-hungarian.html', 'handout-rommi.html', 'rules-en.md', 'rules.md', 'teaching.md'])

``rummykit notebooks DIR`` and ``rummykit lab [DIR]`` are :func:`notebooks_command` and
:func:`lab_command`.
"""

from __future__ import annotations

import importlib.util
import os
import posixpath
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from rummykit.errors import RummykitError
from rummykit.messages import join, render

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

__all__ = [
    "DEFAULT_FOLDER",
    "TutorialsError",
    "copy_notebooks",
    "guide",
    "lab_arguments",
    "lab_command",
    "lesson_files",
    "linked_pages",
    "links",
    "notebook_bytes",
    "notebooks_command",
    "notebooks_source",
    "printables",
    "relink",
    "replace_process",
    "tutorial_files",
]

DEFAULT_FOLDER = "rummykit-notebooks"
"""Where ``rummykit lab`` puts the notebooks when no folder is given (in the current folder)."""

_CHECKOUT = Path(__file__).resolve().parent.parent / "notebooks"


class TutorialsError(RummykitError):
    """The notebooks can't be found, or can't be copied where asked; the message says why."""


def notebooks_source() -> Traversable:
    """The folder holding the notebooks: the installed package's ``rummykit/notebooks``, or,
    in a source checkout (editable install or ``PYTHONPATH``), the repository's ``notebooks/``.

    >>> (notebooks_source() / "01_melds.ipynb").is_file()
    True
    """
    packaged = resources.files("rummykit") / "notebooks"
    if packaged.is_dir():
        return packaged
    if _CHECKOUT.is_dir() and (_CHECKOUT.parent / "pyproject.toml").is_file():
        return _CHECKOUT
    raise TutorialsError(render("tutorials_missing"))


def tutorial_files() -> list[tuple[str, Traversable]]:
    """Every tutorial notebook and the notebooks' README, with the path each is copied to, in
    name order: the English lessons first, then each translation in its language's folder
    (``pt/``, ``fi/``).

    >>> names = [name for name, _ in tutorial_files()]
    >>> names[0], "pt/01_combinacoes.ipynb" in names, "fi/03_rommi.ipynb" in names
    ('01_melds.ipynb', True, True)
    """
    source = notebooks_source()
    files = [(item.name, item) for item in source.iterdir() if _is_tutorial(item)]
    for folder in source.iterdir():
        if folder.is_dir() and not folder.name.startswith((".", "_")):
            files += [
                (f"{folder.name}/{item.name}", item)
                for item in folder.iterdir()
                if _is_tutorial(item)
            ]
    if not any(name.endswith(".ipynb") for name, _ in files):
        raise TutorialsError(render("tutorials_missing"))
    return sorted(files, key=lambda pair: ("/" in pair[0], pair[0]))


def _is_tutorial(item: Traversable) -> bool:
    return item.is_file() and (item.name.endswith(".ipynb") or item.name == "README.md")


def lesson_files(language: str = "en") -> list[tuple[str, Traversable]]:
    """The lessons a class in ``language`` gets, with the name each is copied to: every lesson
    for English (each translation in its folder, as :func:`tutorial_files`), or the language's
    own lessons — ``pt/…`` or ``fi/…`` — at the top of the folder.

    >>> [name for name, _ in lesson_files("pt")][:2]
    ['01_combinacoes.ipynb', '02_rodada_hungara.ipynb']
    """
    files = tutorial_files()
    if language == "en":
        return files
    prefix = f"{language}/"
    own = [(name[len(prefix) :], item) for name, item in files if name.startswith(prefix)]
    return own or files


def guide(language: str = "en") -> Traversable | None:
    """The teacher's guide (``docs/teaching.md``, or the language's ``docs/pt/teaching.md``):
    in the installed package's ``rummykit/guides``, or in a source checkout's ``docs/``."""
    relative = "teaching.md" if language == "en" else f"{language}/teaching.md"
    packaged = resources.files("rummykit") / "guides"
    if packaged.is_dir():
        found = packaged.joinpath(*relative.split("/"))
        return found if found.is_file() else None
    checkout = _CHECKOUT.parent / "docs" / relative
    return checkout if checkout.is_file() else None


LINKED_PAGES = ("rules.md", "glossary.md")
"""The pages of docs/ in their language that the Portuguese and Finnish lessons link to
(``../../docs/pt/rules.md`` in the repository), copied beside the lessons."""

ENGLISH_RULES = "rules-en.md"
"""Where the English rules page (``docs/rules.md``), which the translated rules pages link to
for the details, is copied beside a translation's lessons."""


def _page(relative: str) -> Traversable | Path:
    """A page of docs/ (``pt/rules.md``): the installed package's ``rummykit/guides``, or a
    source checkout's ``docs/``."""
    packaged = resources.files("rummykit") / "guides"
    if packaged.is_dir():
        return packaged.joinpath(*relative.split("/"))
    return _CHECKOUT.parent / "docs" / relative


def linked_pages(language: str = "en") -> list[tuple[str, str]]:
    """The pages of docs/ copied with the lessons of ``language``, so that their links work:
    (where it goes in the folder, its path in docs/). For a translation, its rules and
    glossary and the English rules they refer to; for English, the English rules, and each
    translation's pages in its folder.

    >>> linked_pages("pt")
    [('rules.md', 'pt/rules.md'), ('glossary.md', 'pt/glossary.md'), ('rules-en.md', 'rules.md')]
    >>> linked_pages("en")[:3]
    [('rules.md', 'rules.md'), ('fi/rules.md', 'fi/rules.md'), ('fi/glossary.md', 'fi/glossary.md')]
    """
    if language != "en":
        pages = [(name, f"{language}/{name}") for name in LINKED_PAGES]
        return [*pages, (ENGLISH_RULES, "rules.md")]
    folders = sorted({name.split("/")[0] for name, _ in tutorial_files() if "/" in name})
    out = [("rules.md", "rules.md")]
    for folder in folders:
        out += [(f"{folder}/{name}", f"{folder}/{name}") for name in LINKED_PAGES]
        out.append((f"{folder}/{ENGLISH_RULES}", "rules.md"))
    return out


_LINK = re.compile(r"\[([^\]\n]*)\]\(([^()\s#:]+)(#[^()\s]*)?\)")
"""A Markdown link to a file by a relative path (not a web address, not an anchor alone)."""


def links(text: str) -> list[str]:
    """The relative paths ``text`` links to (Markdown links, anchors left out).

    >>> links("[a](../rules.md#r3), [b](https://example.org), [c](#top), [d](02.ipynb)")
    ['../rules.md', '02.ipynb']
    """
    return [link.group(2) for link in _LINK.finditer(text)]


def relink(text: str, source: str, placed: str, carried: dict[str, str]) -> str:
    """``text`` (a lesson or a page from the repository's ``source``, written to ``placed`` in
    a folder) with each relative link made to point where the folder holds its target
    (``carried``: a repository path to its path in the folder), or, to a file the folder
    doesn't hold, made plain words: no link leads nowhere.

    >>> carried = {"docs/pt/rules.md": "rules.md", "notebooks/pt/02.ipynb": "02.ipynb"}
    >>> relink("[as regras](../../docs/pt/rules.md#r3), [a 02](02.ipynb)",
    ...        "notebooks/pt/01.ipynb", "01.ipynb", carried)
    '[as regras](rules.md#r3), [a 02](02.ipynb)'
    >>> relink("[página em inglês](../languages.md) e [site](https://example.org)",
    ...        "docs/pt/teaching.md", "teaching.md", carried)
    'página em inglês e [site](https://example.org)'
    """

    def one(link: re.Match[str]) -> str:
        words, target, anchor = link.group(1), link.group(2), link.group(3) or ""
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(source), target))
        if resolved not in carried:
            return words
        where = posixpath.relpath(carried[resolved], posixpath.dirname(placed) or ".")
        return f"[{words}]({where}{anchor})"

    return _LINK.sub(one, text)


def printables(language: str = "en", edition: str = "student") -> list[tuple[str, bytes]]:
    """What a class prints, made in ``language``: each variant's rules on one page
    (``handout-hungarian.html``, ``handout-rommi.html``), and for the teacher edition the
    teacher's guide (``teaching.md``).

    >>> [name for name, _ in printables("fi", "teacher")]
    ['handout-hungarian.html', 'handout-rommi.html', 'teaching.md']
    """
    from rummykit.handouts import handout

    out = [
        (f"handout-{name}.html", handout(name, language).html().encode("utf-8"))
        for name in ("hungarian", "rommi")
    ]
    page = guide(language) if edition == "teacher" else None
    if page is not None:
        out.append(("teaching.md", page.read_bytes()))
    return out


def copy_notebooks(
    folder: str | os.PathLike[str],
    *,
    force: bool = False,
    keep: bool = False,
    edition: str = "student",
    language: str | None = None,
) -> list[Path]:
    """Copy the tutorial notebooks into ``folder`` (created if needed), as the ``student``
    or ``teacher`` edition, with the rules on one page to print (:func:`printables`); return
    what was written. The lessons are those of ``language`` (default: the language spoken):
    Portuguese or Finnish lessons at the top of the folder, or every lesson for English.

    A file already in the folder stops the copy before anything is written, unless ``force``
    (overwrite it) or ``keep`` (leave it and copy the others).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     first = copy_notebooks(folder)
    ...     again = copy_notebooks(folder, keep=True)
    ...     copy_notebooks(folder)
    Traceback (most recent call last):
    ...
    rummykit.tutorials.TutorialsError: ... already holds ...
    >>> again
    []
    """
    from rummykit.grading.editions import EDITIONS

    if edition not in EDITIONS:
        raise TutorialsError(
            render("edition_unknown", edition=edition, choices=", ".join(EDITIONS))
        )
    from rummykit.language import resolve

    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise TutorialsError(render("tutorials_not_a_folder", folder=str(target)))
    spoken = resolve(language)
    files = lesson_files(spoken)
    pages = [(name, _page(docs)) for name, docs in linked_pages(spoken)]
    pages = [(name, page) for name, page in pages if page.is_file()]
    made = printables(spoken, edition) + [(name, page.read_bytes()) for name, page in pages]
    # where each copied file came from in the repository, for their links (:func:`relink`)
    lessons = "notebooks" if spoken == "en" or files == tutorial_files() else f"notebooks/{spoken}"
    origin = {name: f"{lessons}/{name}" for name, _ in files}
    origin.update({name: f"docs/{docs}" for name, docs in linked_pages(spoken)})
    teaching = "teaching.md" if spoken == "en" else f"{spoken}/teaching.md"
    origin.setdefault("teaching.md", f"docs/{teaching}")
    written_names = {n for n, _ in files} | {n for n, _ in made}
    carried = [(source, name) for name, source in origin.items() if name in written_names]
    present = [
        name for name in [*(n for n, _ in files), *(n for n, _ in made)] if (target / name).exists()
    ]
    if present and not (force or keep):
        raise TutorialsError(
            render(
                "tutorials_would_overwrite",
                folder=str(target),
                names=join(present, "and"),
                count=len(present),
            )
        )
    written = []
    try:
        target.mkdir(parents=True, exist_ok=True)
        for name, item in files:
            if keep and not force and name in present:
                continue
            path = target / name
            path.parent.mkdir(exist_ok=True)
            data = notebook_bytes(item, edition) if name.endswith(".ipynb") else item.read_bytes()
            path.write_bytes(_relinked(data, name, origin, carried))
            written.append(path)
        for name, data in made:
            if keep and not force and name in present:
                continue
            path = target / name
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(_relinked(data, name, origin, carried))
            written.append(path)
    except OSError as error:
        raise TutorialsError(
            render("tutorials_cannot_write", folder=str(target), error=error.strerror or error)
        ) from error
    return written


def _relinked(
    data: bytes, name: str, origin: dict[str, str], carried: list[tuple[str, str]]
) -> bytes:
    """A copied lesson or page with its links made to work in the folder (:func:`relink`):
    to the copy in its own folder, when a page is copied to more than one (``rules-en.md``)."""
    if not name.endswith((".ipynb", ".md")) or name not in origin:
        return data
    here = posixpath.dirname(name)
    nearest = dict(sorted(carried, key=lambda pair: posixpath.dirname(pair[1]) == here))
    return relink(data.decode("utf-8"), origin[name], name, nearest).encode("utf-8")


def notebook_bytes(item: Traversable, edition: str = "student") -> bytes:
    """A tutorial notebook as written out in ``edition``: the teacher's as it comes, the
    student's made from it (:func:`rummykit.grading.editions.student_edition`)."""
    raw = item.read_bytes()
    if edition == "teacher":
        return raw
    import json

    from rummykit.grading.editions import edition as make_edition

    notebook = make_edition(json.loads(raw.decode("utf-8")), "student")
    return (json.dumps(notebook, ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def _report(written: list[Path], folder: Path) -> None:
    if written:
        print(render("tutorials_written", count=len(written), folder=str(folder)))
        for path in written:
            print(render("tutorials_written_file", name=path.relative_to(folder).as_posix()))


def _fail(command: str, error: Exception) -> int:
    print(render("cli_error", command=command, message=str(error)), file=sys.stderr)
    return 2


def notebooks_command(folder: str, force: bool, edition: str = "student") -> int:
    """``rummykit notebooks DIR [--edition student|teacher] [--force]``: 0 when the notebooks
    were copied, 2 when not."""
    try:
        written = copy_notebooks(folder, force=force, edition=edition)
    except TutorialsError as error:
        return _fail("notebooks", error)
    _report(written, Path(folder))
    # the first lesson (English first, then each language's folder; or the language's own)
    first = next(path.relative_to(folder).as_posix() for path in written if path.suffix == ".ipynb")
    print(render(f"tutorials_edition_{edition}"))
    print(render("tutorials_next", folder=folder, first=first))
    return 0


def lab_arguments(folder: str | os.PathLike[str], extra: list[str] | None = None) -> list[str]:
    """The command that opens JupyterLab on ``folder``: ``--allow-root`` when running as root,
    as ``make lab`` does (classroom containers and CI machines run as root).

    >>> command = lab_arguments("lessons", ["--no-browser"])
    >>> command[1:3], command[-2:]
    (['-m', 'jupyterlab'], ['--no-browser', 'lessons'])
    """
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return [sys.executable, "-m", "jupyterlab", *root, *(extra or []), str(folder)]


def lab_command(
    folder: str, force: bool, extra: list[str] | None = None, edition: str = "student"
) -> int:
    """``rummykit lab [DIR]``: copy the notebooks that aren't in ``folder`` yet, then run
    JupyterLab there until it stops (its exit status), or 2 when it can't start."""
    if importlib.util.find_spec("jupyterlab") is None:
        return _fail("lab", TutorialsError(render("tutorials_no_jupyterlab")))
    try:
        written = copy_notebooks(folder, force=force, keep=True, edition=edition)
    except TutorialsError as error:
        return _fail("lab", error)
    _report(written, Path(folder))
    print(render("tutorials_opening", folder=folder), flush=True)
    return replace_process(lab_arguments(folder, extra))


def replace_process(command: list[str], env: dict[str, str] | None = None) -> int:
    """Run ``command`` (with the environment ``env``, else this one) in place of this process
    where the system allows it (Ctrl-C, signals and the exit status are then the server's own),
    else as a child process. ``rummykit classroom`` starts Voilà with it too."""
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execve(command[0], command, os.environ if env is None else env)
    return subprocess.run(command, check=False, env=env).returncode
