"""Reviewers' labels as gold: ``zehn audit export-gold --graph G --out DIR``.

Every reviewed edge of ``G`` becomes a row of a gold ``relations.yaml`` in the evaluation's
own format (``zehn.evaluate.gold``, format ``reviewed``): the verbatim sentence, subject,
predicate and object (entity ids, names beside them), the reviewer's verdict — ``correct``, or
``rejected`` for every wrong label (wrong target, source or predicate, not asserted) — and the
label and reviewer as a note. ``unsure`` labels and labels of edges the graph no longer has are
left out. ``zehn compare --gold DIR`` then scores every strategy against what reviewers decided:
precision over the edges they judged (a rejected one a false positive, an unreviewed one not
judged), recall over the edges they found correct.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from zehn.evidence.grade import INSUFFICIENT, SUPPORTED
from zehn.extract.pipeline import graph_meta
from zehn.review.audit import LABEL_TITLES, AuditStore, read_items
from zehn.review.audit import AuditError as AuditError
from zehn.store.client import GraphClient

RELATIONS_FILE = "relations.yaml"


@dataclass(frozen=True)
class GoldExport:
    """What one export wrote."""

    path: Path
    correct: int
    rejected: int
    left_out: int  # unsure labels, and labels of edges the graph no longer has

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "correct": self.correct,
            "rejected": self.rejected,
            "left_out": self.left_out,
        }


def export_gold(
    client: GraphClient, graph: str, out: Path, store: AuditStore | None = None
) -> GoldExport:
    """Write ``out/relations.yaml`` from the labels of ``graph``; raises ``AuditError`` when
    the graph has no reviewed edge to export."""
    store = store or AuditStore(client)
    labels = store.labels(graph)
    items = {i.key: i for i in read_items(client, graph, [x.edge_key for x in labels])}
    rows, left_out = [], 0
    for label in sorted(labels, key=lambda x: x.edge_key):
        item = items.get(label.edge_key)
        if item is None or label.label == "unsure":
            left_out += 1
            continue
        rows.append(
            {
                "subject": item.subject_id,
                "subject_name": item.subject_name,
                "predicate": item.rel_type,
                "object": item.object_id,
                "object_name": item.object_name,
                "sentence": item.sentence_id,
                "quote": item.text,
                "grade": str(INSUFFICIENT if item.negated or item.hedged else SUPPORTED),
                "verdict": "correct" if label.label == "correct" else "rejected",
                "note": f"{LABEL_TITLES.get(label.label, label.label)} ({label.reviewer})",
            }
        )
    if not rows:
        raise AuditError(f"graph {graph} has no reviewed edge to export as gold")
    source_path = graph_meta(client, graph).get("source_path")
    source = Path(str(source_path)) if source_path else None
    corpus = source.parent if source is not None and source.name == "sources" else source
    data = {
        "reviewed": graph,
        "corpus": str(corpus.resolve()) if corpus is not None else None,
        "relations": rows,
    }
    out.mkdir(parents=True, exist_ok=True)
    path = out / RELATIONS_FILE
    header = (
        f"# Reviewers' verdicts on the edges of graph {graph} (zehn audit export-gold): a\n"
        "# rejected edge is a false positive wherever a strategy extracts it again.\n"
    )
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    path.write_text(header + text, encoding="utf-8")
    correct = sum(r["verdict"] == "correct" for r in rows)
    return GoldExport(path, correct, len(rows) - correct, left_out)
