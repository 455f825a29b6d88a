"""Strategy comparison against gold relations: which extractor can be trusted, measured.

Any corpus scores against any gold folder of either format (``zehn.evaluate.gold``);
when an edge counts as a gold relation is ``zehn.evaluate.matching``'s to say.
Per strategy graph:

- **precision**: share of judged edges that match a gold relation the sentence
  states (negated or hedged statements count, the grader handles them later).
  Judged are all edges for a sample gold, and the edges of scope files
  (``edges_in_scope``) for a corpus gold: the rest of the corpus was not labelled;
- **recall**: share of those stated gold relations that were extracted (also
  per gold predicate: ``recall_<PREDICATE>``);
- **fact-verbatim rate**: share of edges whose ``fact`` appears verbatim in
  its sentence;
- **binding error rate**: among judged edges whose sentence and predicate match a
  gold relation, the share bound to a different subject or object entity;
- **flag agreement**: among matched edges, negated/hedged ⇔ gold grade
  "insufficient-evidence"; **kind agreement**: among matched edges, both ends
  of the kind the gold gives (a corpus gold matches by name, whatever the kind).

Precision, recall and F1 are also given per language of the sentence
(``en_precision``, ``zh_recall`` …: Chinese or mixed Chinese–English vs English).
``edge_report`` lists what did not match, with the reason, for a developer to read.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from zehn.config import Settings
from zehn.errors import ExtractionError
from zehn.evaluate.gold import GoldError, GoldRelation, GoldSet, load_gold
from zehn.evaluate.matching import (
    DocumentIndex,
    DocumentMatcher,
    Matcher,
    ReviewedMatcher,
    SentenceMatcher,
    StoredEdge,
    differences,
)
from zehn.evaluate.metrics import f1_score, ratio
from zehn.evidence.grade import INSUFFICIENT
from zehn.extract.pipeline import CorpusLayout, build_graph
from zehn.reading.lang import LANGUAGES, detect_language
from zehn.reading.names.catalog import Catalog
from zehn.reading.vocabulary import PREDICATES
from zehn.store.client import GraphClient

__all__ = [
    "GoldScorer",
    "StoredEdge",
    "compare_strategies",
    "comparison_frame",
    "edge_metrics",
    "edge_report",
    "stored_edges",
]

_EDGES = (
    "MATCH (a:Entity)-[r:RELATES]->(b:Entity), (s:Sentence {id: r.sentence_id}) "
    "RETURN a.id, r.rel_type, b.id, r.sentence_id, r.fact, s.text, r.negated, r.hedged, "
    "s.doc_id, a.name, a.kind, a.aliases, b.name, b.kind, b.aliases"
)
_NOT_GRAPH_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def stored_edges(client: GraphClient, graph: str) -> list[StoredEdge]:
    return [_stored_edge(row) for row in client.read(graph, _EDGES).rows]


def _stored_edge(row: Sequence[Any]) -> StoredEdge:
    a, p, b, sid, fact, text, negated, hedged, doc, an, ak, aa, bn, bk, ba = row
    return StoredEdge(
        str(a),
        str(p),
        str(b),
        str(sid),
        str(fact or ""),
        str(text),
        bool(negated or hedged),
        doc_id=str(doc or ""),
        subject_name=str(an or ""),
        subject_kind=str(ak or ""),
        subject_aliases=tuple(map(str, aa or ())),
        object_name=str(bn or ""),
        object_kind=str(bk or ""),
        object_aliases=tuple(map(str, ba or ())),
    )


@dataclass(frozen=True)
class Judgement:
    """Every edge set against the gold: what was judged, what it matched, what it missed."""

    edges: tuple[StoredEdge, ...]
    judged: tuple[StoredEdge, ...]  # in scope
    candidates: tuple[tuple[int, ...], ...]  # per judged edge: gold relations of its sentence
    hits: tuple[tuple[int, ...], ...]  # per judged edge: the gold relations it matches
    stated: tuple[GoldRelation, ...]
    matcher: Matcher

    @property
    def matched_gold(self) -> set[int]:
        return {i for hits in self.hits for i in hits}


def judge(
    edges: Sequence[StoredEdge], stated: Sequence[GoldRelation], matcher: Matcher
) -> Judgement:
    judged = tuple(e for e in edges if matcher.in_scope(e))
    candidates = tuple(tuple(matcher.candidates(e)) for e in judged)
    hits = tuple(
        tuple(i for i in found if matcher.compare(e, i).match)
        for e, found in zip(judged, candidates, strict=True)
    )
    return Judgement(tuple(edges), judged, candidates, hits, tuple(stated), matcher)


def score(judgement: Judgement) -> dict[str, Any]:
    """Precision, recall, F1 and the trust metrics of one judgement."""
    j, stated = judgement, judgement.stated
    true_edges = binding_errors = same_slot = flag_agree = kind_agree = 0
    for edge, found, hits in zip(j.judged, j.candidates, j.hits, strict=True):
        if hits:
            true_edges += 1
            gold = stated[hits[0]]
            flag_agree += edge.flagged == (gold.grade == INSUFFICIENT)
            kind_agree += gold.subject_kind in (None, edge.subject_kind) and gold.object_kind in (
                None,
                edge.object_kind,
            )
        if any(j.matcher.compare(edge, i).predicate for i in found):
            same_slot += 1
            binding_errors += not hits
    precision = ratio(true_edges, len(j.judged))
    recall = ratio(len(j.matched_gold), len(stated))
    return {
        "edges": len(j.edges),
        "edges_in_scope": len(j.judged),
        "precision": precision,
        "recall": recall,
        "f1": f1_score(precision, recall),
        "fact_verbatim_rate": ratio(sum(e.fact in e.sentence for e in j.edges), len(j.edges)),
        "binding_error_rate": ratio(binding_errors, same_slot),
        "flag_agreement": ratio(flag_agree, true_edges),
        "kind_agreement": ratio(kind_agree, true_edges),
        "gold_stated": len(stated),
    }


def predicate_recall(judgement: Judgement) -> dict[str, float]:
    """``recall_<PREDICATE>`` for every predicate the gold states (by its main predicate)."""
    totals = Counter(g.predicate for g in judgement.stated)
    found = Counter(judgement.stated[i].predicate for i in judgement.matched_gold)
    return {f"recall_{p}": ratio(found[p], n) for p, n in sorted(totals.items())}


class GoldScorer:
    """Scores edges against one gold set: a matcher per subset of the gold (per language)."""

    def __init__(
        self,
        gold: GoldSet,
        catalog: Catalog | None = None,
        index: DocumentIndex | None = None,
    ) -> None:
        if gold.format == "corpus" and index is None:
            raise GoldError(f"{gold.path}: a corpus gold is scored with its scope's documents")
        self.gold = gold
        self.catalog = catalog
        self.index = index

    @classmethod
    def load(cls, gold: GoldSet, corpus_path: Path) -> GoldScorer:
        """The scorer of ``gold`` on the corpus at ``corpus_path`` (its scope files loaded)."""
        layout = CorpusLayout.of(corpus_path)
        catalog = Catalog.load(layout.catalog) if layout.catalog else None
        index = DocumentIndex.load(layout.sources, gold.scope) if gold.format == "corpus" else None
        return cls(gold, catalog, index)

    def matcher(self, stated: Sequence[GoldRelation]) -> Matcher:
        if self.gold.format == "reviewed":
            return ReviewedMatcher(stated, self.gold.relations)
        if self.index is None:
            return SentenceMatcher(stated, self.catalog)
        return DocumentMatcher(stated, self.gold, self.index)

    def judge(self, edges: Sequence[StoredEdge], language: str | None = None) -> Judgement:
        stated = [g for g in self.gold.stated if language in (None, g.language)]
        if language is not None:
            edges = [e for e in edges if detect_language(e.sentence) == language]
        return judge(edges, stated, self.matcher(stated))

    def metrics(self, edges: Sequence[StoredEdge]) -> dict[str, Any]:
        """All figures of one strategy's edges: overall, per language, per predicate."""
        judgement = self.judge(edges)
        figures = score(judgement)
        for language in LANGUAGES:
            metrics = score(self.judge(edges, language))
            for key in ("edges", "precision", "recall", "f1", "gold_stated"):
                figures[f"{language}_{key}"] = metrics[key]
        if (index := self.index) is not None:
            figures["gold_quotes_missing"] = sum(not index.quote_found(g) for g in self.gold.stated)
        return {**figures, **predicate_recall(judgement)}

    def report(self, edges: Sequence[StoredEdge], *, matched: bool = False) -> pd.DataFrame:
        """``edge_report`` of these edges against this gold."""
        return edge_report(self.judge(edges), matched=matched)


