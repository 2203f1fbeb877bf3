"""The table server under test: started as ``rummykit tables`` in its own process on loopback,
a private PostgreSQL when there is one, and the helpers every table test uses."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tornado")
pytest.importorskip("sqlalchemy")

TEACHER = "teacher-code-for-tests"
ROOT = Path(__file__).resolve().parents[2]


class Served:
    """One ``rummykit tables`` process: its URLs, the teacher's API, kill and restart."""

    def __init__(self, db: str, *args: str, server_id: str | None = None) -> None:
        self.db = db
        self.args = args
        # the same name on every restart, as the same server on the same port: it gets its
        # tables back at once (another name waits for their lease to run out)
        self.server_id = server_id or f"test-{secrets.token_hex(4)}"
        self.proc: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rummykit",
                "tables",
                "--port",
                "0",
                "--db",
                self.db,
                "--teacher-code",
                TEACHER,
                "--pace",
                "0",
                "--server-id",
                self.server_id,
                *self.args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "http://" not in line:
            self.proc.kill()
            raise AssertionError(f"the server did not start: {line!r} {self.proc.stderr.read()!r}")  # type: ignore[union-attr]
        self.http = line.split("http://", 1)[1].split("/", 1)[0]
        self.ws = f"ws://{self.http}/ws"

    def api(self, path: str, body: object = None, teacher: str | None = TEACHER) -> tuple[int, Any]:
        request = urllib.request.Request(
            f"http://{self.http}{path}",
            data=None if body is None else json.dumps(body).encode(),
            method="GET" if body is None else "POST",
        )
        if teacher is not None:
            request.add_header("Authorization", f"Bearer {teacher}")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def create(self, **settings: Any) -> str:
        status, data = self.api("/api/tables", settings)
        assert status == 201, data
        code: str = data["tables"][0]["code"]
        return code

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> str:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.stderr.read() if self.proc.stderr else ""  # type: ignore[union-attr]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """``serve(db=None, *args)`` starts a server (SQLite in tmp_path by default)."""
    started: list[Served] = []

    def start(db: str | None = None, *args: str, server_id: str | None = None) -> Served:
        server = Served(db or str(tmp_path / "tables.db"), *args, server_id=server_id)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


# --- a private PostgreSQL ------------------------------------------------------------------


def _pg_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL to test against: RUMMYKIT_POSTGRES_URL's, or a private one started here
    (initdb in a temporary folder, loopback only, trust on loopback); skipped when there is
    none, unless RUMMYKIT_REQUIRE_POSTGRES=1 (CI) makes that a failure."""
    given = os.environ.get("RUMMYKIT_POSTGRES_URL")
    if given:
        yield given
        return
    pg = _pg_bin()
    if pg is None:
        message = "PostgreSQL is not installed here (apt-get install postgresql)"
        if os.environ.get("RUMMYKIT_REQUIRE_POSTGRES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    # not under pytest's temporary folder: as root that is closed to PostgreSQL's own user
    home = Path(tempfile.mkdtemp(prefix="rummykit-pg-"))
    data = home / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: its own user runs it
        as_user = ["runuser", "-u", "postgres", "--"]
        home.chmod(0o777)
    port = _free_port()
    subprocess.run(
        [
            *as_user,
            str(pg / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    log = home / "pg.log"
    subprocess.run(
        [
            *as_user,
            str(pg / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(log),
            "-w",
            "-o",
            f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=on",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_user, str(pg / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
        )


def schema_validators() -> tuple[Any, Any]:
    """Validators of what a seat sends and what it receives (jsonschema, draft 2020-12)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    from rummykit.agents.protocol import schema as protocol_schema
    from rummykit.server.tables import schema

    proto, tables = protocol_schema(), schema()
    registry = Registry().with_resources(
        [
            (proto["$id"], Resource.from_contents(proto)),
            (tables["$id"], Resource.from_contents(tables)),
        ]
    )
    make = lambda name: Draft202012Validator(  # noqa: E731
        {"$ref": f"{tables['$id']}#/$defs/{name}"}, registry=registry
    )
    return make("to_server"), make("to_seat")


async def settle(table: Any) -> None:
    """Until a RemoteTable has the server's answer to the move it sent."""
    for _ in range(400):
        if not table.remote_pending:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no answer from the server")


async def play_out(table: Any, level: str = "easy") -> None:
    """Click through a RemoteTable's round as the computer player ``level`` would, each move
    through the widget (checked on the mirror, sent, the server's update awaited)."""
    from rummykit.ai import make_agent

    agent = make_agent(level)
    for _ in range(2000):
        if table.over:
            return
        if table.view["my_turn"] and not table.remote_pending:
            assert table.act(agent.decide(table.game.observation(table.seat)).action)
            await settle(table)
        else:
            await asyncio.sleep(0.01)


def wait_until(predicate: Any, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def fresh_database(postgres_url: str) -> str:
    """A new, empty database on the test PostgreSQL (each test its own: no tables of another)."""
    import sqlalchemy as sa

    name = "rk_" + secrets.token_hex(4)
    admin = sa.create_engine(
        postgres_url.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as db:
        db.execute(sa.text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return postgres_url.rsplit("/", 1)[0] + "/" + name
