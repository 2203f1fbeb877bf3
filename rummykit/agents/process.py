"""ProcessAgent: any program that speaks the agent protocol, playing as an ordinary agent.

The program runs in its own process — in a sandbox (:mod:`rummykit.agents.sandbox`) unless
asked not to — and receives nothing but JSON lines: the observation of its seat and its legal
actions. It answers within a time limit per decision; silence past the limit, an ended
program, or a line that is not the protocol loses the round by forfeit
(:class:`~rummykit.agents.forfeit.Forfeit`), with the program's standard error kept for the
report. A program that forfeits is told why on an ``error`` line, then stopped (its input
closed, SIGTERM, a moment's grace, SIGKILL to all its processes); every other one is stopped
when its agent is closed, or when Python exits — never left behind. Between its decisions a
program is frozen (SIGSTOP), so it can't compute while the others think.

>>> import sys
>>> from rummykit.game import Game
>>> agent = ProcessAgent([sys.executable, "-m", "rummykit", "agent", "--level", "easy"])
>>> game = Game.new("rommi", players=2, seed=3)
>>> decision = agent.decide(game.observation(game.current))
>>> decision.action in game.legal_actions(), agent.program_name
(True, 'easy')
>>> agent.close()

Programs are reused: closing an agent hands its program, still running, to the next
:class:`ProcessAgent` of the same command in this process (a tournament makes one agent per
game), so a program may play many games in a row — each decide message is complete in
itself, and its ``game`` number says when a new game starts.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing.util
import os
import queue
import select
import shlex
import shutil
import signal
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rummykit.agents.forfeit import STDERR_KEPT, Forfeit
from rummykit.agents.protocol import (
    MAX_LINE,
    ProtocolError,
    check_variant,
    decide_message,
    decode,
    encode,
    read_answer,
    read_hello,
    read_trace,
    verdict_message,
    welcome_message,
)
from rummykit.agents.sandbox import SANDBOXES, Limits, launch, resolve
from rummykit.ai.trace import Decision
from rummykit.errors import RummykitError
from rummykit.explain import Verdict
from rummykit.game.observation import Observation
from rummykit.messages import render
from rummykit.runtime import NeedsDesktop, in_browser

__all__ = ["ProcessAgent", "level_command", "stop_idle"]

SELECT_PIPES = os.name == "posix"
"""Whether ``select()`` works on pipes here (not on Windows, where a thread reads them)."""

GRACE = 0.3
"""Seconds a stopped program is given to end by itself (at the end of its input, then at
SIGTERM) before it is killed."""

_INTERPRETERS = frozenset(
    {"python", "python3", "sh", "bash", "dash", "node", "ruby", "perl", "awk"}
)


def level_command(level: str) -> list[str]:
    """The command that serves a built-in level over the protocol, with this Python.

    >>> level_command("hard")[1:]
    ['-m', 'rummykit', 'agent', '--level', 'hard']
    """
    return [sys.executable, "-m", "rummykit", "agent", "--level", level]


def _default_name(argv: Sequence[str]) -> str:
    """A name for the standings before the program has said its own: the program's file
    name, or after ``--level``/``--agent`` what it serves.

    >>> _default_name(["sh", "examples/agents/first_legal.sh"])
    'first_legal'
    >>> _default_name(["python", "-m", "rummykit", "agent", "--level", "hard"])
    'hard'
    """
    for flag in ("--level", "--agent"):
        if flag in argv[:-1]:
            return argv[list(argv).index(flag) + 1].rpartition(":")[2]
    first = Path(argv[0]).stem
    if first.rstrip("0123456789.") in _INTERPRETERS:
        for arg in argv[1:]:
            if not arg.startswith("-"):
                return Path(arg).stem
    return first


def _named_files(argv: Sequence[str], cwd: str) -> tuple[str, ...]:
    """The files the command names (``agent.js``, ``my_agent.py:MyAgent``), as absolute
    paths: what a sandboxed program sees besides the system when no folder is given."""
    found = []
    for arg in argv[1:]:
        for text in (arg, arg.rpartition(":")[0]):
            if text and not text.startswith("-"):
                path = Path(cwd, text)
                try:
                    if path.exists():
                        found.append(str(path.resolve()))
                        break
                except OSError:  # not a file name at all (code given with -c, say)
                    continue
    return tuple(dict.fromkeys(found))


def _stopped_by(status: int | None, sandboxed: bool) -> int | None:
    """The signal that ended a program, from its exit status (bwrap reports 128 + signal)."""
    if status is None:
        return None
    if status < 0:
        return -status
    if sandboxed and status > 128:
        return status - 128
    return None


class _Program:
    """One running agent program: its pipes, its answers read as they come (with ``select``
    on POSIX, by a thread elsewhere), and a thread that keeps the end of its standard error
    (however much it writes)."""

    def __init__(self, agent: ProcessAgent) -> None:
        self.said = bytearray()  # the end of its standard error
        self.next_id = 0
        self.games = 0
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.buffer = bytearray()
        self.eof = False
        self.name = ""
        self.variants: tuple[str, ...] = ()
        self.mode = resolve(agent.sandbox)  # SandboxError: not the program's fault
        self.limits = agent.limits
        self.frozen = False
        self.thought = 0.0  # seconds spent on its decisions (it is frozen in between)
        cwd = agent.cwd or os.getcwd()
        try:
            self.proc, self.home = launch(
                self.mode, agent.argv, agent.limits, cwd, agent.visible, agent.env
            )
        except OSError as exc:
            raise Forfeit("start", f"{shlex.join(agent.argv)}: {exc.strerror or exc}") from None
        _LIVE.add(self)
        if SELECT_PIPES:
            assert self.proc.stdin is not None
            os.set_blocking(self.proc.stdin.fileno(), False)
        self.reader: threading.Thread | None = None
        if not SELECT_PIPES:  # a thread reads the lines
            self.reader = threading.Thread(target=self._read, daemon=True)
            self.reader.start()
        self.listener = threading.Thread(target=self._listen, daemon=True)
        self.listener.start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            while True:
                line = stream.readline(MAX_LINE + 1)
                if line.strip() or not line:
                    self.lines.put(line)
                if not line:
                    return
        except (OSError, ValueError):
            self.lines.put(b"")

    def _listen(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        try:
            while chunk := os.read(stream.fileno(), 65536):
                self.said += chunk
                if len(self.said) > 8 * STDERR_KEPT:
                    del self.said[: -4 * STDERR_KEPT]
        except (OSError, ValueError):
            return

    @property
    def alive(self) -> bool:
        return self.status() is None

    def status(self) -> int | None:
        """The exit status (negative: the signal), or None while it runs — without reaping
        it, so its process group can't be taken by another process before it is killed."""
        if self.proc.returncode is not None:
            return self.proc.returncode
        if not hasattr(os, "waitid"):
            return self.proc.poll()
        try:
            found = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return self.proc.poll()
        if found is None:
            return None
        exited = found.si_code == os.CLD_EXITED
        return found.si_status if exited else -found.si_status

    def wait_end(self, seconds: float) -> int | None:
        """Its exit status once it ends, waiting up to ``seconds`` (None: still running)."""
        deadline = time.monotonic() + seconds
        while (status := self.status()) is None and time.monotonic() < deadline:
            time.sleep(0.01)
        return status

    # --- freezing between decisions ---------------------------------------------------------

    def _signal(self, number: int) -> None:
        if os.name == "posix":
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, number)  # its process group: the program and children

    def freeze(self) -> None:
        """Stop the program until its next question (it may not think on others' time)."""
        if not self.frozen and os.name == "posix":
            self._signal(signal.SIGSTOP)
            self.frozen = True

    def thaw(self) -> None:
        if self.frozen:
            self._signal(signal.SIGCONT)
            self.frozen = False

    # --- talking ------------------------------------------------------------------------------

    def handshake(self, agent: ProcessAgent) -> None:
        """Read the hello (within the start limit) and answer it with the welcome line."""
        self.asked = time.monotonic()
        deadline = self.asked + agent.start_limit
        try:
            self.name, self.variants, version = read_hello(self.receive(deadline))
        except ProtocolError as exc:
            raise self.forfeit("garbage", str(exc)) from None
        welcome = welcome_message(
            version,
            agent.name,
            time_limit=agent.time_limit,
            start_limit=agent.start_limit,
            limits=self.limits.to_dict(),
            sandbox=self.mode,
        )
        self.send(welcome, time.monotonic() + agent.start_limit)
        self.freeze()

    def send(self, message: dict[str, Any], deadline: float) -> None:
        """Write one line; a program that doesn't read its input by the deadline forfeits
        (the referee never blocks on a full pipe)."""
        done = self._write(message, deadline)
        if done == "full":
            raise self.forfeit("timeout", self._limit_text(deadline), "forfeit_unread")
        if done == "closed":
            raise self.ended()

    def _write(self, message: dict[str, Any], deadline: float) -> str:
        """Write one line by ``deadline``: ``"ok"``, ``"full"`` (it doesn't read its input)
        or ``"closed"`` (its input is closed: it ended)."""
        self.thaw()
        stream = self.proc.stdin
        assert stream is not None
        data = memoryview(encode(message))
        if not SELECT_PIPES:
            try:
                stream.write(data)
                stream.flush()
            except (OSError, ValueError):
                return "closed"
            return "ok"
        try:
            fd = stream.fileno()
        except ValueError:
            return "closed"
        while data:
            left = deadline - time.monotonic()
            try:
                ready = left > 0 and select.select([], [fd], [], left)[1]
            except (OSError, ValueError):
                return "closed"
            if not ready:
                return "full"
            try:
                written = os.write(fd, data)
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                return "closed"
            data = data[written:]
        return "ok"

    def _limit_text(self, deadline: float) -> str:
        return f"{max(0.0, deadline - self.asked):g}"

    def _next_line(self, deadline: float) -> bytes | None:
        """The next line that isn't blank (``b""`` at the end of the output; too long a line
        comes back unfinished), or None when the deadline passes first."""
        if self.reader is not None:
            try:
                return self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[: end + 1])
                del self.buffer[: end + 1]
                if line.strip():
                    return line
                continue
            if len(self.buffer) > MAX_LINE or self.eof:
                line = bytes(self.buffer)
                self.buffer.clear()
                return line
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            self.buffer += chunk
            self.eof = not chunk

    asked = 0.0  # when the current question was asked (for the forfeit's wording)

    def receive(self, deadline: float) -> dict[str, Any]:
        """The next message, by ``deadline`` (a ``time.monotonic()`` value)."""
        line = self._next_line(deadline)
        if line is None:
            raise self.forfeit("timeout", self._limit_text(deadline))
        if not line:
            raise self.ended()
        try:
            return decode(line, limits=True)
        except ProtocolError as exc:
            raise self.forfeit("garbage", str(exc)) from None

    def ended(self) -> Forfeit:
        """The program closed its output: ended (how), or still running without it."""
        status = self.wait_end(GRACE)
        if status is None:
            return self.forfeit("crash", "", "forfeit_closed_output")
        number = _stopped_by(status, self.mode == "bwrap")
        if number is None:
            return self.forfeit("crash", str(status))
        if number == getattr(signal, "SIGXCPU", -1):
            return self.forfeit("crash", str(self.limits.cpu), "forfeit_cpu_limit")
        if number == getattr(signal, "SIGXFSZ", -1):
            return self.forfeit("crash", str(self.limits.file_size), "forfeit_file_limit")
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = str(number)
        return self.forfeit("crash", name, "forfeit_signal")

    def forfeit(self, code: str, detail: str, template: str | None = None) -> Forfeit:
        """Tell the program why it forfeits (an error line with the code and the sentence),
        stop it, and describe the forfeit with the end of its standard error."""
        why = Forfeit(code, detail, template=template)
        if self.alive:
            line = {"type": "error", "code": code, "message": str(why)}
            self._write(line, time.monotonic() + GRACE)
        self.stop(told=True)
        why.stderr = self.stderr_tail()
        return why

    def stderr_tail(self) -> str:
        """The last things the program wrote to its standard error (all of it, once ended)."""
        if not self.alive:
            self.listener.join(timeout=1.0)
        text = bytes(self.said).decode("utf-8", "replace")
        return text[-STDERR_KEPT:].strip()

    def stop(self, told: bool = False) -> None:
        """Stop the program: ``bye`` (unless it was just told why it forfeits), its input
        closed and a moment to end; then SIGTERM and another; then SIGKILL to every process
        of its group (in a sandbox, all of them end with it). Reaped, so no zombie is left."""
        proc = self.proc
        if not told and self.alive:
            self._write({"type": "bye"}, time.monotonic() + GRACE)
        self.thaw()
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()  # type: ignore[union-attr]
        if self.wait_end(GRACE if told else 1.0) is None:
            self._signal(signal.SIGTERM)
            self.wait_end(GRACE)
        self._kill()  # the group, its leader not yet reaped: every straggler too
        proc.wait()
        if self.reader is not None:
            self.reader.join(timeout=1.0)
        self.listener.join(timeout=1.0)
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.close()  # type: ignore[union-attr]
        if self.home:
            shutil.rmtree(self.home, ignore_errors=True)
        _LIVE.discard(self)

    def _kill(self) -> None:
        if os.name == "posix":
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)  # its children too
        with contextlib.suppress(OSError):
            self.proc.kill()

    def close(self) -> None:
        self.stop()


