"""The classroom server's door: a class code, one table per student, a cap, no kernel for a GET.

``rummykit classroom`` runs Voilà with its notebook handler replaced by :class:`DoorHandler`
(in :class:`ClassroomVoila`, Voilà's own application with that one change). Voilà alone starts
a kernel for every GET of its page — a link preview, an uptime monitor or a crawler each
cost one; here:

- a GET or HEAD without the class's cookie gets a small page that asks for the class code,
  and no kernel starts;
- the code, sent with the page's form (a POST), gives the browser a signed cookie naming a
  seat (a random id): the page then asks for the table, and only then does a kernel start;
- a seat has at most one table: a reload gets the page of that table again (the same kernel;
  the widgets come back from the kernel with the state the game is in), not a second kernel;
- a page that closes asks Voilà to shut its kernel down (Voilà's own ``beforeunload``
  request); here the kernel goes :data:`LEAVE_GRACE` seconds later, unless the same seat
  asks for its table again first (a reload sends the same request);
- an address that sends :data:`WRONG_CODES` wrong codes within :data:`WRONG_WINDOW` seconds
  gets a "wait" page (HTTP 429, with ``Retry-After``) for any code it sends until the oldest
  of them is that old (:class:`WrongCodes`): guessing the code takes years, not minutes;
- at most ``max_students`` seats have a table at once: one more gets a "the class is full"
  page (HTTP 503), and no kernel. A seat whose kernel was culled (its page closed long
  enough) frees its place.

The settings come from the environment (:data:`CODE_VARIABLE`, :data:`MAX_VARIABLE`), set by
:func:`rummykit.classroom.classroom_environment`; the code is taken out of the environment
before any kernel starts, so no kernel sees it.

>>> codes_match("ab7K-q2", " AB7k-Q2 ")
True
>>> codes_match("ab7kq2", "ab7kq3")
False
"""

from __future__ import annotations

import hmac
import html
import logging
import math
import os
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rummykit.messages import render

__all__ = [
    "CODE_VARIABLE",
    "COOKIE",
    "LEAVE_GRACE",
    "MAX_VARIABLE",
    "WRONG_CODES",
    "WRONG_WINDOW",
    "ClassroomVoila",
    "DoorHandler",
    "Seat",
    "WrongCodes",
    "codes_match",
]

CODE_VARIABLE = "RUMMYKIT_CLASS_CODE"
"""The environment variable that carries the class code to the server (removed at start)."""

MAX_VARIABLE = "RUMMYKIT_CLASS_MAX"
"""The environment variable that carries the most tables at once."""

LEAVE_GRACE = 8
"""Seconds between a page closing and its kernel's shutdown: a reload within them keeps it."""

COOKIE = "rummykit-seat"
"""The signed cookie that names a student's seat."""

WRONG_CODES = 5
"""Wrong class codes an address may send within :data:`WRONG_WINDOW` seconds."""

WRONG_WINDOW = 60.0
"""Seconds over which :data:`WRONG_CODES` are counted."""

_KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')


def codes_match(expected: str, given: str) -> bool:
    """Whether ``given`` is the class code: case and surrounding spaces aside, compared in
    constant time."""
    return hmac.compare_digest(expected.strip().upper(), given.strip().upper())


