"""What extraction produces: entities, mentions bound to spans, and edges.

Every edge carries the sentence it came from (id and span) and a stable
``key`` so audit labels survive re-extraction. ``fact`` is whatever the
extractor wrote; it is never shown as a quote.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zehn.corpus.frozen import computed_once, dict_init
from zehn.corpus.model import Sentence, slugify


def entity_id(kind: str, name: str) -> str:
    """``service:redwood-inference``: the same name with another kind is another entity."""
    return f"{kind}:{slugify(name)}"


@dict_init
@dataclass(frozen=True)
class Entity:
    """A thing edges connect: from the catalog, or discovered in the text."""

    name: str
    kind: str
    aliases: tuple[str, ...] = ()
    owner: str | None = None
    description: str = ""
    origin: str = "catalog"  # or "discovered"
    # Why discovery took the name and each alias: (form, reason) pairs such as
    # ("Cart Service", "page title 'Cart Service'"). Empty for catalog entities; never compared.
    evidence: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @computed_once
    def id(self) -> str:
        """Computed once per entity (slugging is the binder's and grader's most repeated call)."""
        return entity_id(self.kind, self.name)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Entity:
        """An entity as a query returns it (``all_entities``: name, kind, aliases, origin)."""
        return cls(
            name=str(row["name"]),
            kind=str(row["kind"]),
            aliases=tuple(str(a) for a in row.get("aliases") or ()),
            origin=str(row.get("origin") or "catalog"),
        )


@dict_init
@dataclass(frozen=True)
class Mention:
    """A span of a sentence bound to exactly one entity, or ambiguous among several.

    ``start``/``end`` are document offsets. ``reason`` says how it was bound
    ("name", "alias 'Redwood team'", "cue 'team' after the name", "fuzzy 94").
    """

    sentence_id: str
    start: int
    end: int
    surface: str
    candidates: tuple[str, ...]
    reason: str
    # Made by a reference ("This service", "It", a table row's first cell, a diagram node id)
    # rather than by the name itself; ``reason`` then says what it refers to and why, and an
    # edge resting on it records that reason so the grader can accept the same reading.
    reference: bool = False
    # Bound by what its page says elsewhere (the page is about it, or marks it as a name in
    # other sentences), not by the sentence alone: an edge resting on it records the reason, as
    # for a reference, so the grader accepts the same reading.
    page_level: bool = False

    @computed_once
    def entity_id(self) -> str | None:
        """The bound entity, or None when the mention is ambiguous (read once per mention by
        each stage of reading, so kept after the first read)."""
        return self.candidates[0] if len(self.candidates) == 1 else None

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


@dict_init
@dataclass(frozen=True)
class Edge:
    """(subject)-[rel_type]->(object) asserted, negated or hedged by one sentence."""

    subject: str
    rel_type: str
    object: str
    sentence_id: str
    doc_id: str
    start: int
    end: int
    fact: str
    strategy: str
    negated: bool = False
    hedged: bool = False
    cue: str = ""
    subject_span: tuple[int, int] | None = None
    object_span: tuple[int, int] | None = None
    # the reason of a reference mention an end rests on ("'It' = Billing Service, from the
    # page title"); empty when the sentence names the entity itself
    subject_reference: str = ""
    object_reference: str = ""

    @computed_once
    def key(self) -> str:
        """Hashed once per edge (``unique_edges`` and the writer read it again)."""
        return edge_key(self.strategy, self.subject, self.rel_type, self.object, self.sentence_id)

    @classmethod
    def stated_by(
        cls,
        sentence: Sentence,
        subject: str,
        rel_type: str,
        obj: str,
        *,
        fact: str,
        strategy: str,
        negated: bool = False,
        hedged: bool = False,
        cue: str = "",
        subject_span: tuple[int, int] | None = None,
        object_span: tuple[int, int] | None = None,
    ) -> Edge:
        """An edge whose provenance is ``sentence``: every strategy cites it the same way."""
        return cls(
            subject,
            rel_type,
            obj,
            sentence.id,
            sentence.doc_id,
            sentence.start,
            sentence.end,
            fact,
            strategy,
            negated,
            hedged,
            cue,
            subject_span,
            object_span,
        )


def edge_key(strategy: str, subject: str, rel_type: str, obj: str, sentence_id: str) -> str:
    """Stable hash of (strategy, subject, rel_type, object, sentence_id)."""
    raw = "\x1f".join((strategy, subject, rel_type, obj, sentence_id))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:20]


def unique_edges(edges: Sequence[Edge]) -> tuple[Edge, ...]:
    """Drop repeats of the same key, keeping the first."""
    seen: set[str] = set()
    out = []
    for edge in edges:
        if edge.key not in seen:
            seen.add(edge.key)
            out.append(edge)
    return tuple(out)
