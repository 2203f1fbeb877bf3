"""The package's shape: imports point one way (no cycles, lazy imports included), each module
says in one sentence what it does, and ``import rummykit`` stays light."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rummykit"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """Every rummykit module ``name`` imports, wherever the import stands: at the top, inside a
    function, under ``if TYPE_CHECKING``. ``from rummykit import x`` is an import of the module
    ``rummykit.x`` when there is one, of the package ``rummykit`` otherwise."""
    path = MODULES[name]
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.add(_known(alias.name))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = name.split(".")
                base_parts = parts if is_package else parts[:-1]
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else _known(base))
    found.discard("")
    found.discard(name)
    return found


def _known(dotted: str) -> str:
    """The longest prefix of ``dotted`` that is a rummykit module ('' for other packages)."""
    parts = dotted.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return ""


GRAPH = {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each as a path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_lazy_and_type_checking_imports() -> None:
    # explain's import of the drawing module is at the top; cards' is too; the widgets
    # import inside functions and under TYPE_CHECKING: all of it counts.
    assert "rummykit.drawing" in GRAPH["rummykit.explain"]
    assert "rummykit.display" in GRAPH["rummykit.widgets.view"]  # `from rummykit import display`
    assert {"rummykit.cards", "rummykit.game"} <= GRAPH["rummykit"]  # under TYPE_CHECKING
    lazy = {m for m in GRAPH["rummykit.cli"]}
    assert "rummykit.terminal" in lazy  # imported inside run_play


def test_no_import_cycles_lazy_imports_included() -> None:
    found = cycles(GRAPH)
    assert not found, "import cycles: " + "; ".join(" ↔ ".join(c) for c in found)


def test_display_uses_cards_and_explain_never_the_reverse() -> None:
    assert {"rummykit.cards", "rummykit.explain"} <= GRAPH["rummykit.display"]
    for below in ("rummykit.cards", "rummykit.explain", "rummykit.drawing", "rummykit.messages"):
        assert "rummykit.display" not in GRAPH[below], below
    # the drawing of a card sits below every model
    assert GRAPH["rummykit.drawing"] <= {"rummykit.messages"}
    # the sentences stand on the language layer alone, which stands on nothing
    assert GRAPH["rummykit.messages"] <= {"rummykit.language"}
    assert GRAPH["rummykit.language"] == set()


def test_cli_only_parses_arguments_and_dispatches() -> None:
    tree = ast.parse(MODULES["rummykit.cli"].read_text(encoding="utf-8"))
    classes = [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    assert classes == []  # the terminal game lives in rummykit.terminal


def _reads_the_command_line(source: str) -> list[int]:
    """The lines that read ``sys.argv`` outside an ``if __name__ == "__main__":`` block."""
    tree = ast.parse(source)
    main_blocks = [
        n
        for n in tree.body
        if isinstance(n, ast.If)
        and "__name__" in ast.unparse(n.test)
        and "__main__" in ast.unparse(n.test)
    ]
    inside = {id(m) for block in main_blocks for m in ast.walk(block)}
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute)
        and n.attr == "argv"
        and ast.unparse(n.value) == "sys"
        and id(n) not in inside
    ]


def test_the_command_line_reader_finds_argv_outside_the_main_block_only() -> None:
    assert _reads_the_command_line("import sys\nx = sys.argv[1:]\n") == [2]
    assert (
        _reads_the_command_line(
            "import sys\ndef main(a): ...\nif __name__ == '__main__':\n    main(sys.argv[1:])\n"
        )
        == []
    )


@pytest.mark.parametrize("name", sorted(set(MODULES) - {"rummykit.cli"}))
def test_no_library_module_reads_the_command_line(name: str) -> None:
    # arguments are given to a module's functions; only the command line's own module
    # (rummykit.cli, the ``rummykit`` command's entry point) and a module's ``__main__``
    # block read them
    assert _reads_the_command_line(MODULES[name].read_text(encoding="utf-8")) == []


_SENTENCE_BREAK = re.compile(r"(?<!e\.g)(?<!i\.e)(?<!etc)[.!?]\s+[A-Z`]")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_says_what_it_does_in_one_sentence(name: str) -> None:
    doc = ast.get_docstring(ast.parse(MODULES[name].read_text(encoding="utf-8")))
    assert doc, f"{name} has no docstring"
    first = " ".join(doc.split("\n\n")[0].split())
    assert first.endswith((".", "?")), f"{name}: {first!r} is not a finished sentence"
    assert not _SENTENCE_BREAK.search(first), f"{name}: {first!r} is more than one sentence"


def _loaded_after(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=PACKAGE.parent,
    ).stdout
    return set(out.split())


def test_import_rummykit_imports_no_submodule_until_a_name_is_used() -> None:
    loaded = _loaded_after("import rummykit")
    assert {m for m in loaded if m.startswith("rummykit")} == {"rummykit"}
    used = _loaded_after("import rummykit\nrummykit.check_meld('K♠ A♠ 2♠')")
    assert "rummykit.melds" in used and "rummykit.game" not in used


def test_the_core_imports_no_jupyter_module() -> None:
    core = [m for m in MODULES if not m.startswith("rummykit.widgets")]
    loaded = _loaded_after("\n".join(f"import {m}" for m in core))
    jupyter = {"ipywidgets", "anywidget", "IPython", "traitlets", "ipykernel", "jupyter_client"}
    assert not jupyter & {m.split(".")[0] for m in loaded}


def test_every_public_name_of_the_package_resolves() -> None:
    import rummykit

    for name in rummykit.__all__:
        assert getattr(rummykit, name) is not None, name
    assert set(rummykit.__all__) <= set(dir(rummykit))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        rummykit.nothing_here  # noqa: B018


def test_the_api_reference_covers_every_public_module() -> None:
    api = (PACKAGE.parent / "docs" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"\.\. automodule:: ([\w.]+)", api))
    public = {m for m in MODULES if not any(p.startswith("_") for p in m.split(".")[1:])}
    assert public - documented == set(), "not in docs/api.md"


# --- the map from rule ids to the code (docs/api.md, "Where each rule lives") -----------------

_DOCS = PACKAGE.parent / "docs"


def _rule_map() -> dict[str, list[str]]:
    """Each rule id of the map, with the dotted names of the code it points to."""
    api = (_DOCS / "api.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([HR]\d+) \|[^|\n]*\|([^\n]*)\|$", api, flags=re.MULTILINE)
    return {rule: re.findall(r"`(rummykit[\w.]*)`", where) for rule, where in rows}


def _resolve(dotted: str) -> object:
    """The module, class, function or method a dotted name stands for."""
    import importlib

    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            found = getattr(found, attr)
        return found
    raise ImportError(dotted)


def _cites(obj: object, rule: str) -> bool:
    """Whether the source of ``obj`` (docstring, comments, code) names ``rule``."""
    import inspect

    if isinstance(obj, property):
        obj = obj.fget
    source = inspect.getsource(obj)  # type: ignore[arg-type]
    return re.search(rf"\b{rule}\b", source) is not None


def test_the_rule_map_covers_every_rule_of_the_rulebook() -> None:
    rulebook = (_DOCS / "rules.md").read_text(encoding="utf-8")
    rules = set(re.findall(r"^\| ([HR]\d+) \|", rulebook, flags=re.MULTILINE))
    assert len(rules) == 27  # H1–H15 and R1–R12
    mapped = _rule_map()
    assert set(mapped) == rules
    assert all(mapped.values()), [rule for rule, names in mapped.items() if not names]


@pytest.mark.parametrize("rule", sorted(_rule_map()))
def test_each_function_of_the_rule_map_exists_and_cites_its_rule(rule: str) -> None:
    for name in _rule_map()[rule]:
        assert _cites(_resolve(name), rule), f"{name} does not cite {rule}"


def test_the_rule_map_check_fails_on_a_wrong_name_or_a_rule_not_cited() -> None:
    with pytest.raises(AttributeError):
        _resolve("rummykit.game.turn_end.no_such_function")
    assert _cites(_resolve("rummykit.game.turn_end.jokers_replayed"), "H11")
    assert not _cites(_resolve("rummykit.game.turn_end.jokers_replayed"), "H1")


# --- private parts stay private ------------------------------------------------------------

_PROTOCOLS = {"_repr_html_", "_SubParsersAction"}  # IPython's and argparse's own names


def _private_reads(source: str) -> list[str]:
    """Where ``source`` reads a private attribute of something other than ``self``/``cls``
    (``game._state``, ``state._x``), as ``line: expression``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
            continue
        owner = node.value
        if node.attr.startswith("__") or node.attr in _PROTOCOLS:
            continue
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            continue
        if isinstance(owner, ast.Call) and ast.unparse(owner.func) == "super":
            continue
        found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_private_read_finder_finds_a_reach_in_and_nothing_else() -> None:
    source = (
        "def f(game, self):\n"
        "    self._mine, game.hand(0), super()._draw(), game.trace._repr_html_()\n"
        "    return game._state.turn\n"
    )
    assert _private_reads(source) == ["3: game._state"]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_reaches_into_another_objects_private_parts(name: str) -> None:
    assert _private_reads(MODULES[name].read_text(encoding="utf-8")) == []


