"""A class at once: N students open ``rummykit classroom``'s page together, on one machine.

``rummykit classroom`` (Voilà, rummykit's template, Rommi against the easy computer, its
default pool of preheated kernels unless ``--preheat`` says otherwise) is served on a free
127.0.0.1 port as a teacher's installed copy would run: rummykit byte-compiled first and the
server started without ``PYTHONDONTWRITEBYTECODE`` (which this sandbox sets; with it, every
kernel would compile rummykit from source). Timing starts once the server answers and has
gone quiet (its pool filled) and Chromium is open. Debian's Chromium (``/usr/bin/chromium``,
launched as ``tests/browser`` does, never ``playwright install``) opens N pages in N browser
contexts at the same moment, on the same cores as the server. For every page:

- **drawn** — seconds from the page's request to the table drawn (the stock on screen);
- **interactive** — seconds until a click on the stock, made as soon as it is drawn, is
  answered by Python (the hand grows, or the table says why not: the computer may be moving);
- **click to redraw** — milliseconds from a click on a card of the hand to the redrawn view,
  once it is the student's turn (eight clicks a page).

The pages are looked at every 50 ms, not at every animation frame (which would keep all of
them drawing frames, in software, on the shared cores). Then **memory per student** (the
resident set of each page's kernel, and Voilà's own), and **where the CPU went**: the CPU
seconds of every process (psutil, sampled every 0.5 s) by part — Voilà's server, the kernels,
Chromium's page renderers, its GPU process, its browser/network/utility processes, and the
benchmark's own Playwright (its Python and node driver) — until the last page was
interactive and to the end of the clicks, with what the browsers alone need on these cores.

The class runs use the classroom's default culling (600 s / 60 s). **Culling** is checked by a
last run of 3 pages on a server with a short idle timeout (``--cull-timeout 30
--cull-interval 5``): once they work, the pages are closed and the kernels counted every
second until only the pool is left, and the run says whether they were gone within the
timeout plus two intervals. (A kernel counts as idle from the moment its notebook has run,
before its page connects: with a timeout of 20 or 60 s, the pages of a class still loading on
an overloaded machine lost their kernels, which is why the class runs keep the default.)
``--kernel-start`` instead measures what the class notebook adds to a kernel's start (fresh
interpreters, alternating with and without the cell).

The machine may be shared: read the load average printed with it. Chromium raises its own
processes' priority whatever ``nice`` it is started with.

Run:  .venv/bin/python -u benchmarks/classroom_load.py [--students 1 10 20] [--preheat N]
                [--no-culling-check]
      nice -n 19 .venv/bin/python benchmarks/classroom_load.py --kernel-start [--runs 15]
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import contextlib
import os
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Chromium launched, and Voilà waited for and stopped, as the browser tests do
from rummykit.classroom import DEFAULT_PREHEAT  # noqa: E402
from tests.browser.test_table_browser import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    REDRAW,
    _free_port,
    _stop,
    wait_for_voila,
)

CODE = "BENCH-1"  # the class code every page types first (rummykit classroom --code)
CLASS_CULLING = (600, 60)  # the classroom's defaults, for the class runs
CHECK_CULLING = (30, 5)  # short, for the culling check
CHECK_PAGES = 3
PAGE_LIMIT = 300_000  # ms: a page that has no table by then counts as lost
CLICK_LIMIT = 60  # s: a click on the hand not redrawn by then is reported
CELL = "from rummykit.widgets.class_table import ClassTable; ClassTable.from_environment()"
KERNEL_BASE = "import ipykernel.ipkernel, ipywidgets, anywidget, comm"

POLL = 50  # ms between two looks at a page (not every frame: that would make the benchmark
# keep every page drawing frames, in software, on the cores the class shares)
DRAWN = "() => document.querySelector('.rk-table [data-testid=stock]') !== null"
YOUR_TURN = "() => document.querySelector('[data-testid=your-turn]') !== null"
CLICK_STOCK = "document.querySelector('.rk-table [data-testid=stock]').click()"
ANSWERED = """(cards) => document.querySelectorAll("[data-testid^='hand-']").length > cards
  || document.querySelector("[data-testid=verdict]") !== null"""


def server_environment() -> dict[str, str]:
    """The server's environment as a teacher's would be: rummykit byte-compiled (an installed
    wheel is) and Python free to read and write bytecode (this sandbox's
    ``PYTHONDONTWRITEBYTECODE`` would make every kernel compile rummykit from source)."""
    compileall.compile_dir(ROOT / "rummykit", quiet=1)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def start_server(
    port: int, preheat: int, culling: tuple[int, int], log: Path
) -> subprocess.Popen[bytes]:
    env = server_environment()
    command = [
        sys.executable,
        "-m",
        "rummykit",
        "classroom",
        f"--port={port}",
        "--variant=rommi",
        "--level=easy",
        f"--cull-timeout={culling[0]}",
        f"--cull-interval={culling[1]}",
        f"--preheat={preheat}",
        f"--code={CODE}",
        "--max-students=100",
    ]
    with open(log, "wb") as out:
        server = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    wait_for_voila(server, f"http://127.0.0.1:{port}/", log)
    return server


async def settled(server: subprocess.Popen[bytes], quiet: float = 0.05, limit: float = 120) -> None:
    """Wait until the server and its kernels (the preheated pool) use less than ``quiet`` CPU
    seconds in a second: the teacher started it before the class came in."""
    import psutil

    def used() -> float:
        tree = [psutil.Process(server.pid), *psutil.Process(server.pid).children(recursive=True)]
        return sum(sum(p.cpu_times()[:2]) for p in tree if p.is_running())

    before, deadline = used(), time.monotonic() + limit
    while time.monotonic() < deadline:
        await asyncio.sleep(1)
        now = used()
        if now - before < quiet:
            return
        before = now


def kernels(server: subprocess.Popen[bytes]) -> list[Any]:
    import psutil

    try:
        tree = psutil.Process(server.pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    found = []
    for process in tree:
        try:
            if "ipykernel_launcher" in " ".join(process.cmdline()):
                found.append(process)
        except psutil.NoSuchProcess:
            continue
    return found


PARTS = {
    "voila": "Voilà server",
    "kernel": "kernels",
    "renderer": "Chromium: page renderers",
    "gpu": "Chromium: GPU process (software)",
    "chromium": "Chromium: browser, network, utility",
    "playwright": "the benchmark's Playwright (Python + node)",
}


def part_of(command: list[str]) -> str:
    """Which part of the class a process is, from its command line."""
    line = " ".join(command)
    program = Path(command[0]).name if command else ""
    if "ipykernel_launcher" in line:
        return "kernel"
    if "chrom" in program:
        kinds = {"--type=renderer": "renderer", "--type=gpu-process": "gpu"}
        return next((part for flag, part in kinds.items() if flag in line), "chromium")
    if any(
        f"-m {server}" in line for server in ("voila", "rummykit.classroom", "rummykit classroom")
    ):
        return "voila"
    return "playwright"


Usage = dict[str, tuple[float, int]]  # part: (CPU seconds, processes)


class CpuMeter:
    """CPU seconds (user + system) of every process of this benchmark's tree — the server
    and its kernels, Chromium, Playwright's driver, this process — by part, from the moment
    it starts. Sampled every ``every`` seconds (a process counts with its last sample, so one
    that ends between two samples loses at most that much), kept as a history to read the
    usage at any moment, and once more when stopped."""

    def __init__(self, every: float = 0.5) -> None:
        import psutil

        self._psutil = psutil
        self._every = every
        self._last: dict[tuple[int, float], tuple[str, float]] = {}
        self._base: dict[tuple[int, float], float] = {}
        self._sample()
        self._base = {key: cpu for key, (_, cpu) in self._last.items()}
        self._history: list[tuple[float, Usage]] = [(time.monotonic(), {})]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @staticmethod
    def cpu_of(process: subprocess.Popen[bytes]) -> float:
        """CPU seconds a process has used so far (the server's start-up, before the class)."""
        import psutil

        times = psutil.Process(process.pid).cpu_times()
        return float(times.user + times.system)

    def _sample(self) -> None:
        me = self._psutil.Process()
        for process in [me, *me.children(recursive=True)]:
            try:
                with process.oneshot():
                    key = (process.pid, process.create_time())
                    times = process.cpu_times()
                    # read each time: a process forked by Chromium's zygote shows the
                    # zygote's command line until it becomes a renderer
                    part = part_of(process.cmdline())
            except (self._psutil.NoSuchProcess, self._psutil.ZombieProcess):
                continue
            self._last[key] = (part, times.user + times.system)

    def _usage(self) -> Usage:
        used: Usage = defaultdict(lambda: (0.0, 0))
        for key, (part, cpu) in self._last.items():
            spent = cpu - self._base.get(key, 0.0)
            if spent > 0.01:
                seconds, count = used[part]
                used[part] = (seconds + spent, count + 1)
        return dict(used)

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self._sample()
            self._history.append((time.monotonic(), self._usage()))

    def at(self, moment: float) -> Usage:
        """The usage by part at ``moment`` (``time.monotonic()``; the last sample before it)."""
        return [usage for when, usage in self._history if when <= moment][-1]

    def stop(self) -> Usage:
        """The usage by part from the start until now; sampling stops."""
        self._stop.set()
        self._thread.join()
        self._sample()
        self._history.append((time.monotonic(), self._usage()))
        return self._history[-1][1]


def resident_mb(processes: list[Any]) -> list[float]:
    import psutil

    sizes = []
    for process in processes:
        try:
            sizes.append(process.memory_info().rss / 2**20)
        except psutil.NoSuchProcess:
            continue
    return sizes


async def until(page: Any, condition: str, arg: Any = None) -> None:
    """Wait until ``condition`` holds in the page, looking every :data:`POLL` ms."""
    await page.wait_for_function(condition, arg=arg, polling=POLL, timeout=PAGE_LIMIT)


async def one_student(browser: Any, url: str, started: float, shots: Path) -> dict[str, Any]:
    context = await browser.new_context(viewport={"width": 1200, "height": 1000})
    page = await context.new_page()
    outside: list[str] = []

    def note(request: Any) -> None:  # a request leaving this machine (a CDN): there must be none
        if not request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:", "blob:")):
            outside.append(request.url)

    page.on("request", note)
    errors: list[str] = []  # what the page's JavaScript said went wrong, shown if it stops
    page.on("pageerror", lambda error: errors.append(str(error).splitlines()[0]))
    page.on("console", lambda m: errors.append(m.text[:200]) if m.type == "error" else None)
    result: dict[str, Any] = {"context": context, "outside": outside}
    stage = "loading the page"
    try:
        await page.goto(url, wait_until="domcontentloaded", timeout=PAGE_LIMIT)
        stage = "typing the class code"
        await page.fill("#code", CODE)
        await page.click("button[type=submit]")
        stage = "waiting for the table"
        await until(page, DRAWN)
        result["drawn"] = time.monotonic() - started
        cards = await page.locator("[data-testid^='hand-']").count()
        await page.evaluate(CLICK_STOCK)  # a click in the page, whatever lies over the stock
        stage = "waiting for the stock's answer"
        await until(page, ANSWERED, cards)
        result["interactive"] = time.monotonic() - started
        stage = "waiting for the student's turn"
        await until(page, YOUR_TURN)
        stage = "clicking the hand"
        result["clicks"] = []
        for i in range(8):
            redraw = page.evaluate(REDRAW, f"hand-{i % 4}")
            result["clicks"].append(float(await asyncio.wait_for(redraw, CLICK_LIMIT)))
    except Exception as error:  # a lost page is a result, not a crash of the benchmark
        message = str(error).splitlines()[0] if str(error) else ""
        result["error"] = f"{stage}: {type(error).__name__} {message}".strip()
        result["page_errors"] = errors[-5:]
        with contextlib.suppress(Exception):
            await page.screenshot(path=str(shots / f"stopped-{id(page)}.png"))
    return result


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def a_class(
    students: int, preheat: int, culling: tuple[int, int], out: Path
) -> dict[str, Any]:
    """N pages at once; with a short ``culling``, then closed and their kernels watched."""
    from playwright.async_api import async_playwright

    port = _free_port()
    server = start_server(port, preheat, culling, out / f"voila-{students}-{culling[0]}.log")
    url = f"http://127.0.0.1:{port}/"
    watch = culling == CHECK_CULLING
    try:
        await settled(server)  # the server started, its pool filled, before the class comes
        server_start = CpuMeter.cpu_of(server)
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            meter = CpuMeter()  # the students' browsers are open when the class begins
            started = time.monotonic()
            results = await asyncio.gather(
                *(one_student(browser, url, started, out) for _ in range(students))
            )
            live = kernels(server)
            memory = resident_mb(live)
            voila = resident_mb([__import__("psutil").Process(server.pid)])
            cpu = meter.stop()
            wall = time.monotonic() - started
            ready = max((r["interactive"] for r in results if "interactive" in r), default=wall)
            cpu_ready = meter.at(started + ready)
            for result in results:
                await result["context"].close()
            closed = time.monotonic()
            await browser.close()
        freed_after, limit = None, culling[0] + 2 * culling[1]
        while watch and time.monotonic() - closed < limit + 30:
            if len(kernels(server)) <= preheat:
                freed_after = time.monotonic() - closed
                break
            await asyncio.sleep(1)
        left = len(kernels(server))
    finally:
        _stop(server)
    worked = [r for r in results if "interactive" in r]
    return {
        "students": students,
        "culling": culling,
        "watched": watch,
        "working": len(worked),
        "errors": [r["error"] for r in results if "error" in r],
        "page_errors": sorted({e for r in results for e in r.get("page_errors", [])}),
        "outside": sorted({u for r in results for u in r["outside"]}),
        "drawn": [r["drawn"] for r in results if "drawn" in r],
        "interactive": [r["interactive"] for r in worked],
        "clicks": [c for r in results for c in r.get("clicks", [])],
        "kernels": len(live),
        "kernel_mb": memory,
        "voila_mb": voila[0] if voila else float("nan"),
        "freed_after": freed_after,
        "left": left,
        "cpu": cpu,
        "wall": wall,
        "cpu_ready": cpu_ready,
        "ready": ready,
        "server_start": server_start,
        "limit": limit,
    }


def report(row: dict[str, Any]) -> None:
    n = row["students"]
    timeout, interval = row["culling"]
    print(
        f"\n== {n} student{'s' if n != 1 else ''} (--cull-timeout {timeout} --cull-interval "
        f"{interval}): {row['working']} of {n} got a working table"
    )
    if row["interactive"]:
        t = row["interactive"]
        print(
            f"   interactive: median {statistics.median(t):.1f} s, p90 {quantile(t, 0.9):.1f} s, "
            f"max {max(t):.1f} s   (drawn: median {statistics.median(row['drawn']):.1f} s, "
            f"max {max(row['drawn']):.1f} s)"
        )
    if row["clicks"]:
        c = row["clicks"]
        print(
            f"   click to redraw over {len(c)} clicks: p50 {quantile(c, 0.5):.0f} ms, "
            f"p90 {quantile(c, 0.9):.0f} ms, max {max(c):.0f} ms"
        )
    if row["kernel_mb"]:
        k = row["kernel_mb"]
        print(
            f"   memory: {row['kernels']} kernels, {statistics.mean(k):.0f} MB each (RSS; "
            f"min {min(k):.0f}, max {max(k):.0f}); Voilà itself {row['voila_mb']:.0f} MB"
        )
    if row["cpu"]:
        cpu_report(row, n)
    if row["cpu"] and row["kernel_mb"]:
        ready = row["cpu_ready"]
        server = sum(ready.get(part, (0.0, 0))[0] for part in ("voila", "kernel"))
        print(
            f"   the server per student: {server / n:.2f} CPU-seconds (Voilà and the kernel, to "
            f"the last page interactive), {statistics.mean(row['kernel_mb']):.0f} MB (the "
            f"kernel's RSS) + Voilà's {row['voila_mb'] / n:.0f} MB shared out"
        )
    if row["watched"]:
        freed = row["freed_after"]
        verdict = (
            f"gone {freed:.0f} s after the pages closed (limit: {row['limit']} s = timeout "
            f"{timeout} s + 2 × interval {interval} s): "
            + ("within" if freed <= row["limit"] else "LATE")
            if freed is not None
            else f"NOT freed: {row['left']} kernels left"
        )
        print(f"   culling: kernels {verdict}")
    if row["errors"]:
        print(f"   pages stopped ({len(row['errors'])}): {sorted(set(row['errors']))[:3]}")
        print(
            f"   their pages' errors: {row['page_errors'][:5] or 'none'} (screenshots: test-output/classroom/stopped-*.png)"
        )
    print(f"   requests leaving 127.0.0.1: {row['outside'] or 'none'}")


def cpu_report(row: dict[str, Any], n: int) -> None:
    """Where the class's CPU went, by part: until the last page was interactive (what the
    time to an interactive table is made of), and over the whole run (the clicks too)."""
    cores = os.cpu_count() or 1
    ready, whole = row["cpu_ready"], row["cpu"]
    total = sum(seconds for seconds, _ in ready.values())
    print(
        f"   CPU from the pages' opening until the last was interactive ({row['ready']:.1f} s "
        f"on {cores} cores = {cores * row['ready']:.0f} core-seconds): {total:.1f} s, "
        f"{total / n:.2f} s per student; with the clicks, to the end ({row['wall']:.1f} s): "
        f"{sum(seconds for seconds, _ in whole.values()):.1f} s"
    )
    for part, name in PARTS.items():
        seconds, count = ready.get(part, (0.0, 0))
        print(
            f"     {name:44s} {seconds:6.1f} s  {seconds / n:5.2f} s/student  "
            f"(to the end {whole.get(part, (0.0, 0))[0]:6.1f} s; {count} processes)"
        )
    browsers = sum(ready.get(part, (0.0, 0))[0] for part in ("renderer", "gpu", "chromium"))
    print(
        f"     the browsers alone: {browsers / n:.2f} s of CPU a page, {browsers / cores:.1f} s "
        f"on {cores} cores for {n} page{'s' if n != 1 else ''}; Voilà's start-up before the "
        f"class: {row['server_start']:.1f} s (not counted)"
    )


def kernel_start(runs: int) -> None:
    """What the class notebook's cell adds to a kernel that has ipykernel and the widgets, and
    what it would add if every widget module came with it (as ``rummykit.widgets`` did before
    it imported each widget's module on first use)."""
    env = server_environment()  # compiled bytecode, as an installed wheel has
    every = "import rummykit.widgets.checker, rummykit.widgets.puzzle, rummykit.widgets.stepper"
    cases = {
        "kernel + widgets": KERNEL_BASE,
        "+ the class notebook's cell": f"{KERNEL_BASE}; {CELL}",
        "+ the cell, every widget module": f"{KERNEL_BASE}; {every}; {CELL}",
    }
    times: dict[str, list[float]] = {name: [] for name in cases}
    for code in cases.values():  # bytecode compiled, files in the page cache
        subprocess.run([sys.executable, "-c", code], env=env, check=True)
    for _ in range(runs):
        for name, code in cases.items():
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], env=env, check=True)
            times[name].append(time.perf_counter() - start)
    base = times["kernel + widgets"]
    for name, values in times.items():
        added = statistics.median(v - b for v, b in zip(values, base))
        print(
            f"{name:35s} median {statistics.median(values):.2f} s over {runs} runs"
            + (
                f"; adds {added:.2f} s (median of run-by-run differences)"
                if values is not base
                else ""
            )
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[1, 10, 20])
    parser.add_argument(
        "--preheat",
        type=int,
        default=DEFAULT_PREHEAT,
        help=f"kernels started ahead (Voilà's pool; rummykit classroom's default: {DEFAULT_PREHEAT})",
    )
    parser.add_argument("--kernel-start", action="store_true")
    parser.add_argument("--no-culling-check", action="store_true")
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    print(
        f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    if args.kernel_start:
        kernel_start(args.runs)
        return 0
    if not CHROMIUM.exists():
        print(f"Debian's Chromium is not at {CHROMIUM} (apt-get install chromium)")
        return 2
    out = ROOT / "test-output" / "classroom"
    out.mkdir(parents=True, exist_ok=True)
    print(f"rummykit classroom --variant=rommi --level=easy --preheat={args.preheat}; {CHROMIUM}")
    runs = [(students, CLASS_CULLING) for students in args.students]
    runs += [] if args.no_culling_check else [(CHECK_PAGES, CHECK_CULLING)]
    for students, culling in runs:
        report(asyncio.run(a_class(students, args.preheat, culling, out)))
        print(f"   load average now: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
