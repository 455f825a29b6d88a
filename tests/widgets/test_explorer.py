"""The entity explorer on the sample graph: search, graded neighbours, mentions, escaping."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pandas as pd
import pytest

from tests.conftest import REPO
from widgets.explorer import Explorer
from widgets.session import Session
from zehn.config import Settings
from zehn.errors import ZehnError
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.reading.vocabulary import GradeLabel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"
LABELS = set(GradeLabel)


@pytest.fixture(scope="module")
def module_client(settings: Settings) -> Iterator[GraphClient]:
    client = GraphClient.connect(settings)
    yield client
    client.close()


@pytest.fixture(scope="module")
def sample_graph(module_client: GraphClient) -> Iterator[str]:
    report = build_graph(module_client, "widgets_explorer_sample", SAMPLE, "rules")
    yield report.graph
    module_client.delete_graph(report.graph)


@pytest.fixture(scope="module")
def script_graph(
    module_client: GraphClient, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    corpus = tmp_path_factory.mktemp("explorer_corpus")
    (corpus / "sources").mkdir()
    shutil.copy(SAMPLE / "catalog.yaml", corpus / "catalog.yaml")
    (corpus / "sources" / "notes.md").write_text(
        "---\ntitle: Night <i>notes</i>\ndate: 2024-03-01\n---\n\n"
        "The indexer feeds search-api. <script>alert(1)</script>\n",
        encoding="utf-8",
    )
    report = build_graph(module_client, "widgets_explorer_script", corpus, "rules")
    yield report.graph
    module_client.delete_graph(report.graph)


def _explorer(
    settings: Settings, client: GraphClient, graph: str, policy: str = "production"
) -> Explorer:
    return Explorer(Session(settings, client, graph=graph, policy=load_policy(policy)))


def _everything(explorer: Explorer) -> str:
    return "".join(
        v.value
        for v in (
            explorer.policy_line,
            explorer.results,
            explorer.neighbour_view,
            explorer.mention_view,
        )
    )


def test_search_tells_the_three_redwood_inference_apart(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    explorer = _explorer(settings, module_client, sample_graph)
    frame = explorer.search("Redwood Inference")
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["id", "name", "kind", "aliases"]
    assert len(frame) == 3 and set(frame["kind"]) == {"team", "service", "customer"}
    assert set(frame["name"]) == {"Redwood Inference"}
    customer = frame[frame.kind == "customer"].iloc[0]
    assert "Redwood Inference Ltd." in str(customer.aliases)
    assert explorer.results.value.count("<tr") == 4  # header + three rows, as displayed
    labels = [label for label, _ in explorer.picker.options]
    assert {"Redwood Inference (team)", "Redwood Inference (service)"} <= set(labels)
    assert explorer.search("nothing is called this").empty
    assert "No entity is named" in explorer.results.value


def test_choosing_an_entity_shows_its_neighbours_and_mentions(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    explorer = _explorer(settings, module_client, sample_graph)
    chosen: list[str] = []
    explorer.on_select(chosen.append)
    explorer.search("search-api")
    explorer.picker.value = "service:search-api"
    assert chosen == ["service:search-api"] and explorer.entity_id == "service:search-api"
    assert "service:indexer" in explorer.neighbour_view.value
    assert "FEEDS" in explorer.neighbour_view.value
    assert "search-api" in explorer.mention_view.value
    assert "policy <b>production</b>" in explorer.neighbour_view.value


def test_neighbours_are_graded_edges_under_the_active_policy(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    explorer = _explorer(settings, module_client, sample_graph)
    frame = explorer.neighbours("service:search-api")
    assert list(frame.columns)[:6] == [
        "source", "rel_type", "target", "label", "reason", "sentence_id",
    ]  # fmt: skip
    feeds = frame[(frame.source == "service:indexer") & (frame.rel_type == "FEEDS")]
    assert len(feeds) == 1
    row = feeds.iloc[0]
    assert row.target == "service:search-api" and row.label == "source-supported"
    assert "indexer FEEDS search-api" in row.reason and row.sentence_id
    assert set(frame.label) <= LABELS
    assert "CALLS" not in set(frame.rel_type) and "OWNS" not in set(frame.rel_type)


def test_policy_switch_relabels_the_neighbours(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    explorer = _explorer(settings, module_client, sample_graph)
    explorer.select("service:auth-gateway")
    assert "<td>CALLS</td>" not in explorer.neighbour_view.value
    assert "not walked: CALLS" in explorer.neighbour_view.value
    explorer.session.policy = load_policy("evaluation")
    assert "EVALUATION MODE" in explorer.policy_line.value
    assert "<td>CALLS</td>" in explorer.neighbour_view.value
    assert "CALLS" in set(explorer.neighbours("service:auth-gateway").rel_type)


def test_mentions_are_sentences_naming_the_entity(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    explorer = _explorer(settings, module_client, sample_graph)
    entities = explorer.search("search-api indexer Redwood Inference")
    assert len(entities) >= 5
    for entity in entities.itertuples():
        names = [str(entity.name), *(a for a in str(entity.aliases).split(", ") if a)]
        frame = explorer.mentions(str(entity.id))
        assert not frame.empty, entity.id
        assert {"sentence_id", "text", "document", "title", "source_type", "date"} <= set(
            frame.columns
        )
        for text in frame.text:
            assert any(n.lower() in text.lower() for n in names), (entity.id, text)


def test_errors_are_shown_and_raised_never_an_empty_result(
    settings: Settings, module_client: GraphClient, sample_graph: str
) -> None:
    explorer = _explorer(settings, module_client, sample_graph)
    explorer.session.graph = "widgets_explorer_no_such_graph"
    with pytest.raises(ZehnError):
        explorer.neighbours("service:search-api")
    assert 'class="zehn-error"' in explorer.neighbour_view.value
    with pytest.raises(ZehnError):
        explorer.search("search-api")
    assert 'class="zehn-error"' in explorer.results.value
    explorer.select("service:search-api")  # from the UI: shown, not raised
    assert 'class="zehn-error"' in explorer.mention_view.value
    assert "Traceback" not in _everything(explorer)


def test_document_text_is_escaped(
    settings: Settings, module_client: GraphClient, script_graph: str
) -> None:
    explorer = _explorer(settings, module_client, script_graph)
    explorer.select("service:indexer")
    mentions = explorer.mentions("service:indexer")
    assert any("<script>" in t for t in mentions.text)  # the data keeps the text verbatim
    html = _everything(explorer)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>" not in html and "<i>notes</i>" not in html
