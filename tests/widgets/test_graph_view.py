"""The graph view's page: offline, one edge style per grade, and nothing from a document
reaches it unescaped. Real answers come from the sample graph on a real FalkorDB."""

from __future__ import annotations

import html
import itertools
import json
import re
from collections.abc import Iterator

import pytest

from tests.conftest import REPO
from widgets.graph_style import KIND_STYLES, LABEL_MAX, SEED, SETTLE_JS, page_height
from widgets.graph_view import GraphView, question_entities
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
    # labels (drawn on a canvas) and hover titles (set as innerText) are plain text, in the
    # page only as JSON with <, >, & and ' escaped: no markup from a document is in the page
    nodes = {n["id"]: n for n in _dataset(page, "nodes")}
    assert nodes["service:a"]["label"] == f"A {SCRIPT}"
    assert "A \\u003cscript\\u003ealert(1)\\u003c/script\\u003e" in page
    assert nodes["service:d"]["title"] == "d\nservice · service:d"
    edges = {e["id"]: e for e in _dataset(page, "edges")}
    assert str(edges["e1"]["title"]).startswith(f"DEPENDS_ON: B DEPENDS_ON {ATTRIBUTE}\n")


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


# --- reading at a glance: kinds, the question's entity, a still layout, 30 nodes -------------


def _kinds_paths() -> list[GradedPath]:
    kinds = ("service", "team", "customer", "datastore", "topic", "pipeline", "component")
    ids = [f"{kind}:n{i}" for i, kind in enumerate(kinds)]
    hops = tuple(
        _hop(a, b, SUPPORTED, f"{a} depends on {b}", f"doc/k#{i}")
        for i, (a, b) in enumerate(itertools.pairwise(ids))
    )
    return [GradedPath(tuple(ids), hops, {})]


def test_nodes_are_coloured_and_shaped_by_kind_with_a_legend() -> None:
    view = GraphView(_kinds_paths())
    nodes = _dataset(view.to_html(), "nodes")
    styles = {(str(n["color"]["background"]), str(n["shape"])) for n in nodes}  # type: ignore[index]
    assert len(styles) == 7 and len({shape for _, shape in styles}) == 7
    for node in nodes:
        colour, shape = KIND_STYLES[str(node["zehn_kind"])]
        assert node["color"]["background"] == colour and node["shape"] == shape  # type: ignore[index]
        assert str(node["id"]).startswith(f"{node['zehn_kind']}:")
    assert not {c for c, _ in styles} & {"#1a7f37", "#bf8700", "#cf222e"}  # grade colours
    legend = view.legend.value
    assert legend.count('class="zehn-legend-kind"') == 7
    for kind in KIND_STYLES:
        assert (f'data-kind="{kind}"' in legend) == (kind != "entity")
    only_services = GraphView(_graded_paths())
    assert only_services.legend.value.count('class="zehn-legend-kind"') == 1


def test_the_question_entity_is_ringed_and_named_in_the_legend() -> None:
    view = GraphView(_graded_paths(), focus=["service:c", "service:not-drawn"])
    assert view.focus == ("service:c",)
    nodes = {n["id"]: n for n in _dataset(view.to_html(), "nodes")}
    focused, other = nodes["service:c"], nodes["service:b"]
    assert focused["zehn_focus"] is True and other["zehn_focus"] is False
    assert int(focused["size"]) > int(other["size"])  # type: ignore[call-overload]
    assert int(focused["borderWidth"]) > int(other["borderWidth"])  # type: ignore[call-overload]
    assert focused["color"]["border"] != focused["color"]["background"]  # type: ignore[index]
    assert "the question asks about it" in str(focused["title"])
    legend = view.legend.value
    assert 'class="zehn-legend-focus" data-entity-id="service:c"' in legend
    assert "asked about: <b>" + html.escape(ATTRIBUTE) + "</b>" in legend  # escaped name
    assert "zehn-legend-focus" not in GraphView(_graded_paths()).legend.value


def test_the_layout_settles_and_then_physics_stops() -> None:
    page = GraphView(_graded_paths()).to_html()
    match = re.search(r"var options = (\{.*?\});\n", page)
    assert match
    options = json.loads(match[1])
    assert options["physics"]["stabilization"]["enabled"] is True
    assert options["layout"]["randomSeed"] == SEED  # the same paths, the same layout
    assert SETTLE_JS in page
    assert 'network.once("stabilizationIterationsDone", settle)' in page
    assert "network.setOptions({physics: {enabled: false}})" in page


def test_thirty_nodes_get_room_and_readable_labels() -> None:
    ids = [f"service:component-with-a-rather-long-name-{i}" for i in range(30)]
    hops = tuple(
        _hop(ids[0], other, INFERRED, "they are named together", f"doc/n#{i}")
        for i, other in enumerate(ids[1:])
    )
    big = GraphView([GradedPath(tuple(ids), hops, {})])
    nodes = _dataset(big.to_html(), "nodes")
    assert len(nodes) == 30
    assert all(len(str(n["label"])) <= LABEL_MAX for n in nodes)
    assert len({str(n["label"]) for n in nodes}) == 30 and "…" in str(nodes[5]["label"])
    assert all(ids[i] in str(nodes[i]["title"]) for i in range(30))  # the whole name on hover
    options = json.loads(re.search(r"var options = (\{.*?\});\n", big.to_html())[1])  # type: ignore[index]
    assert options["nodes"]["font"]["size"] >= 14 and options["nodes"]["font"]["strokeWidth"] > 0
    small = GraphView(_graded_paths())
    assert page_height(30) > page_height(4)
    height = re.compile(r"height:(\d+)px")
    assert int(height.findall(big.frame.value)[0]) > int(height.findall(small.frame.value)[0])
    edges = _dataset(big.to_html(), "edges")
    assert all(e["dashes"] is True and str(e["label"]).startswith("⚠") for e in edges)
    assert all(str(e["title"]).startswith("DEPENDS_ON: ") for e in edges)  # predicate on hover


def test_a_standalone_export_page_carries_its_title_and_legend() -> None:
    view = GraphView(_graded_paths(), focus=["service:a"])
    page = view.to_html(title=f"What breaks? {SCRIPT}")
    assert f"<title>What breaks? {html.escape(SCRIPT)}</title>" in page
    assert 'class="zehn-export-head"' in page and "zehn-legend-focus" in page
    assert SCRIPT not in page and not _REMOTE.findall(page)


def test_an_answer_marks_the_entity_it_asked_about(engine: Engine) -> None:
    answer = engine.ask("If I change origin-mapper, what breaks?")
    assert answer.status == "answered" and answer.paths
    focus = question_entities(answer)
    assert focus and focus[0] == "service:origin-mapper"
    view = GraphView(answer.paths, focus=focus)
    nodes = {n["id"]: n for n in _dataset(view.to_html(), "nodes")}
    assert nodes["service:origin-mapper"]["zehn_focus"] is True
    assert sum(bool(n["zehn_focus"]) for n in nodes.values()) == len(view.focus)
    assert "asked about: <b>origin-mapper</b> (service)" in view.legend.value
