"""What the curation view edits, apart from its widgets: the table of catalog rows, the edits an
analyst may make to it (none of which ever merges two rows), and what a rebuild changed.

Every edit is checked at once and refused with a clear ``CatalogError`` naming the row, so the
table never holds what ``Catalog.from_entries`` would refuse on save; every key of an entry the
view does not edit (mentions, first_sentence, reasons, description, owner) is kept as it was.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from zehn.corpus.model import slugify
from zehn.errors import CatalogError
from zehn.reading.model import entity_id
from zehn.reading.names.catalog import Catalog, load_yaml
from zehn.reading.names.suggest import CatalogSuggestion
from zehn.reading.vocabulary import ENTITY_KINDS

_EDITED = ("name", "kind", "aliases", "origin", "not_entity")


@dataclass
class EntityRow:
    """One catalog entry as the analyst edits it."""

    name: str
    kind: str
    aliases: list[str] = field(default_factory=list)
    not_entity: bool = False
    origin: str = "catalog"
    notes: dict[str, Any] = field(default_factory=dict)  # the entry's other keys, kept
    loaded_id: str = ""  # the id when the table was opened: the graph knows it by this one

    @property
    def entity_id(self) -> str:
        return entity_id(self.kind, self.name)

    @property
    def mentions(self) -> int | None:
        """How often the suggestion found it bound (None for a hand-written entry)."""
        count = self.notes.get("mentions")
        return count if isinstance(count, int) else None

    def to_entry(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name, "kind": self.kind, "aliases": self.aliases}
        if self.origin != "catalog":
            entry["origin"] = self.origin
        if self.not_entity:
            entry["not_entity"] = True
        entry.update(self.notes)
        return entry

    @classmethod
    def from_entry(cls, entry: Mapping[str, Any]) -> EntityRow:
        """A row of a validated entry (``Catalog.from_entries`` accepted it)."""
        name, kind = str(entry["name"]).strip(), str(entry.get("kind") or "component")
        return cls(
            name=name,
            kind=kind,
            aliases=[str(a).strip() for a in entry.get("aliases") or []],
            not_entity=entry.get("not_entity") is True,
            origin=str(entry.get("origin") or "catalog"),
            notes={k: v for k, v in entry.items() if k not in _EDITED},
            loaded_id=entity_id(kind, name),
        )


class CurationTable:
    """The rows, in order, with the edits the view offers. ``where`` names the catalog file in
    error messages."""

    def __init__(self, rows: Iterable[EntityRow], where: str, origin: str) -> None:
        self.rows = list(rows)
        self.where = where
        self.origin = origin  # "catalog" (read from the file) or "suggested"

    @classmethod
    def from_entries(cls, entries: Sequence[Any], where: str, origin: str) -> CurationTable:
        Catalog.from_entries(entries, where)  # refuse what the build would refuse
        return cls((EntityRow.from_entry(e) for e in entries), where, origin)

    @classmethod
    def from_suggestion(cls, suggestion: CatalogSuggestion, where: str) -> CurationTable:
        return cls((EntityRow.from_entry(e) for e in suggestion.entries()), where, "suggested")

    # --- finding rows ----------------------------------------------------------------------

    def index(self, row: int | str) -> int:
        """A row by position, or by its current entity id (``service:frontend``)."""
        if isinstance(row, int):
            if not 0 <= row < len(self.rows):
                raise self._error(f"there is no row {row} (the table has {len(self.rows)})")
            return row
        for i, candidate in enumerate(self.rows):
            if candidate.entity_id == row:
                return i
        raise self._error(f"no row is the entity {row!r}")

    def matching(self, text: str) -> list[int]:
        """Rows whose id, name, kind or an alias contains ``text``, ignoring case and
        separators ("redwood inference" finds ``redwood-inference``)."""
        needle = slugify(text) if text.strip() else ""
        return [
            i
            for i, r in enumerate(self.rows)
            if not needle
            or any(needle in slugify(f) for f in (r.entity_id, r.name, r.kind, *r.aliases))
        ]

    # --- edits -----------------------------------------------------------------------------

    def rename(self, row: int | str, name: str) -> None:
        i, new = self.index(row), name.strip()
        if not new:
            raise self._error(f"row {i + 1} ({self.rows[i].name!r}): a name cannot be empty")
        self._unique(i, new, self.rows[i].kind)
        target = self.rows[i]
        old = target.name
        target.name = new
        # the text still writes the old name: it stays an alias, so that discovery, which
        # finds it again on every build, finds this row (``zehn.reading.names.curated``)
        if old.strip().lower() != new.lower() and old not in target.aliases:
            target.aliases.append(old)

    def set_kind(self, row: int | str, kind: str) -> None:
        i = self.index(row)
        if kind not in ENTITY_KINDS:
            raise self._error(f"row {i + 1}: kind {kind!r}; use one of {ENTITY_KINDS}")
        self._unique(i, self.rows[i].name, kind)
        self.rows[i].kind = str(kind)  # a plain string, even for an EntityKind

    def add_alias(self, row: int | str, alias: str) -> list[str]:
        """Add ``alias``; the notes returned say which other rows already answer to it (their
        mentions of it become ambiguous: the two rows are never merged)."""
        i, new = self.index(row), alias.strip()
        target = self.rows[i]
        if not new:
            raise self._error(f"row {i + 1} ({target.name!r}): an alias cannot be empty")
        if new.lower() in (f.lower() for f in (target.name, *target.aliases)):
            raise self._error(f"row {i + 1} ({target.name!r}) already answers to {new!r}")
        target.aliases.append(new)
        return [
            f"{new!r} also names {r.name!r} ({r.kind}): its mentions will be ambiguous "
            "unless that row is changed too"
            for j, r in enumerate(self.rows)
            if j != i and not r.not_entity
            if new.lower() in (f.lower() for f in (r.name, *r.aliases))
        ]

    def remove_alias(self, row: int | str, alias: str) -> None:
        i = self.index(row)
        target = self.rows[i]
        if alias not in target.aliases:
            raise self._error(f"row {i + 1} ({target.name!r}) has no alias {alias!r}")
        target.aliases.remove(alias)

    def split_alias(self, row: int | str, alias: str, kind: str | None = None) -> int:
        """Take ``alias`` out of the row into an entity of its own (same kind unless ``kind``),
        placed right after it; returns the new row's position."""
        i = self.index(row)
        source = self.rows[i]
        if alias not in source.aliases:
            raise self._error(f"row {i + 1} ({source.name!r}) has no alias {alias!r} to split")
        new_kind = str(kind or source.kind)
        if new_kind not in ENTITY_KINDS:
            raise self._error(f"kind {new_kind!r}; use one of {ENTITY_KINDS}")
        self._unique(None, alias, new_kind)
        source.aliases.remove(alias)
        split = EntityRow(
            name=alias,
            kind=new_kind,
            origin=source.origin,
            notes={"split_from": source.name},
        )
        self.rows.insert(i + 1, split)
        return i + 1

    def mark_not_entity(self, row: int | str, flag: bool = True) -> None:
        self.rows[self.index(row)].not_entity = flag

    # --- the catalog -----------------------------------------------------------------------

    def entries(self) -> list[dict[str, Any]]:
        return [r.to_entry() for r in self.rows]

    def validate(self) -> Catalog:
        """The catalog these rows make, or ``CatalogError`` saying why not."""
        return Catalog.from_entries(self.entries(), self.where)

    def _unique(self, i: int | None, name: str, kind: str) -> None:
        """Two rows with one name and kind would be one entity: refused, never merged."""
        wanted = entity_id(kind, name)
        for j, other in enumerate(self.rows):
            if j != i and other.entity_id == wanted:
                raise self._error(
                    f"row {j + 1} is already {other.name!r} ({other.kind}); rows are never "
                    "merged: add an alias to one of them, or mark one not an entity"
                )

    def _error(self, reason: str) -> CatalogError:
        return CatalogError(self.where, reason)


