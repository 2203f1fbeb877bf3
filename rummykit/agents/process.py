"""ProcessAgent: any program that speaks the agent protocol, playing as an ordinary agent.

The program runs in its own process and receives nothing but JSON lines: the observation of
its seat and its legal actions. It answers within a time limit per decision; silence past
the limit, an ended program, or a line that is not the protocol loses the round by forfeit
(:class:`~rummykit.agents.forfeit.Forfeit`), with the program's standard error kept for the
report. A program stopped for a forfeit is killed; every other one is stopped when its agent
is closed, or when Python exits — never left behind.

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
itself.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing.util
import os
import queue
import select
import shlex
import signal
import subprocess
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
)
from rummykit.ai.trace import Decision
from rummykit.explain import Verdict
from rummykit.game.observation import Observation
from rummykit.messages import render
from rummykit.runtime import NeedsDesktop, in_browser

__all__ = ["ProcessAgent", "level_command", "stop_idle"]

SELECT_PIPES = os.name == "posix"
"""Whether ``select()`` works on pipes here (not on Windows, where a thread reads them)."""

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


class _Program:
    """One running agent program: its pipes, its answers read as they come (with ``select``
    on POSIX, by a thread elsewhere), and a thread that keeps the end of its standard error
    (however much it writes)."""

    def __init__(self, argv: Sequence[str], cwd: str | None, env: dict[str, str] | None) -> None:
        self.said = bytearray()  # the end of its standard error
        self.next_id = 0
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.buffer = bytearray()
        self.eof = False
        self.name = ""
        self.variants: tuple[str, ...] = ()
        try:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=os.name == "posix",  # its own group: killed with its children
            )
        except OSError as exc:
            raise Forfeit("start", f"{shlex.join(argv)}: {exc.strerror or exc}") from None
        _LIVE.add(self)
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
        return self.proc.poll() is None

    def handshake(self, limit: float) -> None:
        try:
            self.name, self.variants = read_hello(self.receive(limit))
        except ProtocolError as exc:
            raise self.forfeit("garbage", str(exc)) from None

    def send(self, message: dict[str, Any]) -> None:
        stream = self.proc.stdin
        assert stream is not None
        try:
            stream.write(encode(message))
            stream.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self.ended() from None

    def _next_line(self, limit: float) -> bytes | None:
        """The next line that isn't blank (``b""`` at the end of the output; too long a line
        comes back unfinished), or None when ``limit`` seconds pass first."""
        if self.reader is not None:
            try:
                return self.lines.get(timeout=limit)
            except queue.Empty:
                return None
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + limit
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

    def receive(self, limit: float) -> dict[str, Any]:
        """The next message, within ``limit`` seconds."""
        line = self._next_line(limit)
        if line is None:
            raise self.forfeit("timeout", f"{limit:g}")
        if not line:
            raise self.ended()
        if len(line) > MAX_LINE:
            raise self.forfeit("garbage", f"{line[:80]!r}…")
        try:
            return decode(line)
        except ProtocolError as exc:
            raise self.forfeit("garbage", str(exc)) from None

    def ended(self) -> Forfeit:
        try:
            status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        return self.forfeit("crash", str(status))

    def forfeit(self, code: str, detail: str) -> Forfeit:
        """Stop the program (killed: it has broken the protocol) and describe the forfeit."""
        self.stop(kill=True)
        return Forfeit(code, detail, self.stderr_tail())

    def stderr_tail(self) -> str:
        """The last things the program wrote to its standard error (all of it, once ended)."""
        if not self.alive:
            self.listener.join(timeout=1.0)
        text = bytes(self.said).decode("utf-8", "replace")
        return text[-STDERR_KEPT:].strip()

    def stop(self, kill: bool = False) -> None:
        """Stop the program: ``bye``, its input closed, a second to go — then killed. Reaped
        either way, so no zombie is left."""
        proc = self.proc
        if proc.poll() is None and not kill:
            with contextlib.suppress(OSError, ValueError):
                assert proc.stdin is not None
                proc.stdin.write(encode({"type": "bye"}))
                proc.stdin.flush()
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()  # type: ignore[union-attr]
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=1.0)
        if proc.poll() is None or kill:
            self._kill()
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()  # type: ignore[union-attr]
        proc.wait()
        if self.reader is not None:
            self.reader.join(timeout=1.0)
        self.listener.join(timeout=1.0)
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(OSError, ValueError, AttributeError):
                stream.close()  # type: ignore[union-attr]
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
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise ValueError(render("agent_no_command"))
        if in_browser():
            raise NeedsDesktop("browser_no_programs", command=shlex.join(argv))
        self.argv = tuple(argv)
        self.name = name or _default_name(self.argv)
        self.time_limit = float(time_limit)
        self.start_limit = float(start_limit)
        self.cwd = None if cwd is None else os.fspath(cwd)
        self.env = dict(env) if env is not None else None
        self._program: _Program | None = None
        self._question: tuple[int, Observation] | None = None

    @classmethod
    def level(cls, level: str, **kwargs: Any) -> ProcessAgent:
        """A built-in level in its own process (``rummykit agent --level LEVEL``)."""
        kwargs.setdefault("name", level)
        return cls(level_command(level), **kwargs)

    def __repr__(self) -> str:
        return f"ProcessAgent({list(self.argv)!r}, name={self.name!r})"

    # a copy or a pickle is the same command, not yet started
    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_program": None, "_question": None}

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
        return (self.argv, self.cwd, env)

    @property
    def program_name(self) -> str:
        """The name the program gave in its hello (starting it if needed)."""
        return self._start().name

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants the program plays, from its hello (starting it if needed)."""
        return self._start().variants

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
        program = _Program(self.argv, self.cwd, self.env)
        program.handshake(self.start_limit)
        self._program = program
        return program

    def decide(self, obs: Observation) -> Decision:
        """Ask the program; raises :class:`Forfeit` when it doesn't answer by the protocol."""
        program = self._start()
        if not check_variant(obs.variant, program.variants):
            self.close()
            raise Forfeit("variant", obs.variant.title)
        program.next_id += 1
        self._question = (program.next_id, obs)
        try:
            program.send(decide_message(obs, program.next_id))
            return self._answer(program)
        except Forfeit:
            self._program = None  # stopped already: a new one starts if asked again
            raise

    def retry(self, verdict: Verdict) -> Decision:
        """Tell the program why its action was refused, and take its second answer."""
        program = self._program
        if program is None or self._question is None:
            raise Forfeit("illegal", str(verdict))
        try:
            program.send(verdict_message(self._question[0], verdict))
            return self._answer(program)
        except Forfeit:
            self._program = None
            raise

    def _answer(self, program: _Program) -> Decision:
        assert self._question is not None
        ident, obs = self._question
        data = program.receive(self.time_limit)
        try:
            action, trace = read_answer(data, ident)
        except ProtocolError as exc:
            if data.get("type") == "error":
                raise program.forfeit("error", str(data.get("message"))[:500]) from None
            raise program.forfeit("garbage", str(exc)) from None
        return Decision(action, read_trace(trace, self.name, obs.seat, action))

    def forfeit(self, code: str, detail: str) -> Forfeit:
        """The referee ends this agent's round (e.g. a second illegal action): its program is
        stopped, and the forfeit keeps what it wrote to its standard error."""
        program, self._program = self._program, None
        if program is None:
            return Forfeit(code, detail)
        return program.forfeit(code, detail)

    def close(self) -> None:
        """Done with this agent: its program, if healthy, waits for the next agent of the same
        command; a broken one is stopped."""
        program, self._program = self._program, None
        if program is None:
            return
        if program.alive:
            with _LOCK:
                _IDLE.setdefault(self._key, []).append(program)
        else:
            program.close()


def stop_idle() -> None:
    """Stop every idle program (they would otherwise wait for the next game until exit)."""
    with _LOCK:
        programs = [p for idle in _IDLE.values() for p in idle]
        _IDLE.clear()
    for program in programs:
        program.close()
