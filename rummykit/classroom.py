"""``rummykit classroom``: serve the class notebook (only the card table) to a class through Voilà.

Voilà runs the notebook in a kernel of its own for each page and refuses to run any other
code, so a student's browser gets the table and nothing else. Voilà's shutdown of a kernel
when its tab closes is refused upstream (``403 '_xsrf' argument missing``), so kernel
*culling* is what frees them: a kernel idle for ``cull_timeout`` seconds with no page
connected is shut down, checked every ``cull_interval`` seconds.

Voilà runs in this module's process (``python -m rummykit.classroom``, which takes Voilà's own
arguments): its page templates, which it compiled again for every page (each page builds a
fresh Jinja environment), are compiled once and shared, and the notebook format's validator,
which the first page waited for, is compiled at start. Students' pages load only the
front-end extensions the table needs (:data:`EXTENSIONS`), whatever else the teacher's
Jupyter has, and kernels are reached through local sockets rather than TCP ports.

>>> settings = ClassroomSettings(port=8870)
>>> command = voila_arguments(settings, "classroom.ipynb")
>>> command[1:4]
['-m', 'rummykit.classroom', 'classroom.ipynb']
>>> [part for part in command if "cull" in part]
['--MappingKernelManager.cull_idle_timeout=600', '--MappingKernelManager.cull_interval=60', '--MappingKernelManager.cull_connected=False']
>>> share_urls(settings)
['http://127.0.0.1:8870/']
"""

from __future__ import annotations

import contextlib
import importlib.util
import ipaddress
import os
import re
import secrets
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from rummykit.errors import RummykitError
from rummykit.messages import render
from rummykit.tutorials import replace_process
from rummykit.variants import VARIANTS

__all__ = [
    "CARDS",
    "CULL_INTERVAL",
    "CULL_TIMEOUT",
    "DEFAULT_IP",
    "DEFAULT_PORT",
    "DEFAULT_PREHEAT",
    "EXTENSIONS",
    "LEVEL_NAMES",
    "ClassroomError",
    "ClassroomSettings",
    "class_notebook",
    "classroom_command",
    "classroom_environment",
    "default_max_students",
    "make_code",
    "share_urls",
    "voila_arguments",
]

DEFAULT_IP = "127.0.0.1"
"""Where the server listens unless told otherwise: this computer only."""

DEFAULT_PORT = 8866
"""Voilà's own default port."""

CULL_TIMEOUT = 600
"""Seconds a kernel may sit idle, with no page connected, before it is shut down."""

CULL_INTERVAL = 60
"""Seconds between two checks for idle kernels."""

DEFAULT_PREHEAT = 0
"""Kernels kept started, the class notebook run in them, ahead of the next student: none by
default, so that no kernel runs before a student has typed the class code."""

CARDS = ("open", "closed")
"""How the computer's cards are shown: open (its reasoning names the cards it holds: open-cards
teaching) or closed (its reasoning without its hidden cards)."""

STUDENT_MEMORY = 150 * 2**20
"""Bytes of memory counted per student for the default ``--max-students``: a table's kernel
measured 58 MB resident (docs/performance.md), with room for a long game and Voilà's share."""

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The letters of a made-up class code: no 0/O or 1/I, so it reads aloud and types easily."""

_CODE = re.compile(r"[A-Za-z0-9-]{4,20}")

EXTENSIONS = (
    "@jupyter-widgets/jupyterlab-manager",
    "@voila-dashboards/widgets-manager8",
    "anywidget",
)
"""The JupyterLab front-end extensions a student's page loads: the widgets' and the Table's
(an anywidget). Any other the teacher has installed stays out of the students' pages."""

LEVEL_NAMES = ("easy", "normal", "hard")
"""The computer's levels a page can start with (the keys of ``rummykit.ai.LEVELS``)."""

_CHECKOUT_SHARE = Path(__file__).resolve().parent.parent / "share" / "jupyter"


class ClassroomError(RummykitError):
    """A classroom setting can't be used; the message names it and says what is accepted."""