class WrongCodes:
    """The wrong class codes each address sent lately: after ``most`` within ``window``
    seconds, the address waits until the oldest of them is ``window`` seconds old.

    >>> now = [0.0]
    >>> tries = WrongCodes(most=3, window=60, clock=lambda: now[0])
    >>> for second in (0, 10, 20):
    ...     now[0] = second
    ...     tries.wrong("10.0.0.7")
    >>> tries.wait("10.0.0.7"), tries.wait("10.0.0.8")
    (40, 0)
    >>> now[0] = 60.5
    >>> tries.wait("10.0.0.7")
    0
    """

    def __init__(
        self,
        most: int = WRONG_CODES,
        window: float = WRONG_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.most, self.window, self.clock = most, window, clock
        self.sent: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        now = self.clock()
        for who in list(self.sent):  # forget what is older than the window, for every address
            times = self.sent[who]
            while times and times[0] <= now - self.window:
                times.popleft()
            if not times:
                del self.sent[who]
        return self.sent.get(address, deque())

    def wait(self, address: str) -> int:
        """Whole seconds ``address`` must wait before its next code is read (0: none)."""
        times = self._recent(address)
        if len(times) < self.most:
            return 0
        return max(1, math.ceil(times[-self.most] + self.window - self.clock()))

    def wrong(self, address: str) -> None:
        """Count a wrong code from ``address``."""
        self._recent(address)
        self.sent.setdefault(address, deque()).append(self.clock())


@dataclass
class Seat:
    """A student's place: the kernel of their table and the page that shows it."""

    kernel_id: str
    page: str


class DoorHandler:
    """Voilà's page handler behind the class code (made a subclass of Voilà's handler by
    :func:`door_handler`, so that this module imports no Voilà at import time)."""

    seats: ClassVar[dict[str, Seat]] = {}
    leaving: ClassVar[dict[str, Any]] = {}
    """Kernels whose page has closed, each with the timer that will shut it down."""


def leave_handler() -> type[Any]:
    """The handler of Voilà's "page closed" request: the kernel is shut down
    :data:`LEAVE_GRACE` seconds later, unless its seat comes back."""
    import tornado.web
    from jupyter_server.base.handlers import APIHandler
    from tornado.ioloop import IOLoop

    class Leave(APIHandler):
        @tornado.web.authenticated
        async def post(self, kernel_id: str) -> None:
            if kernel_id in self.kernel_manager and kernel_id not in DoorHandler.leaving:
                manager: Any = self.kernel_manager

                async def shut() -> None:
                    DoorHandler.leaving.pop(kernel_id, None)
                    if kernel_id in manager:
                        await manager.shutdown_kernel(kernel_id)

                DoorHandler.leaving[kernel_id] = IOLoop.current().call_later(LEAVE_GRACE, shut)
            self.set_status(204)
            self.finish()

    return Leave


def door_handler() -> type[Any]:
    """The handler class: Voilà's notebook handler with the door in front."""
    import tornado.web
    from voila.tornado.handler import TornadoVoilaHandler  # type: ignore[import-untyped]

    code = os.environ.pop(CODE_VARIABLE, "")
    most = int(os.environ.get(MAX_VARIABLE, "0") or 0)
    tries = WrongCodes()

    class Door(TornadoVoilaHandler, DoorHandler):  # type: ignore[misc]
        def _seat_id(self) -> str | None:
            value = self.get_signed_cookie(COOKIE)
            return value.decode("ascii") if value else None

        def _live(self, seat_id: str | None) -> Seat | None:
            """The seat's table, or None; a seat whose kernel was culled is let go."""
            seat = self.seats.get(seat_id or "")
            if seat is None or not seat.kernel_id or seat.kernel_id in self.kernel_manager:
                return seat  # no seat, or one still being dealt, or a live table
            del self.seats[seat_id or ""]
            return None

        def _in_class(self) -> int:
            for seat_id in list(self.seats):
                self._live(seat_id)
            return len(self.seats)

        def _page(self, status: int, body: str) -> None:
            self.set_status(status)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(_door_page(body))

        def head(self, path: str | None = None) -> None:
            self.set_status(200)
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish()

        async def get(self, path: str | None = None) -> None:
            if path:  # a file beside the notebook: Voilà's redirect, no kernel
                await super().get(path)
                return
            seat_id = self._seat_id()
            if seat_id is None:
                self._page(200, _code_form(self.xsrf_form_html(), wrong=False))
                return
            seat = self._live(seat_id)
            if seat is not None and not seat.kernel_id:  # asked again while being dealt
                self._page(200, _starting_page())
                return
            if seat is not None:  # a reload: the same table
                from tornado.ioloop import IOLoop

                timer = self.leaving.pop(seat.kernel_id, None)
                if timer is not None:
                    IOLoop.current().remove_timeout(timer)
                self.set_header("Content-Type", "text/html")
                self.set_header("Cache-Control", "no-cache, no-store, must-revalidate")
                self.finish(seat.page)
                return
            if most and self._in_class() >= most:
                self._page(503, _full_page(most))
                return
            placeholder = Seat("", "")  # holds the place while the kernel starts
            self.seats[seat_id] = placeholder
            parts: list[str] = []
            try:
                async for part in self.get_generator(path=path):
                    parts.append(part)
                    self.write(part)
                    await self.flush()
            finally:
                page = "".join(parts)
                found = _KERNEL_ID.search(page)
                if found and self.seats.get(seat_id) is placeholder:
                    self.seats[seat_id] = Seat(found.group(1), _without_heartbeats(page))
                elif self.seats.get(seat_id) is placeholder:
                    del self.seats[seat_id]

        def post(self, path: str | None = None) -> None:
            if path:
                raise tornado.web.HTTPError(405)
            address = self.request.remote_ip or ""
            seconds = tries.wait(address)
            if seconds:  # too many wrong codes lately: this one isn't even read
                self.set_header("Retry-After", str(seconds))
                self._page(429, _wait_page(seconds))
                return
            given = self.get_body_argument("code", "")
            if not code or not codes_match(code, given):
                tries.wrong(address)
                self._page(403, _code_form(self.xsrf_form_html(), wrong=True))
                return
            if self._seat_id() is None:
                self.set_signed_cookie(
                    COOKIE, secrets.token_urlsafe(16), httponly=True, samesite="Strict"
                )
            self.redirect(self.base_url)

    return Door


def _without_heartbeats(page: str) -> str:
    return page.replace("<script>window.voila_heartbeat()</script>\n", "")


def _door_page(body: str) -> str:
    title = html.escape(render("class_page_title"))
    return (
        "<!DOCTYPE html>\n"
        '<html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="robots" content="noindex, nofollow"><link rel="icon" href="data:,">'
        f"<title>{title}</title>"
        "<style>body{font:1.1rem/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;"
        "padding:0 1rem}input,button{font:inherit;padding:.4rem .6rem}"
        "input{text-transform:uppercase;letter-spacing:.15em;width:9em}"
        ".rk-door-error{color:#a4001d}</style>"
        f"</head><body><main><h1>{title}</h1>{body}</main></body></html>\n"
    )


def _code_form(xsrf: str, *, wrong: bool) -> str:
    error = (
        f'<p class="rk-door-error" role="alert">{html.escape(render("class_page_wrong_code"))}</p>'
        if wrong
        else ""
    )
    return (
        f"<p>{html.escape(render('class_page_code_intro'))}</p>{error}"
        '<form method="post" action="">'
        f'<label for="code">{html.escape(render("class_page_code_label"))}</label> '
        '<input id="code" name="code" autocomplete="off" autocapitalize="characters" '
        'spellcheck="false" required autofocus> '
        f"{xsrf}"
        f'<button type="submit">{html.escape(render("class_page_start"))}</button>'
        "</form>"
    )


def _wait_page(seconds: int) -> str:
    return (
        f'<p role="alert" data-testid="class-wait">'
        f"{html.escape(render('class_page_wait', seconds=seconds))}</p>"
        f'<p><a href="">{html.escape(render("class_page_back"))}</a></p>'
    )


def _starting_page() -> str:
    return (
        '<meta http-equiv="refresh" content="3">'
        f'<p role="status">{html.escape(render("class_page_starting"))}</p>'
    )


def _full_page(most: int) -> str:
    return (
        f'<p role="alert" data-testid="class-full">'
        f"{html.escape(render('class_page_full', count=most))}</p>"
    )


class QuietPingWarning(logging.Filter):
    """Leaves out tornado's warning that ``websocket_ping_timeout`` is longer than
    ``websocket_ping_interval``. jupyter_server's websocket handlers give tornado their own
    ping settings, in milliseconds, under the names tornado reads in seconds (jupyter_server
    issue 1612): tornado's own pings then come every 30,000 seconds, and its warning is about
    those. The pings that keep a page's connection alive are jupyter_server's, every 30 s,
    and a connection is closed when no answer came for 90 s.

    >>> record = logging.LogRecord("tornado.general", logging.WARNING, "", 0,
    ...     "The websocket_ping_timeout (90000) cannot be longer than the "
    ...     "websocket_ping_interval (30000).", None, None)
    >>> QuietPingWarning().filter(record)
    False
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("The websocket_ping_timeout (")


def classroom_app() -> type[Any]:
    """Voilà's application with :func:`door_handler` for its page, the class notebook trusted
    (signed in memory, so the server doesn't warn it isn't), and tornado's warning about the
    websocket ping settings left out of the teacher's terminal (:class:`QuietPingWarning`)."""
    from voila.app import Voila  # type: ignore[import-untyped]
    from voila.shutdown_kernel_handler import (  # type: ignore[import-untyped]
        VoilaShutdownKernelHandler,
    )
    from voila.tornado.handler import TornadoVoilaHandler

    class Classroom(Voila):  # type: ignore[misc]
        def init_settings(self) -> dict[str, Any]:
            settings: dict[str, Any] = super().init_settings()
            # jupyter_server's default ping timeout (3 pings) is kept: one no longer than the
            # interval closed every page's kernel connection at its first ping, 30 s after
            # it opened (a click sent just then was lost)
            logging.getLogger("tornado.general").addFilter(QuietPingWarning())
            notary = self.contents_manager.notary
            if self.notebook_path:
                import nbformat

                notebook = nbformat.read(self.notebook_path, as_version=4)  # type: ignore[no-untyped-call]
                notary.sign(notebook)
            return settings

        def init_handlers(self) -> list[Any]:
            replace = {
                TornadoVoilaHandler: door_handler(),
                VoilaShutdownKernelHandler: leave_handler(),
            }
            handlers: list[Any] = super().init_handlers()
            return [(rule[0], replace.get(rule[1], rule[1]), *rule[2:]) for rule in handlers]

    return Classroom


ClassroomVoila = classroom_app
"""The application class's maker (Voilà imported only when the server starts)."""
