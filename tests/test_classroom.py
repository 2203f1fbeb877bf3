"""``rummykit classroom``: options checked by name, the Voilà command it builds (culling on,
rummykit's template, no code), the class notebook (only the table, nothing else imported), the
student's page, and what happens without Voilà. The served page in a real browser is in
``tests/browser/test_classroom_browser.py``."""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummykit import classroom
from rummykit.classroom import EXTENSIONS, ClassroomError, ClassroomSettings, voila_arguments
from rummykit.cli import main
from rummykit.messages import render

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], dict[str, str]]]:
    """What ``rummykit classroom`` would run, instead of running it."""
    calls: list[tuple[list[str], dict[str, str]]] = []

    def start(command: list[str], env: dict[str, str] | None = None) -> int:
        calls.append((command, env or {}))
        return 0

    monkeypatch.setattr(classroom, "replace_process", start)
    return calls


def option(command: list[str], name: str) -> str:
    """The value of ``--name=value`` in the command (exactly one)."""
    (value,) = [part.split("=", 1)[1] for part in command if part.startswith(f"--{name}=")]
    return value


# --- the options, each bad one refused by name ------------------------------------------------


BAD_VALUES = {
    "--port": "http 0 65536 -1 8.5",
    "--cull-timeout": "ten 0 -600",
    "--cull-interval": "1m 0",
    "--preheat": "-2 many",
    "--ip": "school.example 300.1.1.1",
    "--code": "abc 123456789012345678901 ab!cd",
    "--max-students": "0 -3 lots",
    "--cards": "hidden OPEN",
}
"""Values each option refuses; the error quotes the option and the value."""

BAD_CASES = [
    *([option, value] for option, values in BAD_VALUES.items() for value in values.split()),
    ["--cull-timeout", "30", "--cull-interval", "60"],  # checking less often than it culls
    ["--variant", "gin"],
    ["--level", "expert"],
]


def named_part(arguments: list[str]) -> str:
    """What the error must name: the option and its value, or the unknown name in quotes."""
    option, value = arguments[-2:]
    return f"'{value}' is not" if option in ("--variant", "--level") else f"{option} {value}"