def edge_metrics(
    edges: Sequence[StoredEdge], gold: Sequence[GoldRelation], catalog: Catalog | None
) -> dict[str, Any]:
    """Precision, recall, F1 and the trust metrics of one strategy's edges (sample gold)."""
    stated = [g for g in gold if g.stated]
    return score(judge(edges, stated, SentenceMatcher(stated, catalog)))


REPORT_COLUMNS = (
    "outcome", "document", "sentence", "subject", "predicate", "object", "why", "text",
)  # fmt: skip


def edge_report(judgement: Judgement, *, matched: bool = False) -> pd.DataFrame:
    """One row per unmatched judged edge (``outcome`` "unmatched edge") and per missed gold
    relation ("missed gold"), with ``why``: what the sentence's gold or edges say instead.

    ``text`` is the edge's sentence or the gold quote; ``matched`` adds the matches too.
    """
    stated, matcher = judgement.stated, judgement.matcher
    rows: list[dict[str, Any]] = []
    edges_of: dict[int, list[StoredEdge]] = {}
    judged = zip(judgement.judged, judgement.candidates, judgement.hits, strict=True)
    for edge, found, hits in judged:
        for i in found:
            edges_of.setdefault(i, []).append(edge)
        if hits and not matched:
            continue
        matches = ", ".join(_triple(stated[i]) for i in hits)
        rows.append(
            {
                "outcome": "matched edge" if hits else "unmatched edge",
                "document": edge.doc_id or edge.sentence_id.partition("#")[0],
                "sentence": edge.sentence_id,
                "subject": edge.subject_name or edge.subject,
                "predicate": edge.rel_type,
                "object": edge.object_name or edge.object,
                "why": f"gold {matches}" if hits else _why_not(edge, found, stated, matcher),
                "text": edge.sentence,
            }
        )
    for i, gold in enumerate(stated):
        if i in judgement.matched_gold:
            continue
        near = edges_of.get(i, [])
        alternatives = f" (or {'/'.join(gold.alternatives)})" if gold.alternatives else ""
        rows.append(
            {
                "outcome": "missed gold",
                "document": gold.file or ", ".join(matcher.located(i)),
                "sentence": gold.sentence,
                "subject": gold.subject,
                "predicate": gold.predicate + alternatives,
                "object": gold.object,
                "why": (
                    "edges here: " + "; ".join(sorted(e.triple() for e in near))
                    if near
                    else "no edge from this sentence"
                ),
                "text": gold.quote,
            }
        )
    return pd.DataFrame(rows, columns=list(REPORT_COLUMNS))


