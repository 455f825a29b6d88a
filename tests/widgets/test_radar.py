"""The impact radar on the sample graph, as an analyst sees it: distances, grades, evidence."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from widgets.radar import ImpactRadar
from widgets.session import Session
from zehn.config import Settings
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"
SCRIPT_SENTENCE = "The indexer feeds search-api <script>alert(1)</script> every night."
COOCCURRENCE_SENTENCE = "Yesterday the indexer came up at the web-frontend offsite."


@pytest.fixture(scope="module")
def module_client(settings: Settings) -> Iterator[GraphClient]:
    client = GraphClient.connect(settings)
    yield client
    client.close()


@pytest.fixture(scope="module")
def sample_graph(module_client: GraphClient) -> Iterator[str]:
    report = build_graph(module_client, "widgets_radar_sample", SAMPLE, "rules")
    yield report.graph
    module_client.delete_graph(report.graph)


@pytest.fixture(scope="module")
def tmp_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway corpus: the sample catalog and one note with markup in a sentence."""
    corpus = tmp_path_factory.mktemp("radar_corpus")
    (corpus / "sources").mkdir()
    shutil.copy(SAMPLE / "catalog.yaml", corpus / "catalog.yaml")
    (corpus / "sources" / "notes.md").write_text(
        f"---\ntitle: Night <b>notes</b>\ndate: 2024-03-01\n---\n\n{SCRIPT_SENTENCE}\n\n"
        f"{COOCCURRENCE_SENTENCE}\n",
        encoding="utf-8",
    )
    return corpus


@pytest.fixture(scope="module")
def script_graph(module_client: GraphClient, tmp_corpus: Path) -> Iterator[str]:
    report = build_graph(module_client, "widgets_radar_script", tmp_corpus, "rules")
    yield report.graph
    module_client.delete_graph(report.graph)


@pytest.fixture(scope="module")
def cooccurrence_graph(module_client: GraphClient, tmp_corpus: Path) -> Iterator[str]:
    """The noisy strategy: an edge for every pair named together, which the grader calls inferred."""
    report = build_graph(module_client, "widgets_radar_script", tmp_corpus, "cooccurrence")
    yield report.graph
    module_client.delete_graph(report.graph)


def _radar(
    settings: Settings, client: GraphClient, graph: str, policy: str = "production"
) -> ImpactRadar:
    return ImpactRadar(Session(settings, client, graph=graph, policy=load_policy(policy)))


def _distances(html: str) -> dict[int, str]:
    """The summary's blocks by hop distance (``zehn-radar-distance`` with ``data-hops``)."""
    chunks = html.split('class="zehn-radar-distance"')[1:]
    found = {re.match(r' data-hops="(\d+)"', c): c for c in chunks}
    assert all(found), "every distance block carries data-hops"
    return {int(m.group(1)): c for m, c in found.items() if m}


def _hops(html: str) -> list[str]:
    return html.split('<div class="zehn-hop"')[1:]


def _everything(radar: ImpactRadar) -> str:
    return str(
        radar.policy_line.value
        + radar.summary.value
        + "".join(c.value for c in radar.tabs.children)
    )