_LIVE: set[_Program] = set()
_IDLE: dict[tuple[object, ...], list[_Program]] = {}
_LOCK = threading.Lock()


def _stop_all() -> None:
    """Stop every program still running when Python exits."""
    for program in list(_LIVE):
        program.close()
    _IDLE.clear()


atexit.register(_stop_all)
# worker processes (a process pool's, Dask's) end without atexit, but run these
multiprocessing.util.Finalize(None, _stop_all, exitpriority=10)


class ProcessAgent:
    """A program that speaks the agent protocol (docs/agents.md), as an agent.

    ``command`` is an argument list, or one string split the shell's way (no shell runs it).
    ``time_limit`` is the seconds allowed per decision, ``start_limit`` those allowed for the
    program's hello. The program's own name (from its hello) is :attr:`program_name`; the
    agent's :attr:`name`, used in standings, is ``name`` or taken from the command.

    ``sandbox`` is ``"auto"`` (bubblewrap where it works, else the limits only, said once),
    ``"bwrap"`` (bubblewrap or :class:`~rummykit.agents.sandbox.SandboxError`) or ``"none"``;
    ``limits`` the :class:`~rummykit.agents.sandbox.Limits` (memory, processes, CPU...).
    ``visible`` lists what the program may read in the sandbox besides the system and the
    interpreter (default: ``cwd``, or the files its command names). ``env`` adds variables to
    the minimal environment it gets (never the organiser's own).
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        name: str | None = None,
        time_limit: float = 10.0,
        start_limit: float = 30.0,
        cwd: str | os.PathLike[str] | None = None,
        env: dict[str, str] | None = None,
        sandbox: str = "auto",
        limits: Limits | None = None,
        visible: Sequence[str | os.PathLike[str]] | None = None,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise RummykitError(render("agent_no_command"))
        if in_browser():
            raise NeedsDesktop("browser_no_programs", command=shlex.join(argv))
        if sandbox not in SANDBOXES:  # checked now, resolved where the program starts
            resolve(sandbox)  # the one-line error
        self.argv = tuple(argv)
        self.name = name or _default_name(self.argv)
        self.time_limit = float(time_limit)
        self.start_limit = float(start_limit)
        self.cwd = None if cwd is None else os.fspath(Path(cwd).resolve())
        self.env = dict(env) if env is not None else None
        self.sandbox = sandbox
        self.limits = limits or Limits()
        if visible is None:
            visible = [self.cwd] if self.cwd else _named_files(self.argv, os.getcwd())
        self.visible = tuple(os.fspath(Path(v).resolve()) for v in visible)
        self._program: _Program | None = None
        self._question: tuple[int, Observation] | None = None
        self._game = 0

    @classmethod
    def level(cls, level: str, **kwargs: Any) -> ProcessAgent:
        """A built-in level in its own process (``rummykit agent --level LEVEL``)."""
        kwargs.setdefault("name", level)
        return cls(level_command(level), **kwargs)

    def __repr__(self) -> str:
        return f"ProcessAgent({list(self.argv)!r}, name={self.name!r})"

    # a copy or a pickle is the same command, not yet started
    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_program": None, "_question": None, "_game": 0}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def __enter__(self) -> ProcessAgent:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):
            self.close()

    @property
    def _key(self) -> tuple[object, ...]:
        env = tuple(sorted(self.env.items())) if self.env is not None else None
        return (self.argv, self.cwd, env, self.sandbox, self.limits, self.visible)

    @property
    def program_name(self) -> str:
        """The name the program gave in its hello (starting it if needed)."""
        return self._start().name

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants the program plays, from its hello (starting it if needed)."""
        return self._start().variants

    @property
    def sandboxed(self) -> str:
        """The sandbox its program runs in, ``"bwrap"`` or ``"none"`` (starting it if needed)."""
        return self._start().mode

    def _start(self) -> _Program:
        if self._program is not None and self._program.alive:
            return self._program
        with _LOCK:
            idle = _IDLE.get(self._key, [])
            while idle:
                program = idle.pop()
                if program.alive:
                    self._program = program
                    return program
                program.close()
        program = _Program(self)
        program.handshake(self)
        self._program = program
        return program

    def decide(self, obs: Observation) -> Decision:
        """Ask the program; raises :class:`Forfeit` when it doesn't answer by the protocol
        (and :class:`~rummykit.agents.sandbox.SandboxError` when the sandbox asked for
        can't be had here: not the program's fault)."""
        program = self._start()
        if not check_variant(obs.variant, program.variants):
            self.close()
            raise Forfeit("variant", obs.variant.title)
        if not self._game:
            program.games += 1
            self._game = program.games
        program.next_id += 1
        self._question = (program.next_id, obs)
        try:
            program.asked = time.monotonic()
            deadline = program.asked + self.time_limit
            program.send(decide_message(obs, program.next_id, self._game), deadline)
            return self._answer(program, deadline)
        except Forfeit:
            self._program = None  # stopped already: a new one starts if asked again
            raise

    def retry(self, verdict: Verdict) -> Decision:
        """Tell the program why its action was refused, and take its second answer."""
        program = self._program
        if program is None or self._question is None:
            raise Forfeit("illegal", str(verdict))
        try:
            program.asked = time.monotonic()
            deadline = program.asked + self.time_limit
            program.send(verdict_message(self._question[0], verdict), deadline)
            return self._answer(program, deadline)
        except Forfeit:
            self._program = None
            raise

    def _answer(self, program: _Program, deadline: float) -> Decision:
        assert self._question is not None
        ident, obs = self._question
        data = program.receive(deadline)
        try:
            action, trace = read_answer(data, ident)
        except ProtocolError as exc:
            if data.get("type") == "error":
                raise program.forfeit("error", str(data.get("message"))[:500]) from None
            raise program.forfeit("garbage", str(exc)) from None
        program.freeze()
        program.thought += time.monotonic() - program.asked
        return Decision(action, read_trace(trace, self.name, obs.seat, action))

    def forfeit(self, code: str, detail: str) -> Forfeit:
        """The referee ends this agent's round (e.g. a second illegal action): its program is
        told why and stopped, and the forfeit keeps what it wrote to its standard error."""
        program, self._program = self._program, None
        if program is None:
            return Forfeit(code, detail)
        return program.forfeit(code, detail)

    def close(self) -> None:
        """Done with this agent: its program, if healthy, waits (frozen) for the next agent
        of the same command; a broken one is stopped."""
        program, self._program = self._program, None
        self._game = 0
        if program is None:
            return
        if program.alive and program.thought < program.limits.cpu / 2:
            with _LOCK:
                _IDLE.setdefault(self._key, []).append(program)
        else:  # broken, or half its CPU seconds spent: a fresh one plays the next game
            program.close()

    def stop(self) -> None:
        """Stop this agent's program now (``bye``), rather than keep it for the next game."""
        program, self._program = self._program, None
        self._game = 0
        if program is not None:
            program.close()


def stop_idle() -> None:
    """Stop every idle program (they would otherwise wait for the next game until exit)."""
    with _LOCK:
        programs = [p for idle in _IDLE.values() for p in idle]
        _IDLE.clear()
    for program in programs:
        program.close()
