"""Where the table server keeps its tables: every accepted action, stored before it is acknowledged.

One small interface, :class:`Store`, over SQLAlchemy Core, so that the same statements run on
SQLite (the default: one file, nothing to install) and on PostgreSQL (a school running
several servers: ``postgresql://user:password@host/db``, driven by psycopg 3). The schema is
versioned (:data:`SCHEMA_VERSION`, kept in the ``meta`` table) and documented in
docs/tables.md; a database of another version is refused with a clear message, never
rewritten.

A table is stored as its settings (the variant, the house rules, the seed, the seats) and the
list of actions accepted at it, numbered from 1 (the primary key ``(code, seq)`` makes a
doubled action impossible): replaying the actions on a game dealt from the settings brings
the table back to the same position.

>>> store = Store("sqlite://")
>>> store.create_table("ABCD2345", {"variant": "rommi"}, ["human", "easy"], 1.0)
>>> store.append_action("ABCD2345", 1, 0, {"type": "draw", "source": "stock"}, 2.0)
>>> [t.actions for t in store.open_tables()]
[[(0, {'type': 'draw', 'source': 'stock'})]]
>>> store.append_action("ABCD2345", 1, 1, {"type": "draw", "source": "stock"}, 2.0)
Traceback (most recent call last):
...
rummykit.server.store.StoreError: table ABCD2345 already has an action number 1: not stored twice
"""

from __future__ import annotations

import json
import secrets
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from rummykit.errors import Said
from rummykit.messages import render

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "StoredTable", "database_url"]

SCHEMA_VERSION = 2
"""The version of the tables below; a database of version 1 is brought to it (:data:`MIGRATIONS`),
one of another version is refused."""

DEFAULT_LEASE = 15.0
"""Seconds a server holds its tables without renewing before another may take them over."""

_META = sa.MetaData()

META = sa.Table(
    "rummykit_meta",
    _META,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)