def _why_not(
    edge: StoredEdge, found: Sequence[int], stated: Sequence[GoldRelation], matcher: Matcher
) -> str:
    """The closest gold relation of the edge's sentence and how the edge differs from it."""
    if not found:
        return "no gold relation in this sentence"
    best = min(found, key=lambda i: len(differences(stated[i], edge, matcher.compare(edge, i))))
    problems = differences(stated[best], edge, matcher.compare(edge, best))
    return f"closest gold {_triple(stated[best])}: " + "; ".join(problems)


def _triple(gold: GoldRelation) -> str:
    return f"{gold.subject} {gold.predicate} {gold.object}"


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


def resolve_gold(corpus_path: Path | None, gold: Path | GoldSet | None) -> tuple[GoldSet, Path]:
    """The gold and the corpus to score: ``gold`` (a folder or a loaded set) with
    ``corpus_path`` or else the gold's own corpus; without ``gold``, the corpus folder's
    ``gold/``."""
    if gold is None:
        if corpus_path is None:
            raise GoldError("no corpus and no gold to compare against")
        layout = CorpusLayout.of(corpus_path)
        if layout.gold is None or not (layout.gold / "relations.yaml").is_file():
            raise GoldError(f"{corpus_path}: no gold/relations.yaml to compare against")
        return load_gold(layout.gold), Path(corpus_path)
    gold_set = gold if isinstance(gold, GoldSet) else load_gold(Path(gold))
    path = corpus_path or gold_set.corpus_root
    if path is None:
        raise GoldError(f"{gold_set.path}: names no corpus (`corpus:`); give the corpus path")
    if not Path(path).exists():
        raise GoldError(f"{path}: the corpus of {gold_set.path} is not there")
    return gold_set, Path(path)