@dataclass(frozen=True, slots=True)
class ClassroomSettings:
    """What the teacher chose: where to listen, what the page starts with, when to cull.

    >>> ClassroomSettings(port=0)
    Traceback (most recent call last):
    ...
    rummykit.classroom.ClassroomError: --port 0 is not a port: give a whole number from 1 to 65535
    """

    ip: str = DEFAULT_IP
    port: int = DEFAULT_PORT
    variant: str = "hungarian"
    level: str = "normal"
    cull_timeout: int = CULL_TIMEOUT
    cull_interval: int = CULL_INTERVAL
    preheat: int = DEFAULT_PREHEAT
    code: str = ""
    max_students: int = 0
    cards: str = "open"

    def __post_init__(self) -> None:
        try:
            ipaddress.ip_address(self.ip)
        except ValueError:
            raise ClassroomError(render("classroom_bad_ip", value=self.ip)) from None
        if not 1 <= self.port <= 65535:
            raise ClassroomError(render("classroom_bad_port", value=str(self.port)))
        if self.variant not in VARIANTS:
            raise ClassroomError(
                render("unknown_variant", name=self.variant, choices=", ".join(VARIANTS))
            )
        if self.level not in LEVEL_NAMES:
            raise ClassroomError(
                render("unknown_level", name=self.level, choices=", ".join(LEVEL_NAMES))
            )
        for option, value in (
            ("--cull-timeout", self.cull_timeout),
            ("--cull-interval", self.cull_interval),
        ):
            if value < 1:
                raise ClassroomError(
                    render("classroom_bad_seconds", option=option, value=str(value), least="1")
                )
        if self.cull_interval > self.cull_timeout:
            raise ClassroomError(
                render(
                    "classroom_interval_too_long",
                    interval=str(self.cull_interval),
                    timeout=str(self.cull_timeout),
                )
            )
        if self.preheat < 0:
            raise ClassroomError(render("classroom_bad_preheat", value=str(self.preheat)))
        if self.code and not _CODE.fullmatch(self.code):
            raise ClassroomError(render("classroom_bad_code", value=self.code))
        if self.max_students < 0:
            raise ClassroomError(render("classroom_bad_max", value=str(self.max_students)))
        if self.cards not in CARDS:
            raise ClassroomError(render("classroom_bad_cards", value=self.cards))

    def ready(self) -> ClassroomSettings:
        """These settings with a class code made up if none was given, and the most students
        from this computer's memory if not given.

        >>> ready = ClassroomSettings().ready()
        >>> len(ready.code), ready.max_students >= 1
        (6, True)
        >>> ClassroomSettings(code="maths-7b", max_students=5).ready().code
        'maths-7b'
        """
        from dataclasses import replace

        return replace(
            self,
            code=self.code or make_code(),
            max_students=self.max_students or default_max_students(),
        )

    @classmethod
    def from_text(cls, **texts: str) -> ClassroomSettings:
        """Settings from the command line's words: whole numbers where numbers are due, each
        bad one refused by name.

        >>> ClassroomSettings.from_text(port="80x")
        Traceback (most recent call last):
        ...
        rummykit.classroom.ClassroomError: --port 80x is not a port: give a whole number from 1 to 65535
        >>> ClassroomSettings.from_text(cull_timeout="ten")
        Traceback (most recent call last):
        ...
        rummykit.classroom.ClassroomError: --cull-timeout ten is not a number of seconds: give a whole number from 1 up
        """
        numbers = {
            "port": ("classroom_bad_port", {}),
            "cull_timeout": ("classroom_bad_seconds", {"option": "--cull-timeout", "least": "1"}),
            "cull_interval": ("classroom_bad_seconds", {"option": "--cull-interval", "least": "1"}),
            "preheat": ("classroom_bad_preheat", {}),
            "max_students": ("classroom_bad_max", {}),
        }
        values: dict[str, str | int] = dict(texts)
        for name, (code, more) in numbers.items():
            if name in texts:
                try:
                    values[name] = int(texts[name].strip())
                except ValueError:
                    raise ClassroomError(render(code, value=texts[name], **more)) from None
                if name == "max_students" and values[name] == 0:  # 0 is "not given"
                    raise ClassroomError(render(code, value=texts[name], **more))
        return cls(**values)  # type: ignore[arg-type]


def make_code() -> str:
    """A new class code: six letters and digits, drawn by the system's secure random source.

    >>> code = make_code()
    >>> len(code), set(code) <= set(CODE_LETTERS)
    (6, True)
    """
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(6))


