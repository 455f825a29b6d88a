"""When an extracted edge counts as a gold relation, for each gold format (``zehn.evaluate.gold``).

- **sample** gold: same sentence id, same predicate, subject and object among
  the catalog entity ids the gold names may stand for.
- **corpus** gold (real documentation), built to survive changes to how the
  reader cuts sentences (diagram lines, list items, table rows):

  (a) the edge's sentence is in a document loaded from the gold relation's
  file, and its text (white space folded) contains the gold quote or is
  contained in it;
  (b) its predicate is the gold predicate or one of its ``alternatives``;
  (c) its subject and object match the gold entities by name: any normalised
  form of the extracted entity (name and aliases as stored on the Entity node)
  equals any normalised form of the gold entity (``gold.normalise_name``).
  Kinds need not agree (``kind_agreement`` reports it apart); direction does.

  Only edges whose document comes from a scope file are judged: the rest of
  the corpus was not labelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Protocol

from zehn.corpus.loaders import load_file
from zehn.errors import SourceError
from zehn.evaluate.gold import GoldError, GoldRelation, GoldSet, entity_ids, name_forms
from zehn.reading.names.catalog import Catalog


def fold(text: str) -> str:
    """Runs of white space (wrapped lines) as one space: how quotes and sentences are compared."""
    return " ".join(text.split())


@dataclass(frozen=True)
class StoredEdge:
    """An edge as the graph holds it, with what matching and reports need of its ends."""

    subject: str
    rel_type: str
    object: str
    sentence_id: str
    fact: str
    sentence: str
    flagged: bool  # negated or hedged
    doc_id: str = ""
    subject_name: str = ""
    subject_kind: str = ""
    subject_aliases: tuple[str, ...] = ()
    object_name: str = ""
    object_kind: str = ""
    object_aliases: tuple[str, ...] = ()

    @cached_property
    def subject_forms(self) -> frozenset[str]:
        return name_forms((self.subject_name, *self.subject_aliases))

    @cached_property
    def object_forms(self) -> frozenset[str]:
        return name_forms((self.object_name, *self.object_aliases))

    @cached_property
    def folded(self) -> str:
        return fold(self.sentence)

    def triple(self) -> str:
        subject, obj = self.subject_name or self.subject, self.object_name or self.object
        return f"{subject} {self.rel_type} {obj}"


@dataclass(frozen=True)
class Comparison:
    """How one edge stands to one gold relation of its sentence."""

    predicate: bool  # the gold predicate (or, in corpus gold, one of its alternatives)
    subject: bool
    object: bool
    reversed: bool  # the edge's subject is the gold object and its object the gold subject

    @property
    def match(self) -> bool:
        return self.predicate and self.subject and self.object


class Matcher(Protocol):
    """Which gold relations (indices into the stated relations it was made for) an edge is."""

    def in_scope(self, edge: StoredEdge) -> bool:
        """Whether the edge's document was labelled at all (precision judges only those)."""
        ...

    def candidates(self, edge: StoredEdge) -> list[int]:
        """Gold relations of the edge's sentence, whatever their predicate and entities."""
        ...

    def compare(self, edge: StoredEdge, i: int) -> Comparison:
        """How the edge stands to gold relation ``i`` of its sentence."""
        ...

    def located(self, i: int) -> list[str]:
        """Where gold relation ``i`` is found: its document ids (for reports)."""
        ...


class SentenceMatcher:
    """The sample format: same sentence id, predicate and catalog entity ids."""

    def __init__(self, stated: Sequence[GoldRelation], catalog: Catalog | None) -> None:
        self.stated = list(stated)
        self.subjects = [entity_ids(catalog, g.subject, g.subject_kind) for g in stated]
        self.objects = [entity_ids(catalog, g.object, g.object_kind) for g in stated]
        self.by_sentence: dict[str, list[int]] = {}
        for i, g in enumerate(stated):
            self.by_sentence.setdefault(g.sentence, []).append(i)

    def in_scope(self, edge: StoredEdge) -> bool:
        return True

    def candidates(self, edge: StoredEdge) -> list[int]:
        return self.by_sentence.get(edge.sentence_id, [])

    def compare(self, edge: StoredEdge, i: int) -> Comparison:
        subjects, objects = self.subjects[i], self.objects[i]
        return Comparison(
            edge.rel_type == self.stated[i].predicate,
            edge.subject in subjects,
            edge.object in objects,
            edge.subject in objects and edge.object in subjects,
        )

    def located(self, i: int) -> list[str]:
        return [self.stated[i].sentence.partition("#")[0]]


