"""In a browser page (Pyodide: ``sys.platform == "emscripten"``) what needs a process degrades
with a sentence: a tournament plays in the page and says so; an agent that is a program can't
be made, and IPython shows the sentence, not a traceback. The page is simulated here by
setting ``sys.platform``; tests/browser/test_lite.py runs the real one."""

from __future__ import annotations

import sys
import warnings

import pytest

from rummykit.agents import ProcessAgent
from rummykit.messages import TEMPLATES, render
from rummykit.runtime import BrowserLimit, NeedsDesktop, in_browser
from rummykit.tournament import run_tournament


@pytest.fixture
def browser_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")


def test_a_desktop_python_is_no_browser() -> None:
    assert in_browser() is (sys.platform == "emscripten")
    assert not in_browser()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tournament_in_a_browser_plays_in_the_page_and_says_so(
    browser_page: None, players: int
) -> None:
    with pytest.warns(BrowserLimit) as caught:
        result = run_tournament("rommi", players, ["easy", "normal"], games=3, seed=4, workers=2)
    assert [str(w.message) for w in caught] == [render("browser_no_workers", workers=2)]
    assert caught[0].filename == __file__  # the warning points at the caller's line
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # one worker asked for: nothing to say
        alone = run_tournament("rommi", players, ["easy", "normal"], games=3, seed=4, workers=1)
    assert result == alone


def test_tournament_on_a_desktop_says_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_tournament("rommi", 2, ["easy", "normal"], games=2, seed=1, workers=2)


@pytest.mark.parametrize(
    ("command", "shown"),
    [("python bot.py --level 2", "python bot.py --level 2"), (["my agent", "-v"], "'my agent' -v")],
)
def test_a_program_agent_in_a_browser_is_refused_with_a_sentence(
    browser_page: None, command: str | list[str], shown: str
) -> None:
    with pytest.raises(NeedsDesktop) as refused:
        ProcessAgent(command)
    sentence = render("browser_no_programs", command=shown)
    assert str(refused.value) == sentence
    # IPython shows what _render_traceback_ gives instead of a traceback: the sentence only
    assert refused.value._render_traceback_() == [f"NeedsDesktop: {sentence}"]


def test_a_program_agent_with_no_command_is_still_a_bad_input(browser_page: None) -> None:
    with pytest.raises(ValueError, match=TEMPLATES["agent_no_command"][:20]):
        ProcessAgent("")


def test_ipython_shows_the_sentence_not_a_traceback(browser_page: None) -> None:
    shell = pytest.importorskip("IPython.core.interactiveshell").InteractiveShell.instance()
    shown: list[list[str]] = []
    shell._showtraceback = lambda etype, evalue, stb: shown.append(stb)
    shell.run_cell("from rummykit.agents import ProcessAgent\nProcessAgent('python bot.py')")
    assert shown == [[f"NeedsDesktop: {render('browser_no_programs', command='python bot.py')}"]]
