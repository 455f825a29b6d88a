"""The path grader: each hop is judged against its own sentence (docs/architecture.md).

- insufficient evidence: the sentence negates the relation, states it as a
  plan, hypothesis or question, or does not mention both entities (or names a
  namesake: the customer "Redwood Inference Ltd." is not the service);
- inferred assumption: it mentions both but does not state the relation;
- source-supported: it mentions both and states the relation, indicatively.

The grader re-reads the sentence itself with the catalog's names and the cue
lexicon; it trusts no extractor (the ``cooccurrence`` strategy's edges are
exactly what it must catch). A hop backed by several sentences takes the best
grade among them; a path is supported only if every hop is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zehn.corpus.model import Sentence
from zehn.reading.modality import SPECULATIVE
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder, NameCatalog
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.vocabulary import GradeLabel, Predicate

SUPPORTED = GradeLabel.SUPPORTED
INFERRED = GradeLabel.INFERRED
INSUFFICIENT = GradeLabel.INSUFFICIENT


@dataclass(frozen=True)
class Evidence:
    """One edge and the sentence it came from, as the ``edges_by_keys`` query returns it."""

    key: str
    source: str
    rel_type: str
    target: str
    sentence_id: str
    text: str
    start: int
    document: str
    title: str = ""
    source_type: str = ""
    date: str | None = None
    negated: bool = False
    hedged: bool = False
    fact: str = ""
    # an end named by reference ("This service", a table row's first cell): the recorded reason
    # and the span it was read at; the grader accepts that reading and no other
    subject_ref: str = ""
    subject_span: tuple[int, int] | None = None
    object_ref: str = ""
    object_span: tuple[int, int] | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Evidence:
        return cls(
            key=str(row["key"]),
            source=str(row["source"]),
            rel_type=str(row["rel_type"]),
            target=str(row["target"]),
            sentence_id=str(row["sentence_id"]),
            text=str(row["text"]),
            start=int(row["start"]),
            document=str(row["document"]),
            title=str(row.get("title") or ""),
            source_type=str(row.get("source_type") or ""),
            date=row.get("date"),
            negated=bool(row.get("negated")),
            hedged=bool(row.get("hedged")),
            fact=str(row.get("fact") or ""),
            subject_ref=str(row.get("subject_ref") or ""),
            subject_span=_span(row.get("subject_start"), row.get("subject_end")),
            object_ref=str(row.get("object_ref") or ""),
            object_span=_span(row.get("object_start"), row.get("object_end")),
        )

    def references(self) -> list[Mention]:
        """The recorded reference mentions, where their span lies inside the sentence."""
        end = self.start + len(self.text)
        found = []
        for entity_id, why, span in (
            (self.source, self.subject_ref, self.subject_span),
            (self.target, self.object_ref, self.object_span),
        ):
            if why and span and self.start <= span[0] <= span[1] <= end:
                surface = self.text[span[0] - self.start : span[1] - self.start]
                found.append(
                    Mention(self.sentence_id, *span, surface, (entity_id,), why, reference=True)
                )
        return found


def _span(start: Any, end: Any) -> tuple[int, int] | None:
    return (int(start), int(end)) if start is not None and end is not None else None


@dataclass(frozen=True)
class Grade:
    label: str
    reason: str
    evidence: Evidence
    source_span: tuple[int, int] | None = None
    target_span: tuple[int, int] | None = None


@dataclass(frozen=True)
class GradedHop:
    """(source)-[rel_type]->(target) with its best sentence and every alternative."""

    source: str
    rel_type: str
    target: str
    best: Grade
    alternatives: tuple[Grade, ...] = ()

    @property
    def label(self) -> str:
        return self.best.label

    @property
    def sentence_ids(self) -> tuple[str, ...]:
        return tuple(g.evidence.sentence_id for g in (self.best, *self.alternatives))

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "rel_type": self.rel_type,
            "target": self.target,
            "sentence_id": self.best.evidence.sentence_id,
            "quote": self.best.evidence.text,
            "label": self.label,
            "reason": self.best.reason,
            "key": self.best.evidence.key,
            # an end the sentence names by reference, with how it was read ("'It' = …, from …")
            "references": [r.reason for r in self.best.evidence.references()],
            "other_sentences": [
                {"sentence_id": g.evidence.sentence_id, "label": g.label, "reason": g.reason}
                for g in self.alternatives
            ],
        }


@dataclass(frozen=True)
class GradedPath:
    """Entities in walk order and the hops between them."""

    nodes: tuple[str, ...]
    hops: tuple[GradedHop, ...]
    names: Mapping[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return path_label([h.label for h in self.hops])

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "nodes": list(self.nodes),
            "hops": [h.to_dict() for h in self.hops],
        }


def unique_hops(paths: Iterable[GradedPath]) -> list[GradedHop]:
    """Each (source, rel_type, target) hop once, in first-seen order: paths share hops."""
    hops: dict[tuple[str, str, str], GradedHop] = {}
    for path in paths:
        for hop in path.hops:
            hops.setdefault((hop.source, hop.rel_type, hop.target), hop)
    return list(hops.values())


GENERAL_DEPENDENCY = Predicate.DEPENDS_ON


@dataclass(frozen=True)
class Negation:
    """A negated statement: "billing no longer depends on ledger-v1" (with its document date)."""

    source: str
    rel_type: str
    target: str
    sentence_id: str
    text: str
    date: str | None
    document: str = ""
    start: int = 0

    @classmethod
    def from_evidence(cls, evidence: Evidence) -> Negation:
        """The negation a negating edge's evidence states, dated and placed as it is."""
        e = evidence
        return cls(
            e.source, e.rel_type, e.target, e.sentence_id, e.text, e.date, e.document, e.start
        )

    def later_than(self, evidence: Evidence) -> bool:
        """Later document, or later in the same one (ticket comments, email threads)."""
        if self.document == evidence.document:
            return self.start > evidence.start
        return bool(self.date and evidence.date and self.date[:10] > evidence.date[:10])