def corpus_name(gold: GoldSet, corpus_path: Path, *, from_gold: bool) -> str:
    """The graph's corpus name: the gold folder's, or the corpus folder's; characters a
    graph name cannot hold become ``_``."""
    name = gold.name if from_gold else Path(corpus_path).resolve().name
    return _NOT_GRAPH_NAME.sub("_", name).strip("_.-") or "corpus"


def compare_strategies(
    client: GraphClient,
    corpus_path: Path | None,
    strategies: Sequence[str],
    settings: Settings | None = None,
    *,
    gold: Path | GoldSet | None = None,
    corpus: str | None = None,
    details: bool = False,
    progress: Callable[[int], Any] | None = None,
) -> pd.DataFrame:
    """Build ``<corpus>__<strategy>`` for each strategy and score it against the gold.

    Without ``gold`` the corpus folder's ``gold/`` is used (``data/sample``); with
    it, ``corpus_path`` may be None when the gold names its corpus. ``corpus``
    defaults to the gold folder's name (else the corpus folder's). ``details`` adds
    a ``details`` column: ``edge_report`` rows as records. A strategy that cannot
    run (an ``llm`` without an endpoint) gets a row whose ``status`` says why, with
    no figures: never made-up ones.
    """
    gold_set, path = resolve_gold(corpus_path, gold)
    scorer = GoldScorer.load(gold_set, path)
    name = corpus or corpus_name(gold_set, path, from_gold=gold is not None)
    rows: list[dict[str, Any]] = []
    bar = progress(len(strategies)) if progress else None
    for strategy in strategies:
        if bar is not None:
            bar.update(1)
        try:
            report = build_graph(client, name, path, strategy, settings, rebuild=True)
        except ExtractionError as e:
            rows.append({"strategy": strategy, "graph": None, "status": f"not run: {e}"})
            continue
        edges = stored_edges(client, report.graph)
        row = {
            "strategy": strategy,
            "graph": report.graph,
            "status": "ok",
            **scorer.metrics(edges),
            "entities": report.entities,
            "mentions": report.mentions,
            "ambiguous_mentions": report.ambiguous_mentions,
            "extraction_s": report.extraction_s,
            **{f"edges_{p}": n for p, n in report.edges_by_predicate.items()},
        }
        if details:
            row["details"] = scorer.report(edges).to_dict("records")
        rows.append(row)
    return comparison_frame(rows)
