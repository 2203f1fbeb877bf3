"""Games played by supervised workers: a wall-clock limit per game, lost workers replaced.

A league must end with a table even when a worker that plays its games is frozen (stopped by
a debugger, by a program that got at it) or killed. :func:`supervise` hands the games one at
a time to worker processes of its own, or to any :class:`concurrent.futures.Executor` (a
Dask cluster's), and watches the clock:

- a game whose result doesn't come back within ``limit`` seconds of its start is taken from
  its worker — a worker process of ours is killed (its agent programs end with it) and
  replaced — and tried again elsewhere;
- a worker that dies (its process ends; Dask's ``KilledWorker``) or raises loses its game the
  same way;
- after ``tries`` tries the game is reported lost, with the reason of its last try, and the
  league goes on.

Standard library only; the worker processes are started with ``spawn``, so the games and
the function that plays them must be importable and picklable.

>>> results = {}
>>> lost = supervise([2, 3], abs, limit=30, tries=2, done=results.__setitem__, workers=0)
>>> results, lost
({0: 2, 1: 3}, {})
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_ready
from typing import Any, TypeVar

from rummykit.messages import render

__all__ = ["Lost", "supervise"]

T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Lost:
    """A game that could not be played: why (its last try), and how many tries it had."""

    reason: str
    tries: int


def _serve(
    conn: Connection, play: Callable[[Any], Any], cleanup: Callable[[], None] | None
) -> None:
    """A worker process: play each game it is sent, send back the result or the error."""
    try:
        while True:
            item = conn.recv()
            if item is None:
                break
            index, task = item
            try:
                conn.send((index, True, play(task)))
            except Exception as exc:
                conn.send((index, False, f"{type(exc).__name__}: {exc}"))
    except (EOFError, OSError, KeyboardInterrupt):
        pass
    finally:
        if cleanup is not None:
            cleanup()


class _Worker:
    """One worker process of ours and the game it is playing."""

    def __init__(self, play: Callable[[Any], Any], cleanup: Callable[[], None] | None) -> None:
        context = multiprocessing.get_context("spawn")
        self.conn, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, play, cleanup), daemon=True)
        self.process.start()
        theirs.close()
        self.index: int | None = None
        self.deadline = 0.0

    def give(self, index: int, task: object, limit: float) -> None:
        self.conn.send((index, task))
        self.index = index
        self.deadline = time.monotonic() + limit

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.process.kill()
        self.process.join(5)
        with contextlib.suppress(OSError):
            self.conn.close()

    def finish(self) -> None:
        with contextlib.suppress(OSError, ValueError, BrokenPipeError):
            self.conn.send(None)
        self.process.join(10)
        if self.process.is_alive():
            self.kill()


def supervise(
    tasks: Sequence[T],
    play: Callable[[T], R],
    *,
    limit: float,
    tries: int,
    done: Callable[[int, R], None],
    workers: int = 2,
    executor: Executor | None = None,
    cleanup: Callable[[], None] | None = None,
) -> dict[int, Lost]:
    """Play ``play(tasks[i])`` for every ``i``, each within ``limit`` seconds and at most
    ``tries`` times; ``done(i, result)`` as each comes back. The games that could not be
    played, by index, with why.

    ``workers`` processes of ours play them (``workers=0``: this process, no supervision —
    for trusted games only), or ``executor`` with ``workers`` games in flight at once (each
    game's clock starts when it is sent). ``cleanup`` runs in each worker process of ours
    as it ends (e.g. stopping idle agent programs).
    """
    lost: dict[int, Lost] = {}
    if workers <= 0 and executor is None:
        for index, task in enumerate(tasks):
            done(index, play(task))
        return lost
    tried: dict[int, int] = {}

    def failed(index: int, reason: str, queue: deque[int]) -> None:
        tried[index] = tried.get(index, 0) + 1
        if tried[index] < tries:
            queue.appendleft(index)
        else:
            lost[index] = Lost(reason, tried[index])

    if executor is not None:
        _on_executor(tasks, play, limit, max(1, workers), executor, done, failed)
    else:
        _on_processes(tasks, play, limit, workers, cleanup, done, failed)
    return lost


Failed = Callable[[int, str, "deque[int]"], None]


def _on_processes(
    tasks: Sequence[Any],
    play: Callable[[Any], Any],
    limit: float,
    workers: int,
    cleanup: Callable[[], None] | None,
    done: Callable[[int, Any], None],
    failed: Failed,
) -> None:
    queue = deque(range(len(tasks)))
    pool = [_Worker(play, cleanup) for _ in range(min(workers, len(tasks)))]
    try:
        while True:
            for worker in pool:
                if worker.index is None and queue:
                    index = queue.popleft()
                    try:
                        worker.give(index, tasks[index], limit)
                    except (OSError, ValueError):  # died while idle: replaced below
                        worker.index = index
                        worker.deadline = 0.0
            busy = [w for w in pool if w.index is not None]
            if not busy:
                break
            timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            ready = set(wait_ready([w.conn for w in busy] + [w.process.sentinel for w in busy],
                                   timeout))  # fmt: skip
            for position, worker in enumerate(pool):
                playing = worker.index
                if playing is None:
                    continue
                reason = None
                if worker.conn in ready:
                    try:
                        got, ok, value = worker.conn.recv()
                    except (EOFError, OSError):
                        reason = render("workers_died", status=_status(worker))
                    else:
                        worker.index = None
                        if ok:
                            done(got, value)
                        else:
                            failed(got, render("workers_error", error=value), queue)
                        continue
                elif worker.process.sentinel in ready:
                    reason = render("workers_died", status=_status(worker))
                elif time.monotonic() >= worker.deadline:
                    reason = render("workers_stalled", limit=f"{limit:g}")
                if reason is None:
                    continue
                worker.kill()
                failed(playing, reason, queue)
                pool[position] = _Worker(play, cleanup)
    finally:
        for worker in pool:
            if worker.index is None:
                worker.finish()
            else:
                worker.kill()


def _status(worker: _Worker) -> str:
    worker.process.join(1)
    code = worker.process.exitcode
    return "?" if code is None else str(code)


def _on_executor(
    tasks: Sequence[Any],
    play: Callable[[Any], Any],
    limit: float,
    slots: int,
    executor: Executor,
    done: Callable[[int, Any], None],
    failed: Failed,
) -> None:
    queue = deque(range(len(tasks)))
    running: dict[Future[Any], tuple[int, float]] = {}
    attempt = 0
    while queue or running:
        while queue and len(running) < slots:
            index = queue.popleft()
            attempt += 1  # a fresh task each try (Dask would hand back a failed one's result)
            future = executor.submit(_tried, play, tasks[index], attempt)
            running[future] = (index, time.monotonic() + limit)
        timeout = max(0.0, min(d for _, d in running.values()) - time.monotonic())
        finished, _ = wait(list(running), timeout=timeout, return_when=FIRST_COMPLETED)
        for future in finished:
            index, _ = running.pop(future)
            try:
                done(index, future.result())
            except Exception as exc:
                failed(index, render("workers_error", error=f"{type(exc).__name__}: {exc}"), queue)
        now = time.monotonic()
        for future, (index, deadline) in list(running.items()):
            if now >= deadline:
                del running[future]
                future.cancel()  # a frozen worker keeps it; the game is played elsewhere
                failed(index, render("workers_stalled", limit=f"{limit:g}"), queue)


def _tried(play: Callable[[Any], Any], task: Any, attempt: int) -> Any:
    """``play(task)``; ``attempt`` only makes each try a task of its own."""
    return play(task)