def test_origin_mapper_impact_is_grouped_by_distance(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    radar = _radar(settings, module_client, sample_graph)
    paths = radar.show("service:origin-mapper", depth=3)
    assert paths and radar.error is None
    blocks = _distances(radar.summary.value)
    assert sorted(blocks) == [1, 2, 3]
    assert 'data-entity="service:indexer"' in blocks[1]
    assert any('data-entity="service:web-frontend"' in blocks[d] for d in (1, 2, 3))
    assert "source-supported" in blocks[1]  # each target carries its best path's label
    assert "policy: <b>production</b>" in radar.policy_line.value
    assert "EVALUATION MODE" not in _everything(radar)


def test_inspector_tabs_show_each_hop_with_both_mentions_highlighted(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    radar = _radar(settings, module_client, sample_graph)
    radar.show("service:origin-mapper", depth=2)
    assert tuple(radar.tabs.titles) == (
        "source-supported", "inferred assumption", "insufficient evidence", "sources",
    )  # fmt: skip
    supported = _hops(radar.tabs.children[0].value)
    assert supported and all('data-label="source-supported"' in h[:60] for h in supported)
    affects = next(h for h in supported if "<code>AFFECTS</code>" in h)
    assert "<mark>origin-mapper</mark>" in affects and "<mark>indexer</mark>" in affects
    assert "Search sync" in affects and "meeting" in affects and "2024-01-18" in affects
    assert "the sentence states origin-mapper AFFECTS indexer" in affects
    for hop in supported:
        assert hop.count("<mark>") >= 2
    insufficient = _hops(radar.tabs.children[2].value)
    assert insufficient and all(
        'data-label="insufficient-evidence"' in h[:60] for h in insufficient
    )
    sources = radar.tabs.children[3].value
    assert "Origin Mapper Runbook" in sources and "Search sync" in sources


def test_inferred_hops_are_marked_everywhere(
    settings: Settings, module_client: GraphClient, cooccurrence_graph: str
) -> None:
    radar = _radar(settings, module_client, cooccurrence_graph)
    radar.show("service:web-frontend", depth=1)  # the guess: indexer DEPENDS_ON web-frontend
    inferred = _hops(radar.tabs.children[1].value)
    assert inferred, "the co-occurrence sentence should give an inferred hop"
    for hop in inferred:
        assert 'data-label="inferred-assumption"' in hop[:60]
        assert "⚠" in hop and "⚠ inferred assumption" in hop
        assert "does not state" in hop
    items = radar.summary.value.split('<li class="zehn-impacted"')[1:]
    flagged = [i for i in items if 'data-label="inferred-assumption"' in i[:160]]
    assert flagged and all("⚠" in i for i in flagged)


def test_policy_switch_reruns_with_the_evaluation_badge_and_calls_hops(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    radar = _radar(settings, module_client, sample_graph)
    seen: list[str] = []
    radar.on_result(lambda entity, paths: seen.append(entity))
    radar.show("service:auth-gateway", depth=2)
    assert "<code>CALLS</code>" not in _everything(radar)
    radar.session.policy = load_policy("evaluation")
    assert seen == ["service:auth-gateway", "service:auth-gateway"]
    assert "EVALUATION MODE" in radar.policy_line.value
    assert "<code>CALLS</code>" in "".join(c.value for c in radar.tabs.children)
    assert any(h.rel_type == "CALLS" for p in radar.paths for h in p.hops)
    radar.session.policy = load_policy("production")
    assert "EVALUATION MODE" not in radar.policy_line.value
    assert not any(h.rel_type == "CALLS" for p in radar.paths for h in p.hops)


def test_depth_slider_bounds_and_reruns(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    radar = _radar(settings, module_client, sample_graph)
    assert (radar.depth_slider.min, radar.depth_slider.max) == (1, 3)
    radar.show("service:origin-mapper", depth=9)
    assert radar.depth_slider.value == 3
    radar.depth_slider.value = 1
    assert sorted(_distances(radar.summary.value)) == [1]
    assert all(len(p.hops) == 1 for p in radar.paths)


def test_picker_labels_tell_namesakes_apart_and_choosing_runs(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    radar = _radar(settings, module_client, sample_graph)
    options = radar.find("Redwood Inference")
    labels = [label for label, _ in options]
    assert sorted(labels) == [
        "Redwood Inference (customer)", "Redwood Inference (service)", "Redwood Inference (team)",
    ]  # fmt: skip
    radar.picker.value = dict(options)["Redwood Inference (service)"]
    assert radar.entity_id == "service:redwood-inference"
    assert "Redwood Inference" in radar.summary.value
    assert radar.find("nothing like this") == []
    assert "No entity is named" in radar.find_status.value


def test_nothing_impacted_says_so_plainly(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    radar = _radar(settings, module_client, sample_graph)
    assert radar.show("service:no-such-thing") == ()
    text = radar.summary.value
    assert "Nothing in the graph depends on" in text and "under policy <b>production</b>" in text
    assert "zehn-radar-distance" not in text and "zehn-error" not in text


def test_errors_are_shown_never_a_traceback(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    radar = _radar(settings, module_client, sample_graph)
    radar.show("service:origin-mapper")
    radar.session.graph = "widgets_radar_no_such_graph"
    assert radar.error is not None and radar.paths == ()
    assert 'class="zehn-error"' in radar.summary.value
    assert "Traceback" not in _everything(radar)
    assert all(c.value == "" for c in radar.tabs.children)


def test_document_text_is_escaped(
    settings: Settings, module_client: GraphClient, script_graph: str
) -> None:
    radar = _radar(settings, module_client, script_graph)
    radar.show("service:indexer", depth=1)
    html = _everything(radar)
    assert any(h.rel_type == "FEEDS" for p in radar.paths for h in p.hops)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>" not in html and "<b>notes</b>" not in html
