"""Evaluate the engine on a gold question set: status accuracy, ALCE-style citation precision
and recall, abstention, fabricated citations, grader agreement — overall and per language.
The metrics are defined in docs/evaluation.md; any corpus folder with ``gold/questions.yaml``
and ``gold/relations.yaml`` in this format works.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from zehn.engine import Engine
from zehn.engine.answer import ABSTAINED, AMBIGUOUS, ANSWERED, CitedAnswer
from zehn.evaluate.citations import resolved_citations
from zehn.evaluate.gold import GoldError, GoldQuestion, GoldRelation, load_gold, load_questions
from zehn.evaluate.metrics import ratio
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.evidence.policy import Policy
from zehn.models.base import Model
from zehn.reading.lang import LANGUAGES
from zehn.store.client import GraphClient


@dataclass(frozen=True)
class QuestionOutcome:
    question: GoldQuestion
    answer: CitedAnswer
    recalled: bool | None  # None: not an answered question on both sides
    precise_citations: int
    fabricated: int
    with_gold_citation: bool = False  # answered, citing one of the question's gold sentences
    without_gold_sentence: bool = False  # answered, citing no gold sentence at all

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.question.id,
            "language": self.question.language,
            "question": self.question.question,
            "gold_status": self.question.status,
            "status": self.answer.status,
            "citations": len(self.answer.answer_citations),
            "precise_citations": self.precise_citations,
            "recalled": self.recalled,
            "fabricated": self.fabricated,
            "with_gold_citation": self.with_gold_citation,
            "without_gold_sentence": self.without_gold_sentence,
            "ms": round(self.answer.elapsed_ms, 1),
        }


@dataclass(frozen=True)
class EvalReport:
    graph: str
    policy: str
    model: str
    outcomes: tuple[QuestionOutcome, ...]
    grader_agreement: float
    grader_agreement_by_language: dict[str, float] = field(default_factory=dict)

    def metrics(self, language: str | None = None) -> dict[str, Any]:
        """The figures over every question, or over the questions of one language."""
        outcomes = tuple(
            o for o in self.outcomes if language is None or o.question.language == language
        )
        answered_both = [o for o in outcomes if o.recalled is not None]
        cited = sum(len(o.answer.answer_citations) for o in outcomes)
        unanswerable = [o for o in outcomes if o.question.status == ABSTAINED]
        answerable = [o for o in outcomes if o.question.status == ANSWERED]

        def share(items: Sequence[QuestionOutcome], status: str) -> float:
            return ratio(sum(o.answer.status == status for o in items), len(items))

        correct_status = sum(o.answer.status == o.question.status for o in outcomes)
        recalled = sum(bool(o.recalled) for o in answered_both)
        latencies = [o.answer.elapsed_ms for o in outcomes]
        return {
            "graph": self.graph,
            "policy": self.policy,
            "model": self.model,
            "language": language or "all",
            "questions": len(outcomes),
            "answered": sum(o.answer.status == ANSWERED for o in outcomes),
            "gold_answered": len(answerable),
            "abstained_of_unanswerable": sum(o.answer.status == ABSTAINED for o in unanswerable),
            "gold_unanswerable": len(unanswerable),
            "ambiguous_of_ambiguous": sum(
                o.answer.status == AMBIGUOUS for o in outcomes if o.question.status == AMBIGUOUS
            ),
            "gold_ambiguous": sum(o.question.status == AMBIGUOUS for o in outcomes),
            "status_accuracy": ratio(correct_status, len(outcomes)),
            "citation_recall": ratio(recalled, len(answered_both)),
            "citation_precision": ratio(sum(o.precise_citations for o in outcomes), cited),
            "abstained_when_unanswerable": share(unanswerable, ABSTAINED),
            "wrongly_abstained": share(answerable, ABSTAINED),
            "fabricated_citations_in_answers": sum(o.fabricated for o in outcomes),
            "answerable_with_gold_citation": ratio(
                sum(o.with_gold_citation for o in answerable), len(answerable)
            ),
            "answered_without_gold_sentence": ratio(
                sum(o.without_gold_sentence for o in outcomes), len(outcomes)
            ),
            "grader_agreement": self.grader_agreement
            if language is None
            else self.grader_agreement_by_language.get(language, float("nan")),
            "median_ms": statistics.median(latencies) if latencies else 0.0,
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per question."""
        return pd.DataFrame([o.to_dict() for o in self.outcomes])

    def by_language(self) -> pd.DataFrame:
        """One row for every question, then one per language that has questions."""
        return pd.DataFrame(self.language_rows())

    def language_rows(self) -> list[dict[str, Any]]:
        present = [x for x in LANGUAGES if any(o.question.language == x for o in self.outcomes)]
        return [self.metrics(), *(self.metrics(x) for x in present)]


