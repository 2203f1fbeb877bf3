"""``make lab`` starts JupyterLab, as root too: the very command it runs answers on 127.0.0.1."""

from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def lab_command() -> list[str]:
    """What ``make lab`` runs after ``.venv/bin/``, as the Makefile says it."""
    printed = subprocess.run(
        ["make", "-s", "--no-print-directory", "lab-command"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return shlex.split(printed)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def status(port: int, token: str | None) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/status")
    if token:
        request.add_header("Authorization", f"token {token}")
    try:
        with urllib.request.urlopen(request, timeout=2) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, ""


def test_make_lab_allows_root_exactly_when_running_as_root() -> None:
    command = lab_command()
    assert command[:2] == ["jupyter", "lab"] and command[-1] == "notebooks/README.md"
    assert ("--allow-root" in command) == (os.geteuid() == 0)


def test_the_make_lab_command_starts_a_server_on_localhost(tmp_path: Path) -> None:
    program, *args = lab_command()
    jupyter = Path(sys.executable).parent / program
    if not jupyter.exists():
        pytest.fail(f"{jupyter} is missing: install the notebook extra (make venv)")
    port, token = free_port(), "rummykit-test-" + os.urandom(8).hex()
    env = {
        **os.environ,
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),
    }
    server = subprocess.Popen(
        [
            str(jupyter),
            *args,
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        answer: tuple[int, str] = (0, "")
        while time.monotonic() < deadline and server.poll() is None:
            try:
                answer = status(port, token)
                break
            except (ConnectionError, urllib.error.URLError, TimeoutError):
                time.sleep(0.2)
        if answer[0] != 200:
            server.terminate()
            log = server.communicate(timeout=20)[0].decode(errors="replace")
            pytest.fail(f"JupyterLab did not answer on 127.0.0.1:{port}:\n{log[-3000:]}")
        assert "started" in json.loads(answer[1])
        assert status(port, None)[0] == 403  # the token is required
    finally:
        server.terminate()
        try:
            server.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()