def _private_imports(source: str, module: str, *, same_package: bool = True) -> list[str]:
    """The private names ``source`` (module ``module``) imports from another rummykit module
    (the modules of one subpackage, ``rummykit.game`` say, may share their helpers unless
    ``same_package`` is false; the top-level modules may not), as ``line: name``."""
    package = module.rsplit(".", 1)[0]
    if package == "rummykit":
        package = module
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith("rummykit"):
            continue
        source_package = (node.module or "").rsplit(".", 1)[0]
        if same_package and (source_package == package or node.module == package):
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append(f"{node.lineno}: {alias.name}")
    return found


def test_the_private_import_finder_finds_a_reach_across_packages_only() -> None:
    source = (
        "from rummykit.tournament import _schedule, run_tournament\n"
        "from rummykit.game.state import _helper\n"
        "from rummykit.game import _round\n"
    )
    assert _private_imports(source, "rummykit.leagues") == [
        "1: _schedule",
        "2: _helper",
        "3: _round",
    ]
    assert _private_imports(source, "rummykit.game.legal") == ["1: _schedule"]
    assert len(_private_imports(source, "rummykit.game.legal", same_package=False)) == 3


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_another_packages_private_names(name: str) -> None:
    assert _private_imports(MODULES[name].read_text(encoding="utf-8"), name) == []


