"""What the engine has learned about one revision of a graph, kept between investigations.

Grading re-reads every hop's sentence (binding + cue lexicon, ~0.1 ms each);
a three-hop walk from a hub has thousands of hops. A graph's content changes
only through a zehn build or ingest, and each writes a new ``Meta.revision``
(``zehn.store.revision``), so the entities, the evidence of each edge, its
grade and the negations between two entities are facts of that revision and
can be kept. The first investigation after a build pays for them; later ones
read them here. A graph without a revision (written by another tool) gets a
fresh snapshot per investigation: correct, only slower.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from zehn.evidence.grade import Evidence, Grade, Grader, Negation
from zehn.reading.model import Entity

MAX_SNAPSHOTS = 8
Reader = Callable[[str, dict[str, Any]], list[dict[str, Any]]]


class GraphSnapshot:
    """Entities, evidence, grades and negations of one graph revision (None: unversioned)."""

    def __init__(self, graph: str, revision: str | None, read: Reader) -> None:
        self.graph = graph
        self.revision = revision
        self._read = read
        self._lock = threading.Lock()
        self._entities: dict[str, Entity] | None = None
        self._names: dict[str, str] = {}
        self._grader: Grader | None = None
        self._forms: list[tuple[str, str]] | None = None
        self.evidence: dict[str, Evidence] = {}
        self.grades: dict[str, Grade] = {}
        self.negations: dict[tuple[str, str], tuple[Negation, ...]] = {}
        # (query, other arguments) -> item -> rows, for per-item internal queries
        self.rows: dict[tuple[str, str], dict[str, list[dict[str, Any]]]] = {}

    @property
    def entities(self) -> dict[str, Entity]:
        if self._entities is None:
            with self._lock:
                if self._entities is None:
                    entities = {
                        str(row["id"]): Entity.from_row(row)
                        for row in self._read("all_entities", {})
                    }
                    self._names = {i: e.name for i, e in entities.items()}
                    self._entities = entities
        return self._entities

    def find_entities(self, text: str, limit: int = 100) -> list[dict[str, Any]]:
        """``find_entities`` over the kept entity list: the same rule as its Cypher (the
        lower-cased text contains the lower-cased name or an alias), without a scan of
        every entity on the server for each question."""
        if self._forms is None:
            self._forms = [
                (form.lower(), i) for i, e in self.entities.items() for form in (e.name, *e.aliases)
            ]
        lowered = text.lower()
        found = sorted({i for form, i in self._forms if form in lowered})[:limit]
        return [
            {
                "id": i,
                "name": self.entities[i].name,
                "kind": self.entities[i].kind,
                "aliases": list(self.entities[i].aliases),
            }
            for i in found
        ]

    @property
    def names(self) -> dict[str, str]:
        """Entity id -> name (shared, not copied: paths refer to it)."""
        _ = self.entities
        return self._names

    @property
    def grader(self) -> Grader:
        """The grader over every entity of the graph: namesakes included, as at extraction."""
        if self._grader is None:
            self._grader = Grader(list(self.entities.values()))
        return self._grader

    def grade(self, evidence: Evidence) -> Grade:
        """The grade of one edge against its own sentence, before supersession."""
        grade = self.grades.get(evidence.key)
        if grade is None:
            grade = self.grader.grade(evidence)
            self.grades[evidence.key] = grade
        return grade

    def missing_evidence(self, keys: Iterable[str]) -> list[str]:
        return [k for k in keys if k not in self.evidence]

    def missing_pairs(self, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        return [p for p in pairs if p not in self.negations]


_SNAPSHOTS: OrderedDict[tuple[str, str], GraphSnapshot] = OrderedDict()
_REGISTRY_LOCK = threading.Lock()


def snapshot_for(location: str, graph: str, read: Reader) -> GraphSnapshot:
    """The kept snapshot of the graph's current revision, or a new one (kept if versioned)."""
    rows = read("graph_revision", {})
    revision = str(rows[0]["revision"]) if rows and rows[0].get("revision") else None
    if revision is None:
        return GraphSnapshot(graph, None, read)
    key = (location, graph)
    with _REGISTRY_LOCK:
        kept = _SNAPSHOTS.get(key)
        if kept is not None and kept.revision == revision:
            _SNAPSHOTS.move_to_end(key)
            kept._read = read  # the caller's connection: an earlier one may be closed
            return kept
        snapshot = GraphSnapshot(graph, revision, read)
        _SNAPSHOTS[key] = snapshot
        while len(_SNAPSHOTS) > MAX_SNAPSHOTS:
            _SNAPSHOTS.popitem(last=False)
        return snapshot


def forget_snapshots() -> None:
    """Drop every kept snapshot (benchmarks measure the first investigation this way)."""
    with _REGISTRY_LOCK:
        _SNAPSHOTS.clear()