def supersede(grade: Grade, negations: Sequence[Negation]) -> Grade:
    """Support from a sentence that a later document negates is no longer support.

    A later negation of the same predicate, or of DEPENDS_ON between the same
    two entities ("no longer depends on"), supersedes the earlier statement.
    """
    e = grade.evidence
    if grade.label != SUPPORTED:
        return grade
    for negation in negations:
        same_pair = (negation.source, negation.target) == (e.source, e.target)
        covers = negation.rel_type in (e.rel_type, GENERAL_DEPENDENCY)
        if same_pair and covers and negation.later_than(e):
            return Grade(
                INSUFFICIENT,
                f"superseded: a later source ({(negation.date or '')[:10]}, "
                f"{negation.sentence_id}) says {negation.text!r}",
                e,
                grade.source_span,
                grade.target_span,
            )
    return grade


def graded_hop(grades: Sequence[Grade], negations: Sequence[Negation] = ()) -> GradedHop:
    """One hop from the grades of its sentences: the best one, after supersession, leads."""
    ordered = sorted(
        (supersede(g, negations) for g in grades),
        key=lambda g: (GradeLabel(g.label).rank, g.evidence.date or "", g.evidence.sentence_id),
        reverse=True,
    )
    first = grades[0].evidence
    return GradedHop(first.source, first.rel_type, first.target, ordered[0], tuple(ordered[1:]))


def path_label(labels: Iterable[str]) -> str:
    labels = list(labels)
    if labels and all(label == SUPPORTED for label in labels):
        return SUPPORTED
    if INSUFFICIENT in labels or not labels:
        return INSUFFICIENT
    return INFERRED


