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
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from zehn.engine.names import NameIndex, Namesakes
from zehn.engine.wording import namesakes
from zehn.evidence.grade import Evidence, Grade, Grader, Negation
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.name_keys import NAME_INDEX_VERSION

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
        self._index: NameIndex | None = None
        self._index_read = False
        self._namesakes: Mapping[str, str] | None = None
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

    @property
    def index(self) -> NameIndex | None:
        """The graph's name index, when its build wrote a complete one of this version (read
        once): then nothing here reads the whole entity list."""
        if not self._index_read:
            with self._lock:
                if not self._index_read:
                    rows = self._read("name_index_meta", {})
                    meta = rows[0] if rows else {}
                    if meta.get("version") == NAME_INDEX_VERSION:
                        longest = int(meta.get("longest") or 0)
                        self._index = NameIndex(self._read_now, longest, self._names)
                    self._index_read = True
        return self._index

    def _read_now(self, name: str, args: dict[str, Any]) -> list[dict[str, Any]]:
        return self._read(name, args)  # the latest caller's connection (snapshot_for)

    def find_entities(self, text: str, limit: int = 100) -> list[dict[str, Any]]:
        """``find_entities`` by its Cypher's rule (the lower-cased text contains the lower-cased
        name or an alias) without a scan of every entity on the server for each question:
        among the entities the text's token runs name (the name index), or over the kept
        entity list. (A name inside a longer word, "cart" in "cartservice", is found only by
        the second; the binder, which decides what a question names, never binds it.)"""
        lowered = text.lower()
        index = self.index
        if index is not None:  # the candidates its token runs name, by the same rule
            named = index.in_texts([text])
            ids = sorted(e.id for e in named if _contains(lowered, e))[:limit]
            return [_entity_row(i, index.known[i]) for i in ids]
        if self._forms is None:
            self._forms = [
                (form.lower(), i) for i, e in self.entities.items() for form in (e.name, *e.aliases)
            ]
        found_ids = sorted({i for form, i in self._forms if form in lowered})[:limit]
        return [_entity_row(i, self.entities[i]) for i in found_ids]

    @property
    def names(self) -> dict[str, str]:
        """Entity id -> name (shared, not copied: paths refer to it); with a name index, of
        every entity read so far, which includes the ends of every graded hop."""
        if self.index is None:
            _ = self.entities
        return self._names

    @property
    def grader(self) -> Grader:
        """The grader over every entity of the graph: namesakes included, as at extraction."""
        if self._grader is None:
            self._grader = Grader(list(self.entities.values()))
        return self._grader

    def grader_for(self, evidence: Sequence[Evidence]) -> Grader:
        """A grader for these hops' sentences: over the entities their sentences can name and
        the hops' own ends (the name index), which grades each as the whole graph would."""
        index = self.index
        if index is None:
            return self.grader
        ends = [i for e in evidence for i in (e.source, e.target)]
        return Grader(index.in_texts([e.text for e in evidence], also=ends), catalog=index)

    def binder_for(self, texts: Sequence[str]) -> Binder:
        """A binder for these texts (re-reading found sentences), as ``grader_for``."""
        index = self.index
        if index is None:
            return self.grader.binder
        return Binder(index.in_texts(texts), index)

    def grade_all(self, evidence: Iterable[Evidence]) -> dict[str, Grade]:
        """Grades of these edges against their own sentences, before supersession; those not
        kept yet are graded together (one look-up of the names their sentences hold)."""
        wanted = list({e.key: e for e in evidence}.values())
        missing = [e for e in wanted if e.key not in self.grades]
        if missing:
            grader = self.grader_for(missing)
            for e in missing:
                self.grades[e.key] = grader.grade(e)
        return {e.key: self.grades[e.key] for e in wanted}

    def grade(self, evidence: Evidence) -> Grade:
        """The grade of one edge against its own sentence, before supersession."""
        return self.grade_all([evidence])[evidence.key]

    def namesakes(self) -> Mapping[str, str]:
        """Entity id -> kind of every entity whose name an entity of another kind has."""
        if self._namesakes is None:
            index = self.index
            if index is not None:
                self._namesakes = Namesakes(index)
            else:
                self._namesakes = namesakes(self.entities.values())
        return self._namesakes

    def missing_evidence(self, keys: Iterable[str]) -> list[str]:
        return [k for k in keys if k not in self.evidence]

    def missing_pairs(self, pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
        return [p for p in pairs if p not in self.negations]


def _contains(lowered: str, entity: Entity) -> bool:
    return any(form.lower() in lowered for form in (entity.name, *entity.aliases))


def _entity_row(entity_id: str, entity: Entity) -> dict[str, Any]:
    return {
        "id": entity_id,
        "name": entity.name,
        "kind": entity.kind,
        "aliases": list(entity.aliases),
    }


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