class ReviewedMatcher:
    """Reviewers' verdicts as gold (``zehn audit export-gold``): judged are only the edges they
    judged — same sentence, predicate and entity ids — so an edge they rejected is a false
    positive and one nobody reviewed is not judged; recall is over the edges they found correct.
    Every strategy's graph of one corpus has the same sentence and entity ids."""

    def __init__(self, stated: Sequence[GoldRelation], reviewed: Sequence[GoldRelation]) -> None:
        self.stated = list(stated)
        self.judged = {(g.sentence, g.subject, g.predicate, g.object) for g in reviewed}
        self.by_sentence: dict[str, list[int]] = {}
        for i, g in enumerate(stated):
            self.by_sentence.setdefault(g.sentence, []).append(i)

    def in_scope(self, edge: StoredEdge) -> bool:
        return (edge.sentence_id, edge.subject, edge.rel_type, edge.object) in self.judged

    def candidates(self, edge: StoredEdge) -> list[int]:
        return self.by_sentence.get(edge.sentence_id, [])

    def compare(self, edge: StoredEdge, i: int) -> Comparison:
        g = self.stated[i]
        return Comparison(
            edge.rel_type == g.predicate,
            edge.subject == g.subject,
            edge.object == g.object,
            edge.subject == g.object and edge.object == g.subject,
        )

    def located(self, i: int) -> list[str]:
        return [self.stated[i].sentence.partition("#")[0]]


@dataclass(frozen=True)
class DocumentIndex:
    """The documents each scope file loads as, with their folded text.

    Loaded with the same loaders an ingest uses, from the same root, so the
    document ids are the graph's.
    """

    root: Path
    files: dict[str, tuple[str, ...]]  # scope file -> document ids
    texts: dict[str, str] = field(default_factory=dict)  # document id -> folded text

    @classmethod
    def load(cls, root: Path, scope: Sequence[str]) -> DocumentIndex:
        files: dict[str, tuple[str, ...]] = {}
        texts: dict[str, str] = {}
        for file in scope:
            path = Path(root) / file
            if not path.is_file():
                raise GoldError(f"scope file {file} is not in the corpus at {root}")
            try:
                documents = load_file(path, Path(root))
            except SourceError as e:
                raise GoldError(f"scope file {file} cannot be loaded: {e}") from e
            files[file] = tuple(d.id for d in documents)
            texts.update((d.id, fold(d.text)) for d in documents)
        return cls(Path(root), files, texts)

    @property
    def documents(self) -> frozenset[str]:
        return frozenset(self.texts)

    def quote_found(self, relation: GoldRelation) -> bool:
        """Whether the relation's quote is still in its file's loaded text (a loader change
        that drops it makes the relation unfindable: reported, not silently missed)."""
        quote = fold(relation.quote)
        return any(quote in self.texts[d] for d in self.files.get(relation.file or "", ()))


class DocumentMatcher:
    """The corpus format: same document, overlapping text, allowed predicate, names agree."""

    def __init__(self, stated: Sequence[GoldRelation], gold: GoldSet, index: DocumentIndex) -> None:
        self.stated = list(stated)
        self.index = index
        self.scope = index.documents
        self.quotes = [fold(g.quote) for g in stated]
        self.subjects = [gold.forms(g.subject, g.subject_kind) for g in stated]
        self.objects = [gold.forms(g.object, g.object_kind) for g in stated]
        self.by_document: dict[str, list[int]] = {}
        for i, g in enumerate(stated):
            for doc_id in index.files.get(g.file or "", ()):
                self.by_document.setdefault(doc_id, []).append(i)

    def in_scope(self, edge: StoredEdge) -> bool:
        return edge.doc_id in self.scope

    def candidates(self, edge: StoredEdge) -> list[int]:
        text = edge.folded
        if not text:
            return []
        return [
            i
            for i in self.by_document.get(edge.doc_id, [])
            if self.quotes[i] in text or text in self.quotes[i]
        ]

    def compare(self, edge: StoredEdge, i: int) -> Comparison:
        subjects, objects = self.subjects[i], self.objects[i]
        return Comparison(
            edge.rel_type in self.stated[i].predicates,
            not edge.subject_forms.isdisjoint(subjects),
            not edge.object_forms.isdisjoint(objects),
            not (edge.subject_forms.isdisjoint(objects) or edge.object_forms.isdisjoint(subjects)),
        )

    def located(self, i: int) -> list[str]:
        return list(self.index.files.get(self.stated[i].file or "", ()))


def differences(gold: GoldRelation, edge: StoredEdge, comparison: Comparison) -> list[str]:
    """What separates an edge from a gold relation of its sentence, in a reader's words."""
    problems: list[str] = []
    if not comparison.predicate:
        allowed = "/".join([gold.predicate, *gold.alternatives])
        problems.append(f"predicate {edge.rel_type}, gold {allowed}")
    if comparison.reversed and not (comparison.subject and comparison.object):
        return [*problems, "direction reversed"]
    if not comparison.subject:
        problems.append(f"subject {(edge.subject_name or edge.subject)!r}, gold {gold.subject!r}")
    if not comparison.object:
        problems.append(f"object {(edge.object_name or edge.object)!r}, gold {gold.object!r}")
    return problems
