"""The audit view: what a reviewer sees for one edge, and what a label does."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from widgets.audit import AuditView, item_html
from widgets.session import Session
from zehn.config import Settings
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.review.audit import AuditItem, AuditStore
from zehn.review.stats import sample_edges
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
HOSTILE = "<script>alert('x')</script>"


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, f"auditview_{uuid.uuid4().hex[:6]}", REPO / "data" / "sample")
    yield report.graph
    client.delete_graph(report.graph)
    client.close()


@pytest.fixture
def view(settings: Settings, client: GraphClient, sample_graph: str) -> Iterator[AuditView]:
    session = Session(settings, client, graph=sample_graph, policy=load_policy("production"))
    workbench = f"t_audit_view_{uuid.uuid4().hex[:8]}"
    yield AuditView(session, reviewer="ana", n=12, seed=1, workbench=workbench)
    if client.graph_exists(workbench):
        client.delete_graph(workbench)


def test_an_edge_shows_its_sentence_with_both_mentions_and_the_fact_as_wording(
    view: AuditView,
) -> None:
    item = view.current
    assert item is not None and item.subject_span and item.object_span
    card = view.card.value
    marks = re.findall(r"<mark>(.*?)</mark>", card)
    offset = item.sentence_start
    surfaces = [
        item.text[s - offset : e - offset] for s, e in (item.subject_span, item.object_span)
    ]
    assert sorted(marks) == sorted(surfaces)
    assert "extractor's wording (not a quote)" in card
    assert item.title in card and item.source_type in card and item.sentence_id in card
    assert f"<code>{item.rel_type}</code>" in card and item.subject_kind in card
    assert "not labelled yet" in card
    assert "edge 1 of 12" in view.header.value


def test_recording_saves_shows_and_counts_a_label(view: AuditView) -> None:
    item = view.current
    assert item is not None
    heard: list[object] = []
    view.on_label(heard.append)
    saved = view.record("wrong_target", note=f"namesake {HOSTILE}")
    assert heard == [saved]
    assert saved is not None and saved.reviewer == "ana" and saved.edge_key == item.key
    card = view.card.value
    assert 'data-label="wrong_target"' in card and "wrong target entity" in card
    assert HOSTILE not in card and "&lt;script&gt;" in card
    assert view.store.labels(view.session.graph) == [saved]
    stats = view.stats()
    assert stats is not None and stats.overall.wrong_entity.k == 1
    assert (
        "1 labelled" in view.stats_panel.value and "zehn-audit-agreement" in view.stats_panel.value
    )


def test_save_button_records_the_chosen_label_and_moves_on(view: AuditView) -> None:
    first = view.current
    view.choice.value = "not_asserted"
    view.note.value = "a plan"
    view.save_button.click()
    assert view.position == 1 and view.note.value == ""
    assert first is not None
    [saved] = view.store.labels(view.session.graph)
    assert (saved.edge_key, saved.label, saved.note) == (first.key, "not_asserted", "a plan")
    view.previous()
    assert view.current == first and "not asserted" in view.card.value


def test_errors_are_shown_and_nothing_is_saved(view: AuditView) -> None:
    view.reviewer.value = ""
    assert view.record("correct") is None
    assert "zehn-error" in view.message.value and "reviewer" in view.message.value
    view.reviewer.value = "ana"
    assert view.record("plausible") is None
    assert "AuditError" in view.message.value and "unknown label" in view.message.value
    assert view.store.labels() == []


def test_navigation_and_draw(view: AuditView, client: GraphClient) -> None:
    view.previous()
    assert view.position == 0
    for _ in range(20):
        view.next()
    assert view.position == 11
    view.draw(5, seed=9)
    expected = [i.key for i in sample_edges(client, view.session.graph, 5, seed=9)]
    assert [i.key for i in view.items] == expected and view.position == 0
    view.draw(5, seed=-1)
    assert [i.key for i in view.items] != expected
    view.session.graph = "t_no_such_graph"  # switching the graph redraws
    assert view.items == [] and "zehn-error" in view.message.value


def test_csv_export_and_import_from_the_view(view: AuditView, tmp_path: Path) -> None:
    view.record("correct")
    path = str(tmp_path / "labels.csv")
    view.csv_path.value = path
    view.export_button.click()
    assert "exported 1 label(s)" in view.csv_message.value
    view.import_csv(str(tmp_path / "missing.csv"))
    assert "zehn-error" in view.csv_message.value and "missing.csv" in view.csv_message.value
    other = AuditStore(view.session.client, view.workbench)
    before = other.labels()
    view.import_button.click()
    assert "imported 1 label(s)" in view.csv_message.value
    assert other.labels() == before


def test_a_missing_graph_is_an_error_box_not_an_exception(
    settings: Settings, client: GraphClient
) -> None:
    session = Session(settings, client, graph="t_no_such_graph", policy=load_policy("production"))
    view = AuditView(session, reviewer="ana", workbench=f"t_audit_view_{uuid.uuid4().hex[:8]}")
    assert view.current is None and "zehn-error" in view.message.value
    assert view.record("correct") is None and view.save_button.disabled


def test_hostile_text_is_escaped_everywhere() -> None:
    item = AuditItem(
        key="k",
        graph="g",
        strategy="rules",
        subject_id="service:a",
        subject_name=f"a{HOSTILE}",
        subject_kind="service",
        rel_type="CALLS",
        object_id="service:b",
        object_name="b",
        object_kind=HOSTILE,
        sentence_id=f"doc#{HOSTILE}",
        text=f"a{HOSTILE} calls b.",
        sentence_start=100,
        subject_span=(100, 101 + len(HOSTILE)),
        object_span=(108 + len(HOSTILE), 109 + len(HOSTILE)),
        doc_id="doc",
        title=HOSTILE,
        source_type=HOSTILE,
        date="2025-01-02T00:00:00",
        fact=f"fact {HOSTILE}",
    )
    shown = item_html(item)
    assert HOSTILE not in shown and "<script" not in shown
    assert shown.count("&lt;script&gt;") == 7
    assert "<mark>a&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;</mark>" in shown
    assert "<mark>b</mark>" in shown
