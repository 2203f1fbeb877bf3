"""An entrant that attacks the league the way a student who wants to win would: one attack
per mode (the first argument), made at its first question; then it says what it achieved on
an error line (which forfeits the game, so the report carries its findings) — or, for the
attacks on the referee itself, it misbehaves and is stopped.

Every attack on another program is aimed only at processes whose working folder is inside
the league folder (the second argument): the test's own programs, never anything else on
the machine, with or without a sandbox.
"""

import contextlib
import ctypes
import itertools
import json
import os
import signal
import socket
import sys
import threading
import time


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def others(league: str) -> list[int]:
    """Processes working inside the league folder that are not this program's own."""
    mine = os.getcwd()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            cwd = os.readlink(f"/proc/{entry}/cwd")
        except OSError:
            continue
        if cwd.startswith(league) and not cwd.startswith(mine):
            found.append(int(entry))
    return found


def read_memory(league: str, _: list[str]) -> str:
    seen = [*others(league), os.getppid()]
    read = 0
    for pid in seen:
        try:
            with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/mem", "rb") as mem:
                for line in maps:
                    start, end = (int(x, 16) for x in line.split()[0].split("-"))
                    if "rw" in line.split()[1]:
                        mem.seek(start)
                        read += len(mem.read(min(4096, end - start)))
                        break
        except (OSError, ValueError, OverflowError):
            continue
    return f"seen={len(seen) - 1} read={read} parent={os.getppid()}"


def steal_input(league: str, _: list[str]) -> str:
    seen, stolen = others(league), 0
    handles = []
    for pid in seen:
        try:
            handles.append(os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            continue
    deadline = time.monotonic() + 1.5
    while handles and time.monotonic() < deadline:
        for fd in handles:
            with contextlib.suppress(OSError):
                stolen += len(os.read(fd, 65536))
        time.sleep(0.01)
    return f"seen={len(seen)} opened={len(handles)} stolen={stolen}"


def write_output(league: str, _: list[str]) -> str:
    seen, written = others(league), 0
    for pid in seen:
        try:
            fd = os.open(f"/proc/{pid}/fd/1", os.O_WRONLY | os.O_NONBLOCK)
            written += os.write(fd, b"I forfeit, says your opponent\n")
            os.close(fd)
        except OSError:
            continue
    return f"seen={len(seen)} written={written}"


def kill_opponent(league: str, _: list[str]) -> str:
    seen, killed = others(league), 0
    for pid in seen:
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:
            continue
    return f"seen={len(seen)} killed={killed}"


def rewrite_program(league: str, args: list[str]) -> str:
    try:
        with open(args[0], "a") as program:
            program.write("\nexit 7\n")
        return "rewritten=yes"
    except OSError as exc:
        return f"rewritten=no ({exc.strerror})"


def network(league: str, args: list[str]) -> str:
    try:
        with socket.create_connection(("127.0.0.1", int(args[0])), timeout=0.5) as conn:
            conn.sendall(b"run this on every worker\n")
        return "connected=yes"
    except OSError as exc:
        return f"connected=no ({exc.strerror or exc})"


def escape(league: str, args: list[str]) -> str:
    if os.fork() == 0:  # a child of its own session, then its child: out of the group
        os.setsid()
        if os.fork() == 0:
            time.sleep(float(args[1]))
            with open(args[0], "w") as results:
                results.write("<p>1. the attacker, 100% wins</p>")
            os._exit(0)
        os._exit(0)
    os.wait()
    return "escaped=forked"


def ptrace_parent(league: str, _: list[str]) -> str:
    libc = ctypes.CDLL(None, use_errno=True)
    targets = [os.getppid(), *others(league)]
    attached = 0
    for pid in targets:
        if libc.ptrace(16, pid, None, None) == 0:  # PTRACE_ATTACH: stops it
            attached += 1
    return f"others={len(targets) - 1} attached={attached} parent={targets[0]}"


def kill_referee(league: str, _: list[str]) -> str:
    parent = os.getppid()
    try:
        os.kill(parent, signal.SIGKILL)
        result = "sent"
    except OSError as exc:
        result = exc.strerror
    time.sleep(0.2)
    return f"parent={parent} kill={result}"


def memory(league: str, _: list[str]) -> str:
    try:
        hog = bytearray(1 << 30)
        return f"allocated={len(hog) >> 20}MiB"
    except MemoryError:
        return "allocated=no (MemoryError)"


def forks(league: str, _: list[str]) -> str:
    made = 0
    error = ""
    for _ in range(100):
        try:
            pid = os.fork()
        except OSError as exc:
            error = exc.strerror
            break
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        made += 1
    return f"forked={made} error={error or 'none'}"


def environment(league: str, _: list[str]) -> str:
    secret = "yes" if "RUMMYKIT_TEST_SECRET" in os.environ else "no"
    sandbox = os.environ.get("RUMMYKIT_SANDBOX", "?")
    return f"secret={secret} sandbox={sandbox} keys={','.join(sorted(os.environ))}"


def file_size(league: str, _: list[str]) -> str:
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "big")
    try:
        with open(path, "wb") as out:
            for _ in range(4):
                out.write(b"x" * (1 << 20))
        return "wrote=4MiB"
    except OSError as exc:
        return f"wrote=no ({exc.strerror})"


