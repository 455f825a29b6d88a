"""The answer contract (docs/architecture.md): what every surface — CLI, JSON, widgets — shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from zehn.evidence.grade import GradedPath

if TYPE_CHECKING:
    import pandas as pd


class Status(StrEnum):
    """How an investigation ended; every surface shows each one differently."""

    ANSWERED = "answered"
    ABSTAINED = "abstained"
    AMBIGUOUS = "ambiguous"
    ERROR = "error"


ANSWERED = Status.ANSWERED
ABSTAINED = Status.ABSTAINED
AMBIGUOUS = Status.AMBIGUOUS
ERROR = Status.ERROR
I_DONT_KNOW = "I don't know"
I_DONT_KNOW_ZH = "我不知道"  # the abstention of a question asked in Chinese


def dont_know(language: str) -> str:
    """The abstention text in the question's language ("en" or "zh")."""
    return I_DONT_KNOW_ZH if language == "zh" else I_DONT_KNOW


@dataclass(frozen=True)
class Citation:
    """A numbered citation: always the stored sentence, never the model's paraphrase."""

    n: int
    id: str
    document: str
    source_type: str
    title: str
    quote: str
    span: tuple[int, int]
    date: str | None = None
    stale: bool = False
    superseded_by: str | None = None  # the superseding sentence id (zehn.evidence.staleness)
    superseded_quote: str | None = None  # its verbatim text
    stale_reason: str | None = None  # why stale: superseded (and by what) or too old
    found_by: str = "graph"  # "search": a sentence found by full-text search, re-read at query time
    role: str = "answer"  # "related": context the sources state, shown beside, never the answer
    diagram_line: bool = False  # the quote is a line of a diagram (an arrow states the relation)

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "id": self.id,
            "document": self.document,
            "source_type": self.source_type,
            "title": self.title,
            "quote": self.quote,
            "span": list(self.span),
            "date": self.date,
            "stale": self.stale,
            "superseded_by": self.superseded_by,
            "superseded_quote": self.superseded_quote,
            "stale_reason": self.stale_reason,
            "found_by": self.found_by,
            "role": self.role,
            "diagram_line": self.diagram_line,
        }


@dataclass(frozen=True)
class Related:
    """Context the sources do state about the question's entities (their cited relations,
    sentences that mention the entity and the asked attribute): never the answer."""

    text: str
    citations: tuple[int, ...]  # numbers into the answer's citations (role "related")

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "citations": list(self.citations)}


@dataclass(frozen=True)
class Part:
    """One part of a multi-part question, planned, graded, verified and gated on its own."""

    question: str
    status: str
    answer: str
    reason: str | None
    citations: tuple[int, ...]  # numbers into the whole answer's citations
    reason_code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "status": self.status,
            "answer": self.answer,
            "citations": list(self.citations),
            "reason": self.reason,
            "reason_code": self.reason_code,
        }


@dataclass(frozen=True)
class Identity:
    id: str
    name: str
    kind: str
    evidence: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True)
class ToolCallRecord:
    """One named-query call of the investigation, as the engine ran (or refused) it."""

    query: str
    params: dict[str, Any]
    returned_ids: tuple[str, ...]
    ms: float
    error: str | None = None
    by: str = "model"  # or "engine"

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "params": self.params,
            "returned_ids": list(self.returned_ids),
            "ms": round(self.ms, 2),
            "error": self.error,
            "by": self.by,
        }


@dataclass(frozen=True)
class Beyond:
    """A walk that reached more entities than an answer shows (zehn.engine.frontier): the
    nearest ``shown`` are the answer's paths; the rest are counted, never listed. A walk
    that stopped counting at ``count_limit`` entities counted only up to ``counted_depth``
    (< ``depth``): its ``reached`` and ``more`` are then floors, never totals."""

    query: str
    entity_id: str
    reached: int
    shown: int
    counted: Mapping[int, Mapping[str, int]]  # distance -> kind -> entities not shown
    depth: int  # the distance asked for
    counted_depth: int  # the farthest distance counted whole
    count_limit: int  # the walk stops counting once it reaches this many entities

    @property
    def more(self) -> int:
        return sum(n for kinds in self.counted.values() for n in kinds.values())

    @property
    def complete(self) -> bool:
        """Whether every entity within ``depth`` was counted."""
        return self.counted_depth >= self.depth

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "entity_id": self.entity_id,
            "reached": self.reached,
            "shown": self.shown,
            "counted": {str(d): dict(kinds) for d, kinds in self.counted.items()},
            "depth": self.depth,
            "counted_depth": self.counted_depth,
            "complete": self.complete,
            "count_limit": self.count_limit,
        }


@dataclass(frozen=True)
class CitedAnswer:
    """The outcome of one investigation, with its provenance."""

    question: str
    status: str
    answer: str
    reason: str | None
    graph: str
    policy: dict[str, Any]
    model: str
    citations: tuple[Citation, ...] = ()
    paths: tuple[GradedPath, ...] = ()
    identities: tuple[Identity, ...] = ()
    tool_calls: tuple[ToolCallRecord, ...] = ()
    limitations: tuple[str, ...] = ()
    elapsed_ms: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    language: str = "en"  # the question's language, which the answer text is written in
    parts: tuple[Part, ...] = ()  # a multi-part question's parts; empty for a single question
    related: tuple[Related, ...] = ()
    beyond: tuple[Beyond, ...] = ()  # large walks: what was counted and not shown
    # why the result is not an answer, one class per cause (``zehn.engine.reasons``); None
    # when answered
    reason_code: str | None = None

    @property
    def answer_citations(self) -> tuple[Citation, ...]:
        """The citations the answer rests on (without the related context's)."""
        return tuple(c for c in self.citations if c.role == "answer")

    def to_dict(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "status": self.status,
            "answer": self.answer,
            "reason": self.reason,
            "reason_code": self.reason_code,
            "citations": [c.to_dict() for c in self.citations],
            "paths": [p.to_dict() for p in self.paths],
            "identities": [i.to_dict() for i in self.identities],
            "policy": self.policy,
            "graph": self.graph,
            "model": self.model,
            "tool_calls": [t.to_dict() for t in self.tool_calls],
            "limitations": list(self.limitations),
            "elapsed_ms": round(self.elapsed_ms, 1),
            "language": self.language,
            "parts": [p.to_dict() for p in self.parts],
            "related": [r.to_dict() for r in self.related],
            "beyond": [b.to_dict() for b in self.beyond],
        }

    def to_frame(self) -> pd.DataFrame:
        """The citations as a table (one row per numbered citation)."""
        import pandas as pd  # imported here: it costs half a second at start-up

        columns = ["n", "id", "document", "source_type", "title", "quote", "date", "stale"]
        rows = [{k: v for k, v in c.to_dict().items() if k in columns} for c in self.citations]
        return pd.DataFrame(rows, columns=columns)

    def paths_frame(self) -> pd.DataFrame:
        """Every hop of every path with its grade and reason."""
        import pandas as pd  # imported here: it costs half a second at start-up

        rows = [
            {
                "path": i,
                "path_label": p.label,
                **{k: v for k, v in h.to_dict().items() if k != "other_sentences"},
            }
            for i, p in enumerate(self.paths, start=1)
            for h in p.hops
        ]
        return pd.DataFrame(rows)
