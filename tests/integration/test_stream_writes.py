"""Writing a sentence strategy's runs as they are read stores exactly what writing the whole
extraction at the end stores, in the same order, on a real FalkorDB."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.conftest import REPO
from zehn.config import Settings
from zehn.corpus.model import SourceText
from zehn.extract import pipeline, stream
from zehn.extract.ingest import ingest_path
from zehn.extract.pipeline import build_graph
from zehn.extract.rules import RulesStrategy
from zehn.extract.stream import Run
from zehn.extract.write import encoded, write_extraction, write_stream
from zehn.reading.names.catalog import Catalog
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"
# no ORDER BY on purpose: rows come back in the order they were stored
_RELATES = "MATCH (a)-[r:RELATES]->(b) RETURN r.key, a.id, b.id, r.start, r.end, r.fact, r.cue"
_MENTIONS = "MATCH (e)-[m:MENTIONED_IN]->(s) RETURN e.id, s.id, m.start, m.end, m.surface, m.reason"
_ENTITIES = "MATCH (e:Entity) RETURN e ORDER BY e.id"


def _ingested(client: GraphClient, graph: str) -> list[SourceText]:
    kept: dict[str, SourceText] = {}
    ingest_path(client, graph, SAMPLE / "sources", keep=kept)
    return [kept[d] for d in sorted(kept)]


@pytest.mark.parametrize("finish", [None, encoded], ids=["encoded-here", "encoded-by-reader"])
def test_runs_written_as_read_store_what_one_write_at_the_end_stores(
    client: GraphClient,
    graph_name: str,
    monkeypatch: pytest.MonkeyPatch,
    finish: Callable[[Run], Run] | None,
) -> None:
    catalog = Catalog.load(SAMPLE / "catalog.yaml")
    whole, runs = graph_name, f"{graph_name}_runs"
    sources = _ingested(client, whole)
    extraction = RulesStrategy().extract(sources, catalog, Settings())
    write_extraction(client, whole, extraction)

    monkeypatch.setattr(stream, "RUN_SENTENCES", 25)  # many runs, every other one forked
    monkeypatch.setattr(stream, "PARALLEL_MIN_SENTENCES", 1)
    read = RulesStrategy().stream(_ingested(client, runs), catalog, Settings(), finish=finish)
    assert write_stream(client, runs, read) == len(sources)
    assert RulesStrategy().notes(read.skipped_ambiguous) == extraction.notes

    for query in (_RELATES, _MENTIONS, _ENTITIES):
        assert client.read(runs, query).rows == client.read(whole, query).rows
    assert len(client.read(whole, _RELATES).rows) == len(extraction.edges) > 100


def test_a_whole_build_counts_what_the_graph_holds_as_it_reads(
    client: GraphClient, graph_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report's edges by predicate and mention counts come from the runs when every
    document was read again; they are what counting the graph gives."""
    monkeypatch.setattr(stream, "RUN_SENTENCES", 25)
    monkeypatch.setattr(stream, "PARALLEL_MIN_SENTENCES", 1)
    report = build_graph(client, graph_name, SAMPLE, "rules")
    assert report.edges_by_predicate == pipeline._edge_counts(client, report.graph)
    assert (report.mentions, report.ambiguous_mentions) == pipeline._mention_counts(
        client, report.graph
    )
    assert report.edges > 100 and report.mentions > 300 and report.ambiguous_mentions > 0