def evaluate(
    client: GraphClient, graph: str, policy: Policy, model: Model, gold_dir: Path
) -> EvalReport:
    """Ask every gold question of ``gold_dir`` on ``graph`` and score the answers."""
    gold = load_gold(Path(gold_dir))
    questions = load_questions(Path(gold_dir) / "questions.yaml")
    if gold.format == "corpus":  # quotes in files of the corpus: found again by quote
        questions = resolved_citations(client, graph, questions, gold.corpus_root)
    relations = gold.relations
    engine = Engine(client, graph, policy, model)
    supporting = _supporting_sentences(questions, relations)
    gold_triples = {
        (r.subject.lower(), r.predicate, r.object.lower())
        for r in relations
        if r.grade == SUPPORTED
    }
    outcomes = []
    for question in questions:
        answer = engine.ask(question.question)
        outcomes.append(_score(question, answer, supporting, gold_triples))
    by_language = {
        language: grader_agreement(client, graph, [r for r in relations if r.language == language])
        for language in LANGUAGES
    }
    return EvalReport(
        graph,
        policy.name,
        model.name,
        tuple(outcomes),
        grader_agreement(client, graph, relations),
        by_language,
    )


def grader_agreement(client: GraphClient, graph: str, relations: Sequence[GoldRelation]) -> float:
    """Share of gold relations whose grade the grader reproduces on this graph's entities."""
    entity_rows = client.read(
        graph, "MATCH (e:Entity) RETURN e.id, e.name, e.kind, coalesce(e.aliases, [])"
    ).rows
    from zehn.reading.model import Entity

    entities = [Entity(str(n), str(k), tuple(a)) for _, n, k, a in entity_rows]
    by_name: dict[str, list[Entity]] = {}
    for entity in entities:
        by_name.setdefault(entity.name, []).append(entity)
    grader = Grader(entities)
    agree = total = 0
    for relation in relations:
        row = client.read(
            graph,
            "MATCH (s:Sentence {id: $id}) RETURN s.text, s.start, s.doc_id",
            {"id": relation.sentence},
        ).rows
        subjects = _ids(by_name, relation.subject, relation.subject_kind)
        objects = _ids(by_name, relation.object, relation.object_kind)
        if not row or not subjects or not objects:
            continue
        text, start, doc = row[0]
        evidence = Evidence(
            "gold", subjects[0], relation.predicate, objects[0], relation.sentence,
            str(text), int(start), str(doc),
        )  # fmt: skip
        grade = grader.grade(evidence)
        total += 1
        agree += grade.label == relation.grade
    return ratio(agree, total)


def _ids(by_name: dict[str, list[Any]], name: str, kind: str | None) -> list[str]:
    return sorted(e.id for e in by_name.get(name, []) if kind is None or e.kind == kind)


def _supporting_sentences(
    questions: Sequence[GoldQuestion], relations: Sequence[GoldRelation]
) -> dict[str, set[str]]:
    """Per entity name (lower-case): the gold sentences that support a claim about it."""
    supporting: dict[str, set[str]] = {}
    for relation in relations:
        if relation.grade == SUPPORTED:
            for name in (relation.subject, relation.object):
                supporting.setdefault(name.lower(), set()).add(relation.sentence)
    for question in questions:
        for name in question.entities:
            supporting.setdefault(name.lower(), set()).update(question.citations)
    return supporting