def memory_bytes() -> int:
    """This computer's memory in bytes (0 where the system doesn't say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return 0


def default_max_students(memory: int | None = None) -> int:
    """The most tables at once by default: half of ``memory`` (this computer's) at
    :data:`STUDENT_MEMORY` a student, at least 1; 30 where the memory isn't known.

    >>> default_max_students(8 * 2**30), default_max_students(1 * 2**30), default_max_students(0)
    (27, 3, 30)
    """
    memory = memory_bytes() if memory is None else memory
    if memory <= 0:
        return 30
    return max(1, memory // 2 // STUDENT_MEMORY)


def class_notebook() -> Path:
    """The class notebook that comes with rummykit (one cell: the student's page).

    >>> class_notebook().name
    'classroom.ipynb'
    """
    return Path(str(resources.files("rummykit") / "classroom.ipynb"))


def voila_arguments(settings: ClassroomSettings, notebook: str | os.PathLike[str]) -> list[str]:
    """The command that serves ``notebook`` with Voilà: rummykit's template (nothing from a
    CDN), no code shown, no error details sent to students, only the table's front-end
    extensions, kernels reached through local sockets (on POSIX systems), idle kernels
    culled; ``settings.preheat`` kernels started ahead (none at 0).

    >>> voila_arguments(ClassroomSettings(preheat=2), "c.ipynb")[-2:]
    ['--preheat_kernel=True', '--pool_size=2']
    >>> [part for part in voila_arguments(ClassroomSettings(preheat=0), "c.ipynb") if "pool" in part]
    []
    """
    command = [
        sys.executable,
        "-m",
        "rummykit.classroom",
        str(notebook),
        "--no-browser",
        f"--Voila.ip={settings.ip}",
        f"--port={settings.port}",
        "--template=rummykit",
        "--strip_sources=True",
        "--show_tracebacks=False",
        *(f"--VoilaConfiguration.extension_allowlist={name}" for name in EXTENSIONS),
        f"--MappingKernelManager.cull_idle_timeout={settings.cull_timeout}",
        f"--MappingKernelManager.cull_interval={settings.cull_interval}",
        "--MappingKernelManager.cull_connected=False",
    ]
    if os.name == "posix":
        # kernels reached through files, not TCP ports: with a class's kernels starting at once,
        # a port chosen for a kernel can be taken by another connection before the kernel binds
        # it, and that kernel dies ("Address already in use"; 1 page of 10 lost, measured)
        command.append("--KernelManager.transport=ipc")
    if settings.preheat:
        command += ["--preheat_kernel=True", f"--pool_size={settings.preheat}"]
    return command


def classroom_environment(settings: ClassroomSettings) -> dict[str, str]:
    """The environment for Voilà and its kernels: where rummykit's Voilà template is (a source
    checkout's ``share/jupyter``; an installed wheel puts it on Jupyter's own path), and the
    variant and level the page starts with.

    >>> env = classroom_environment(ClassroomSettings(variant="rommi", level="easy"))
    >>> env["RUMMYKIT_CLASS_VARIANT"], env["RUMMYKIT_CLASS_LEVEL"]
    ('rommi', 'easy')
    """
    env = dict(os.environ)
    if _CHECKOUT_SHARE.is_dir():
        paths = [str(_CHECKOUT_SHARE), env.get("JUPYTER_PATH", "")]
        env["JUPYTER_PATH"] = os.pathsep.join(p for p in paths if p)
    # the names are rummykit.widgets.class_table's VARIANT_VARIABLE and LEVEL_VARIABLE (not
    # imported: the server needs no widgets)
    env["RUMMYKIT_CLASS_VARIANT"] = settings.variant
    env["RUMMYKIT_CLASS_LEVEL"] = settings.level
    env["RUMMYKIT_CLASS_CARDS"] = settings.cards
    # for the server alone (rummykit.classroom_server takes the code out before any kernel)
    env["RUMMYKIT_CLASS_CODE"] = settings.code
    env["RUMMYKIT_CLASS_MAX"] = str(settings.max_students)
    return env


def share_urls(settings: ClassroomSettings) -> list[str]:
    """The addresses to give the students: this computer's address on the class network when
    listening on every address (``0.0.0.0``), else the address listened on.

    >>> share_urls(ClassroomSettings(ip="10.1.2.3", port=9000))
    ['http://10.1.2.3:9000/']
    """
    hosts = [settings.ip]
    if ipaddress.ip_address(settings.ip).is_unspecified:
        hosts = _network_addresses() or [socket.gethostname()]
    return [f"http://{_host(host)}:{settings.port}/" for host in hosts]


def _host(address: str) -> str:
    try:
        return f"[{address}]" if ipaddress.ip_address(address).version == 6 else address
    except ValueError:  # a host name
        return address


def _network_addresses() -> list[str]:
    """This computer's address toward the network (no packet is sent), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routing is looked up, nothing sent
            address = str(probe.getsockname()[0])
        except OSError:
            return []
    return [] if ipaddress.ip_address(address).is_loopback else [address]