TABLES = sa.Table(
    "rummykit_tables",
    _META,
    sa.Column("code", sa.String(32), primary_key=True),
    sa.Column("settings", sa.Text, nullable=False),  # JSON: variant, options, seed, seats...
    sa.Column("status", sa.String(16), nullable=False),  # open, over, closed
    sa.Column("created", sa.Float, nullable=False),  # seconds since the epoch
    sa.Column("closed", sa.Float, nullable=True),
    sa.Column("record", sa.Text, nullable=True),  # the game record (JSON) once closed
    # version 2: the server that plays the table, and until when (seconds since the epoch)
    sa.Column("owner", sa.String(64), nullable=True),
    sa.Column("lease_until", sa.Float, nullable=True),
)
SEATS = sa.Table(
    "rummykit_seats",
    _META,
    sa.Column("code", sa.String(32), sa.ForeignKey("rummykit_tables.code"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),  # human, or a computer level
    sa.Column("token_hash", sa.String(64), nullable=True),  # sha256 of the seat token
    sa.Column("name", sa.String(64), nullable=True),
)
ACTIONS = sa.Table(
    "rummykit_actions",
    _META,
    sa.Column("code", sa.String(32), sa.ForeignKey("rummykit_tables.code"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),  # 1, 2, 3... per table
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),  # the action's JSON form
    sa.Column("at", sa.Float, nullable=False),
)
NOTICES = sa.Table(
    "rummykit_notices",
    _META,
    sa.Column("code", sa.String(32), sa.ForeignKey("rummykit_tables.code"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("notice", sa.String(64), nullable=False),  # a template code
    sa.Column("params", sa.Text, nullable=False),  # JSON
    sa.Column("at", sa.Float, nullable=False),
)


MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "ALTER TABLE rummykit_tables ADD COLUMN owner VARCHAR(64)",
        "ALTER TABLE rummykit_tables ADD COLUMN lease_until FLOAT",
    ),
}
"""Per old version, the statements that bring a database to the next one (the same SQL on
SQLite and PostgreSQL); run in one transaction with the version's update."""


class StoreError(Said, RuntimeError):
    """The database can't be used, or refused a write (the action is then not acknowledged)."""


@dataclass
class StoredTable:
    """One table as the database holds it."""

    code: str
    settings: dict[str, Any]
    status: str
    created: float
    seats: list[tuple[str, str | None, str | None]] = field(default_factory=list)
    """Per seat: its kind, the hash of its token (None while free), the learner's name."""
    actions: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """The accepted actions in order: (seat, the action's JSON form)."""
    notices: list[tuple[int, str, dict[str, Any], float]] = field(default_factory=list)


def database_url(text: str) -> str:
    """The SQLAlchemy URL of ``--db``: a ``postgresql://`` URL (driven by psycopg 3), a
    ``sqlite://`` URL, or a file path (SQLite).

    >>> database_url("tables.db")
    'sqlite:///tables.db'
    >>> database_url("postgresql://rk@localhost/rk")
    'postgresql+psycopg://rk@localhost/rk'
    >>> database_url("mysql://x")
    Traceback (most recent call last):
    ...
    rummykit.server.store.StoreError: --db 'mysql://x' is neither a file path (SQLite) nor a postgresql:// or sqlite:// URL
    """
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    if text.startswith(("postgresql+psycopg://", "sqlite://")):
        return text
    if "://" in text:
        raise StoreError(render("tables_bad_db", value=text))
    return "sqlite:///" + text


class Store:
    """The tables' database: create, take a seat, append an action, note, close, read back.

    Every write is its own transaction, committed before the method returns: a caller that
    acknowledges after the call acknowledges only what is on disk (SQLite in WAL mode with
    ``synchronous=FULL``; PostgreSQL's own commit).
    """

    def __init__(
        self,
        url: str,
        owner: str | None = None,
        lease: float = DEFAULT_LEASE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = database_url(url)
        self.owner = (owner or f"{socket.gethostname()}:{secrets.token_hex(4)}")[:64]
        """This server's name in the ``owner`` column: the tables it plays."""
        self.lease = lease
        self.clock = clock
        self.migrated_from: int | None = None
        """The schema version the database had when it was brought to this one (None: none)."""
        try:
            self.engine = sa.create_engine(self.url)
            if self.engine.dialect.name == "sqlite":
                sa.event.listen(self.engine, "connect", _sqlite_pragmas)
            _META.create_all(self.engine)
            with self.engine.begin() as db:
                found = db.execute(
                    sa.select(META.c.value)
                    .where(META.c.key == "schema_version")
                    .with_for_update()  # two servers starting at once migrate once
                ).scalar()
                if found is None:
                    db.execute(
                        sa.insert(META).values(key="schema_version", value=str(SCHEMA_VERSION))
                    )
                elif found.isdigit() and int(found) in MIGRATIONS:
                    old = int(found)
                    while old in MIGRATIONS:
                        for statement in MIGRATIONS[old]:
                            db.execute(sa.text(statement))
                        old += 1
                    db.execute(
                        sa.update(META)
                        .where(META.c.key == "schema_version")
                        .values(value=str(SCHEMA_VERSION))
                    )
                    self.migrated_from = int(found)
                elif found != str(SCHEMA_VERSION):
                    raise StoreError(render("tables_db_version", found=found, ours=SCHEMA_VERSION))
        except SQLAlchemyError as exc:
            raise StoreError(render("tables_db_unusable", error=_first_line(exc))) from exc

    @property
    def kind(self) -> str:
        """``sqlite`` or ``postgresql``."""
        name: str = self.engine.dialect.name
        return name

    def _held(self, code: str) -> Any:
        """The statement that renews this server's lease on ``code``: it changes no row when
        another server holds the table (its lease running, or taken over)."""
        return (
            sa.update(TABLES)
            .where(TABLES.c.code == code, TABLES.c.owner == self.owner)
            .values(lease_until=self.clock() + self.lease)
        )

    def _write(
        self, *statements: Any, duplicate: str | None = None, held: str | None = None
    ) -> None:
        try:
            with self.engine.begin() as db:
                if held is not None and db.execute(self._held(held)).rowcount != 1:
                    raise StoreError(render("tables_lease_lost", table=held))
                for statement in statements:
                    db.execute(statement)
        except IntegrityError as exc:
            raise StoreError(
                duplicate or render("tables_db_refused", error=_first_line(exc))
            ) from exc
        except SQLAlchemyError as exc:
            raise StoreError(render("tables_db_refused", error=_first_line(exc))) from exc

    def create_table(
        self, code: str, settings: dict[str, Any], seats: list[str], now: float
    ) -> None:
        """Store a new table and its seats (all free)."""
        self._write(
            sa.insert(TABLES).values(
                code=code,
                settings=json.dumps(settings),
                status="open",
                created=now,
                owner=self.owner,
                lease_until=self.clock() + self.lease,
            ),
            *(
                sa.insert(SEATS).values(code=code, seat=n, kind=kind)
                for n, kind in enumerate(seats)
            ),
        )

    def take_seat(self, code: str, seat: int, token_hash: str, name: str) -> None:
        """A learner takes a free seat: the hash of its token and the name they gave."""
        self._write(
            sa.update(SEATS)
            .where(SEATS.c.code == code, SEATS.c.seat == seat)
            .values(token_hash=token_hash, name=name),
            held=code,
        )

    def append_action(
        self, code: str, seq: int, seat: int, action: dict[str, Any], now: float
    ) -> None:
        """Store action number ``seq`` of a table; a second action with that number is
        refused (:class:`StoreError`)."""
        self._write(
            sa.insert(ACTIONS).values(
                code=code, seq=seq, seat=seat, action=json.dumps(action, ensure_ascii=False), at=now
            ),
            duplicate=render("tables_db_doubled", table=code, seq=seq),
            held=code,
        )

    def add_notice(
        self, code: str, n: int, seat: int, notice: str, params: dict[str, Any], now: float
    ) -> None:
        """Keep one line of a table's log (a computer took a seat over, a learner came back)."""
        self._write(
            sa.insert(NOTICES).values(
                code=code, n=n, seat=seat, notice=notice, params=json.dumps(params), at=now
            ),
            held=code,
        )

    def set_status(self, code: str, status: str, now: float, record: str | None = None) -> None:
        """Mark a table ``over`` (its round ended) or ``closed`` (its record kept)."""
        values: dict[str, Any] = {"status": status}
        if status == "closed":
            values["closed"] = now
        if record is not None:
            values["record"] = record
        if status == "closed":
            values["owner"] = None  # a closed table is no server's
        self._write(sa.update(TABLES).where(TABLES.c.code == code).values(**values), held=code)

    # --- which server plays which table (schema version 2) ------------------------------

    def claim(self, code: str) -> bool:
        """Take table ``code`` for this server when no other holds it (no owner, or its
        lease has run out) or it is already ours; whether this server holds it now."""
        try:
            with self.engine.begin() as db:
                now = self.clock()
                taken = db.execute(
                    sa.update(TABLES)
                    .where(
                        TABLES.c.code == code,
                        TABLES.c.status != "closed",
                        sa.or_(
                            TABLES.c.owner.is_(None),
                            TABLES.c.owner == self.owner,
                            TABLES.c.lease_until < now,
                        ),
                    )
                    .values(owner=self.owner, lease_until=now + self.lease)
                )
                return bool(taken.rowcount == 1)
        except SQLAlchemyError as exc:
            raise StoreError(render("tables_db_unusable", error=_first_line(exc))) from exc

    def renew(self) -> set[str]:
        """Renew this server's lease on every table it holds; the codes it still holds."""
        try:
            with self.engine.begin() as db:
                db.execute(
                    sa.update(TABLES)
                    .where(TABLES.c.owner == self.owner, TABLES.c.status != "closed")
                    .values(lease_until=self.clock() + self.lease)
                )
                return set(
                    db.execute(
                        sa.select(TABLES.c.code).where(
                            TABLES.c.owner == self.owner, TABLES.c.status != "closed"
                        )
                    ).scalars()
                )
        except SQLAlchemyError as exc:
            raise StoreError(render("tables_db_unusable", error=_first_line(exc))) from exc

    def orphans(self) -> list[str]:
        """The codes of tables not closed that no server holds: no owner, or a lease run out
        (the server that played them stopped); another server may :meth:`claim` them."""
        try:
            with self.engine.connect() as db:
                return list(
                    db.execute(
                        sa.select(TABLES.c.code)
                        .where(
                            TABLES.c.status != "closed",
                            sa.or_(TABLES.c.owner.is_(None), TABLES.c.lease_until < self.clock()),
                        )
                        .order_by(TABLES.c.created)
                    ).scalars()
                )
        except SQLAlchemyError as exc:
            raise StoreError(render("tables_db_unusable", error=_first_line(exc))) from exc

    def release(self) -> None:
        """Let go of every table this server holds (a server stopping politely): another
        server may take them over at once."""
        self._write(
            sa.update(TABLES)
            .where(TABLES.c.owner == self.owner)
            .values(owner=None, lease_until=None)
        )

    def open_tables(self) -> list[StoredTable]:
        """Every table not closed, with its seats, actions and log, to play on after a restart."""
        return self._read(TABLES.c.status != "closed")

    def open_tables_except(self, codes: set[str]) -> list[StoredTable]:
        """The tables not closed whose codes aren't in ``codes``: those other servers of the
        school play, for the teacher's page (read only: nothing is claimed)."""
        return self._read(sa.and_(TABLES.c.status != "closed", TABLES.c.code.not_in(codes)))

    def table(self, code: str) -> StoredTable | None:
        """One table, closed or not (None when there is none of that code)."""
        found = self._read(TABLES.c.code == code)
        return found[0] if found else None

    def record(self, code: str) -> str | None:
        """The game record a closed table keeps (None before it closed)."""
        with self.engine.connect() as db:
            text: str | None = db.execute(
                sa.select(TABLES.c.record).where(TABLES.c.code == code)
            ).scalar()
        return text

    def _read(self, where: Any) -> list[StoredTable]:
        try:
            with self.engine.connect() as db:
                found = {
                    row.code: StoredTable(
                        row.code, json.loads(row.settings), row.status, row.created
                    )
                    for row in db.execute(sa.select(TABLES).where(where).order_by(TABLES.c.created))
                }
                codes = list(found)
                if not codes:
                    return []
                for row in db.execute(
                    sa.select(SEATS).where(SEATS.c.code.in_(codes)).order_by(SEATS.c.seat)
                ):
                    found[row.code].seats.append((row.kind, row.token_hash, row.name))
                for row in db.execute(
                    sa.select(ACTIONS).where(ACTIONS.c.code.in_(codes)).order_by(ACTIONS.c.seq)
                ):
                    table = found[row.code]
                    if row.seq != len(table.actions) + 1:
                        raise StoreError(render("tables_db_gap", table=row.code, seq=row.seq))
                    table.actions.append((row.seat, json.loads(row.action)))
                for row in db.execute(
                    sa.select(NOTICES).where(NOTICES.c.code.in_(codes)).order_by(NOTICES.c.n)
                ):
                    found[row.code].notices.append(
                        (row.seat, row.notice, json.loads(row.params), row.at)
                    )
                return list(found.values())
        except SQLAlchemyError as exc:
            raise StoreError(render("tables_db_unusable", error=_first_line(exc))) from exc

    def close(self) -> None:
        """Let go of the database's connections."""
        self.engine.dispose()


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc)
    return text.strip().splitlines()[0] if text.strip() else type(exc).__name__
