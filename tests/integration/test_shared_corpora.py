"""The shared real corpora (../shared/corpora/*), built with ``rules`` and scored on their gold.

Each gold folder in data/gold names its corpus (``corpus:``, relative to the project
root); the corpora themselves are never copied into the project. These tests assert
that the build completes and that every edge cites its stored sentence verbatim, and
print the figures (run with ``-s`` to see them), and hold each corpus to the targets:
precision 0.9 and recall 0.6 at least, and recall a little under what the reader reaches
today where that is higher (a regression guard). About 2 s per corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from zehn.evaluate.compare import compare_strategies
from zehn.evaluate.gold import load_gold
from zehn.extract import pipeline
from zehn.store.client import GraphClient

REPO = Path(__file__).resolve().parents[2]
GOLD = REPO / "data" / "gold"
CORPORA = sorted(p.name for p in GOLD.iterdir() if (p / "relations.yaml").is_file())

_CITED = (
    "MATCH ()-[r:RELATES]->(), (s:Sentence {id: r.sentence_id}), (d:Document {id: s.doc_id}) "
    "RETURN r.fact, r.doc_id, r.start, r.end, s.id, s.text, s.start, s.end, d.text"
)
COUNTS = ("edges", "edges_in_scope", "gold_stated", "gold_quotes_missing")
RATES = ("precision", "recall", "f1", "flag_agreement", "kind_agreement")
# (precision, recall) floors per corpus; measured 2026-12-03: otel-demo 1.000 / 0.730,
# airflow-docs 0.953 / 0.626, dubbo-docs-zh 1.000 / 0.800. The corpora added for the
# discovery issue have first looks only (docs/evaluation.md#first-looks), no floor yet: they
# are built, checked for verbatim citations and measured here, not held to a figure.
FLOORS = {
    "otel-demo": (0.9, 0.7),
    "airflow-docs": (0.9, 0.6),
    "dubbo-docs-zh": (0.9, 0.75),
}


@pytest.mark.parametrize("corpus", CORPORA)
def test_shared_corpus_builds_and_cites_verbatim(
    client: GraphClient, graph_name: str, corpus: str
) -> None:
    gold = load_gold(GOLD / corpus)
    if gold.corpus_root is None or not gold.corpus_root.is_dir():
        pytest.skip(f"{corpus}: the shared corpus is not at {gold.corpus_root} (../shared absent)")
    (row,) = compare_strategies(client, None, ["rules"], gold=gold, corpus=graph_name).to_dict(
        "records"
    )
    assert row["status"] == "ok", row["status"]
    # the report counted the runs as they were read: what counting the graph gives
    counted = pipeline._edge_counts(client, row["graph"])
    assert row["edges"] == sum(counted.values())
    assert (row["mentions"], row["ambiguous_mentions"]) == pipeline._mention_counts(
        client, row["graph"]
    )
    assert row["gold_stated"] == len(gold.stated)
    assert row["gold_quotes_missing"] == 0, "gold quotes no longer in the loaded text"
    for fact, doc_id, start, end, sid, text, s_start, s_end, doc_text in client.read(
        row["graph"], _CITED
    ).rows:
        assert (doc_id, start, end) == (sid.rpartition("#")[0], s_start, s_end), sid
        assert doc_text[s_start:s_end] == text, sid  # the stored sentence is the source's
        assert fact == text, sid  # rules' quote is its sentence, verbatim
    figures = [f"{k} {row[k]:.0f}" for k in COUNTS] + [f"{k} {row[k]:.3f}" for k in RATES]
    print(f"\n{corpus} (rules): {', '.join(figures)}")
    if corpus not in FLOORS:
        return
    precision, recall = FLOORS[corpus]
    assert row["precision"] >= precision, figures
    assert row["recall"] >= recall, figures
