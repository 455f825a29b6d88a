"""The benchmark generator is deterministic and sized; a tiny run yields every metric."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.run import METRIC_KEYS, run_size
from benchmarks.synthetic import generate
from zehn.config import Settings
from zehn.store.client import GraphClient


def test_generator_is_deterministic_and_sized(tmp_path: Path) -> None:
    a = generate(300, 1200, 1500, seed=3)
    b = generate(300, 1200, 1500, seed=3)
    c = generate(300, 1200, 1500, seed=4)
    assert a.entities == b.entities and a.edges == b.edges and a.sentences == b.sentences
    assert a.edges != c.edges
    counts = a.counts()
    assert (counts["entities"], counts["edges"], counts["sentences"]) == (300, 1200, 1500)
    assert counts["shared_names"] > 0  # some names carry several kinds
    assert a.hubs and a.chain_heads
    written = a.write_corpus(tmp_path / "corpus")
    assert written == 1500
    assert (tmp_path / "corpus" / "catalog.yaml").is_file()
    assert len(list((tmp_path / "corpus" / "sources").glob("*.md"))) == counts["documents"]


@pytest.mark.integration
def test_tiny_run_returns_every_metric(settings: Settings, tmp_path: Path) -> None:
    client = GraphClient.connect(settings)
    try:
        result = run_size(
            client, generate(60, 150, 200, seed=5), workdir=tmp_path, prefix="smoke", starts=4
        )
    finally:
        for name in client.list_graphs():
            if name.startswith("smoke"):
                client.delete_graph(name)
        client.close()
    missing = [k for k in METRIC_KEYS if k not in result]
    assert not missing
    assert result["entities"] == 60 and result["edges"] == 150
    assert result["impact_engine_p50_ms"] > 0 and result["ingest_sentences_per_s"] > 0
    assert sum(result["ask_statuses"].values()) >= 1
    # the same frontier walk as raw Cypher, and a fresh process's first answer on the graph
    assert result["impact_reached_max"] >= result["impact_reached_p50"] > 0
    assert result["first_answer_status"] in ("answered", "abstained"), result
    assert result["memory_total_mb"] > result["python_peak_rss_mb"] > 0