def classroom_command(settings: ClassroomSettings) -> int:
    """``rummykit classroom``: say where students connect, then run Voilà until it stops (its
    exit status), or 2 when Voilà isn't installed."""
    if importlib.util.find_spec("voila") is None:
        message = render("cli_error", command="classroom", message=render("classroom_no_voila"))
        print(message, file=sys.stderr)
        return 2
    settings = settings.ready()
    print(render("classroom_serving"))
    for url in share_urls(settings):
        print(render("classroom_share", url=url))
    print(render("classroom_code", code=settings.code))
    memory = memory_bytes()
    print(
        render(
            "classroom_limit",
            count=settings.max_students,
            memory=str(round(memory / 2**30)) if memory else "?",
            each=str(STUDENT_MEMORY // 2**20),
        )
    )
    print(render(f"classroom_cards_{settings.cards}"))
    if ipaddress.ip_address(settings.ip).is_loopback:
        print(render("classroom_share_local"))
    print(
        render(
            "classroom_culling",
            timeout=str(settings.cull_timeout),
            interval=str(settings.cull_interval),
        ),
        flush=True,
    )
    return replace_process(
        voila_arguments(settings, class_notebook()), classroom_environment(settings)
    )


# --- Voilà, with what it compiles for every page compiled once ----------------------------


def _compiled_once() -> type[Any]:
    """A Jinja extension that gives every environment it is loaded into one cache, for the
    whole process, of the code Jinja compiles from templates. Voilà builds a new Jinja
    environment for every page, which would compile every template again (most of Voilà's
    own CPU per page). A changed template has another checksum and is compiled anew;
    environments that compile differently (async or not, other extensions) keep apart."""
    from jinja2 import BytecodeCache
    from jinja2.bccache import Bucket
    from jinja2.ext import Extension

    def key(bucket: Bucket) -> tuple[str, bool, tuple[str, ...]]:
        environment = bucket.environment
        return (bucket.key, environment.is_async, tuple(sorted(environment.extensions)))

    class Shared(BytecodeCache):
        def __init__(self) -> None:
            self.code: dict[tuple[str, bool, tuple[str, ...]], bytes] = {}

        def load_bytecode(self, bucket: Bucket) -> None:
            if (code := self.code.get(key(bucket))) is not None:
                bucket.bytecode_from_string(code)

        def dump_bytecode(self, bucket: Bucket) -> None:
            self.code[key(bucket)] = bucket.bytecode_to_string()

    shared = Shared()

    class SharedCode(Extension):
        def __init__(self, environment: Any) -> None:
            super().__init__(environment)
            if environment.bytecode_cache is None:
                environment.bytecode_cache = shared

    return SharedCode


def _page_exporter(renderer_exporter: type[Any]) -> type[Any]:
    """Voilà's page exporter, made a subclass whose Jinja environment loads
    :func:`_compiled_once`: the pages share the code compiled from their templates, and
    nbconvert's own list of extensions, which every exporter of the process reads, stays as it
    is."""
    shared = _compiled_once()

    class ClassroomExporter(renderer_exporter):  # type: ignore[misc]
        @property
        def environment(self) -> Any:
            environment = super().environment
            if shared.identifier not in environment.extensions:  # before any template loads
                environment.add_extension(shared)
            return environment

    return ClassroomExporter


@contextlib.contextmanager
def _pages_compiled_once() -> Iterator[None]:
    """While inside, Voilà builds each page with :func:`_page_exporter` (its page renderer
    takes the exporter class by name, so the name is given the subclass and given back on the
    way out); a Voilà that builds its pages otherwise serves as plain Voilà does."""
    from voila import notebook_renderer  # type: ignore[import-untyped]

    original = getattr(notebook_renderer, "VoilaExporter", None)
    if not isinstance(original, type):
        yield
        return
    notebook_renderer.VoilaExporter = _page_exporter(original)
    try:
        yield
    finally:
        notebook_renderer.VoilaExporter = original


def serve(arguments: list[str]) -> None:
    """Run Voilà with ``arguments`` in this process, its page templates compiled once for all
    pages and the notebook format's validator compiled before the first page (the notebook,
    the first argument, read once)."""
    import nbformat

    notebook = next((a for a in arguments if not a.startswith("-")), None)
    if notebook is not None and Path(notebook).is_file():
        with contextlib.suppress(ValueError, OSError):  # a bad notebook is Voilà's to report
            nbformat.read(notebook, as_version=4)  # type: ignore[no-untyped-call]
    with _pages_compiled_once():
        _launch(arguments)


def _launch(arguments: list[str]) -> None:
    """Voilà's application with rummykit's door (:mod:`rummykit.classroom_server`), run."""
    from rummykit.classroom_server import classroom_app

    classroom_app().launch_instance(argv=arguments)


if __name__ == "__main__":  # pragma: no cover - the server's process, run by voila_arguments
    serve(sys.argv[1:])
