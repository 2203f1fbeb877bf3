"""Two threads at once: each speaks its own language, and the solver's shared caches give
every thread the answer it would get alone.

The threads switch as often as the interpreter lets them (``sys.setswitchinterval``), so a
language or a cache written by one thread between another's read and use would show.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from rummykit import HUNGARIAN, ROMMI, check_meld, variant
from rummykit.language import get_language, local_letters, set_language, speaking
from rummykit.solver import min_deadwood

MELDS = ("K♠ A♠ 2♠", "7♥ 8♥ 10♥", "Q♣ Q♦ Q♦", "5♠ 6♠ 7♠", "2♥ 🃏 🃏 5♥")
GIN = variant("rommi", ace_low=True, ace_above_king=False)
HANDS = (
    "A♠ 2♠ 3♠ 4♠ 4♥ 4♦ 9♣ K♣",
    "K♠ A♠ 2♠ 7♥ 8♥ 9♥ Q♦ Q♣",
    "A♥ 2♥ 3♥ Q♠ K♠ A♠ 5♦ 5♣ 5♠",
    "2♣ 3♣ 4♣ 5♣ J♦ Q♦ K♦ A♦",
)


@pytest.fixture(autouse=True)
def switch_often() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _run_together(work: list[Callable[[], object]]) -> list[object]:
    """Each callable in its own thread, all started at the same moment."""
    barrier = threading.Barrier(len(work))
    results: list[object] = [None] * len(work)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = work[i]()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def _sentences(language: str, letters: bool, rounds: int) -> list[str]:
    out = []
    with speaking(language, local_letters=letters):
        for _ in range(rounds):
            for text in MELDS:
                assert get_language() == language
                assert local_letters() is letters
                out.append(str(check_meld(text, HUNGARIAN)))
    return out


def test_two_threads_speak_two_languages_at_once() -> None:
    alone = {
        (lang, letters): _sentences(lang, letters, 1)
        for lang, letters in (("pt", True), ("fi", False), ("en", False))
    }
    assert len({tuple(v) for v in alone.values()}) == 3  # three different sets of sentences
    jobs = [("pt", True), ("fi", False), ("en", False), ("pt", True)]
    together = _run_together([lambda j=j: _sentences(*j, 40) for j in jobs])
    for job, said in zip(jobs, together):
        assert said == alone[job] * 40, job


def test_a_block_in_a_thread_leaves_the_process_default_alone() -> None:
    set_language("fi")
    try:
        seen: list[str] = []

        def inside() -> None:
            with speaking("pt"):
                seen.append(get_language())
            seen.append(get_language())

        t = threading.Thread(target=inside)
        t.start()
        with speaking("en"):
            assert get_language() == "en"
        t.join()
        assert seen == ["pt", "fi"]
        assert get_language() == "fi"
    finally:
        set_language(None)


def test_solver_caches_under_a_thread_pool() -> None:
    variants = (HUNGARIAN, ROMMI, GIN)
    asks = [(hand, v, d) for hand in HANDS for v in variants for d in (False, True)]
    alone = [min_deadwood(hand, v, discard=d) for hand, v, d in asks]
    # the same questions, variants interleaved, from eight threads at once, many times
    with ThreadPoolExecutor(max_workers=8) as pool:
        for _ in range(30):
            got = list(pool.map(lambda a: min_deadwood(a[0], a[1], discard=a[2]), asks))
            assert got == alone
