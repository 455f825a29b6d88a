"""Reviewer audit of extracted edges: a reproducible stratified sample, and labels that last.

A reviewer reads one edge at a time (its sentence, document, predicate and
the extractor's ``fact``, which is the model's wording, never a quote) and
records one of :data:`LABELS`. Labels live in the graph ``zehn__workbench`` as
``(:AuditLabel {graph, edge_key, ...})`` nodes, keyed by the corpus graph and
the edge's stable ``key`` (a hash of strategy, subject, predicate, object and
sentence), so they survive server restarts (the server persists) and
re-extraction (the same edge gets the same key). Each save is one atomic
parameterised MERGE; a CSV import is validated whole and then written in one
query, so a bad row writes nothing.

Statistics and the one-line summary every answer carries are in
:mod:`zehn.review.stats` and re-exported here.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zehn.errors import GraphNotFound, QueryError, ZehnError
from zehn.evidence.grade import Evidence
from zehn.extract.pipeline import split_graph_name
from zehn.review.history import WORKBENCH_GRAPH
from zehn.store.client import GRAPH_NAME, GraphClient

if TYPE_CHECKING:
    import pandas as pd

LABELS: tuple[str, ...] = tuple(
    "correct wrong_target wrong_source wrong_predicate not_asserted unsure".split()
)
LABEL_TITLES: dict[str, str] = {
    "correct": "correct",
    "wrong_target": "wrong target entity",
    "wrong_source": "wrong source entity",
    "wrong_predicate": "wrong predicate",
    "not_asserted": "not asserted (plan / negation / hypothetical)",
    "unsure": "unsure",
}
WRONG_ENTITY: tuple[str, ...] = ("wrong_target", "wrong_source")
CSV_COLUMNS: tuple[str, ...] = tuple(
    "graph strategy edge_key subject rel_type object sentence_id label note reviewer".split()
)
OPTIONAL_CSV_COLUMNS: tuple[str, ...] = ("labelled_at",)
NODE = "AuditLabel"

_EDGE_FIELDS = (
    "MATCH (a:Entity)-[r:RELATES]->(b:Entity) "
    "OPTIONAL MATCH (s:Sentence {id: r.sentence_id}) "
    "OPTIONAL MATCH (d:Document {id: r.doc_id}) "
)
_EDGE_RETURN = (
    "RETURN r.key AS key, coalesce(r.strategy, '') AS strategy, "
    "a.id AS subject_id, a.name AS subject_name, a.kind AS subject_kind, "
    "r.rel_type AS rel_type, b.id AS object_id, b.name AS object_name, b.kind AS object_kind, "
    "r.sentence_id AS sentence_id, coalesce(s.text, '') AS text, "
    "coalesce(s.start, r.start) AS start, "
    "r.subject_start AS subject_start, r.subject_end AS subject_end, "
    "r.object_start AS object_start, r.object_end AS object_end, "
    "coalesce(d.id, r.doc_id) AS doc_id, d.title AS title, d.source_type AS source_type, "
    "coalesce(d.updated_at, d.created_at) AS date, r.fact AS fact, "
    "r.negated AS negated, r.hedged AS hedged, r.subject_ref AS subject_ref, "
    "r.object_ref AS object_ref"
)
_ALL_EDGES = _EDGE_FIELDS + _EDGE_RETURN
_EDGES_BY_KEYS = _EDGE_FIELDS + "WITH a, r, b, s, d WHERE r.key IN $keys " + _EDGE_RETURN
_NEGATED_EDGES = _EDGE_FIELDS + "WITH a, r, b, s, d WHERE r.negated = true " + _EDGE_RETURN
_SAVE = (
    "UNWIND $rows AS row MERGE (l:AuditLabel {graph: row.graph, edge_key: row.edge_key}) "
    "SET l.strategy = row.strategy, l.subject = row.subject, l.rel_type = row.rel_type, "
    "l.object = row.object, l.sentence_id = row.sentence_id, l.label = row.label, "
    "l.note = row.note, l.reviewer = row.reviewer, l.labelled_at = row.labelled_at "
    "RETURN count(l)"
)
_LIST = (
    "MATCH (l:AuditLabel) WHERE $graph IS NULL OR l.graph = $graph "
    "RETURN l.graph, l.strategy, l.edge_key, l.subject, l.rel_type, l.object, l.sentence_id, "
    "l.label, l.note, l.reviewer, l.labelled_at ORDER BY l.graph, l.strategy, l.edge_key"
)


class AuditError(ZehnError):
    """An audit request or file that cannot be accepted (unknown label, no reviewer, bad CSV)."""


@dataclass(frozen=True)
class AuditItem:
    """One sampled edge with everything a reviewer needs to judge it."""

    key: str
    graph: str
    strategy: str
    subject_id: str
    subject_name: str
    subject_kind: str
    rel_type: str
    object_id: str
    object_name: str
    object_kind: str
    sentence_id: str
    text: str
    sentence_start: int
    subject_span: tuple[int, int] | None
    object_span: tuple[int, int] | None
    doc_id: str
    title: str = ""
    source_type: str = ""
    date: str | None = None
    fact: str = ""
    negated: bool = False
    hedged: bool = False
    subject_ref: str = ""  # how an end named by reference was read ("'It' = …, from …")
    object_ref: str = ""

    @classmethod
    def from_row(cls, graph: str, row: Mapping[str, Any]) -> AuditItem:
        return cls(
            key=str(row["key"]),
            graph=graph,
            strategy=str(row.get("strategy") or ""),
            subject_id=str(row["subject_id"]),
            subject_name=str(row.get("subject_name") or row["subject_id"]),
            subject_kind=str(row.get("subject_kind") or ""),
            rel_type=str(row["rel_type"]),
            object_id=str(row["object_id"]),
            object_name=str(row.get("object_name") or row["object_id"]),
            object_kind=str(row.get("object_kind") or ""),
            sentence_id=str(row.get("sentence_id") or ""),
            text=str(row.get("text") or ""),
            sentence_start=int(row.get("start") or 0),
            subject_span=_span(row.get("subject_start"), row.get("subject_end")),
            object_span=_span(row.get("object_start"), row.get("object_end")),
            doc_id=str(row.get("doc_id") or ""),
            title=str(row.get("title") or ""),
            source_type=str(row.get("source_type") or ""),
            date=None if row.get("date") is None else str(row["date"]),
            fact=str(row.get("fact") or ""),
            negated=bool(row.get("negated")),
            hedged=bool(row.get("hedged")),
            subject_ref=str(row.get("subject_ref") or ""),
            object_ref=str(row.get("object_ref") or ""),
        )

    @property
    def stratum(self) -> tuple[str, str]:
        return (self.strategy, self.rel_type)

    def to_evidence(self) -> Evidence:
        """The edge as the path grader reads it."""
        return Evidence(
            key=self.key,
            source=self.subject_id,
            rel_type=self.rel_type,
            target=self.object_id,
            sentence_id=self.sentence_id,
            text=self.text,
            start=self.sentence_start,
            document=self.doc_id,
            title=self.title,
            source_type=self.source_type,
            date=self.date,
            negated=self.negated,
            hedged=self.hedged,
            fact=self.fact,
            subject_ref=self.subject_ref,
            subject_span=self.subject_span,
            object_ref=self.object_ref,
            object_span=self.object_span,
        )

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in ("subject_span", "object_span"):
            data[name] = None if data[name] is None else list(data[name])
        return data


def _span(start: Any, end: Any) -> tuple[int, int] | None:
    return None if start is None or end is None else (int(start), int(end))


def read_items(
    client: GraphClient, graph: str, keys: Sequence[str] | None = None
) -> list[AuditItem]:
    """Edges of ``graph`` (all, or those with the given keys) sorted by key, one per key."""
    if keys is None:
        rows = client.read(graph, _ALL_EDGES).records()
    else:
        rows = client.read(graph, _EDGES_BY_KEYS, {"keys": list(keys)}).records()
    return _unique(graph, rows)


def read_negated(client: GraphClient, graph: str) -> list[AuditItem]:
    """Every negated edge of ``graph``: what can supersede earlier support."""
    return _unique(graph, client.read(graph, _NEGATED_EDGES).records())


def _unique(graph: str, rows: Sequence[Mapping[str, Any]]) -> list[AuditItem]:
    items: dict[str, AuditItem] = {}
    for row in rows:
        if row.get("key") is not None:
            items.setdefault(str(row["key"]), AuditItem.from_row(graph, row))
    return [items[key] for key in sorted(items)]


@dataclass(frozen=True)
class AuditLabel:
    """One reviewer's judgement of one edge of one graph (the latest save wins)."""

    graph: str
    strategy: str
    edge_key: str
    subject: str
    rel_type: str
    object: str
    sentence_id: str
    label: str
    note: str
    reviewer: str
    labelled_at: str = ""

    @property
    def title(self) -> str:
        return LABEL_TITLES.get(self.label, self.label)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ImportReport:
    """What one CSV import wrote."""

    path: str
    rows: int
    written: int
    graphs: dict[str, int]
    duplicates: int = 0
    blank_lines: int = 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class AuditStore:
    """Saves, lists, exports and imports audit labels in one workbench graph."""

    def __init__(self, client: GraphClient, graph: str = WORKBENCH_GRAPH) -> None:
        self.client = client
        self.graph = graph
        self._indexed = False

    def label(
        self,
        item_or_key: AuditItem | str,
        graph: str | None = None,
        strategy: str | None = None,
        label: str = "",
        reviewer: str = "",
        note: str = "",
    ) -> AuditLabel:
        """Record one label for an edge (an :class:`AuditItem`, or its key plus graph and strategy).

        Saving the same (graph, edge) again replaces label, note, reviewer and time.
        """
        if isinstance(item_or_key, AuditItem):
            item = item_or_key
            context = {
                "subject": item.subject_id,
                "rel_type": item.rel_type,
                "object": item.object_id,
                "sentence_id": item.sentence_id,
            }
            graph, strategy, key = graph or item.graph, strategy or item.strategy, item.key
        else:
            context = dict.fromkeys(("subject", "rel_type", "object", "sentence_id"), "")
            key = str(item_or_key)
        record = _checked_record(
            {
                "graph": graph or "",
                "strategy": strategy or "",
                "edge_key": key,
                **context,
                "label": label,
                "note": note,
                "reviewer": reviewer,
                "labelled_at": _now(),
            }
        )
        self._ensure_index()
        self.client.write(self.graph, _SAVE, {"rows": [record]})
        return AuditLabel(**record)

    def labels(self, graph: str | None = None) -> list[AuditLabel]:
        """Every label (of one corpus graph, or all), sorted; none saved yet: an empty list."""
        try:
            rows = self.client.read(self.graph, _LIST, {"graph": graph}).rows
        except GraphNotFound:
            return []  # the workbench graph is created by the first save
        return [AuditLabel(*("" if v is None else str(v) for v in row)) for row in rows]

    def export_csv(self, path: Path | str, graph: str | None = None) -> int:
        """Write the labels to ``path`` (UTF-8, header row); returns the number of rows."""
        labels = self.labels(graph)
        columns = (*CSV_COLUMNS, *OPTIONAL_CSV_COLUMNS)
        try:
            with Path(path).open("w", encoding="utf-8", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(columns)
                for entry in labels:
                    writer.writerow([getattr(entry, column) for column in columns])
        except OSError as e:
            raise AuditError(f"{path}: cannot write the audit CSV: {e}") from e
        return len(labels)

    def import_csv(self, path: Path | str) -> ImportReport:
        """Read labels from a CSV and save them all in one write, or none if any row is bad.

        Required columns: ``graph, strategy, edge_key, subject, rel_type, object,
        sentence_id, label, note, reviewer`` (any order; extra columns are
        ignored; ``labelled_at`` is kept when present). A label may be given as
        its code or its title. The last row for the same (graph, edge_key) wins.
        """
        records, blank, duplicates = _read_csv(Path(path))
        if records:
            self._ensure_index()
            self.client.write(self.graph, _SAVE, {"rows": list(records.values())})
        graphs: dict[str, int] = defaultdict(int)
        for record in records.values():
            graphs[record["graph"]] += 1
        return ImportReport(
            str(path), len(records) + duplicates, len(records), dict(graphs), duplicates, blank
        )

    def to_frame(self, graph: str | None = None) -> pd.DataFrame:
        """The labels as a table."""
        import pandas as pd  # imported here: it costs half a second at start-up

        columns = [*CSV_COLUMNS, *OPTIONAL_CSV_COLUMNS]
        return pd.DataFrame([x.to_dict() for x in self.labels(graph)], columns=columns)

    def _ensure_index(self) -> None:
        if self._indexed:
            return
        for prop in ("edge_key", "graph"):
            try:
                self.client.write(self.graph, f"CREATE INDEX FOR (l:{NODE}) ON (l.{prop})")
            except QueryError as e:
                if "already indexed" not in str(e):
                    raise
        self._indexed = True


_TITLE_TO_LABEL = {title.lower(): code for code, title in LABEL_TITLES.items()}


def normalise_label(value: str) -> str:
    """A label code from its code or title (any case, spaces or dashes for '_')."""
    text = " ".join(str(value).strip().lower().split())
    if text in _TITLE_TO_LABEL:
        return _TITLE_TO_LABEL[text]
    code = text.replace(" ", "_").replace("-", "_")
    if code not in LABELS:
        raise AuditError(f"unknown label {value!r}; use one of {', '.join(LABELS)}")
    return code


def _checked_record(record: dict[str, str]) -> dict[str, str]:
    """Stripped values, a known label, a reviewer, a graph name and a key; else AuditError."""
    out = {name: str(value or "").strip() for name, value in record.items()}
    for name, value in out.items():
        if "\x00" in value:
            raise AuditError(f"{name} contains a NUL character")
    out["label"] = normalise_label(out["label"])
    if not out["reviewer"]:
        raise AuditError("a label needs the reviewer's name")
    if not GRAPH_NAME.match(out["graph"]):
        raise AuditError(f"invalid graph name {out['graph']!r}")
    if not out["edge_key"]:
        raise AuditError("a label needs the edge's key")
    if not out["strategy"]:
        out["strategy"] = split_graph_name(out["graph"])[1] or ""
    if not out["strategy"]:
        raise AuditError(f"no strategy given, and graph {out['graph']!r} does not name one")
    return out


def _read_csv(path: Path) -> tuple[dict[tuple[str, str], dict[str, str]], int, int]:
    """Validate every row first: (records by (graph, key), blank lines, duplicate rows)."""
    records: dict[tuple[str, str], dict[str, str]] = {}
    blank = duplicates = 0
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            header = [h.strip() for h in next(reader, [])]
            missing = [c for c in CSV_COLUMNS if c not in header]
            if missing:
                raise AuditError(f"{path}, line 1: missing column(s) {', '.join(missing)}")
            index = {name: header.index(name) for name in (*CSV_COLUMNS, *OPTIONAL_CSV_COLUMNS)
                     if name in header}  # fmt: skip
            for row in reader:
                line = reader.line_num
                if not any(cell.strip() for cell in row):
                    blank += 1
                    continue
                if len(row) != len(header):
                    raise AuditError(
                        f"{path}, line {line}: expected {len(header)} fields, found {len(row)}"
                    )
                values = {name: row[i] for name, i in index.items()}
                values["labelled_at"] = values.get("labelled_at") or _now()
                try:
                    record = _checked_record(values)
                except AuditError as e:
                    raise AuditError(f"{path}, line {line}: {e}") from e
                ident = (record["graph"], record["edge_key"])
                duplicates += ident in records
                records[ident] = record
    except (OSError, UnicodeDecodeError) as e:
        raise AuditError(f"{path}: cannot read the audit CSV: {e}") from e
    except csv.Error as e:
        raise AuditError(f"{path}, line {reader.line_num}: {e}") from e
    return records, blank, duplicates


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
