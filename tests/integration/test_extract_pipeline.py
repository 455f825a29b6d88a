"""Strategy graphs on a real FalkorDB: isolation, atomic swap, incremental re-extraction."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO
from tests.fakes.openai_server import Reply, fake_openai
from zehn.config import Settings
from zehn.corpus.model import Progress, SourceText
from zehn.errors import (
    CatalogError,
    ExtractionError,
    GraphNotFound,
    ModelEndpointError,
    UnknownStrategy,
)
from zehn.evaluate.compare import compare_strategies
from zehn.extract import pipeline
from zehn.extract.base import Extraction
from zehn.extract.pipeline import build_graph, resolve_graph
from zehn.reading.names.catalog import Catalog
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


def _snapshot(client: GraphClient, graph: str) -> list[tuple[object, ...]]:
    rows = client.read(
        graph,
        "MATCH (a:Entity)-[r:RELATES]->(b:Entity) "
        "RETURN r.key, a.id, r.rel_type, b.id, r.sentence_id ORDER BY r.key",
    ).rows
    return list(rows)


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    (corpus / "sources").mkdir(parents=True)
    shutil.copy(SAMPLE / "catalog.yaml", corpus / "catalog.yaml")
    (corpus / "sources" / "a.md").write_text(
        "# A\n\nThe indexer feeds search-api. origin-mapper affects indexer.\n", "utf-8"
    )
    (corpus / "sources" / "b.md").write_text(
        "# B\n\nweb-frontend depends on search-api.\n", "utf-8"
    )
    return corpus


def test_every_edge_points_at_a_stored_sentence_and_its_mentions(
    client: GraphClient, graph_name: str
) -> None:
    report = build_graph(client, graph_name, SAMPLE, "rules")
    assert report.graph == f"{graph_name}__rules" and report.swapped
    rows = client.read(
        report.graph,
        "MATCH (a:Entity)-[r:RELATES]->(b:Entity), (s:Sentence {id: r.sentence_id}), "
        "(d:Document {id: r.doc_id}) RETURN r, s.start, s.end, d.text",
    ).rows
    assert len(rows) == report.edges > 80
    for edge, start, end, doc_text in rows:
        assert (edge["start"], edge["end"]) == (start, end)
        assert edge["fact"] == doc_text[start:end]
        assert start <= edge["subject_start"] < edge["subject_end"] <= end
        assert start <= edge["object_start"] < edge["object_end"] <= end
    assert client.graph_exists(f"{graph_name}__rules__staging") is False


def test_a_strategy_never_touches_another_strategys_graph(
    client: GraphClient, graph_name: str
) -> None:
    build_graph(client, graph_name, SAMPLE, "rules")
    before = _snapshot(client, f"{graph_name}__rules")
    build_graph(client, graph_name, SAMPLE, "cooccurrence")
    assert _snapshot(client, f"{graph_name}__rules") == before
    assert len(_snapshot(client, f"{graph_name}__cooccurrence")) > len(before)


class _Exploding:
    name = "rules"
    version = "boom"

    def extract(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        progress: Progress | None = None,
    ) -> Extraction:
        raise ExtractionError("the model endpoint went away halfway")


def test_a_failed_build_leaves_the_live_graph_as_it_was(
    client: GraphClient, graph_name: str, small_corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_graph(client, graph_name, small_corpus, "rules")
    before = _snapshot(client, f"{graph_name}__rules")
    (small_corpus / "sources" / "c.md").write_text("# C\n\nbilling calls auth-gateway.\n", "utf-8")
    monkeypatch.setitem(pipeline.STRATEGIES, "rules", _Exploding)
    with pytest.raises(ExtractionError, match="went away"):
        build_graph(client, graph_name, small_corpus, "rules")
    assert _snapshot(client, f"{graph_name}__rules") == before
    assert client.read(f"{graph_name}__rules", "MATCH (d:Document) RETURN count(d)").scalar() == 2
    assert f"{graph_name}__rules__staging" not in client.list_graphs()


def test_a_bad_catalog_or_strategy_writes_nothing(
    client: GraphClient, graph_name: str, small_corpus: Path
) -> None:
    (small_corpus / "catalog.yaml").write_text(
        "entities:\n- {name: a, kind: service}\n- {name: a, kind: service}\n", "utf-8"
    )
    with pytest.raises(CatalogError, match="duplicates entry 1"):
        build_graph(client, graph_name, small_corpus, "rules")
    with pytest.raises(UnknownStrategy, match="choose one of rules, cooccurrence, llm"):
        build_graph(client, graph_name, small_corpus, "magic")
    assert not [g for g in client.list_graphs() if g.startswith(graph_name)]


def test_only_changed_documents_are_re_extracted_and_keys_are_stable(
    client: GraphClient, graph_name: str, small_corpus: Path
) -> None:
    first = build_graph(client, graph_name, small_corpus, "rules")
    before = {row[0]: row for row in _snapshot(client, first.graph)}
    (small_corpus / "sources" / "b.md").write_text(
        "# B\n\nweb-frontend calls search-api.\n", "utf-8"
    )
    second = build_graph(client, graph_name, small_corpus, "rules")
    assert second.extracted_documents == 1
    after = {row[0]: row for row in _snapshot(client, second.graph)}
    kept = {k for k, row in before.items() if str(row[4]).startswith("doc/a-md")}
    assert kept and kept <= set(after)
    assert {row[2] for row in after.values() if str(row[4]).startswith("doc/b-md")} == {"CALLS"}
    third = build_graph(client, graph_name, small_corpus, "rules", rebuild=True)
    assert third.extracted_documents == 2
    assert {row[0] for row in _snapshot(client, third.graph)} == set(after)


def test_graph_names_resolve_from_the_corpus_name_when_unambiguous(
    client: GraphClient, graph_name: str, small_corpus: Path
) -> None:
    build_graph(client, graph_name, small_corpus, "rules")
    assert resolve_graph(client, graph_name) == f"{graph_name}__rules"
    assert resolve_graph(client, f"{graph_name}__rules") == f"{graph_name}__rules"
    build_graph(client, graph_name, small_corpus, "cooccurrence")
    with pytest.raises(GraphNotFound, match="ambiguous"):
        resolve_graph(client, graph_name)
    with pytest.raises(GraphNotFound):
        resolve_graph(client, f"{graph_name}_nope")


def test_comparison_on_the_sample_meets_the_rules_targets(
    client: GraphClient, graph_name: str
) -> None:
    frame = compare_strategies(
        client, SAMPLE, ["rules", "cooccurrence", "llm"], Settings(home=client.settings.home),
        corpus=graph_name,
    ).set_index("strategy")  # fmt: skip
    rules, noisy, llm = frame.loc["rules"], frame.loc["cooccurrence"], frame.loc["llm"]
    assert rules["precision"] >= 0.9 and rules["recall"] >= 0.8
    assert rules["fact_verbatim_rate"] == 1.0
    assert noisy["precision"] < rules["precision"] and noisy["fact_verbatim_rate"] < 0.5
    assert noisy["binding_error_rate"] > rules["binding_error_rate"]
    assert str(llm["status"]).startswith("not run") and "OPENAI_BASE_URL" in str(llm["status"])
    assert llm[[c for c in frame.columns if str(c).startswith("edges_")]].isna().all()


def _llm_reply(body: dict[str, Any]) -> str | Reply:
    """A model that paraphrases: indexer FEEDS search-api, web-frontend DEPENDS_ON search-api."""
    prompt = body["messages"][-1]["content"]
    relationships = []
    if "The indexer feeds search-api." in prompt:
        relationships.append(
            {"source": "indexer", "target": "search-api", "type": "FEEDS",
             "description": "Fresh index data flows from the indexer into search-api."}
        )  # fmt: skip
    if "web-frontend depends on search-api." in prompt:
        relationships.append(
            {"source": "web-frontend", "target": "search-api", "type": "DEPENDS_ON",
             "description": "The frontend needs search-api."}
        )  # fmt: skip
    return json.dumps({"entities": [], "relationships": relationships})


def test_llm_strategy_builds_its_own_graph_and_a_dead_endpoint_changes_nothing(
    client: GraphClient, graph_name: str, small_corpus: Path
) -> None:
    with fake_openai(_llm_reply) as fake:
        settings = Settings(
            home=client.settings.home, openai_base_url=fake.base_url, openai_model="fake-1"
        )
        report = build_graph(client, graph_name, small_corpus, "llm", settings)
    assert report.graph == f"{graph_name}__llm"
    rows = client.read(
        report.graph,
        "MATCH (a:Entity)-[r:RELATES]->(b:Entity), (s:Sentence {id: r.sentence_id}) "
        "RETURN a.id, r.rel_type, b.id, r.fact, s.text ORDER BY r.rel_type",
    ).rows
    assert [(a, p, b, text) for a, p, b, _, text in rows] == [
        ("service:web-frontend", "DEPENDS_ON", "service:search-api",
         "web-frontend depends on search-api."),
        ("service:indexer", "FEEDS", "service:search-api", "The indexer feeds search-api."),
    ]  # fmt: skip
    assert all(fact not in text for _, _, _, fact, text in rows)  # kept, never a quote
    before = _snapshot(client, report.graph)
    (small_corpus / "sources" / "c.md").write_text("# C\n\nbilling calls auth-gateway.\n", "utf-8")
    with fake_openai([Reply(status=500)] * 10) as broken:
        settings = settings.with_changes(openai_base_url=broken.base_url)
        with pytest.raises(ModelEndpointError):
            build_graph(client, graph_name, small_corpus, "llm", settings)
    assert _snapshot(client, report.graph) == before
    assert not client.graph_exists(f"{report.graph}__staging")


def test_a_document_is_read_back_in_pages_of_chunks_whole_and_in_order(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No single read grows with the largest document: its sentences come back by pages of
    chunks (here pages of 2), and the document is whole and in order all the same."""
    text = "\n\n".join(
        f"Section {i}.\n\nThe kite service sends note {i} to the gull store. " * 3
        for i in range(40)
    )
    (tmp_path / "long.md").write_text(text, encoding="utf-8")
    from zehn.extract.ingest import ingest_path
    from zehn.reading.split import split_sentences

    ingest_path(client, graph_name, tmp_path)
    monkeypatch.setattr(pipeline, "_CHUNK_BATCH", 2)
    pages: list[int] = []
    read = client.read

    def counting(graph: str, cypher: str, params: Any = None, **kw: Any) -> Any:
        if cypher == pipeline._SOURCE_SENTENCES:
            pages.append(len(params["chunks"]))
        return read(graph, cypher, params, **kw)

    monkeypatch.setattr(client, "read", counting)
    (doc,) = pipeline.read_source_texts(client, graph_name, ["doc/long-md"])
    expected = split_sentences("doc/long-md", doc.text)
    assert [(s.start, s.end, s.text) for s in doc.sentences] == [
        (s.start, s.end, s.text) for s in expected
    ]
    assert len(doc.chunks) > 2 and max(pages) == 2 and len(pages) == -(-len(doc.chunks) // 2)


def test_documents_kept_at_ingest_are_what_reading_them_back_gives(
    client: GraphClient, graph_name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A build extracts from the documents it just wrote without reading them back: each kept
    document (one written in several parts among them) equals the one read from the graph
    (test_ingest checks that a document the server refused is not kept)."""
    from zehn.extract import ingest

    monkeypatch.setattr(ingest, "BATCH_SENTENCES", 7)  # the long document goes in parts
    shutil.copytree(SAMPLE / "sources", tmp_path / "sources")
    long_text = "\n\n".join(f"Part {i}. The kite service sends note {i} on." for i in range(30))
    (tmp_path / "sources" / "long.md").write_text(long_text, encoding="utf-8")
    kept: dict[str, SourceText] = {}
    report = ingest.ingest_path(client, graph_name, tmp_path / "sources", keep=kept)
    assert set(kept) == set(report.written_ids) and "doc/long-md" in kept
    back = pipeline.read_source_texts(client, graph_name, sorted(kept))
    assert back == [kept[d] for d in sorted(kept)]
    # a second ingest writes nothing (every text unchanged) and so keeps nothing
    again: dict[str, SourceText] = {}
    ingest.ingest_path(client, graph_name, tmp_path / "sources", keep=again)
    assert again == {}
