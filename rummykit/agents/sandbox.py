"""The sandbox an agent program runs in: bubblewrap's namespaces where it works, and limits.

A class league runs students' programs, and a student who wants to win may try anything a
program can do as the teacher's own user: read the other hands from another process's
memory, rewrite another entrant's program, kill the referee. So every program starts in a
sandbox:

- ``"bwrap"``: `bubblewrap <https://github.com/containers/bubblewrap>`_ (Debian's
  ``bubblewrap`` package, ``/usr/bin/bwrap``) gives the program its own user, PID, IPC, UTS
  and network namespaces (it sees only its own processes and has no network, not even the
  machine's loopback), no capabilities, a read-only view of the system, of the interpreter
  and of its own files, a private ``/tmp``, and nothing else: not the league folder's
  results, not the other entrants, not the organiser's home. When the program ends, or the
  referee does, every process it started ends with it.
- ``"none"``: no sandbox (macOS, Windows, a kernel without user namespaces): the limits
  only, set in the program's process before it starts.
- ``"auto"``: bubblewrap when it works here, else the limits only — said in one line.

Limits (:class:`Limits`, set per entry or for the whole league) apply in both: memory
(address space per process), processes and threads, CPU seconds per process, the size of a
file it may write, open files. Every program also gets a minimal environment (``PATH``,
``HOME`` and ``TMPDIR`` in its private temporary folder, the language) instead of the
organiser's.

>>> Limits(memory=256).to_dict()["memory"]
256
>>> resolve("none")
'none'
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import shutil
import site
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from rummykit.errors import RummykitError, Said
from rummykit.language import get_language
from rummykit.messages import render

__all__ = [
    "SANDBOXES",
    "Limits",
    "SandboxError",
    "SandboxWarning",
    "bwrap_path",
    "launch",
    "resolve",
    "sandbox_line",
    "unavailable",
]

SANDBOXES = ("auto", "bwrap", "none")
"""What a program may be run in: bubblewrap when it works (``auto``), bubblewrap or nothing
(``bwrap``), or no sandbox, the limits only (``none``)."""

MIB = 1 << 20

SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def program_path() -> str:
    """The ``PATH`` a program gets: the organiser's (it holds no secret, and names the
    interpreters the manifest's commands use: a Homebrew or nvm ``node``), then the
    system's folders."""
    parts = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    for folder in SYSTEM_PATH.split(":"):
        if folder not in parts and os.name == "posix":
            parts.append(folder)
    return os.pathsep.join(parts)


class SandboxError(Said, RuntimeError):
    """The sandbox asked for can't be had here (no bwrap, or no user namespaces)."""


class SandboxWarning(UserWarning):
    """Programs run without a sandbox here, with the limits only."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one agent program may use.

    ``memory``: MiB of address space per process (Node reserves about 1 GiB of it at start,
    so a JavaScript program needs at least 1536); ``processes``: processes and threads in
    its sandbox (the kernel doesn't hold root to this one, and without a sandbox it would
    count all the user's processes, so it applies only in a sandbox and not as root);
    ``cpu``: CPU seconds per process; ``file_size``: MiB, the largest file it may write;
    ``open_files``: file descriptors per process.

    >>> Limits(cpu=0)
    Traceback (most recent call last):
    ...
    rummykit.errors.RummykitError: the limit cpu must be a whole number from 1 to 1000000, not 0
    """

    memory: int = 2048
    processes: int = 64
    cpu: int = 600
    file_size: int = 16
    open_files: int = 64

    def __post_init__(self) -> None:
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10**6:
                raise RummykitError(render("sandbox_bad_limit", name=spec.name, value=value))

    @classmethod
    def of(cls, data: Mapping[str, object], base: Limits | None = None) -> Limits:
        """The limits ``data`` sets (manifest keys: ``memory``, ``cpu``...) over ``base``.

        >>> Limits.of({"memory": 512, "time_limit": 3}).memory
        512
        """
        values = asdict(base or cls())
        for name in values:
            if name in data:
                value = data[name]
                if isinstance(value, float) and value.is_integer():
                    value = int(value)
                values[name] = value
        return cls(**values)

    def to_dict(self) -> dict[str, int]:
        """JSON-ready form (what the welcome line tells the program)."""
        return asdict(self)

    def rlimits(self) -> list[tuple[str, tuple[int, int]]]:
        """The per-process limits as ``(name in the resource module, (soft, hard))``; the
        CPU's hard limit a second later, so the program gets SIGXCPU (named in the report)
        rather than SIGKILL."""
        return [
            ("RLIMIT_AS", (self.memory * MIB,) * 2),
            ("RLIMIT_CPU", (self.cpu, self.cpu + 1)),
            ("RLIMIT_FSIZE", (self.file_size * MIB,) * 2),
            ("RLIMIT_NOFILE", (self.open_files,) * 2),
        ]

    def prlimit_options(self, processes: bool) -> list[str]:
        """util-linux ``prlimit`` options for these limits (inside the sandbox).

        >>> Limits().prlimit_options(True)[:2]
        ['--as=2147483648:2147483648', '--cpu=600:601']
        """
        names = {"RLIMIT_AS": "as", "RLIMIT_CPU": "cpu", "RLIMIT_FSIZE": "fsize"}
        names["RLIMIT_NOFILE"] = "nofile"
        out = [f"--{names[n]}={soft}:{hard}" for n, (soft, hard) in self.rlimits()]
        if processes:
            out.append(f"--nproc={self.processes}:{self.processes}")
        return out


