"""Staleness: is a cited sentence still true, as far as the corpus itself says?

A cited sentence is stale when a later sentence about the same edge negates it, replaces its
object, deprecates an endpoint, or when it is older than the policy allows; the rules, in
order, are in docs/engine.md ("Staleness rules"). Every read is a whitelisted internal named
query (``staleness_*``), run through the investigation's ``ToolExecutor`` or on a client.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, Protocol

from zehn.corpus.dates import parse_date, stated_at
from zehn.evidence.grade import GENERAL_DEPENDENCY
from zehn.queries import get_query
from zehn.queries.spec import MAX_LIST
from zehn.reading.modality import CONDITIONAL_PREFIX, CORE_NEGATION, EPISTEMIC, MODAL
from zehn.store.client import GraphClient

if TYPE_CHECKING:
    from zehn.evidence.policy import Policy


class Cited(Protocol):
    """Anything that names a cited sentence by ``id`` (the engine's ``Citation``)."""

    @property
    def id(self) -> str: ...


NEGATED = "negated"
REPLACED = "replaced"
DEPRECATED = "deprecated"
TOO_OLD = "too_old"
KINDS = (NEGATED, REPLACED, DEPRECATED, TOO_OLD)  # strongest first

# Coarse, lower-case prefilter for the statements query (the rules below decide).
CUES = (
    "no longer",
    "migrat",
    "moved",
    "replaced",
    "switched",
    "instead of",
    "rather than",
    "superseded",
    "deprecat",
    "decommission",
    "shut down",
    "removed",
    "retired",
    "turned off",
)

_NO_LONGER = re.compile(r"\bno\s+longer\b", re.IGNORECASE)
_CLAUSE = re.compile(r";|\s[—–]\s")
# The new thing follows: "migrated to X", "was replaced by X", "switched billing over to X".
_TO_NEW = re.compile(
    r"\b(?:migrated|moved|switched|replaced|superseded)\b"
    r"(?:\s+(?!to\b|by\b|onto\b)[\w.\-/]+){0,4}?\s+(?:to|onto|by)\b",
    re.IGNORECASE,
)
# The old thing follows: "instead of X", "migrated from X", "moved off X".
_FROM_OLD = re.compile(
    r"\binstead\s+of\b|\brather\s+than\b|"
    r"\b(?:migrated|moved|switched)\b(?:\s+[\w.\-/]+){0,3}?\s+(?:away\s+from|off|from)\b",
    re.IGNORECASE,
)
_SEGMENT_END = re.compile(r"[,;:]|\bfrom\b|\bto\b|\bonto\b|\binstead\s+of\b|\brather\s+than\b")
_GONE = r"(?:deprecated|decommissioned|shut\s+down|removed|retired|switched\s+off|turned\s+off)"
_GONE_AFTER = re.compile(
    r"^(?:\s+(?!not\b|never\b|no\b)[\w.\-/]+){0,3}?\s+"
    r"(?:is|are|was|were|has\s+been|have\s+been|had\s+been|got|gets|been|now)\s+"
    r"(?:now\s+|fully\s+|officially\s+|finally\s+|completely\s+|permanently\s+)?"
    rf"(?P<word>{_GONE})\b",
    re.IGNORECASE,
)
_GONE_BEFORE = re.compile(
    rf"\b(?P<word>{_GONE})\s+(?:the\s+|our\s+|its\s+)?(?:old\s+|legacy\s+)?$", re.IGNORECASE
)
_WINDOW_WORDS = 5
_FROM_NEXT = re.compile(r"^\s+from\b", re.IGNORECASE)

Span = tuple[int, int]
Edge = tuple[str, str, str]  # (subject, rel_type, object)


@dataclass(frozen=True)
class Staleness:
    """Whether one cited sentence is stale, by which rule, and what superseded it."""

    sentence_id: str
    stale: bool
    kind: str | None = None
    superseding_sentence_id: str | None = None
    superseding_quote: str | None = None
    superseding_date: str | None = None
    reason: str = ""
    date: str | None = None  # the cited sentence's effective date (ticket rule applied)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sentence_id": self.sentence_id,
            "stale": self.stale,
            "kind": self.kind,
            "superseding_sentence_id": self.superseding_sentence_id,
            "superseding_quote": self.superseding_quote,
            "superseding_date": self.superseding_date,
            "reason": self.reason,
            "date": self.date,
        }