# --- what a rebuild changed ---------------------------------------------------------------


Triple = tuple[str, str, str]


@dataclass(frozen=True)
class GraphState:
    """What a graph holds, as far as curation changes it: entities and (distinct) edges."""

    entities: Mapping[str, str]  # id -> name
    edges: Mapping[Triple, int]  # (subject, predicate, object) -> sentences stating it


@dataclass(frozen=True)
class GraphChanges:
    """Entities and edges the new graph has that the old one had not, and the reverse."""

    entities_gained: tuple[tuple[str, str], ...]  # (id, name)
    entities_lost: tuple[tuple[str, str], ...]
    edges_gained: tuple[Triple, ...]
    edges_lost: tuple[Triple, ...]
    entities_before: int = 0
    entities_after: int = 0
    edges_before: int = 0
    edges_after: int = 0

    @property
    def unchanged(self) -> bool:
        return not (
            self.entities_gained or self.entities_lost or self.edges_gained or self.edges_lost
        )


def compare_states(before: GraphState, after: GraphState) -> GraphChanges:
    """Compare two graphs' entities by id and edges by (subject, predicate, object)."""
    return GraphChanges(
        entities_gained=tuple(
            sorted((k, v) for k, v in after.entities.items() if k not in before.entities)
        ),
        entities_lost=tuple(
            sorted((k, v) for k, v in before.entities.items() if k not in after.entities)
        ),
        edges_gained=tuple(sorted(e for e in after.edges if e not in before.edges)),
        edges_lost=tuple(sorted(e for e in before.edges if e not in after.edges)),
        entities_before=len(before.entities),
        entities_after=len(after.entities),
        edges_before=len(before.edges),
        edges_after=len(after.edges),
    )


# --- where the catalog lives, and reading it ------------------------------------------------


def catalog_location(corpus_path: Path, home: Path | None = None) -> Path:
    """Where the corpus's catalog lives: ``catalog.yaml`` in a corpus folder (beside its
    ``sources/``, where the build reads it), else ``<name>.catalog.yaml`` beside the folder or
    file — its own, never shared with a sibling folder, and never inside the sources.

    A folder that is read-only (no write permission bits, as a shared corpus is mounted, even
    for root) is never written: with ``home`` the catalog goes to
    ``home/catalogs/<name>-<hash of the path>/catalog.yaml`` instead."""
    corpus_path = Path(corpus_path)
    if (corpus_path / "sources").is_dir():
        beside = corpus_path / "catalog.yaml"
    else:
        beside = corpus_path.parent / f"{corpus_path.name}.catalog.yaml"
    if home is None or _writable(beside.parent):
        return beside
    digest = hashlib.sha1(str(corpus_path.resolve()).encode()).hexdigest()[:8]
    return Path(home) / "catalogs" / f"{slugify(corpus_path.name, 40)}-{digest}" / "catalog.yaml"


def _writable(folder: Path) -> bool:
    try:
        mode = folder.stat().st_mode
    except OSError:
        return False
    return bool(stat.S_IMODE(mode) & 0o222) and os.access(folder, os.W_OK)


def read_table(where: Path) -> CurationTable:
    """The rows of an existing catalog file; a broken file is reported, never overwritten
    silently (saving over it keeps it as ``.bak``)."""
    try:
        data = load_yaml(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise CatalogError(str(where), f"cannot read: {e}") from e
    entries = data.get("entities") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise CatalogError(str(where), "expected a list of entities (or `entities:` list)")
    return CurationTable.from_entries(entries, str(where), "catalog")
