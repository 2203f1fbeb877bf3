"""The teacher's page (``GET /teacher``) over HTTP: in English, Portuguese and Finnish every
sentence is the message catalogue's, the page holds no table and no code, its headers keep
other sites out, and what its script asks of the API (every table, with open cards only
with the teacher code) is answered."""

from __future__ import annotations

import html
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from rummykit.messages import render
from rummykit.server.page import PAGE_TEXTS, SCRIPT_TEXTS
from tests.tables.conftest import TEACHER, Served


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the module's tests (each makes its own tables)."""
    server = Served(str(tmp_path_factory.mktemp("teacher") / "tables.db"))
    yield server
    server.stop()


def _get(server: Served, path: str) -> tuple[int, dict[str, str], str]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(f"http://{server.http}{path}", timeout=10) as answer:
            return answer.status, dict(answer.headers), answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode("utf-8")


@pytest.mark.parametrize("language", ["en", "pt", "fi"])
def test_the_teacher_page_says_every_sentence_in_its_language(serve: Any, language: str) -> None:
    server: Served = serve()
    code = server.create(variant="rommi", seats=["human", "easy"])
    status, headers, page = _get(server, f"/teacher?lang={language}")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert f'<html lang="{language}">' in page
    text = html.unescape(page)
    for key in PAGE_TEXTS:
        assert str(render(key, None, language)) in text, key
    said = json.loads(
        re.search(r'<script type="application/json" id="rk-text">(.*?)</script>', page, re.S).group(
            1
        )
    )  # type: ignore[union-attr]
    assert set(said) == set(SCRIPT_TEXTS)
    assert said["tables_page_table"] == str(
        render("tables_page_table", None, language, table="{table}")
    )
    assert said["tables_bad_teacher_code"] == str(render("tables_bad_teacher_code", None, language))
    # the computer levels and the variants in the page's language
    assert (
        f">{render('tables_page_seat_computer', None, language, level=render('ai_level_hard', None, language))}<"
        in text
    )
    assert TEACHER not in page and code not in page  # the page holds no code and no table
    csp = headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert headers["Cache-Control"] == "no-store" and headers["X-Content-Type-Options"] == "nosniff"
    assert "<script>" not in page  # no inline script: the policy allows none
    script = re.search(r'src="(/static/teacher\.js\?v=\w+)"', page).group(1)  # type: ignore[union-attr]
    status, headers, body = _get(server, script)
    assert status == 200 and "javascript" in headers["Content-Type"] and "innerHTML" not in body


def test_the_page_s_language_falls_back_and_nothing_asked_is_echoed(served: Served) -> None:
    server = served
    for asked in ("xx", "<script>alert(1)</script>", "p" * 5000):
        status, _, page = _get(server, "/teacher?lang=" + urllib.request.quote(asked))
        assert status == 200 and '<html lang="en">' in page and "alert(1)" not in page
    status, headers, _ = _get(server, "/")
    assert status == 302 and headers["Location"] == "/teacher"


def test_the_page_s_requests_open_cards_only_with_the_teacher_code(serve: Any) -> None:
    server: Served = serve()  # its own: it counts the tables
    code = server.create(variant="hungarian", seats=["human", "easy", "easy"])
    status, data = server.api("/api/tables?open=1")
    (view,) = data["tables"]
    assert status == 200 and view["code"] == code
    assert [len(hand) for hand in view["hands"]] == view["game"]["hand_sizes"]
    assert "hands" not in server.api("/api/tables")[1]["tables"][0]
    for wrong in (None, "nope", TEACHER + "x"):
        status, data = server.api("/api/tables?open=1", teacher=wrong)
        assert status == 403 and "hands" not in json.dumps(data)
        assert data["message"] == "the teacher code is missing or wrong"
    # what the page sends when it creates tables: house rules, seats, a clock, a count
    status, data = server.api(
        "/api/tables",
        {
            "variant": "rommi",
            "options": {"target": 200},
            "seats": ["human", "hard"],
            "clock": 45,
            "count": 2,
        },
    )
    assert status == 201 and len(data["tables"]) == 2
    for made in data["tables"]:
        assert made["settings"]["options"] == {"target": 200} and made["settings"]["clock"] == 45
        assert [s["kind"] for s in made["seats"]] == ["human", "hard"]
    status, data = server.api(
        "/api/tables", {"variant": "rommi", "options": {"jokers_per_meld": "two"}}
    )
    assert status == 400 and "jokers_per_meld" in data["message"]
