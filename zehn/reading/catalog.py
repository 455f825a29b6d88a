"""The entity catalog: ``name``, ``kind``, ``aliases``, ``owner``, as service catalogs export.

Other keys of an entry are kept as documentation and ignored (``zehn catalog suggest`` writes
``mentions``, ``first_sentence`` and ``reasons`` for the analyst). ``origin: discovered``, as a
suggested entry carries it, keeps the cautious binding of discovered names: a name that is an
ordinary English word binds only where the text marks it; without it a name binds everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from zehn.errors import CatalogError
from zehn.reading.model import Entity
from zehn.reading.vocabulary import ENTITY_KINDS

# libyaml's loader where installed: a 50k-entity catalog loads in 0.2 s instead of 2 s
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """Safe YAML (catalogs, gold labels), parsed by libyaml where it is installed."""
    return yaml.load(text, Loader=_LOADER)


@dataclass(frozen=True)
class Catalog:
    """Known entities; the same name may appear once per kind."""

    entities: tuple[Entity, ...]
    source: str = "<memory>"

    def by_id(self) -> dict[str, Entity]:
        return {e.id: e for e in self.entities}

    @classmethod
    def from_entries(cls, entries: Iterable[Any], source: str = "<memory>") -> Catalog:
        entities: list[Entity] = []
        seen: dict[str, int] = {}
        for index, entry in enumerate(entries, start=1):
            entity = _entity(entry, index, source)
            if entity.id in seen:
                raise CatalogError(
                    source,
                    f"entry {index} ({entity.name!r}, {entity.kind}) duplicates entry "
                    f"{seen[entity.id]}; one name may appear once per kind",
                )
            seen[entity.id] = index
            entities.append(entity)
        if not entities:
            raise CatalogError(source, "no entities")
        return cls(tuple(entities), source)

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
        return cls.from_entries(entries, str(path))


def _entity(entry: Any, index: int, source: str) -> Entity:
    if not isinstance(entry, Mapping):
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
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases):
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
        aliases=tuple(a.strip() for a in aliases),
        owner=str(owner) if owner else None,
        description=str(entry.get("description") or ""),
        origin=str(origin),
    )


_ORIGINS = ("catalog", "discovered")


def catalog_yaml(entries: Sequence[Mapping[str, object]], header: str = "") -> str:
    """A catalog file of ``entries`` (``entities:`` list) that ``Catalog.load`` reads back;
    ``header`` lines become comments at the top."""
    comments = "".join(f"# {line}".rstrip() + "\n" for line in header.splitlines())
    body = yaml.safe_dump(
        {"entities": [dict(e) for e in entries]},
        sort_keys=False,
        allow_unicode=True,
        width=100,
    )
    return comments + body
