"""The table server started beside another server: what ``rummykit classroom --tables`` runs.

:func:`tables_beside` starts ``rummykit tables`` as a process of its own on the next port,
says where it listens and the teacher code, puts its WebSocket address in the environment
(:data:`URL_VARIABLE`, which Voilà's kernels inherit, so the class page's
:class:`~rummykit.server.client.TableClient` finds it), and stops it when the block ends.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from rummykit.messages import render
from rummykit.server import DEFAULT_DB

__all__ = ["URL_VARIABLE", "tables_beside"]

URL_VARIABLE = "RUMMYKIT_TABLES_URL"
"""The environment variable holding the table server's WebSocket address (``ws://…/ws``)."""


@contextmanager
def tables_beside(
    ip: str, port: int, db: str = DEFAULT_DB, options: Sequence[str] = ()
) -> Iterator[str]:
    """Run ``rummykit tables`` on ``ip``:``port`` for the block, with ``options`` (those of
    ``rummykit classroom`` it takes on: ``--trusted-proxy``); its WebSocket address."""
    code = os.environ.get("RUMMYKIT_TEACHER_CODE") or secrets.token_urlsafe(12)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rummykit",
            "tables",
            "--ip",
            ip,
            "--port",
            str(port),
            "--db",
            db,
            *options,
        ],
        env={**os.environ, "RUMMYKIT_TEACHER_CODE": code},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        print(process.stdout.readline().rstrip(), flush=True)  # where it listens, or why not
        print(render("tables_teacher_code", code=code), flush=True)
        url = f"ws://{ip}:{port}/ws"
        os.environ[URL_VARIABLE] = url
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
