"""Strategy comparison against gold relations: which extractor can be trusted, measured.

Per strategy graph:
- **precision**: share of extracted edges that match a gold relation the
  sentence states (same sentence, predicate, subject and object entity;
  negated or hedged statements count, the grader handles them later);
- **recall**: share of those stated gold relations that were extracted;
- **fact-verbatim rate**: share of edges whose ``fact`` appears verbatim in
  its sentence;
- **binding error rate**: among edges whose sentence and predicate match a
  gold relation, the share bound to a different subject or object entity;
- **flag agreement**: among matched edges, negated/hedged ⇔ gold grade
  "insufficient-evidence".

Precision, recall and F1 are also given per language of the sentence
(``en_precision``, ``zh_recall`` …: Chinese or mixed Chinese–English vs English).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from zehn.config import Settings
from zehn.errors import ExtractionError
from zehn.evaluate.gold import GoldError, GoldRelation, entity_ids, load_relations
from zehn.evaluate.metrics import ratio
from zehn.evidence.grade import INSUFFICIENT
from zehn.extract.pipeline import CorpusLayout, build_graph
from zehn.reading.catalog import Catalog
from zehn.reading.lang import LANGUAGES, detect_language
from zehn.reading.vocabulary import PREDICATES
from zehn.store.client import GraphClient

_EDGES = (
    "MATCH (a:Entity)-[r:RELATES]->(b:Entity), (s:Sentence {id: r.sentence_id}) "
    "RETURN a.id, r.rel_type, b.id, r.sentence_id, r.fact, s.text, r.negated, r.hedged"
)


@dataclass(frozen=True)
class StoredEdge:
    subject: str
    rel_type: str
    object: str
    sentence_id: str
    fact: str
    sentence: str
    flagged: bool


def stored_edges(client: GraphClient, graph: str) -> list[StoredEdge]:
    return [
        StoredEdge(str(a), str(p), str(b), str(sid), str(fact or ""), str(text), bool(n or h))
        for a, p, b, sid, fact, text, n, h in client.read(graph, _EDGES).rows
    ]


def edge_metrics(
    edges: Sequence[StoredEdge], gold: Sequence[GoldRelation], catalog: Catalog | None
) -> dict[str, Any]:
    """Precision, recall, F1 and the trust metrics of one strategy's edges."""
    stated = [g for g in gold if g.stated]
    subjects = [entity_ids(catalog, g.subject, g.subject_kind) for g in stated]
    objects = [entity_ids(catalog, g.object, g.object_kind) for g in stated]

    def matches(edge: StoredEdge, i: int) -> bool:
        g = stated[i]
        return (
            g.sentence == edge.sentence_id
            and g.predicate == edge.rel_type
            and edge.subject in subjects[i]
            and edge.object in objects[i]
        )

    by_sentence: dict[str, list[int]] = {}
    for i, g in enumerate(stated):
        by_sentence.setdefault(g.sentence, []).append(i)
    matched_gold: set[int] = set()
    true_edges = binding_errors = same_slot = flag_agree = 0
    for edge in edges:
        candidates = by_sentence.get(edge.sentence_id, [])
        hits = [i for i in candidates if matches(edge, i)]
        if hits:
            true_edges += 1
            matched_gold.update(hits)
            insufficient = stated[hits[0]].grade == INSUFFICIENT
            flag_agree += edge.flagged == insufficient
        if any(stated[i].predicate == edge.rel_type for i in candidates):
            same_slot += 1
            binding_errors += not hits
    precision = ratio(true_edges, len(edges))
    recall = ratio(len(matched_gold), len(stated))
    f1 = (
        2 * precision * recall / (precision + recall)
        if precision + recall > 0 and not math.isnan(precision + recall)
        else 0.0
    )
    return {
        "edges": len(edges),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "fact_verbatim_rate": ratio(sum(e.fact in e.sentence for e in edges), len(edges)),
        "binding_error_rate": ratio(binding_errors, same_slot),
        "flag_agreement": ratio(flag_agree, true_edges),
        "gold_stated": len(stated),
    }


def language_metrics(
    edges: Sequence[StoredEdge], gold: Sequence[GoldRelation], catalog: Catalog | None
) -> dict[str, Any]:
    """Edges, precision, recall and F1 per language of the sentence: ``en_precision`` …"""
    figures: dict[str, Any] = {}
    for language in LANGUAGES:
        metrics = edge_metrics(
            [e for e in edges if detect_language(e.sentence) == language],
            [g for g in gold if g.language == language],
            catalog,
        )
        for key in ("edges", "precision", "recall", "f1", "gold_stated"):
            figures[f"{language}_{key}"] = metrics[key]
    return figures


def comparison_frame(rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One row per strategy; predicate counts as ``edges_<PREDICATE>`` columns."""
    frame = pd.DataFrame(list(rows))
    ran = frame["status"] == "ok"
    for predicate in PREDICATES:
        column = f"edges_{predicate}"
        if column not in frame:
            frame[column] = float("nan")
        frame.loc[ran, column] = frame.loc[ran, column].fillna(0)  # ran, found none: a real 0
    return frame


def compare_strategies(
    client: GraphClient,
    corpus_path: Path,
    strategies: Sequence[str],
    settings: Settings | None = None,
    *,
    corpus: str | None = None,
    progress: Callable[[int], Any] | None = None,
) -> pd.DataFrame:
    """Build ``<corpus>__<strategy>`` for each strategy and score it against the corpus's gold.

    A strategy that cannot run (an ``llm`` without an endpoint) gets a row
    whose ``status`` says why, with no figures: never made-up ones.
    """
    layout = CorpusLayout.of(corpus_path)
    if layout.gold is None or not (layout.gold / "relations.yaml").is_file():
        raise GoldError(f"{corpus_path}: no gold/relations.yaml to compare against")
    gold = load_relations(layout.gold / "relations.yaml")
    catalog = Catalog.load(layout.catalog) if layout.catalog else None
    name = corpus or Path(corpus_path).resolve().name
    rows: list[dict[str, Any]] = []
    bar = progress(len(strategies)) if progress else None
    for strategy in strategies:
        if bar is not None:
            bar.update(1)
        try:
            report = build_graph(client, name, Path(corpus_path), strategy, settings, rebuild=True)
        except ExtractionError as e:
            rows.append({"strategy": strategy, "graph": None, "status": f"not run: {e}"})
            continue
        edges = stored_edges(client, report.graph)
        rows.append(
            {
                "strategy": strategy,
                "graph": report.graph,
                "status": "ok",
                **edge_metrics(edges, gold, catalog),
                **language_metrics(edges, gold, catalog),
                "entities": report.entities,
                "mentions": report.mentions,
                "ambiguous_mentions": report.ambiguous_mentions,
                "extraction_s": report.extraction_s,
                **{f"edges_{p}": n for p, n in report.edges_by_predicate.items()},
            }
        )
    return comparison_frame(rows)
