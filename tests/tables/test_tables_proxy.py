"""Behind a school's reverse proxy (``--trusted-proxy``): each learner counts as their own
address — the per-address cap, the teacher-code lockout and the log see the address the
proxy forwards (X-Forwarded-For, X-Real-IP, read by tornado's ``xheaders``) — but only on
connections from the listed proxy. Hostile clients on loopback (bounded): one that sends the
headers itself is still its own address, however many it forges.

The proxy is a client whose connections come from 127.0.0.2 (Linux answers the whole of
127.0.0.0/8 on loopback; the server listens on 127.0.0.1), every other client from
127.0.0.1. No packet leaves the machine."""

from __future__ import annotations

import asyncio
import http.client
import json
import subprocess
import sys
from typing import Any

import pytest
import tornado.httpclient
import tornado.websocket

from rummykit.messages import render
from rummykit.server.web import trusted_proxies
from tests.tables.conftest import ROOT, TEACHER, Served

PROXY = "127.0.0.2"
HELD: list[tornado.websocket.WebSocketClientConnection] = []
"""The connections the server let stand (closed at the end of each test)."""


async def _open(server: Served, source: str = "127.0.0.1", **headers: str) -> dict[str, Any]:
    """A WebSocket from ``source`` with ``headers``: the server's first word when it refuses
    (it says why, then closes), else ``{"open": True}`` (a hello would come next)."""
    request = tornado.httpclient.HTTPRequest(server.ws, headers=headers, network_interface=source)
    ws = await tornado.websocket.websocket_connect(request)
    try:
        text = await asyncio.wait_for(ws.read_message(), 1.5)  # a refusal comes at once
    except asyncio.TimeoutError:
        HELD.append(ws)
        return {"open": True}
    ws.close()
    said: dict[str, Any] = json.loads(text) if isinstance(text, str) else {}
    return said


def _refused(said: dict[str, Any]) -> bool:
    return said.get("reason") == "tables_too_many_connections"


def _teacher(server: Served, code: str, source: str, **headers: str) -> int:
    """``GET /api/tables`` with teacher code ``code``, from ``source``: the status."""
    host, port = server.http.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10, source_address=(source, 0))
    connection.request("GET", "/api/tables", headers={"Authorization": f"Bearer {code}", **headers})
    status = connection.getresponse().status
    connection.close()
    return status


def _close_held() -> None:
    for ws in HELD:
        ws.close()
    HELD.clear()


def test_without_a_trusted_proxy_the_headers_change_nothing(serve: Any) -> None:
    """The default: X-Forwarded-For and X-Real-IP from anyone are ignored; a client is its
    own address however many it sends."""
    server = serve(None, "--max-per-address", "2")

    async def forge() -> list[bool]:
        seen = []
        for n in range(6):
            said = await _open(
                server, **{"X-Forwarded-For": f"10.0.0.{n}", "X-Real-Ip": f"10.1.0.{n}"}
            )
            seen.append(_refused(said))
        _close_held()
        return seen

    assert asyncio.run(asyncio.wait_for(forge(), 60)) == [False, False, True, True, True, True]
    log = server.stop()
    assert log.count("refused from 127.0.0.1: too many connections") == 4
    assert "10.0.0." not in log and "10.1.0." not in log


def test_a_trusted_proxys_learners_each_count_as_their_own_address(serve: Any) -> None:
    """Through the proxy, each forwarded address has its own cap (2 here): ten connections
    for five learners all stand, a third for one learner is refused and logged under that
    learner's address; a client's own X-Forwarded-For entries before the proxy's are not
    believed (the last entry is the address the proxy saw); X-Real-IP counts as the proxy's
    word too; the proxy's connections without a header count as the proxy."""
    server = serve(None, "--max-per-address", "2", "--trusted-proxy", f"{PROXY},192.0.2.9")

    async def learners() -> None:
        for n in range(5):
            for _ in range(2):
                said = await _open(server, PROXY, **{"X-Forwarded-For": f"10.0.0.{n}"})
                assert said == {"open": True}, (n, said)
        assert _refused(await _open(server, PROXY, **{"X-Forwarded-For": "10.0.0.3"}))
        # a learner who forges an entry: the proxy appends the address it saw (10.0.0.4)
        forged = {"X-Forwarded-For": "10.9.9.9, 10.0.0.4"}
        assert _refused(await _open(server, PROXY, **forged))
        # the proxy that sets X-Real-IP: that is the learner's address
        assert await _open(server, PROXY, **{"X-Real-Ip": "10.0.1.1"}) == {"open": True}
        assert await _open(server, PROXY, **{"X-Real-Ip": "10.0.1.1"}) == {"open": True}
        assert _refused(await _open(server, PROXY, **{"X-Real-Ip": "10.0.1.1"}))
        # a chain of trusted proxies: the next one's address is skipped (trusted_downstream)
        chain = {"X-Forwarded-For": "10.0.2.2, 192.0.2.9"}
        assert await _open(server, PROXY, **chain) == {"open": True}
        assert await _open(server, PROXY, **{"X-Forwarded-For": "10.0.2.2"}) == {"open": True}
        assert _refused(await _open(server, PROXY, **chain))
        # no header from the proxy: the proxy's own address, a cap of its own
        assert await _open(server, PROXY) == {"open": True}
        assert await _open(server, PROXY) == {"open": True}
        assert _refused(await _open(server, PROXY))
        _close_held()

    asyncio.run(asyncio.wait_for(learners(), 60))
    log = server.stop()
    for address in ("10.0.0.3", "10.0.0.4", "10.0.1.1", "10.0.2.2", PROXY):
        assert f"refused from {address}: too many connections" in log, address
    assert "10.9.9.9" not in log and "refused from 192.0.2.9" not in log
    assert render("tables_trusting_proxy", proxies=f"{PROXY}, 192.0.2.9") in log