# --- is there a sandbox here? ---------------------------------------------------------------


def bwrap_path() -> str | None:
    """The bubblewrap program: ``$RUMMYKIT_BWRAP`` if set, else ``bwrap`` on the PATH."""
    chosen = os.environ.get("RUMMYKIT_BWRAP")
    if chosen:
        return chosen if os.access(chosen, os.X_OK) else None
    return shutil.which("bwrap")


@functools.lru_cache(maxsize=4)
def _features(bwrap: str) -> frozenset[str]:
    """The options this bwrap knows of those rummykit uses when it can (0.8 has them all)."""
    try:
        done = subprocess.run(
            [bwrap, "--help"], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    text = done.stdout + done.stderr
    return frozenset(o for o in ("--disable-userns", "--size", "--cap-drop") if o in text)


@functools.lru_cache(maxsize=4)
def _probe(bwrap: str) -> str:
    """Why this bwrap can't make a sandbox here ('' when it can): it is run once."""
    command = [*_bwrap_prefix(bwrap, Limits(), cwd="/", visible=()), "true"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        return said[-1] if said else render("sandbox_exit_status", status=done.returncode)
    return ""


def unavailable() -> str:
    """Why there is no sandbox here ('' when there is one)."""
    if sys.platform != "linux":
        return render("sandbox_not_linux", platform=sys.platform)
    found = bwrap_path()
    if found is None:
        return render("sandbox_no_bwrap")
    return _probe(found)


_WARNED: list[bool] = []


def resolve(requested: str) -> str:
    """The sandbox a program will run in here: ``"bwrap"`` or ``"none"``.

    ``"auto"`` falls back to ``"none"`` with one :class:`SandboxWarning` (once per process);
    ``"bwrap"`` raises :class:`SandboxError` when bubblewrap doesn't work here.
    """
    if requested not in SANDBOXES:
        raise RummykitError(render("sandbox_unknown", name=requested, choices=", ".join(SANDBOXES)))
    if requested == "none":
        return "none"
    why = unavailable()
    if not why:
        return "bwrap"
    if requested == "bwrap":
        raise SandboxError(render("sandbox_unavailable", why=why))
    if not _WARNED:
        _WARNED.append(True)
        warnings.warn(render("sandbox_limits_only", why=why), SandboxWarning, stacklevel=3)
    return "none"


def sandbox_line(mode: str, limits: Limits, root: bool | None = None) -> str:
    """One line for a report: where the programs ran, and with which limits (``root``: run
    by root, whom the kernel doesn't hold to the process limit; default: as this process).

    >>> print(sandbox_line("bwrap", Limits(memory=512), root=False))
    Sandbox: bubblewrap, each program ... at most 512 MiB of memory, ... at most 64 processes and threads in all.
    """
    if mode == "bwrap":
        root = os.geteuid() == 0 if root is None and hasattr(os, "geteuid") else bool(root)
        processes = render(
            "sandbox_processes_root" if root else "sandbox_processes", processes=limits.processes
        )
        return render("sandbox_line_bwrap", processes_text=processes, **limits.to_dict())
    why = unavailable()
    return render(
        "sandbox_line_none" if not why else "sandbox_line_missing", why=why, **limits.to_dict()
    )


# --- the command that runs a program in the sandbox -------------------------------------------


_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = (
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "localtime",
    "nsswitch.conf",
    "passwd",
    "group",
    "ssl",
)


@functools.lru_cache(maxsize=1)
def _interpreter_paths() -> tuple[str, ...]:
    """What a Python program of this interpreter needs to see: its prefixes, its
    site-packages, and rummykit itself (an editable install lives outside them)."""
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    paths.add(str(Path(os.path.realpath(sys.executable)).parent.parent))
    with contextlib.suppress(AttributeError):
        paths.update(site.getsitepackages())
    with contextlib.suppress(AttributeError):
        paths.add(site.getusersitepackages())
    paths.add(str(_package_dir()))
    real = {os.path.realpath(p) for p in paths} | paths
    return tuple(sorted(p for p in real if p not in ("/", "") and os.path.exists(p)))


def _package_dir() -> Path:
    return Path(__file__).resolve().parent.parent


def _program_paths(argv: Sequence[str]) -> list[str]:
    """The program's own interpreter when it lives outside the system folders (a Node of
    nvm, say): the executable, and its prefix when it sits in a ``bin`` folder."""
    found = shutil.which(argv[0], path=program_path()) if "/" not in argv[0] else argv[0]
    if not found or not os.path.exists(found):
        return []
    real = Path(os.path.realpath(found))
    if any(str(real).startswith(s + "/") for s in _SYSTEM):
        return []
    return [str(real.parent.parent if real.parent.name == "bin" else real)]


def _covered(path: str, by: Sequence[str]) -> bool:
    return any(path == b or path.startswith(b.rstrip("/") + "/") for b in by)


def _bwrap_prefix(
    bwrap: str, limits: Limits, cwd: str, visible: Sequence[str], extra: Sequence[str] = ()
) -> list[str]:
    """bwrap's options: new namespaces, the system and the interpreter read-only, the
    program's own files read-only, a private /tmp; then ``prlimit`` sets the limits inside
    (the process limit must be set inside the new user namespace to count only its own)."""
    features = _features(bwrap)
    out = [bwrap, "--unshare-all", "--unshare-user", "--die-with-parent"]
    if "--disable-userns" in features:
        out.append("--disable-userns")
    if "--cap-drop" in features:
        out += ["--cap-drop", "ALL"]
    if "--size" in features:
        out += ["--size", str(limits.file_size * MIB * 4)]
    out += ["--tmpfs", "/tmp"]  # first: a league folder under /tmp is bound over it
    bound: list[str] = []
    for path in _SYSTEM:
        if os.path.islink(path):
            out += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            out += ["--ro-bind", path, path]
            bound.append(path)
    for name in _ETC:
        out += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    for path in [*_interpreter_paths(), *extra, *visible]:
        if not _covered(path, bound) and os.path.exists(path):
            out += ["--ro-bind", path, path]
            bound.append(path)
    out += ["--proc", "/proc", "--dev", "/dev"]
    inside = cwd.rstrip("/") + "/"
    reachable = _covered(cwd, bound) or any(b.startswith(inside) for b in bound)
    out += ["--chdir", cwd if reachable and os.path.isdir(cwd) else "/tmp"]
    prlimit = shutil.which("prlimit", path=SYSTEM_PATH)
    if prlimit:
        out += ["--", prlimit, *limits.prlimit_options(os.geteuid() != 0), "--"]
    else:
        out.append("--")
    return out


def program_env(mode: str, home: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a program gets: a PATH, its private HOME and TMPDIR, the referee's
    language, where rummykit is (for ``python -m rummykit agent``) — nothing of the
    organiser's own.

    >>> sorted(program_env("none", "/tmp/x"))[:4]
    ['HOME', 'LANG', 'LC_MESSAGES', 'PATH']
    """
    env = {
        "PATH": program_path(),
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "LC_MESSAGES": get_language(),
        "PYTHONPATH": str(_package_dir().parent),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "RUMMYKIT_SANDBOX": mode,
    }
    if sys.platform == "win32":  # a Windows program needs these to start at all
        for name in ("SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT"):
            if name in os.environ:
                env[name] = os.environ[name]
    env.update(extra or {})
    return env


def command(
    mode: str,
    argv: Sequence[str],
    limits: Limits,
    cwd: str,
    visible: Sequence[str],
) -> list[str]:
    """The full command that runs ``argv`` in the sandbox ``mode`` (``argv`` itself for
    ``"none"``, whose limits are set as the process starts)."""
    if mode == "none":
        return list(argv)
    bwrap = bwrap_path()
    if bwrap is None:
        raise SandboxError(render("sandbox_unavailable", why=render("sandbox_no_bwrap")))
    return _bwrap_prefix(bwrap, limits, cwd, visible, _program_paths(argv)) + list(argv)


# --- starting it ----------------------------------------------------------------------------


def _limits_setter(limits: Limits) -> Callable[[], None] | None:
    """What the child runs before the program (no sandbox): the limits, and on Linux a
    SIGKILL when the referee's launcher ends, so the program never outlives it."""
    try:
        import resource
    except ImportError:  # Windows: no limits to set
        return None
    values = [(getattr(resource, name), pair) for name, pair in limits.rlimits()]
    prctl: Any = None
    if sys.platform == "linux":
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            prctl = ctypes.CDLL(None, use_errno=True).prctl
    setrlimit = resource.setrlimit

    def set_limits() -> None:  # runs in the child: no imports, no locks
        for which, pair in values:
            setrlimit(which, pair)
        if prctl is not None:
            prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL

    return set_limits


_REQUESTS: queue.Queue[tuple[dict[str, Any], queue.Queue[object]]] = queue.Queue()
_LAUNCHER: list[threading.Thread] = []
_LAUNCHER_LOCK = threading.Lock()


def _launcher() -> None:
    while True:
        kwargs, reply = _REQUESTS.get()
        try:
            reply.put(subprocess.Popen(**kwargs))
        except BaseException as exc:  # handed back to the caller, who raises it
            reply.put(exc)


def launch(
    mode: str,
    argv: Sequence[str],
    limits: Limits,
    cwd: str,
    visible: Sequence[str],
    env: Mapping[str, str] | None = None,
) -> tuple[subprocess.Popen[bytes], str]:
    """Start ``argv`` in the sandbox, its three standard streams piped; the process and its
    private home folder (made for a program without a sandbox; the caller removes it).

    Every program is started by one long-lived thread of this process: the kernel ends a
    program when the *thread* that started it ends (bwrap's ``--die-with-parent``, and
    ``PR_SET_PDEATHSIG`` without a sandbox), and a worker's threads may come and go.
    """
    program = argv[0] if os.sep in argv[0] else shutil.which(argv[0], path=program_path())
    if program is None or not os.access(os.path.join(cwd, program), os.X_OK):
        raise FileNotFoundError(2, os.strerror(2), argv[0])  # as Popen would say it
    if mode == "none":
        home = tempfile.mkdtemp(prefix="rummykit-agent-")
        full = list(argv)
    else:
        home = "/tmp"
        full = command(mode, argv, limits, cwd, visible)
    kwargs: dict[str, Any] = {
        "args": full,
        "stdin": subprocess.PIPE,
        "stdout": subprocess.PIPE,
        "stderr": subprocess.PIPE,
        "cwd": cwd if os.path.isdir(cwd) else None,
        "env": program_env(mode, home, env),
        "start_new_session": os.name == "posix",  # its own group: stopped and killed as one
        "close_fds": True,
    }
    if mode == "none":
        kwargs["preexec_fn"] = _limits_setter(limits)
    with _LAUNCHER_LOCK:
        if not _LAUNCHER or not _LAUNCHER[0].is_alive():
            _LAUNCHER[:] = [threading.Thread(target=_launcher, daemon=True, name="rk-launcher")]
            _LAUNCHER[0].start()
    reply: queue.Queue[object] = queue.Queue()
    _REQUESTS.put((kwargs, reply))
    started = reply.get()
    if isinstance(started, BaseException):
        if mode == "none":
            shutil.rmtree(home, ignore_errors=True)
        raise started
    assert isinstance(started, subprocess.Popen)
    return started, (home if mode == "none" else "")
