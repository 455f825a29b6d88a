"""A curated catalog applied to what discovery finds, on every build.

A catalog written by the workbench's Curate tab (``discover: true``) records decisions about
discovered names, not the whole list of components: the corpus may grow, and a component added
later must still be found. So discovery runs, and the decisions are applied to its result:

- a name (or alias) marked ``not_entity`` makes no entity and binds nothing, wherever
  discovery finds it again;
- a discovered entity that a curated entry names — by its name or one of its aliases — is that
  entry: renamed (the old name kept as an alias by the Curate tab), of the curated kind, merged
  with every other discovered name the entry lists as an alias;
- a curated entry that discovery no longer finds stays (the curator said it is one);
- everything else discovery finds is kept as discovered.

A catalog without ``discover`` is the whole list, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from zehn.corpus.model import SourceText
from zehn.reading.model import Entity
from zehn.reading.names.catalog import Catalog
from zehn.reading.names.clues import name_key
from zehn.reading.names.discover import discover_entities


def corpus_entities(documents: Sequence[SourceText], catalog: Catalog | None) -> tuple[Entity, ...]:
    """The entities a corpus is read with: the catalog's, the discovered ones, or the
    discovered ones with a curated catalog's decisions applied."""
    if catalog is None:
        return tuple(discover_entities(documents))
    if not catalog.discover:
        return catalog.entities
    return with_curation(discover_entities(documents), catalog)


def with_curation(discovered: Sequence[Entity], catalog: Catalog) -> tuple[Entity, ...]:
    """``discovered`` with ``catalog``'s decisions applied (see the module's list)."""
    curated: dict[str, Entity] = {}
    for entity in catalog.entities:
        for form in (entity.name, *entity.aliases):
            curated.setdefault(name_key(form), entity)
    rejected = {name_key(n) for n in catalog.not_entities}
    kept: list[Entity] = []
    for entity in discovered:
        key = name_key(entity.name)
        if key in curated or key in rejected:
            continue  # the curated entry stands for it, or it is no entity
        aliases = tuple(a for a in entity.aliases if name_key(a) not in rejected | curated.keys())
        kept.append(entity if aliases == entity.aliases else _with_aliases(entity, aliases))
    return (*catalog.entities, *kept)


def _with_aliases(entity: Entity, aliases: tuple[str, ...]) -> Entity:
    return replace(entity, aliases=aliases)
