"""The entity catalog: ``name``, ``kind``, ``aliases``, ``owner``, as service catalogs export.

Other keys of an entry are kept as documentation and ignored (``zehn catalog suggest`` writes
``mentions``, ``first_sentence`` and ``reasons`` for the analyst). ``origin: discovered``, as a
suggested entry carries it, keeps the cautious binding of discovered names: a name that is an
ordinary English word binds only where the text marks it; without it a name binds everywhere.

``not_entity: true`` records a curator's decision that a name (a word discovery took, the
repository's own name) is not an entity: the entry is kept in the file, so the decision
survives a new suggestion, but it makes no entity and its names bind nothing. ``save_catalog``
writes a catalog atomically after validating it, keeping the previous file as ``.bak``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from zehn.errors import CatalogError
from zehn.reading.model import Entity
from zehn.reading.names import safe_yaml
from zehn.reading.vocabulary import ENTITY_KINDS


def load_yaml(text: str) -> Any:
    """Safe YAML (catalogs, gold labels), parsed by libyaml where it is installed and built
    from its events where the document is plain (``zehn.reading.names.safe_yaml``)."""
    return safe_yaml.load_yaml(text)


@dataclass(frozen=True)
class Catalog:
    """Known entities; the same name may appear once per kind."""

    entities: tuple[Entity, ...]
    source: str = "<memory>"
    # Names (and aliases) of entries marked ``not_entity: true``: no entity, nothing bound.
    not_entities: tuple[str, ...] = ()
    # ``discover: true``: the catalog is a curation of what discovery finds, applied on every
    # build (``zehn.reading.names.curated``); without it the catalog is the whole list
    discover: bool = False

    def by_id(self) -> dict[str, Entity]:
        return {e.id: e for e in self.entities}

    @classmethod
    def from_entries(cls, entries: Iterable[Any], source: str = "<memory>") -> Catalog:
        entities: list[Entity] = []
        seen: dict[str, int] = {}
        rejected: list[tuple[int, str, str | None]] = []
        for index, entry in enumerate(entries, start=1):
            if _not_entity(entry, index, source):
                rejected.append(_rejected(entry, index, source))
                continue
            entity = _entity(entry, index, source)
            entity_id = entity.id
            if entity_id in seen:
                raise CatalogError(
                    source,
                    f"entry {index} ({entity.name!r}, {entity.kind}) duplicates entry "
                    f"{seen[entity_id]}; one name may appear once per kind",
                )
            seen[entity_id] = index
            entities.append(entity)
        if not entities:
            marked = f" ({len(rejected)} marked not_entity)" if rejected else ""
            raise CatalogError(source, f"no entities{marked}")
        names: list[str] = []
        for index, name, kind in rejected:
            clash = seen.get(Entity(name, kind).id) if kind else None  # ids in seen are unique
            if clash is not None:
                raise CatalogError(
                    source,
                    f"entry {index} marks ({name!r}, {kind}) as not an entity, but entry "
                    f"{clash} makes it one; keep one of the two",
                )
            names.append(name)
        if rejected:  # without one, no entry is marked (``_not_entity`` would have said so)
            names.extend(a for entry in entries if _marked(entry) for a in _aliases(entry))
        return cls(tuple(entities), source, tuple(dict.fromkeys(names)))

    @classmethod
    def load(cls, path: Path) -> Catalog:
        """Read a YAML catalog (a list, or a mapping with an ``entities`` list)."""
        try:
            data = load_yaml(Path(path).read_text(encoding="utf-8"))
        except OSError as e:
            raise CatalogError(str(path), f"cannot read: {e.strerror or e}") from e
        except UnicodeDecodeError as e:
            raise CatalogError(str(path), "not UTF-8") from e
        except yaml.YAMLError as e:
            raise CatalogError(str(path), f"not valid YAML: {e}") from e
        entries = data.get("entities") if isinstance(data, Mapping) else data
        if not isinstance(entries, list):
            raise CatalogError(str(path), "expected a list of entities (or `entities:` list)")
        discover = data.get("discover", False) if isinstance(data, Mapping) else False
        if not isinstance(discover, bool):
            raise CatalogError(str(path), f"discover must be true or false, not {discover!r}")
        catalog = cls.from_entries(entries, str(path))
        return replace(catalog, discover=discover) if discover else catalog


def _entity(entry: Any, index: int, source: str) -> Entity:
    if type(entry) is not dict and not isinstance(entry, Mapping):  # a dict: the common case
        raise CatalogError(source, f"entry {index} is not a mapping")
    name = entry.get("name")
    kind = entry.get("kind")
    if not isinstance(name, str) or not name.strip():
        raise CatalogError(source, f"entry {index} has no name")
    if kind not in ENTITY_KINDS:
        raise CatalogError(
            source, f"entry {index} ({name!r}) has kind {kind!r}; use one of {ENTITY_KINDS}"
        )
    aliases = entry.get("aliases") or []
    if aliases and (
        not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases)
    ):
        raise CatalogError(source, f"entry {index} ({name!r}): aliases must be a list of names")
    owner = entry.get("owner")
    origin = entry.get("origin") or "catalog"
    if origin not in _ORIGINS:
        raise CatalogError(
            source, f"entry {index} ({name!r}) has origin {origin!r}; use {_ORIGINS}"
        )
    return Entity(
        name=name.strip(),
        kind=str(kind),
        aliases=tuple([a.strip() for a in aliases]) if aliases else (),
        owner=str(owner) if owner else None,
        description=str(entry.get("description") or ""),
        origin=str(origin),
    )


_ORIGINS = ("catalog", "discovered")


def catalog_yaml(
    entries: Sequence[Mapping[str, object]], header: str = "", *, discover: bool = False
) -> str:
    """A catalog file of ``entries`` (``entities:`` list) that ``Catalog.load`` reads back;
    ``header`` lines become comments at the top; ``discover``: a curation of discovery."""
    comments = "".join(f"# {line}".rstrip() + "\n" for line in header.splitlines())
    body = yaml.safe_dump(
        {**({"discover": True} if discover else {}), "entities": [dict(e) for e in entries]},
        sort_keys=False,
        allow_unicode=True,
        width=100,
    )
    return comments + body


def _marked(entry: Any) -> bool:
    return isinstance(entry, Mapping) and entry.get("not_entity") is True


def _not_entity(entry: Any, index: int, source: str) -> bool:
    """Whether the entry is marked ``not_entity: true`` (anything but a boolean is refused)."""
    if type(entry) is dict and "not_entity" not in entry:  # the common case, first
        return False
    if not isinstance(entry, Mapping) or "not_entity" not in entry:
        return False
    flag = entry["not_entity"]
    if not isinstance(flag, bool):
        raise CatalogError(source, f"entry {index}: not_entity must be true or false, not {flag!r}")
    return flag


def _rejected(entry: Mapping[str, Any], index: int, source: str) -> tuple[int, str, str | None]:
    """A ``not_entity`` entry's name and kind: the name is required, the kind optional."""
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise CatalogError(source, f"entry {index} (not_entity) has no name")
    kind = entry.get("kind")
    if kind is not None and kind not in ENTITY_KINDS:
        raise CatalogError(
            source, f"entry {index} ({name!r}) has kind {kind!r}; use one of {ENTITY_KINDS}"
        )
    if not isinstance(entry.get("aliases") or [], list):
        raise CatalogError(source, f"entry {index} ({name!r}): aliases must be a list of names")
    return index, name.strip(), str(kind) if kind else None