def test_only_the_referee_uses_its_internal_state() -> None:
    users = {m for m, imported in GRAPH.items() if "rummykit.game._round" in imported}
    assert users, "the referee's modules import the internal state"
    assert all(m.startswith("rummykit.game.") for m in users), sorted(users)


def _diagram_layers(heading: str, package: str) -> list[set[str]]:
    """The layers of one of docs/api.md's "Inside ..." diagrams, top first, as module names."""
    api = (_DOCS / "api.md").read_text(encoding="utf-8")
    block = api.split(f"### {heading}", 1)[1].split("```text\n", 1)[1].split("```")[0]
    layers = []
    for line in block.splitlines():
        names = line[:32].split("·")
        layers.append({f"{package}.{n.strip()}" for n in names})
    return layers


@pytest.mark.parametrize(
    ("heading", "package"),
    [("Inside the referee", "rummykit.game"), ("Inside the meld checks", "rummykit.melds")],
)
def test_the_package_diagram_has_every_module_once_and_arrows_point_down(
    heading: str, package: str
) -> None:
    layers = _diagram_layers(heading, package)
    listed = [m for layer in layers for m in layer]
    inner = {m for m in MODULES if m.startswith(f"{package}.")}
    assert sorted(listed) == sorted(inner)  # each module once, none missing
    for depth, layer in enumerate(layers):
        below = set().union(*layers[depth + 1 :])
        for module in layer:
            inside = {m for m in GRAPH[module] if m.startswith(f"{package}.")}
            assert inside <= below, f"{module} leans on {sorted(inside - below)}, not below it"


# --- packages split by family: short modules, each family on the package's shared modules ----

#: Packages made of one module per family (and shared modules below them): none grows long.
_SPLIT = ("rummykit.exercises", "rummykit.melds")
_LONGEST = 600  # lines


@pytest.mark.parametrize(
    "name",
    sorted(m for m in MODULES if m in _SPLIT or m.startswith(tuple(f"{p}." for p in _SPLIT))),
)
def test_a_module_of_a_package_split_by_family_stays_short(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= _LONGEST, f"{name} has {lines} lines: split it by family"


@pytest.mark.parametrize(
    "name",
    sorted(m for m in MODULES if m in _SPLIT or m.startswith(tuple(f"{p}." for p in _SPLIT))),
)
def test_a_package_split_by_family_shares_only_public_names(name: str) -> None:
    source = MODULES[name].read_text(encoding="utf-8")
    assert _private_imports(source, name, same_package=False) == []


@pytest.mark.parametrize("package", _SPLIT)
def test_a_package_split_by_family_keeps_its_public_names_at_its_own_path(package: str) -> None:
    """``from rummykit.melds import X`` works for every public name, and the package's
    ``__init__`` only gathers them: each lives in one of its modules."""
    import importlib

    front = importlib.import_module(package)
    tree = ast.parse(MODULES[package].read_text(encoding="utf-8"))
    defined = [node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]
    assert defined == []
    for name in front.__all__:
        home = getattr(front, name)
        assert home is getattr(importlib.import_module(_home_module(package, name)), name), name


def _home_module(package: str, name: str) -> str:
    """The module of ``package`` whose ``__all__`` lists ``name``."""
    import importlib

    for module in sorted(m for m in MODULES if m.startswith(f"{package}.")):
        if name in getattr(importlib.import_module(module), "__all__", ()):
            return module
    raise AssertionError(f"{package}.{name} is in no module's __all__")