@pytest.mark.parametrize("arguments", BAD_CASES, ids=" ".join)
def test_a_bad_option_is_refused_by_name_and_nothing_starts(
    arguments: list[str], started: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["classroom", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummykit classroom: ") and named_part(arguments) in err
    assert err.count("\n") == 1  # one sentence, no traceback
    assert not started


def test_the_settings_refuse_what_the_command_line_would(started: list[Any]) -> None:
    with pytest.raises(ClassroomError, match="--port 70000"):
        ClassroomSettings(port=70000)
    with pytest.raises(ClassroomError, match="--cull-interval 61 is longer than --cull-timeout 60"):
        ClassroomSettings(cull_timeout=60, cull_interval=61)
    with pytest.raises(ClassroomError, match="--preheat -1"):
        ClassroomSettings(preheat=-1)
    assert ClassroomSettings(cull_timeout=5, cull_interval=5).cull_interval == 5


# --- the command it runs ----------------------------------------------------------------------


def test_the_defaults_serve_this_computer_only_with_culling_on(
    started: list[tuple[list[str], dict[str, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["classroom"]) == 0
    ((command, env),) = started
    assert command[:3] == [sys.executable, "-m", "rummykit.classroom"]  # Voilà, in serve()
    notebook = Path(command[3])
    assert notebook.name == "classroom.ipynb" and notebook.is_file()
    assert option(command, "Voila.ip") == "127.0.0.1"
    assert option(command, "port") == "8866"
    assert option(command, "template") == "rummykit"
    assert option(command, "strip_sources") == "True"
    assert option(command, "show_tracebacks") == "False"
    assert option(command, "MappingKernelManager.cull_idle_timeout") == "600"
    assert option(command, "MappingKernelManager.cull_interval") == "60"
    assert option(command, "MappingKernelManager.cull_connected") == "False"
    # no kernel before a student has typed the class code: no preheated pool by default
    assert not [part for part in command if "preheat" in part or "pool_size" in part]
    allowed = [part.split("=", 1)[1] for part in command if "extension_allowlist=" in part]
    assert allowed == list(EXTENSIONS)
    assert "--no-browser" in command
    assert env["RUMMYKIT_CLASS_VARIANT"] == "hungarian" and env["RUMMYKIT_CLASS_LEVEL"] == "normal"
    out = capsys.readouterr().out
    assert render("classroom_share", url="http://127.0.0.1:8866/") in out
    assert "--ip 0.0.0.0" in out  # says how to open it to the class network
    assert "600 s" in out and "60 s" in out


def test_the_teacher_s_choices_reach_voila_and_the_page(
    started: list[tuple[list[str], dict[str, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--port", "9001", "--variant", "rommi", "--level", "hard"]
    arguments += ["--cull-timeout", "900", "--cull-interval", "30", "--preheat", "3"]
    assert main(["classroom", *arguments]) == 0
    ((command, env),) = started
    assert option(command, "port") == "9001"
    assert option(command, "MappingKernelManager.cull_idle_timeout") == "900"
    assert option(command, "MappingKernelManager.cull_interval") == "30"
    assert option(command, "preheat_kernel") == "True" and option(command, "pool_size") == "3"
    assert env["RUMMYKIT_CLASS_VARIANT"] == "rommi" and env["RUMMYKIT_CLASS_LEVEL"] == "hard"
    assert "http://127.0.0.1:9001/" in capsys.readouterr().out


def test_on_every_address_it_prints_an_address_students_can_open(
    started: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["classroom", "--ip", "0.0.0.0", "--port", "8870"]) == 0
    ((command, _env),) = started
    assert option(command, "Voila.ip") == "0.0.0.0"
    out = capsys.readouterr().out
    urls = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("Students open")]
    assert urls and all(url.endswith(":8870/") and "0.0.0.0" not in url for url in urls)
    assert "--ip 0.0.0.0" not in out  # no advice to do what was done


def test_voila_reads_the_command_as_the_culling_configuration() -> None:
    """Voilà's own parser turns the command into the kernel manager's culling settings."""
    pytest.importorskip("voila")
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from voila.app import Voila
    from voila.configuration import VoilaConfiguration

    command = voila_arguments(ClassroomSettings(cull_timeout=120, cull_interval=15), "c.ipynb")
    app = Voila()
    app.parse_command_line(command[4:])
    kernels = AsyncMappingKernelManager(config=app.config)  # the class Voilà builds on
    assert (kernels.cull_idle_timeout, kernels.cull_interval) == (120, 15)
    assert kernels.cull_connected is False
    settings = VoilaConfiguration(config=app.config)
    assert settings.template == "rummykit" and settings.strip_sources is True
    assert settings.show_tracebacks is False
    assert app.ip == "127.0.0.1" and app.port == 8866
    assert settings.extension_allowlist == list(EXTENSIONS)
    if os.name == "posix":  # kernels on local sockets: no TCP port to lose to a race
        from jupyter_client.manager import KernelManager

        assert KernelManager(config=app.config).transport == "ipc"


def test_a_pool_of_none_starts_no_kernel_ahead(started: list[Any]) -> None:
    assert main(["classroom", "--preheat", "0"]) == 0
    ((command, _env),) = started
    assert not [part for part in command if "preheat" in part or "pool_size" in part]


def test_the_pages_load_the_widget_extensions_and_no_other() -> None:
    """Every extension the table needs is installed (the page would draw no widget without
    them), and an extension the teacher has besides them stays out of the page."""
    pytest.importorskip("voila")
    from jupyterlab_server.config import get_federated_extensions
    from voila.utils import filter_extension, get_voila_labextensions_path

    installed = get_federated_extensions(get_voila_labextensions_path())
    assert set(EXTENSIONS) <= set(installed)
    teacher_s = [*installed.values(), {"name": "jupyterlab-git"}, {"name": "@x/plotly"}]
    loaded = filter_extension(teacher_s, extension_allowlist=list(EXTENSIONS))
    assert sorted(x["name"] for x in loaded) == sorted(EXTENSIONS)


def test_the_template_it_names_is_found_on_the_path_it_gives() -> None:
    env = classroom.classroom_environment(ClassroomSettings())
    folders = [Path(p) for p in env["JUPYTER_PATH"].split(os.pathsep) if p]
    assert any(
        (f / "voila" / "templates" / "rummykit" / "index.html.j2").is_file() for f in folders
    )


def test_without_voila_one_sentence_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, started: list[Any], capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "voila" else real(name, *a)
    )
    assert main(["classroom"]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == render(
        "cli_error", command="classroom", message=render("classroom_no_voila")
    )
    assert 'pip install "rummykit[classroom]"' in captured.err
    assert captured.out == "" and not started


def test_the_classroom_extra_pins_versions_installed_together_here() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    pins = dict(line.split("==") for line in extras["classroom"])
    assert "voila" in pins and "ipywidgets" in pins and "anywidget" in pins
    for package, version in pins.items():
        assert importlib.metadata.version(package) == version, package


# --- Voilà's per-page work done once ----------------------------------------------------------


def test_pages_share_the_code_compiled_from_a_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page's fresh Jinja environment renders the template without compiling it again;
    a changed template is compiled anew, and an async environment gets its own code."""
    jinja2 = pytest.importorskip("jinja2")
    compiled: list[str] = []
    compile_ = jinja2.Environment.compile

    def counting(self: Any, source: str, name: str | None = None, *args: Any) -> Any:
        compiled.append(f"{name} async={self.is_async}")
        return compile_(self, source, name, *args)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    shared = classroom._compiled_once()
    (tmp_path / "page.j2").write_text("{% for x in xs %}{{ x }},{% endfor %}", encoding="utf-8")

    def page(xs: list[int], **options: Any) -> str:
        loader = jinja2.FileSystemLoader(tmp_path)
        environment = jinja2.Environment(loader=loader, extensions=[shared], **options)
        if options.get("enable_async"):
            return str(asyncio.run(environment.get_template("page.j2").render_async(xs=xs)))
        return str(environment.get_template("page.j2").render(xs=xs))

    assert [page([1, 2]), page([3]), page([])] == ["1,2,", "3,", ""]
    assert compiled == ["page.j2 async=False"]
    assert page([4], enable_async=True) == "4,"
    assert compiled[1:] == ["page.j2 async=True"]
    (tmp_path / "page.j2").write_text("{{ xs | length }} cards", encoding="utf-8")
    assert page([1, 2, 3]) == "3 cards" and len(compiled) == 3
    assert jinja2.Environment(extensions=[shared]).from_string("{{ 1 + 1 }}").render() == "2"


def test_serve_runs_voila_with_the_shared_code_and_the_validator_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Voilà's pages share the code compiled from their templates through the classroom's
    own page exporter; nbconvert's list of extensions, which every exporter reads, is the
    same list with the same entries while the server runs and after, and Voilà's renderer
    gets its own exporter class back."""
    pytest.importorskip("voila")
    from nbconvert.exporters import HTMLExporter, templateexporter
    from nbformat import validator
    from voila import notebook_renderer
    from voila.exporter import VoilaExporter
    from voila.paths import collect_template_paths

    extensions = templateexporter.JINJA_EXTENSIONS
    before = list(extensions)
    monkeypatch.setattr(validator, "validators", {})
    ran: list[list[str]] = []
    during: list[Any] = []

    def launch(arguments: list[str]) -> None:
        ran.append(arguments)
        paths = collect_template_paths(["voila", "nbconvert"], "lab")
        pages = [notebook_renderer.VoilaExporter(template_paths=paths, template_name="lab")]
        pages.append(notebook_renderer.VoilaExporter(template_paths=paths, template_name="lab"))
        during.extend(page.environment.bytecode_cache for page in pages)
        during.append(pages[0].template)  # the page template loads through that environment
        during.append(HTMLExporter().environment.bytecode_cache)  # any other exporter
        during.append(list(templateexporter.JINJA_EXTENSIONS))

    monkeypatch.setattr(classroom, "_launch", launch)
    arguments = [str(classroom.class_notebook()), "--port=9999", "--template=rummykit"]
    classroom.serve(arguments)
    assert ran == [arguments]
    first, second, template, plain, listed = during
    assert first is not None and first is second  # one cache for every page
    assert template.name == "index.html.j2"
    assert plain is None  # nbconvert's own exporters are left as they are
    assert listed == before
    assert templateexporter.JINJA_EXTENSIONS is extensions and extensions == before
    assert notebook_renderer.VoilaExporter is VoilaExporter
    assert VoilaExporter(template_name="lab").environment.bytecode_cache is None
    assert validator.validators  # compiled before any page asks


def test_serve_runs_voila_as_it_is_when_voila_or_the_notebook_differ(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("voila")
    from voila import notebook_renderer

    monkeypatch.delattr(notebook_renderer, "VoilaExporter")  # a Voilà that builds pages otherwise
    ran: list[list[str]] = []
    monkeypatch.setattr(classroom, "_launch", ran.append)
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json", encoding="utf-8")
    classroom.serve([str(broken), "--port=9999"])
    assert ran == [[str(broken), "--port=9999"]]
    assert not hasattr(notebook_renderer, "VoilaExporter")


# --- the class notebook and the student's page ------------------------------------------------


def test_the_class_notebook_holds_one_cell_that_shows_the_table(tmp_path: Path) -> None:
    nbclient = pytest.importorskip("nbclient")
    import nbformat

    notebook = nbformat.read(classroom.class_notebook(), as_version=4)
    assert [cell.cell_type for cell in notebook.cells] == ["code"]
    env = {**os.environ, "RUMMYKIT_CLASS_VARIANT": "rommi", "RUMMYKIT_CLASS_LEVEL": "easy"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    old = dict(os.environ)
    os.environ.update(env)  # the kernel inherits this process's environment, as under Voilà
    try:
        nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    (output,) = notebook.cells[0].outputs
    assert output["data"]["text/plain"] == "ClassTable('rommi', level='easy')"
    assert "application/vnd.jupyter.widget-view+json" in output["data"]


def test_the_class_notebook_imports_nothing_the_table_does_not_need() -> None:
    notebook = json.loads(classroom.class_notebook().read_text(encoding="utf-8"))
    code = "".join(notebook["cells"][0]["source"])
    unwanted = [
        "rummykit.widgets.checker",
        "rummykit.widgets.puzzle",
        "rummykit.widgets.stepper",
        "rummykit.exercises",
        "rummykit.puzzles",
        "rummykit.tournament",
        "matplotlib",
    ]
    probe = f"{code}\nimport sys\nprint([m for m in {unwanted!r} if m in sys.modules])"
    ran = subprocess.run(
        [sys.executable, "-c", probe],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "[]"


@pytest.mark.parametrize("variant_name", ["hungarian", "rommi"])
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_new_game_deals_the_chosen_rules_against_the_chosen_level(
    variant_name: str, level: str
) -> None:
    from rummykit.widgets.class_table import ClassTable

    page = ClassTable(seed=1)
    first = page.table
    page._variant.value, page._level.value = variant_name, level
    page._new.click()
    assert page.table is not first and page.children[1] is page.table
    assert page.table.variant_name == variant_name
    assert [a.name for a in page.table.agents if a is not None] == [level]
    assert first.comm is None  # the old table was closed, its comm gone


def test_each_new_game_is_a_new_deal() -> None:
    from rummykit.widgets.class_table import ClassTable

    page = ClassTable("rommi", "easy")
    seeds = set()
    for _ in range(5):
        page._new.click()
        seeds.add(page.table.seed)
    assert len(seeds) == 5


# --- the class code, the most students, the computer's cards ----------------------------------


def test_a_code_is_made_up_and_printed_and_reaches_the_server_only(
    started: list[tuple[list[str], dict[str, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["classroom"]) == 0
    ((_command, env),) = started
    code = env["RUMMYKIT_CLASS_CODE"]
    assert len(code) == 6 and set(code) <= set(classroom.CODE_LETTERS)
    out = capsys.readouterr().out
    assert f"Class code: {code} " in out
    most = classroom.default_max_students()
    assert env["RUMMYKIT_CLASS_MAX"] == str(most) and f"At most {most} students at once" in out
    assert env["RUMMYKIT_CLASS_CARDS"] == "open" and "--cards closed hides them" in out
    # two starts, two codes (a code is never the same for every class)
    assert main(["classroom"]) == 0
    assert started[1][1]["RUMMYKIT_CLASS_CODE"] != code


def test_the_teacher_s_code_limit_and_closed_cards(
    started: list[tuple[list[str], dict[str, str]]], capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = ["--code", "Maths-7B", "--max-students", "1", "--cards", "closed"]
    assert main(["classroom", *arguments]) == 0
    ((_command, env),) = started
    assert env["RUMMYKIT_CLASS_CODE"] == "Maths-7B" and env["RUMMYKIT_CLASS_MAX"] == "1"
    assert env["RUMMYKIT_CLASS_CARDS"] == "closed"
    out = capsys.readouterr().out
    assert "Class code: Maths-7B" in out and "At most 1 student at once" in out
    assert "its reasoning leaves out the cards it holds" in out


def test_the_most_students_follow_the_memory() -> None:
    assert classroom.default_max_students(24 * 2**30) == 81
    assert classroom.default_max_students(2**30) == 3
    assert classroom.default_max_students(100 * 2**20) == 1  # never none
    assert classroom.default_max_students(0) == 30  # memory unknown


def test_a_student_s_table_keeps_the_teacher_s_cards_and_never_mentions_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("ipywidgets")
    from rummykit.widgets.class_table import ClassTable

    monkeypatch.setenv("RUMMYKIT_CLASS_CARDS", "closed")
    closed = ClassTable.from_environment()
    assert closed.table.show_reasoning is False
    assert all(
        set(entry) <= {"action", "mine", "name", "number", "seat", "text"}
        for entry in closed.table.ai_log
    )
    monkeypatch.setenv("RUMMYKIT_CLASS_CARDS", "open")
    opened = ClassTable.from_environment()
    assert opened.table.show_reasoning is True
    for page in (closed, opened):
        page.choose("rommi", "easy", seed=3)  # a new game keeps the choice
        assert page.table.show_reasoning is page.open_cards
        words = " ".join(str(v) for v in page.table.labels.values())
        assert "show_reasoning" not in words and "=False" not in words


def test_wrong_codes_are_counted_per_address_and_forgotten_after_the_window() -> None:
    from rummykit.classroom_server import WRONG_CODES, WRONG_WINDOW, WrongCodes

    now = [1000.0]
    tries = WrongCodes(clock=lambda: now[0])
    for i in range(WRONG_CODES - 1):
        now[0] += 1
        tries.wrong("10.0.0.1")
        tries.wrong(f"10.0.1.{i}")  # many addresses, one wrong code each
    assert tries.wait("10.0.0.1") == 0  # one short of the limit: the code is still read
    now[0] += 1
    tries.wrong("10.0.0.1")
    first = tries.wait("10.0.0.1")
    assert first == WRONG_WINDOW - (WRONG_CODES - 1)  # until the oldest is a window old
    assert all(tries.wait(f"10.0.1.{i}") == 0 for i in range(WRONG_CODES - 1))
    now[0] += first
    assert tries.wait("10.0.0.1") == 0
    now[0] += WRONG_WINDOW
    tries.wait("x")
    assert tries.sent == {}  # nothing kept for addresses that stopped