def _aliases(entry: Mapping[str, Any]) -> list[str]:
    return [a.strip() for a in entry.get("aliases") or [] if isinstance(a, str) and a.strip()]


def backup_path(path: Path) -> Path:
    """Where ``save_catalog`` keeps the previous file: ``catalog.yaml.bak`` beside it."""
    return path.with_name(path.name + ".bak")


def save_catalog(
    path: Path,
    entries: Sequence[Mapping[str, object]],
    header: str = "",
    *,
    discover: bool = False,
) -> Path:
    """Validate ``entries`` as ``Catalog.load`` will read them, then write the file atomically.

    A bad edit raises ``CatalogError`` and leaves the file as it was; the previous file is
    kept as ``<name>.bak``, so an analyst can always go back one save.
    """
    path = Path(path)
    text = catalog_yaml(entries, header, discover=discover)
    data = load_yaml(text)
    Catalog.from_entries(data["entities"], str(path))  # exactly what the file will hold
    if not path.parent.is_dir():
        raise CatalogError(str(path), f"cannot write: no folder {path.parent}")
    try:
        if path.exists():
            _write_atomically(backup_path(path), path.read_bytes())
        _write_atomically(path, text.encode("utf-8"))
    except OSError as e:
        raise CatalogError(str(path), f"cannot write: {e.strerror or e}") from e
    return path


def _write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` and rename it over: never a half file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
