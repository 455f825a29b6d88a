"""The history view: what a person sees in the table and in a reopened investigation."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from widgets.history import HistoryView
from widgets.session import Session
from zehn.config import Settings
from zehn.engine.answer import Citation, CitedAnswer
from zehn.evidence.policy import load_policy
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
HOSTILE = "<script>alert('x')</script>"


def _answer(question: str, quote: str = "origin-mapper feeds the indexer.") -> CitedAnswer:
    return CitedAnswer(
        question=question,
        status="answered",
        answer="indexer breaks [1]",
        reason=None,
        graph="sample__rules",
        policy={"name": "production", "mode": "production"},
        model="offline",
        citations=(
            Citation(
                1,
                "notes/sync#0-32",
                "notes/sync",
                "notes",
                "Indexer sync",
                quote,
                (0, 32),
                "2025-02-03T10:00:00",
            ),
        ),
    )


@pytest.fixture
def session(settings: Settings, client: GraphClient) -> Session:
    return Session(settings, client, graph="sample__rules", policy=load_policy("production"))


@pytest.fixture
def view(session: Session, client: GraphClient) -> Iterator[HistoryView]:
    graph = f"t_wb_view_{uuid.uuid4().hex[:8]}"
    yield HistoryView(session, graph=graph)
    if client.graph_exists(graph):
        client.delete_graph(graph)


def test_empty_history_says_so_and_where_it_is_kept(view: HistoryView) -> None:
    assert "No investigations saved yet" in view.table.value
    note = view.note.value
    assert f"stored in the graph <code>{view.graph}</code>" in note
    assert "survive restarts of the server" in note  # the managed server persists (AOF + RDB)
    assert view.session.client.server is not None
    assert str(view.session.client.server.port) in note
    assert view.reopen_button.disabled


def test_recorded_answers_are_listed_newest_first_and_reopen(view: HistoryView) -> None:
    first = view.record(_answer("If I change origin-mapper, what breaks?"))
    second = view.record(_answer(f"What about {HOSTILE}?", quote=f"quote {HOSTILE}"))
    assert first and second
    table = view.table.value
    assert table.index(second) < table.index(first)
    assert HOSTILE not in table and "&lt;script&gt;" in table
    assert [value for _, value in view.choice.options] == [second, first]
    assert not view.reopen_button.disabled

    view.choice.value = first
    view.reopen_button.click()
    shown = view.detail.value
    assert "If I change origin-mapper, what breaks?" in shown
    assert 'data-status="answered"' in shown and "indexer breaks [1]" in shown
    assert '<li value="1"' in shown and "<q>origin-mapper feeds the indexer.</q>" in shown
    assert "Indexer sync" in shown and "2025-02-03" in shown and "notes/sync#0-32" in shown

    view.reopen(second)
    assert HOSTILE not in view.detail.value and "quote &lt;script&gt;" in view.detail.value


def test_reopening_an_unknown_id_shows_an_error_not_a_traceback(view: HistoryView) -> None:
    view.reopen("20990101T000000.000000Z-deadbeef")
    assert "zehn-error" in view.detail.value and "HistoryNotFound" in view.detail.value
    assert "Traceback" not in view.detail.value


def test_a_down_server_is_an_error_state_not_an_exception() -> None:
    settings = Settings(falkordb_url="redis://127.0.0.1:1")
    view = HistoryView(Session(settings, graph="g", policy=load_policy("production")))
    assert "zehn-error" in view.note.value and "GraphUnavailable" in view.note.value
    assert view.record(_answer("q")) is None
    assert "GraphUnavailable" in view.note.value