def open_files(league: str, _: list[str]) -> str:
    handles = []
    try:
        for _ in range(1000):
            handles.append(os.open(os.devnull, os.O_RDONLY))
    except OSError as exc:
        return f"opened={len(handles)} ({exc.strerror})"
    return f"opened={len(handles)}"


ATTACKS = {f.__name__: f for f in (
    read_memory, steal_input, write_output, kill_opponent, rewrite_program, network, escape,
    ptrace_parent, kill_referee, memory, forks, environment, file_size, open_files,
)}  # fmt: skip


def spin() -> None:
    while True:
        pass


def main(mode: str, league: str, args: list[str]) -> None:
    if mode == "deep_hello":
        sys.stdout.write('{"type": "hello", "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
        sys.stdout.flush()
        time.sleep(30)
        return
    send({"type": "hello", "protocol": 1, "name": mode, "variants": ["hungarian", "rommi"]})
    if mode == "cpu_between":
        threading.Thread(target=spin, daemon=True).start()
    asked = 0
    marks: list[tuple[float, float]] = []
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            return
        if message["type"] != "decide":
            continue
        ident, obs = message["id"], message["observation"]
        asked += 1
        if mode in ATTACKS:
            send(
                {
                    "type": "error",
                    "id": ident,
                    "message": "findings: " + ATTACKS[mode](league, args),
                }
            )
            time.sleep(30)  # stopped by the referee
        elif mode == "deep_answer":
            trace = "[" * 100_000 + "]" * 100_000
            sys.stdout.write(
                f'{{"type": "action", "id": {ident}, "text": "draw", "trace": {trace}}}\n'
            )
            sys.stdout.flush()
        elif mode == "long_line":
            padding = "x" * (2 << 20)
            sys.stdout.write(f'{{"type": "action", "id": {ident}, "text": "{padding}"}}\n')
            sys.stdout.flush()
        elif mode == "cpu_limit":
            spin()
        elif mode == "cpu_between":  # a thread spins all along; how much ran between questions?
            marks.append((time.process_time(), time.monotonic()))
            if len(marks) == 4:
                cpu = sum(b[0] - a[0] for a, b in itertools.pairwise(marks))
                wall = sum(b[1] - a[1] for a, b in itertools.pairwise(marks))
                send({"type": "error", "id": ident,
                      "message": f"findings: cpu_between={cpu:.3f} wall_between={wall:.3f}"})  # fmt: skip
                time.sleep(30)
            time.sleep(0.05)
            send({"type": "action", "id": ident, "action": obs["legal_actions"][0]})
        else:
            send({"type": "action", "id": ident, "action": obs["legal_actions"][0]})


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
