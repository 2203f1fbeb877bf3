"""``rummykit classroom``: serve the class notebook (only the card table) to a class through Voilà.

Voilà runs the notebook in a kernel of its own for each page and refuses to run any other
code, so a student's browser gets the table and nothing else. Voilà's shutdown of a kernel
when its tab closes is refused upstream (``403 '_xsrf' argument missing``), so kernel
*culling* is what frees them: a kernel idle for ``cull_timeout`` seconds with no page
connected is shut down, checked every ``cull_interval`` seconds.

>>> settings = ClassroomSettings(port=8870)
>>> command = voila_arguments(settings, "classroom.ipynb")
>>> command[1:4]
['-m', 'voila', 'classroom.ipynb']
>>> [part for part in command if "cull" in part]
['--MappingKernelManager.cull_idle_timeout=600', '--MappingKernelManager.cull_interval=60', '--MappingKernelManager.cull_connected=False']
>>> share_urls(settings)
['http://127.0.0.1:8870/']
"""

from __future__ import annotations

import importlib.util
import ipaddress
import os
import socket
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from rummykit.messages import render
from rummykit.tutorials import _start
from rummykit.variants import VARIANTS

__all__ = [
    "CULL_INTERVAL",
    "CULL_TIMEOUT",
    "DEFAULT_IP",
    "DEFAULT_PORT",
    "LEVEL_NAMES",
    "ClassroomError",
    "ClassroomSettings",
    "class_notebook",
    "classroom_command",
    "classroom_environment",
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

LEVEL_NAMES = ("easy", "normal", "hard")
"""The computer's levels a page can start with (the keys of ``rummykit.ai.LEVELS``)."""

_CHECKOUT_SHARE = Path(__file__).resolve().parent.parent / "share" / "jupyter"


class ClassroomError(ValueError):
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
    preheat: int = 0

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
        }
        values: dict[str, str | int] = dict(texts)
        for name, (code, more) in numbers.items():
            if name in texts:
                try:
                    values[name] = int(texts[name].strip())
                except ValueError:
                    raise ClassroomError(render(code, value=texts[name], **more)) from None
        return cls(**values)  # type: ignore[arg-type]


def class_notebook() -> Path:
    """The class notebook that comes with rummykit (one cell: the student's page).

    >>> class_notebook().name
    'classroom.ipynb'
    """
    return Path(str(resources.files("rummykit") / "classroom.ipynb"))


def voila_arguments(settings: ClassroomSettings, notebook: str | os.PathLike[str]) -> list[str]:
    """The command that serves ``notebook`` with Voilà: rummykit's template (nothing from a
    CDN), no code shown, no error details sent to students, idle kernels culled; kernels
    started ahead only when ``settings.preheat`` asks for them.

    >>> voila_arguments(ClassroomSettings(preheat=2), "c.ipynb")[-2:]
    ['--preheat_kernel=True', '--pool_size=2']
    """
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        "--no-browser",
        f"--Voila.ip={settings.ip}",
        f"--port={settings.port}",
        "--template=rummykit",
        "--strip_sources=True",
        "--show_tracebacks=False",
        f"--MappingKernelManager.cull_idle_timeout={settings.cull_timeout}",
        f"--MappingKernelManager.cull_interval={settings.cull_interval}",
        "--MappingKernelManager.cull_connected=False",
    ]
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
    print(render("classroom_serving"))
    for url in share_urls(settings):
        print(render("classroom_share", url=url))
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
    return _start(voila_arguments(settings, class_notebook()), classroom_environment(settings))
