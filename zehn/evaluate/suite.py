"""The reading suite: every corpus with gold built with ``rules`` and measured in one table.

One row per corpus (the real corpora of ``data/gold/`` whose text is present, and the
sample): labelled components discovered, how many of the most-mentioned entities are
labelled components, relation precision and recall, and for each stated gold relation that
no edge matched, the stage it was lost at:

- ``lost_end_not_discovered``: no entity of the graph goes by the subject's or the object's
  gold names (discovery);
- ``lost_sentence_not_stored``: no stored sentence of its file holds the quote (loading and
  splitting);
- ``lost_end_not_bound``: both ends are entities and the sentence is stored, but the sentence
  does not mention both (binding and references);
- ``lost_no_edge``: the sentence mentions both ends, yet no matching edge (relation reading:
  a co-mention with no relation read is told apart from a name not found).

``zehn compare --suite`` prints it; run it before every commit that changes reading.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from zehn.config import Settings
from zehn.evaluate.compare import GoldScorer, compare_strategies, resolve_gold, stored_edges
from zehn.evaluate.components import component_figures, load_components
from zehn.evaluate.gold import GoldRelation, GoldSet, load_gold, name_forms
from zehn.evaluate.matching import fold
from zehn.store.client import GraphClient

STAGES = (
    "lost_end_not_discovered",
    "lost_sentence_not_stored",
    "lost_end_not_bound",
    "lost_no_edge",
)
_ENTITY_NAMES = "MATCH (e:Entity) RETURN e.name, e.aliases"
_SENTENCES = "MATCH (s:Sentence) RETURN s.id, s.doc_id, s.text"
_MENTIONED = (
    "MATCH (e:Entity)-[:MENTIONED_IN]->(s:Sentence) RETURN s.id, collect(DISTINCT e.name),"
    " collect(e.aliases)"
)


@dataclass(frozen=True)
class SuiteCorpus:
    """A corpus of the suite: its name, its gold folder and where its text is."""

    name: str
    gold: Path
    corpus: Path | None  # None: the gold names it (``corpus:``)


def suite_corpora(
    gold_root: Path, sample: Path | None = None
) -> tuple[list[SuiteCorpus], list[str]]:
    """The corpora to build, and a note for each gold folder whose corpus is absent."""
    found: list[SuiteCorpus] = []
    absent: list[str] = []
    for folder in sorted(p for p in Path(gold_root).iterdir() if (p / "relations.yaml").is_file()):
        root = load_gold(folder).corpus_root
        if root is None or not root.is_dir():
            absent.append(f"{folder.name}: its corpus is not at {root}")
            continue
        found.append(SuiteCorpus(folder.name, folder, None))
    if sample is not None and (Path(sample) / "gold" / "relations.yaml").is_file():
        found.append(SuiteCorpus("sample", Path(sample) / "gold", Path(sample)))
    return found, absent


def run_suite(
    client: GraphClient,
    corpora: Sequence[SuiteCorpus],
    settings: Settings | None = None,
    *,
    progress: Callable[[str], Any] | None = None,
) -> pd.DataFrame:
    """Build each corpus with ``rules`` (``<name>__rules``) and measure it: one row each."""
    rows = []
    for corpus in corpora:
        if progress is not None:
            progress(corpus.name)
        rows.append(_measure(client, corpus, settings))
    return pd.DataFrame(rows)


def _measure(client: GraphClient, corpus: SuiteCorpus, settings: Settings | None) -> dict[str, Any]:
    gold = load_gold(corpus.gold)
    frame = compare_strategies(
        client, corpus.corpus, ["rules"], settings, gold=gold, corpus=f"suite_{corpus.name}"
    )
    (compared,) = frame.to_dict("records")
    graph = str(compared["graph"])
    row: dict[str, Any] = {
        "corpus": corpus.name,
        "graph": graph,
        "entities": compared["entities"],
        "edges": compared["edges"],
        "precision": compared["precision"],
        "recall": compared["recall"],
        "gold_stated": compared["gold_stated"],
    }
    components = load_components(corpus.gold)
    if components:
        row.update(component_figures(client, graph, components).to_dict())
    scorer = GoldScorer.load(gold, resolve_gold(corpus.corpus, gold)[1])
    matched = scorer.judge(stored_edges(client, graph)).matched_gold
    missed = [g for i, g in enumerate(gold.stated) if i not in matched]
    lost = Counter(_stages(client, graph, gold, scorer, missed))
    row.update({stage: lost[stage] for stage in STAGES})
    return row


def _stages(
    client: GraphClient,
    graph: str,
    gold: GoldSet,
    scorer: GoldScorer,
    missed: Sequence[GoldRelation],
) -> list[str]:
    forms: set[str] = set()
    for name, aliases in client.read(graph, _ENTITY_NAMES).rows:
        forms |= name_forms((str(name), *(str(a) for a in aliases or [])))
    by_doc: dict[str, list[tuple[str, str]]] = {}
    for sentence_id, doc_id, text in client.read(graph, _SENTENCES).rows:
        by_doc.setdefault(str(doc_id), []).append((str(sentence_id), fold(str(text))))
    ids = {sid for sentences in by_doc.values() for sid, _ in sentences}
    named = _named_in(client, graph)
    stages = []
    for relation in missed:
        ends = (
            gold.forms(relation.subject, relation.subject_kind) & forms,
            gold.forms(relation.object, relation.object_kind) & forms,
        )
        found = _stored(relation, scorer, by_doc, ids)
        if not all(ends):
            stages.append("lost_end_not_discovered")
        elif not found:
            stages.append("lost_sentence_not_stored")
        elif not any(_both_named(ends, named.get(sid, frozenset())) for sid in found):
            stages.append("lost_end_not_bound")
        else:
            stages.append("lost_no_edge")
    return stages


def _both_named(ends: tuple[AbstractSet[str], AbstractSet[str]], named: AbstractSet[str]) -> bool:
    return bool(ends[0] & named) and bool(ends[1] & named)


def _named_in(client: GraphClient, graph: str) -> dict[str, AbstractSet[str]]:
    """Per sentence id, the name forms of the entities it mentions."""
    named: dict[str, AbstractSet[str]] = {}
    for sentence_id, names, aliases in client.read(graph, _MENTIONED).rows:
        all_aliases = [str(a) for group in aliases or [] for a in group or []]
        named[str(sentence_id)] = name_forms((*(str(n) for n in names), *all_aliases))
    return named


def _stored(
    relation: GoldRelation,
    scorer: GoldScorer,
    by_doc: dict[str, list[tuple[str, str]]],
    ids: set[str],
) -> list[str]:
    """The stored sentences of the relation's file that hold its quote (or lie inside it)."""
    if scorer.index is None:  # the sample's format: the sentence id is the gold's
        return [relation.sentence] if relation.sentence in ids else []
    quote = fold(relation.quote)
    documents = scorer.index.files.get(relation.file or "", ())
    return [
        sid for d in documents for sid, text in by_doc.get(d, []) if quote in text or text in quote
    ]


def render_suite(frame: pd.DataFrame) -> str:
    """The suite as a plain-text table, with the mean over the real corpora."""
    columns = {
        "corpus": "corpus",
        "components_discovered": "components",
        "top_real_components": "top-30 real",
        "precision": "P",
        "recall": "R",
        "gold_stated": "gold",
        **{stage: stage.removeprefix("lost_").replace("_", " ") for stage in STAGES},
    }
    shown = frame[[c for c in columns if c in frame]].rename(columns=columns)
    for column in ("P", "R"):
        shown[column] = shown[column].map(lambda v: "-" if pd.isna(v) else f"{v:.3f}")
    for column in ("components", "top-30 real"):
        if column in shown:
            shown[column] = shown[column].map(lambda v: "-" if pd.isna(v) else f"{int(v)}")
    real = frame[frame["corpus"] != "sample"]
    lines = [shown.to_string(index=False)]
    if len(real):
        lines.append(
            f"mean over {len(real)} real corpora: recall {real['recall'].mean():.3f}"
            + (
                f", components discovered {real['components_discovered_share'].mean():.2f}"
                if "components_discovered_share" in real
                else ""
            )
        )
    return "\n".join(lines)