@dataclass(frozen=True)
class Statement:
    """A sentence with its effective date and what the rules need to know about it.

    ``mentions`` maps entity ids to spans relative to the sentence; ``negates``
    lists the negated edges stored for this sentence.
    """

    sentence_id: str
    text: str
    start: int
    document: str
    date: datetime | None
    mentions: Mapping[str, tuple[Span, ...]] = field(default_factory=dict)
    negates: tuple[Edge, ...] = ()

    def later_than(self, other: Statement) -> bool:
        if self.document == other.document:
            return self.start > other.start
        return self.date is not None and other.date is not None and self.date > other.date

    @property
    def day(self) -> str | None:
        return self.date.isoformat() if self.date else None


class Reader(Protocol):
    """What runs internal named queries: the engine's ToolExecutor, or a client on a graph."""

    def internal(self, name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]: ...


class ClientReader:
    """Internal named queries on one graph, straight from a client (batched like the engine)."""

    def __init__(self, client: GraphClient, graph: str) -> None:
        self.client = client
        self.graph = graph

    def internal(self, name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        query = get_query(name)
        lists = [k for k, v in arguments.items() if isinstance(v, list) and len(v) > MAX_LIST]
        if lists:
            key, values = lists[0], arguments[lists[0]]
            return [
                row
                for i in range(0, len(values), MAX_LIST)
                for row in self.internal(name, {**arguments, key: values[i : i + MAX_LIST]})
            ]
        params = query.validate(arguments)
        return self.client.read(self.graph, query.text_for(params), params).records()


# --- dates ------------------------------------------------------------------------------


def effective_date(row: Mapping[str, Any]) -> datetime | None:
    """When a sentence was stated, in UTC: its own ``stated_at`` (set at ingest, e.g. a ticket
    comment by its date), else its document's by :func:`zehn.corpus.dates.stated_at`. Later
    comments and replies come later in the same document and count by offset."""
    when = parse_date(row.get("stated_at")) or stated_at(
        str(row.get("source_type") or ""),
        parse_date(row.get("created_at")),
        parse_date(row.get("updated_at")),
    )
    return when.astimezone(UTC) if when else None


# --- the rules ----------------------------------------------------------------------------


def _hedged(text: str) -> bool:
    return (
        text.rstrip(" \"'”’)").endswith(("?", "？"))
        or bool(CONDITIONAL_PREFIX.search(text))
        or bool(EPISTEMIC.search(text))
    )


def _clauses(text: str) -> list[Span]:
    bounds, start = [], 0
    for match in _CLAUSE.finditer(text):
        bounds.append((start, match.start()))
        start = match.end()
    bounds.append((start, len(text)))
    return bounds


def _clause_of(text: str, position: int) -> Span:
    for start, end in _clauses(text):
        if start <= position <= end:
            return start, end
    return 0, len(text)


def _in(spans: Iterable[Span], start: int, end: int) -> bool:
    return any(start <= s and e <= end for s, e in spans)


def negates(statement: Statement, edge: Edge) -> bool:
    """A stored negation of the same pair (same predicate or DEPENDS_ON), or "S no longer … O"."""
    subject, rel_type, obj = edge
    for s, r, o in statement.negates:
        if (s, o) == (subject, obj) and r in (rel_type, GENERAL_DEPENDENCY):
            return True
    if _hedged(statement.text):
        return False
    subjects, objects = statement.mentions.get(subject, ()), statement.mentions.get(obj, ())
    for match in _NO_LONGER.finditer(statement.text):
        start, end = _clause_of(statement.text, match.start())
        if _in(subjects, start, match.start()) and _in(objects, match.end(), end):
            return True
    return False


def replaces(statement: Statement, edge: Edge) -> bool:
    """The statement says the edge's object was replaced (see the module docstring)."""
    subject, _, obj = edge
    text = statement.text
    objects = statement.mentions.get(obj, ())
    if not objects or _hedged(text):
        return False
    subjects = statement.mentions.get(subject, ())
    # the subject moved away from the object: "billing … ledger-v1 … migrated to …"
    has_subject = any(s < o for s, _ in subjects for o, _ in objects)
    for match in _TO_NEW.finditer(text):
        if _negated_or_modal(text, match.start()):
            continue
        after = _segment_after(text, match.end())
        if _in(objects, *after) or _in(subjects, *after):
            continue  # an endpoint is the new thing: "migrated to <object>"
        word = match[0].split()[0].lower()
        object_first = any(e <= match.start() for _, e in objects)
        if has_subject or (word in ("replaced", "superseded") and object_first):
            return True
    if has_subject:
        for match in _FROM_OLD.finditer(text):
            if _negated_or_modal(text, match.start()):
                continue
            if _in(objects, *_segment_after(text, match.end())):
                return True
    return False


def gone(statement: Statement, entity: str, other: str) -> str | None:
    """The word by which the statement says ``entity`` is gone ("shut down"), else None."""
    text = statement.text
    if _hedged(text):
        return None
    others = statement.mentions.get(other, ())
    for start, end in statement.mentions.get(entity, ()):
        after = _GONE_AFTER.match(text[end:])
        if after and not _negated_or_modal(text, end + after.start("word")):
            rest = text[end + after.end() :]
            if not _FROM_NEXT.match(rest) or _in(others, end + after.end(), len(text)):
                return after["word"]
        before = _GONE_BEFORE.search(text[:start])
        if before and not _negated_or_modal(text, before.start("word")):
            return before["word"]
    return None


def _negated_or_modal(text: str, position: int) -> bool:
    """A negation or modal just before ``position``, in its clause ("will be", "has not been")."""
    start, _ = _clause_of(text, position)
    window = _NO_LONGER.sub(" ", text[start:position])  # "no longer" is what a supersession says
    window = " ".join(re.split(r"[,:]", window)[-1].split()[-_WINDOW_WORDS:])
    return bool(CORE_NEGATION.search(window) or MODAL.search(window))


def _segment_after(text: str, position: int) -> Span:
    stop = _SEGMENT_END.search(text, position)
    return position, stop.start() if stop else len(text)


def _grade(statement: Statement, edge: Edge) -> tuple[str, str] | None:
    subject, _, obj = edge
    if negates(statement, edge):
        return NEGATED, f"a later source says the relation no longer holds ({edge[1]})"
    if replaces(statement, edge):
        return REPLACED, f"a later source says {obj} was replaced"
    for entity, other in ((obj, subject), (subject, obj)):
        word = gone(statement, entity, other)
        if word:
            return DEPRECATED, f"a later source says {entity} was {' '.join(word.split())}"
    return None


def assess(
    cited: Statement,
    edges: Sequence[Edge],
    candidates: Sequence[Statement],
    *,
    max_age_days: int | None = None,
    today: date | None = None,
    policy_name: str = "",
) -> Staleness:
    """The staleness of one cited sentence, given the edges it backs and later candidates."""
    superseding = _superseding(cited, edges, candidates)
    if superseding is not None:
        best, kind, why = superseding
        on = (
            (best.day or "undated")[:10]
            if best.document != cited.document
            else "later, same document"
        )
        reason = f"{why} ({on}, {best.sentence_id}): {best.text!r}"
        return Staleness(
            cited.sentence_id, True, kind, best.sentence_id, best.text, best.day, reason, cited.day
        )
    if max_age_days is not None and cited.date is not None:
        today = today or datetime.now(UTC).date()
        age = (today - cited.date.date()).days
        if age > max_age_days:
            reason = (
                f"dated {cited.date.date().isoformat()}, {age} days before {today.isoformat()}; "
                f"policy {policy_name or '(unnamed)'} allows at most {max_age_days} days"
            )
            return Staleness(cited.sentence_id, True, TOO_OLD, reason=reason, date=cited.day)
    return Staleness(cited.sentence_id, False, date=cited.day)


def _superseding(
    cited: Statement, edges: Sequence[Edge], candidates: Sequence[Statement]
) -> tuple[Statement, str, str] | None:
    """The later statement that supersedes the cited one for one of its edges, with the kind
    and reason: the strongest kind first, then the earliest, then the first in its document."""
    found: list[tuple[int, datetime, str, int, Statement, str, str]] = []
    itself = next((c for c in candidates if c.sentence_id == cited.sentence_id), None)
    if itself is not None:  # "billing no longer depends on ledger-v1" states the supersession
        edges = [e for e in edges if _grade(itself, e) is None]
    for statement in candidates:
        if statement.sentence_id == cited.sentence_id or not statement.later_than(cited):
            continue
        for edge in edges:
            graded = _grade(statement, edge)
            if graded is not None:
                kind, why = graded
                when = statement.date or datetime.max.replace(tzinfo=UTC)
                key = (KINDS.index(kind), when, statement.document, statement.start)
                found.append((*key, statement, kind, why))
    if not found:
        return None
    *_, best, kind, why = min(found, key=lambda f: f[:4])
    return best, kind, why


# --- reading the graph ----------------------------------------------------------------------


def check_citations(
    source: Reader | GraphClient,
    citations: Iterable[str | Cited],
    policy: Policy | None = None,
    today: date | None = None,
    *,
    graph: str | None = None,
) -> dict[str, Staleness]:
    """Staleness of every cited sentence, keyed by sentence id (unknown ids are left out).

    ``source`` is the investigation's ToolExecutor (or anything with
    ``internal(name, arguments)``), or a GraphClient together with ``graph``.
    """
    reader = _reader(source, graph)
    ids = list(dict.fromkeys(c if isinstance(c, str) else c.id for c in citations))
    if not ids:
        return {}
    cited = {
        str(r["sentence_id"]): _statement(r)
        for r in reader.internal("staleness_sentences", {"ids": ids})
    }
    edges: dict[str, list[Edge]] = defaultdict(list)
    for row in reader.internal("staleness_edges", {"ids": list(cited)}):
        if not row.get("negated"):
            edge = (str(row["source"]), str(row["rel_type"]), str(row["target"]))
            if edge not in edges[str(row["sentence_id"])]:
                edges[str(row["sentence_id"])].append(edge)
    candidates = _candidates(reader, [e for found in edges.values() for e in found])
    max_age = policy.max_age_days if policy is not None else None
    name = policy.name if policy is not None else ""
    return {
        sid: assess(
            statement,
            edges.get(sid, []),
            candidates,
            max_age_days=max_age,
            today=today,
            policy_name=name,
        )
        for sid, statement in cited.items()
    }


def _reader(source: Reader | GraphClient, graph: str | None) -> Reader:
    if isinstance(source, GraphClient):
        if not graph:
            raise ValueError("check_citations on a client needs the graph name")
        return ClientReader(source, graph)
    return source


def _statement(row: Mapping[str, Any]) -> Statement:
    return Statement(
        str(row["sentence_id"]),
        str(row.get("text") or ""),
        int(row.get("start") or 0),
        str(row.get("document") or ""),
        effective_date(row),
    )


def _candidates(reader: Reader, edges: Sequence[Edge]) -> list[Statement]:
    """Sentences that may supersede: stored negations of the pairs, and cue-word sentences."""
    if not edges:
        return []
    rows: dict[str, dict[str, Any]] = {}
    mentions: dict[str, dict[str, list[Span]]] = defaultdict(lambda: defaultdict(list))
    negated: dict[str, list[Edge]] = defaultdict(list)
    sources = sorted({s for s, _, _ in edges})
    targets = sorted({o for _, _, o in edges})
    wanted = set(targets)
    for row in reader.internal("staleness_negations", {"sources": sources}):
        if str(row["target"]) not in wanted:
            continue
        sid = str(row["sentence_id"])
        rows.setdefault(sid, row)
        negated[sid].append((str(row["source"]), str(row["rel_type"]), str(row["target"])))
    entities = sorted(set(sources) | set(targets))
    for row in reader.internal("staleness_statements", {"ids": entities, "cues": list(CUES)}):
        sid = str(row["sentence_id"])
        rows.setdefault(sid, row)
        offset = int(row.get("start") or 0)
        span = (int(row["mention_start"]) - offset, int(row["mention_end"]) - offset)
        if span not in mentions[sid][str(row["entity_id"])]:
            mentions[sid][str(row["entity_id"])].append(span)
    return [
        Statement(
            sid,
            str(row.get("text") or ""),
            int(row.get("start") or 0),
            str(row.get("document") or ""),
            effective_date(row),
            {e: tuple(sorted(spans)) for e, spans in mentions.get(sid, {}).items()},
            tuple(negated.get(sid, ())),
        )
        for sid, row in rows.items()
    ]