def test_a_client_that_is_not_the_proxy_cannot_forge_its_way_past_its_cap(serve: Any) -> None:
    """The same server, a client on 127.0.0.1 sending the headers itself: a new X-Forwarded-For,
    X-Real-IP, even the proxy's own address, each time — its third connection is refused and
    logged under 127.0.0.1, and the learners behind the proxy keep their places."""
    server = serve(None, "--max-per-address", "2", "--trusted-proxy", PROXY)

    async def forge() -> None:
        for n in range(2):
            said = await _open(server, PROXY, **{"X-Forwarded-For": f"10.0.0.{n}"})
            assert said == {"open": True}
        disguises = [
            {"X-Forwarded-For": "10.0.0.7"},
            {"X-Forwarded-For": "10.0.0.8"},
            {"X-Real-Ip": "10.0.0.9"},
            {"X-Forwarded-For": f"10.0.0.10, {PROXY}"},
            {"X-Forwarded-For": PROXY, "X-Real-Ip": PROXY},
            {"X-Forwarded-For": "10.0.0.11", "X-Scheme": "https"},
        ]
        seen = [_refused(await _open(server, "127.0.0.1", **headers)) for headers in disguises]
        assert seen == [False, False, True, True, True, True]
        assert await _open(server, PROXY, **{"X-Forwarded-For": "10.0.0.5"}) == {"open": True}
        _close_held()

    asyncio.run(asyncio.wait_for(forge(), 60))
    log = server.stop()
    assert log.count("refused from 127.0.0.1: too many connections") == 4
    assert not any(f"10.0.0.{n}" in log for n in range(7, 12))


def test_the_teacher_code_lockout_is_per_learner_behind_the_proxy_and_not_forgeable(
    serve: Any,
) -> None:
    """Ten wrong teacher codes a minute lock one address out: behind the proxy, that is one
    learner's (another learner, and the teacher, still get in); a client that forges a new
    X-Forwarded-For with each guess is locked out all the same, on its own address."""
    server = serve(None, "--trusted-proxy", PROXY)
    guesses = [
        _teacher(server, f"guess{n}", PROXY, **{"X-Forwarded-For": "10.0.0.66"}) for n in range(11)
    ]
    assert guesses[:10] == [403] * 10 and guesses[10] == 429
    assert _teacher(server, TEACHER, PROXY, **{"X-Forwarded-For": "10.0.0.66"}) == 429
    assert _teacher(server, TEACHER, PROXY, **{"X-Forwarded-For": "10.0.0.67"}) == 200
    forged = [
        _teacher(server, f"guess{n}", "127.0.0.1", **{"X-Forwarded-For": f"10.3.0.{n}"})
        for n in range(11)
    ]
    assert forged[:10] == [403] * 10 and forged[10] == 429
    assert _teacher(server, TEACHER, "127.0.0.1", **{"X-Forwarded-For": "10.3.0.99"}) == 429
    log = server.stop()
    assert log.count("refused from 10.0.0.66: ") == 10
    assert log.count("refused from 127.0.0.1: ") == 10 and "10.3.0." not in log


@pytest.mark.parametrize("given", ["proxy.school.example", "10.0.0.300", "10.0.0.0/24"])
def test_a_trusted_proxy_that_is_not_an_address_is_refused_before_serving(given: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummykit", "tables", "--port", "0", "--trusted-proxy", given],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert render("tables_cli_bad_proxy", value=given) in done.stderr
    with pytest.raises(ValueError, match="is not an IP address"):
        trusted_proxies(f"10.0.0.2,{given}")
    assert trusted_proxies(" 10.0.0.2 ,, 0:0::1") == {"10.0.0.2", "::1"}


def test_classroom_tables_passes_the_trusted_proxy_on(monkeypatch: Any) -> None:
    """``rummykit classroom --tables --trusted-proxy A`` starts the table server with it."""
    from rummykit import classroom, cli
    from rummykit.server import beside

    started: list[list[str]] = []

    class Process:
        stdout = type("Out", (), {"readline": staticmethod(lambda: "Tables served\n")})()

        def __init__(self, command: list[str], **_: Any) -> None:
            started.append(command)

        def terminate(self) -> None: ...

        def wait(self, timeout: float | None = None) -> int:
            return 0

    monkeypatch.setattr(beside.subprocess, "Popen", Process)
    monkeypatch.setattr(classroom, "classroom_command", lambda settings: 0)
    monkeypatch.setenv(beside.URL_VARIABLE, "")  # tables_beside sets it: put back after
    assert cli.main(["classroom", "--tables", "--trusted-proxy", "10.0.0.2,10.0.0.3"]) == 0
    assert started and started[0][-2:] == ["--trusted-proxy", "10.0.0.2,10.0.0.3"]
    started.clear()
    assert cli.main(["classroom", "--tables"]) == 0
    assert "--trusted-proxy" not in started[0]
