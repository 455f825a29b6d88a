"""The graph's name index as the engine reads it: the entities a text can name, by key.

A build stores on each entity the keys its names are found under (``zehn.reading.names.name_keys``)
with range indexes. Binding a question, grading a hop or re-reading a found sentence needs
only the entities whose keys occur in that text, plus two readings that depend on every name
(the one entity with a given last word; the closest code-like name), which are looked up here
too (``NameCatalog``). So the first investigation after a build reads a few entities per text,
never the whole entity list. What is read is kept for the graph revision, as the snapshot
keeps grades: each key and each entity is asked for once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from zehn.queries.name_index import KEY_LENGTH
from zehn.queries.spec import sendable
from zehn.reading.model import Entity
from zehn.reading.names.name_keys import text_keys
from zehn.reading.names.near_names import CodeLikeNames, near_lengths

Reader = Callable[[str, dict[str, Any]], list[dict[str, Any]]]


class NameIndex:
    """Entities by key, read from the graph's name index and kept for one revision."""

    def __init__(self, read: Reader, longest: int, names: dict[str, str]) -> None:
        self._read = read
        self.longest = max(1, longest)
        self.names = names  # entity id -> name of every entity read: paths refer to it
        self.known: dict[str, Entity] = {}
        self.order: dict[str, int] = {}  # entity id -> node id: the order of a full scan
        self.flagged: dict[str, bool] = {}  # entity id -> another kind shares its name
        self._keys: dict[str, dict[str, tuple[str, ...]]] = {"name": {}, "loose": {}}
        self._lnames: dict[str, tuple[str, ...]] = {}
        self._prefixes: dict[str, tuple[str, ...]] = {}
        self._heads: dict[str, list[Entity]] = {}
        self._code_rows: dict[int, list[tuple[int, int, str, str]]] = {}
        self._near: dict[tuple[int, int], CodeLikeNames] = {}
        self._all_namesakes: tuple[str, ...] | None = None
        self._absent: set[str] = set()  # ids asked for that the graph does not have
        self._lock = threading.Lock()

    # --- entities by what a text holds --------------------------------------------------

    def in_texts(self, texts: Iterable[str], also: Iterable[str] = ()) -> list[Entity]:
        """Every entity with a name or alias in one of ``texts`` (as the binder files names),
        and the entities ``also`` names by id, in the order of a full scan."""
        keys: set[str] = set()
        for text in texts:
            keys |= text_keys(text, self.longest)
        ids = set(self._by_keys("name", keys)) | set(self.by_ids(also))
        return self._ordered(ids)

    def loose(self, keys: Iterable[str]) -> list[Entity]:
        """Entities whose name or alias has one of the loose spelling ``keys``."""
        return self._ordered(self._by_keys("loose", set(keys)))

    def by_ids(self, ids: Iterable[str]) -> list[str]:
        """The ids of those entities that exist, each read once."""
        wanted = list(dict.fromkeys(str(i) for i in ids))
        missing = [i for i in wanted if i not in self.known and i not in self._absent]
        missing = [i for i in missing if sendable(i, KEY_LENGTH)]
        if missing:
            for row in self._read("entities_by_ids", {"ids": missing}):
                self._remember(row)
            self._absent.update(i for i in missing if i not in self.known)
        return [i for i in wanted if i in self.known]

    def entity(self, entity_id: str) -> Entity | None:
        self.by_ids([entity_id])
        return self.known.get(entity_id)

    def named(self, lnames: Iterable[str]) -> list[str]:
        """Ids of the entities whose stripped lower-cased name is one of ``lnames``."""
        wanted = [n for n in dict.fromkeys(lnames) if sendable(n, KEY_LENGTH)]
        missing = [n for n in wanted if n not in self._lnames]
        if missing:
            found: dict[str, list[str]] = {n: [] for n in missing}
            for row in self._read("entities_by_lname", {"names": missing}):
                found.setdefault(str(row["lname"]), []).append(self._remember(row))
            self._lnames.update({n: tuple(ids) for n, ids in found.items()})
        return [i for n in wanted for i in self._lnames[n]]

    def named_from(self, prefix: str) -> list[str]:
        """Ids of the entities whose stripped lower-cased name starts with ``prefix``."""
        if not sendable(prefix, KEY_LENGTH):
            return []
        if prefix not in self._prefixes:
            after = prefix[:-1] + chr(ord(prefix[-1]) + 1)  # the first string past them all
            if not sendable(after, KEY_LENGTH):  # "~" + 1 is a control character
                after = prefix + "\uffff"
            rows = self._read("entities_named_from", {"prefix": prefix, "after": after})
            ids = [self._remember(r) for r in rows if str(r["lname"]).startswith(prefix)]
            self._prefixes[prefix] = tuple(ids)
        return list(self._prefixes[prefix])

    # --- NameCatalog: the readings that depend on every name -----------------------------

    def with_head(self, noun: str) -> list[Entity]:
        if noun not in self._heads:
            rows = self._read("entities_by_head", {"noun": noun})
            self._heads[noun] = [self.known[self._remember(r)] for r in rows]
        return list(self._heads[noun])

    def closest_code_like(self, word: str) -> tuple[str, str, float] | None:
        lengths = near_lengths(word)
        span = (lengths.start, lengths.stop - 1)
        names = self._near.get(span)
        if names is None:
            missing = [n for n in lengths if n not in self._code_rows]
            if missing:
                self._read_code_like(missing)
            rows = sorted(r for n in lengths for r in self._code_rows[n])
            names = self._near[span] = CodeLikeNames((form, i) for _n, _p, form, i in rows)
        return names.closest(word)

    def _read_code_like(self, lengths: list[int]) -> None:
        for n in lengths:
            self._code_rows[n] = []
        span = {"shortest": min(lengths), "longest": max(lengths)}
        rows = self._read("code_like_names", span)
        for row in rows:
            for position, form in enumerate(row.get("forms") or ()):
                bucket = self._code_rows.get(len(form))
                if bucket is not None and len(form) in lengths:
                    bucket.append((int(row["node"]), position, str(form), str(row["id"])))

    def namesakes(self) -> tuple[str, ...]:
        """Ids of every entity whose name an entity of another kind has (read once)."""
        if self._all_namesakes is None:
            rows = self._read("namesake_entities", {})
            self._all_namesakes = tuple(self._remember(r) for r in rows)
        return self._all_namesakes

    # --- rows ---------------------------------------------------------------------------

    def _by_keys(self, field: str, keys: set[str]) -> list[str]:
        kept = self._keys[field]
        keys = {k for k in keys if k in kept or sendable(k, KEY_LENGTH)}
        missing = sorted(k for k in keys if k not in kept)
        if missing:
            query = "entities_by_name_keys" if field == "name" else "entities_by_loose_keys"
            found: dict[str, list[str]] = {k: [] for k in missing}
            for row in self._read(query, {"keys": missing}):
                entity_id = self._remember(row)
                for key in row.get("keys") or ():
                    if key in found:
                        found[key].append(entity_id)
            with self._lock:
                kept.update({k: tuple(dict.fromkeys(ids)) for k, ids in found.items()})
        return list(dict.fromkeys(i for k in keys for i in kept.get(k, ())))

    def _remember(self, row: Mapping[str, Any]) -> str:
        entity_id = str(row["id"])
        if entity_id not in self.known:
            entity = Entity.from_row(row)
            self.order[entity_id] = int(row["node"])
            self.flagged[entity_id] = bool(row.get("namesake"))
            self.names[entity_id] = entity.name
            self.known[entity_id] = entity
        return entity_id

    def _ordered(self, ids: Iterable[str]) -> list[Entity]:
        return [self.known[i] for i in sorted(set(ids), key=self.order.__getitem__)]


class Namesakes(Mapping[str, str]):
    """``Question.namesakes`` from the name index: entity id -> kind of an entity whose name
    an entity of another kind has. An answer asks about the few entities it names, each read
    by id; only iterating reads them all (one indexed query)."""

    def __init__(self, index: NameIndex) -> None:
        self._index = index

    def __getitem__(self, entity_id: str) -> str:
        entity = self._index.entity(entity_id)
        if entity is None or not self._index.flagged.get(entity_id):
            raise KeyError(entity_id)
        return entity.kind

    def __iter__(self) -> Iterator[str]:
        return iter(self._index.namesakes())

    def __len__(self) -> int:
        return len(self._index.namesakes())
