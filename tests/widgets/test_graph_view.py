"""The graph view's page: offline, one edge style per grade, and nothing from a document
reaches it unescaped. Real answers come from the sample graph on a real FalkorDB."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator

import pytest

from tests.conftest import REPO
from widgets.graph_view import GraphView
from zehn.config import Settings
from zehn.engine import Engine
from zehn.evidence.grade import (
    INFERRED,
    INSUFFICIENT,
    SUPPORTED,
    Evidence,
    Grade,
    GradedHop,
    GradedPath,
)
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"><img src=x onerror=alert(1)>'
_REMOTE = re.compile(r"<(?:script|link|img|iframe)\b[^>]*(?:src|href)\s*=\s*[\"']?https?:", re.I)


@pytest.fixture(scope="module")
def engine(settings: Settings) -> Iterator[Engine]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "widgets_graph", REPO / "data" / "sample", "rules")
    yield Engine(client, report.graph, load_policy("production"), OfflineModel())
    client.delete_graph(report.graph)
    client.close()


def _hop(source: str, target: str, label: str, text: str, sentence_id: str) -> GradedHop:
    evidence = Evidence(
        key=f"{source}>{target}",
        source=source,
        rel_type="DEPENDS_ON",
        target=target,
        sentence_id=sentence_id,
        text=text,
        start=100,
        document="doc/evil",
        title=f"Title {SCRIPT}",
        source_type="email",
        date="2024-03-01",
    )
    return GradedHop(
        source, "DEPENDS_ON", target, Grade(label, f"reason {ATTRIBUTE}", evidence, (100, 104))
    )


def _graded_paths() -> list[GradedPath]:
    hops = (
        _hop("service:a", "service:b", SUPPORTED, f"a depends on b {SCRIPT}", "doc/evil#1"),
        _hop("service:b", "service:c", INFERRED, f"b and c {ATTRIBUTE}", "doc/evil#2"),
        _hop("service:c", "service:d", INSUFFICIENT, "c might depend on d </script>", "doc/evil#3"),
    )
    names = {"service:a": f"A {SCRIPT}", "service:b": "B", "service:c": ATTRIBUTE}
    return [GradedPath(("service:a", "service:b", "service:c", "service:d"), hops, names)]


def _dataset(page: str, kind: str) -> list[dict[str, object]]:
    """The JSON pyvis hands to ``new vis.DataSet(...)`` for nodes or edges."""
    match = re.search(rf"{kind} = new vis\.DataSet\((\[.*?\])\);\n", page)
    assert match, f"no {kind} DataSet in the page"
    return list(json.loads(match[1]))


def test_the_page_is_offline_and_shown_in_a_srcdoc_iframe() -> None:
    view = GraphView(_graded_paths())
    page = view.to_html()
    assert "vis.Network" in page and 'network.on("click"' in page
    assert not _REMOTE.findall(page), "the page must not load anything from the network"
    frame = view.frame.value
    assert frame.startswith('<iframe class="zehn-graph"') and 'srcdoc="' in frame
    srcdoc = re.search(r'srcdoc="([^"]*)"', frame)
    assert srcdoc and html.unescape(srcdoc[1]) == page
    assert "zehn-legend" in view.legend.value
    for text in ("source-supported", "inferred assumption", "insufficient evidence"):
        assert text in view.legend.value


def test_each_grade_has_its_own_edge_style() -> None:
    edges = {e["zehn_label"]: e for e in _dataset(GraphView(_graded_paths()).to_html(), "edges")}
    assert edges[SUPPORTED]["dashes"] is False and edges[SUPPORTED]["color"] == "#1a7f37"
    assert edges[INFERRED]["dashes"] is True and "⚠" in str(edges[INFERRED]["label"])
    assert edges[INSUFFICIENT]["dashes"] == [2, 6] and "✕" in str(edges[INSUFFICIENT]["label"])
    assert len({str(e["color"]) for e in edges.values()}) == 3
    assert {(e["from"], e["to"]) for e in edges.values()} == {
        ("service:a", "service:b"), ("service:b", "service:c"), ("service:c", "service:d"),
    }  # fmt: skip


def test_document_text_names_and_reasons_reach_the_page_only_escaped() -> None:
    view = GraphView(_graded_paths())
    page = view.to_html()
    for raw in (SCRIPT, ATTRIBUTE, "depend on d </script>", "onerror=alert(1)>"):
        assert raw not in page and raw not in view.frame.value
    # the click handler's evidence is there, escaped, for each edge and node
    match = re.search(r"var EVIDENCE = (\{.*?\});\n", page)
    assert match
    evidence = json.loads(match[1])
    assert set(evidence["edges"]) == {"e0", "e1", "e2"} and "service:d" in evidence["nodes"]
    first = re.sub(r"</?mark>", "", evidence["edges"]["e0"])
    assert "<mark>a de</mark>" in evidence["edges"]["e0"]  # the mention span, marked
    assert html.escape("a depends on b <script>alert(1)</script>") in first
    assert "doc/evil#1" in first and "source-supported" in first
    assert html.escape(f"reason {ATTRIBUTE}") in first
    assert html.escape(ATTRIBUTE) in evidence["nodes"]["service:c"]
    nodes = {n["id"]: n for n in _dataset(page, "nodes")}
    assert nodes["service:a"]["label"] == html.escape(f"A {SCRIPT}")
    assert nodes["service:d"]["title"] == "service · service:d"


def test_an_answer_draws_its_paths_and_no_paths_draws_nothing(engine: Engine) -> None:
    answer = engine.ask("If I change ledger-v1, what breaks?")
    assert answer.status == "abstained" and answer.paths
    view = GraphView()
    assert "<iframe" not in view.frame.value and "No paths" in view.frame.value
    view.show_paths(answer.paths)
    page = view.to_html()
    edges = _dataset(page, "edges")
    hops = {(h.source, h.rel_type, h.target) for p in answer.paths for h in p.hops}
    assert len(edges) == len(hops)
    assert all(e["dashes"] == [2, 6] for e in edges if e["zehn_label"] == INSUFFICIENT)
    assert any(e["zehn_label"] == INSUFFICIENT for e in edges)
    labels = {str(n["label"]) for n in _dataset(page, "nodes")}
    assert "ledger-v1" in labels
    assert not _REMOTE.findall(page)
