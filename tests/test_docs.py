"""The docs keep up with the code: the reason catalogue is generated, the rules are all there."""

from __future__ import annotations

import doctest
import importlib.util
import re
import shlex
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from rummykit.cli import main
from rummykit.explain import CATALOGUE

DOCS = Path(__file__).resolve().parent.parent / "docs"


def _make_reasons() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_reasons", DOCS / "make_reasons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_reasons_md_is_up_to_date() -> None:
    expected = _make_reasons().build()
    current = (DOCS / "reasons.md").read_text(encoding="utf-8")
    assert current == expected, "docs/reasons.md is stale: run python docs/make_reasons.py"


def test_reasons_md_covers_every_catalogue_code() -> None:
    text = (DOCS / "reasons.md").read_text(encoding="utf-8")
    for code in CATALOGUE:
        assert f"### {code}\n" in text, code


def test_rules_md_has_every_rule_id() -> None:
    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"^\| ([HR]\d+) \|", text, flags=re.MULTILINE))
    assert ids == {f"H{n}" for n in range(1, 16)} | {f"R{n}" for n in range(1, 13)}


def test_docs_link_to_each_other() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "rules.md" in index
    assert "reasons.md" in index


def test_rules_md_names_only_real_options() -> None:
    from rummykit import Variant

    text = (DOCS / "rules.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \|", text, flags=re.MULTILINE)
    named = {name for row in rows for name in re.findall(r"`([a-z_]+)`", row)}
    assert named, "no options table in docs/rules.md"
    assert named <= set(Variant.option_names())


# --- the examples in the README and docs are real output --------------------------------------

PAGES = [
    DOCS.parent / "README.md",
    DOCS / "index.md",
    DOCS / "rules.md",
    DOCS / "reasons.md",
    DOCS / "teaching.md",
    DOCS / "notebooks.md",
    DOCS / "languages.md",
    DOCS / "api.md",
]
# a fence at the start of a line, or indented under a list item (its body indented the same)
_FENCE = re.compile(r"^( *)```(\w+)\n(.*?)^\1```", flags=re.MULTILINE | re.DOTALL)


def _blocks(page: Path, language: str) -> list[str]:
    text = page.read_text(encoding="utf-8")
    return [textwrap.dedent(body) for _, lang, body in _FENCE.findall(text) if lang == language]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_python_examples_run(page: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names: dict[str, object] = {}  # one page is one session: later blocks use earlier names
    for number, body in enumerate(_blocks(page, "python")):
        test = parser.get_doctest(body, names, f"{page.name}[{number}]", str(page), 0)
        runner.run(test, clear_globs=False)
        names.update(test.globs)
    assert runner.failures == 0, f"{page.name}: {runner.failures} example(s) print something else"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_command_line_examples_run(page: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for body in _blocks(page, "sh"):
        commands: list[tuple[str, list[str]]] = []
        for line in body.splitlines():
            if line.startswith("$ "):
                commands.append((line[2:], []))
            elif commands:
                commands[-1][1].append(line)
        for command, expected in commands:
            argv = shlex.split(command)
            assert argv[0] == "rummykit", command
            code = main(argv[1:])
            out, err = capsys.readouterr()
            assert code in (0, 1), f"{command}: {err}"
            if expected:
                assert out.splitlines() == expected, command