class Grader:
    """Grades hops using the graph's own entities (names, aliases, kinds, namesakes)."""

    def __init__(self, entities: Sequence[Entity], catalog: NameCatalog | None = None) -> None:
        """``catalog``: the graph's names, when ``entities`` are only those that can occur in
        the sentences to grade (and the hops' own ends); see ``Binder``."""
        self.binder = Binder(list({e.id: e for e in entities}.values()), catalog)
        self.entities = self.binder.entities  # with any entity the catalog adds

    def grade(self, evidence: Evidence) -> Grade:
        sentence = Sentence(
            evidence.document, evidence.text, evidence.start, evidence.start + len(evidence.text)
        )
        mentions = self.binder.bind(sentence)
        references = evidence.references()
        mentions = [m for m in mentions if not any(_rereads(r, m) for r in references)]
        mentions += [r for r in references if not any(_overlaps(r, m) for m in mentions)]
        source, source_problem = self._find(evidence.source, mentions)
        target, target_problem = self._find(evidence.target, mentions)
        if source_problem or target_problem:
            return Grade(INSUFFICIENT, source_problem or target_problem or "", evidence)
        assert source is not None and target is not None
        referred = "".join(f"; {r.reason}" for r in references if r in (source, target))
        spans = ((source.start, source.end), (target.start, target.end))

        def graded(label: str, reason: str) -> Grade:
            return Grade(label, reason + referred, evidence, *spans)

        stated = [
            e
            for e in sentence_edges(sentence, mentions, "grader")[0]
            if (e.subject, e.rel_type, e.object)
            == (evidence.source, evidence.rel_type, evidence.target)
        ]
        name_a, name_b = self._name(evidence.source), self._name(evidence.target)
        claim = f"{name_a} {evidence.rel_type} {name_b}"
        if evidence.negated or any(e.negated for e in stated):
            return graded(INSUFFICIENT, f"the sentence negates {claim}")
        if evidence.hedged or any(e.hedged for e in stated):
            return graded(
                INSUFFICIENT,
                f"the sentence states {claim} only as a plan, question, condition or hearsay",
            )
        if stated:
            return graded(SUPPORTED, f"the sentence states {claim} (cue {stated[0].cue!r})")
        if evidence.text.rstrip(" \"'”’)").endswith(("?", "？")):
            return graded(INSUFFICIENT, f"the sentence only asks whether {claim}")
        if SPECULATIVE.search(evidence.text):
            return graded(
                INSUFFICIENT,
                f"the sentence is conditional or speculative and does not state {claim}",
            )
        return graded(
            INFERRED,
            f"the sentence mentions {name_a} and {name_b} but does not state {evidence.rel_type}",
        )

    def _find(
        self, entity_id: str, mentions: Sequence[Mention]
    ) -> tuple[Mention | None, str | None]:
        name = self._name(entity_id)
        for mention in mentions:
            if mention.entity_id == entity_id:
                return mention, None
        for mention in mentions:
            if entity_id in mention.candidates:
                kinds = ", ".join(
                    sorted(self.entities[c].kind for c in mention.candidates if c in self.entities)
                )
                return None, f"{mention.surface!r} in the sentence could be any of: {kinds}"
        entity = self.entities.get(entity_id)
        for mention in mentions:
            other = self.entities.get(mention.entity_id or "")
            if entity and other and other.name.lower() == entity.name.lower():
                return None, (
                    f"the sentence names the {other.kind} {mention.surface!r}, "
                    f"not the {entity.kind} {entity.name}"
                )
        return None, f"the sentence does not mention {name}"

    def _name(self, entity_id: str) -> str:
        entity = self.entities.get(entity_id)
        return entity.name if entity else entity_id


def _rereads(reference: Mention, mention: Mention) -> bool:
    """A recorded reference on exactly a name's span, to another entity, re-reads that name
    ("注册中心" on the page "Redis 注册中心" is that registry): the recorded reading wins."""
    return (
        reference.start < reference.end
        and (reference.start, reference.end) == (mention.start, mention.end)
        and reference.candidates != mention.candidates
    )


def _overlaps(reference: Mention, mention: Mention) -> bool:
    """A name the binder found where a reference was recorded: the name wins. A reference on
    that very name, to the same entity, only adds its context (a data-flow diagram's note)."""
    if reference.start == reference.end:
        return False
    if (reference.start, reference.end, reference.candidates) == (
        mention.start,
        mention.end,
        mention.candidates,
    ):
        return False
    return reference.start < mention.end and mention.start < reference.end