def _score(
    question: GoldQuestion,
    answer: CitedAnswer,
    supporting: dict[str, set[str]],
    gold_triples: set[tuple[str, str, str]],
) -> QuestionOutcome:
    cited = [c.id for c in answer.answer_citations]
    returned = {i for call in answer.tool_calls for i in call.returned_ids}
    fabricated = sum(c not in returned for c in cited) if answer.status == ANSWERED else 0
    gold_sentences = (
        set(question.citations).union(*supporting.values())
        if supporting
        else set(question.citations)
    )
    matching_hops = {
        g.evidence.sentence_id
        for path in answer.paths
        for hop in path.hops
        for g in (hop.best, *hop.alternatives)
        if g.label == SUPPORTED
        and (
            path.names.get(hop.source, "").lower(),
            hop.rel_type,
            path.names.get(hop.target, "").lower(),
        )
        in gold_triples
    }
    precise = sum(c in gold_sentences or c in matching_hops for c in cited)
    recalled: bool | None = None
    if answer.status == ANSWERED and question.status == ANSWERED:
        text = answer.answer.lower()
        claimed = [e for e in question.entities if e.lower() in text]
        recalled = all(any(c in supporting.get(e.lower(), set()) for c in cited) for e in claimed)
    own_gold = set(question.citations)
    with_gold = answer.status == ANSWERED and any(c in own_gold for c in cited)
    without_gold = answer.status == ANSWERED and not any(
        c in gold_sentences or c in matching_hops for c in cited
    )
    return QuestionOutcome(question, answer, recalled, precise, fabricated, with_gold, without_gold)


def evaluate_grid(
    client: GraphClient,
    corpus_path: Path,
    strategies: Sequence[str],
    policies: Sequence[Policy],
    model: Model,
    *,
    corpus: str | None = None,
    settings: Any = None,
) -> pd.DataFrame:
    """Build each strategy's graph (if needed) and evaluate it under each policy: one row each."""
    from zehn.errors import ExtractionError
    from zehn.extract.pipeline import CorpusLayout, build_graph, graph_is_current, graph_name

    layout = CorpusLayout.of(corpus_path)
    gold_dir, sources, catalog = layout.gold, Path(corpus_path), None
    if gold_dir is None and (Path(corpus_path) / "questions.yaml").is_file():
        # a gold folder of a corpus kept elsewhere (data/gold/<corpus>: `corpus:` names it)
        gold_dir = Path(corpus_path)
        root = load_gold(gold_dir).corpus_root
        if root is None or not root.is_dir():
            raise GoldError(f"{gold_dir}: its corpus is not at {root} (see `corpus:`)")
        sources = root
        if (gold_dir / "catalog.yaml").is_file():  # a curated catalog kept with the gold
            catalog = gold_dir / "catalog.yaml"
    if gold_dir is None:
        raise GoldError(f"{corpus_path}: no gold/ folder or questions.yaml to evaluate against")
    name = corpus or Path(corpus_path).resolve().name
    rows: list[dict[str, Any]] = []
    for strategy in strategies:
        graph = graph_name(name, strategy)
        try:
            built = "reused"
            if not client.graph_exists(graph):
                build_graph(client, name, sources, strategy, settings, catalog_path=catalog)
                built = "built"
            elif not graph_is_current(client, graph, strategy, catalog or layout.catalog):
                # an older reader built it: scoring it would measure a reader that is gone
                build_graph(
                    client, name, sources, strategy, settings, catalog_path=catalog, rebuild=True
                )
                built = "rebuilt: built by an older reader"
        except ExtractionError as e:
            rows.extend(
                {"graph": graph, "policy": p.name, "status": f"not run: {e}"} for p in policies
            )
            continue
        for policy in policies:
            report = evaluate(client, graph, policy, model, gold_dir)
            rows.extend(
                {"strategy": strategy, "status": "ok", "graph_build": built, **row}
                for row in report.language_rows()
            )
    return pd.DataFrame(rows)
