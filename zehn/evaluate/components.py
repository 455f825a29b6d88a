"""Discovery measured: a graph's entities against a corpus's labelled components.

``data/gold/<corpus>/components.yaml`` lists the corpus's most important components (name,
kind, aliases), labelled from the text before ZEHN ran on it. Two figures follow:

- **discovered**: labelled components that some entity of the graph names (its name or an
  alias equals a component's name or alias, compared as gold names are: NFKC, case-folded,
  separators removed — ``zehn.evaluate.gold.normalise_name``);
- **top real**: of the graph's most-mentioned entities (30 by default), how many are
  labelled components. An entity that is a real component the labeller left out of the 30
  counts against it: the list is the judge, so the figure is a floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zehn.evaluate.gold import GoldError, name_forms, read_gold_file
from zehn.reading.vocabulary import EntityKind
from zehn.store.client import GraphClient

COMPONENTS_FILE = "components.yaml"
TOP = 30
_ENTITIES = (
    "MATCH (e:Entity) OPTIONAL MATCH (e)-[m:MENTIONED_IN]->() "
    "RETURN e.name, e.aliases, count(m) AS mentions ORDER BY mentions DESC, e.name"
)


@dataclass(frozen=True)
class GoldComponent:
    name: str
    kind: str
    aliases: tuple[str, ...]

    @property
    def forms(self) -> frozenset[str]:
        return name_forms((self.name, *self.aliases))


@dataclass(frozen=True)
class ComponentFigures:
    """How a graph's entities compare with the labelled components (names for people)."""

    labelled: int
    discovered: tuple[str, ...]  # labelled components found, by their gold name
    missed: tuple[str, ...]
    top: tuple[tuple[str, int, str | None], ...]  # (entity, mentions, component it is)

    @property
    def top_real(self) -> int:
        return sum(1 for _, _, component in self.top if component is not None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "components_labelled": self.labelled,
            "components_discovered": len(self.discovered),
            "components_discovered_share": len(self.discovered) / self.labelled
            if self.labelled
            else float("nan"),
            "top_entities": len(self.top),
            "top_real_components": self.top_real,
            "components_missed": list(self.missed),
            "top_not_components": [name for name, _, c in self.top if c is None],
        }


def load_components(gold_dir: Path) -> tuple[GoldComponent, ...]:
    """The labelled components of a gold folder (empty when it has no components.yaml)."""
    path = Path(gold_dir) / COMPONENTS_FILE
    if not path.is_file():
        return ()
    data = read_gold_file(path)
    entries = data.get("components") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise GoldError(f"{path}: needs a 'components' list")
    return tuple(_component(path, i, entry) for i, entry in enumerate(entries))


def component_figures(
    client: GraphClient, graph: str, components: Sequence[GoldComponent], top_n: int = TOP
) -> ComponentFigures:
    """Compare ``graph``'s entities (and their mention counts) with ``components``."""
    rows = client.read(graph, _ENTITIES).rows
    found: set[str] = set()
    top: list[tuple[str, int, str | None]] = []
    for name, aliases, mentions in rows:
        forms = name_forms((str(name), *(str(a) for a in aliases or [])))
        matching = [c.name for c in components if c.forms & forms]
        found.update(matching)
        if len(top) < top_n:
            top.append((str(name), int(mentions), matching[0] if matching else None))
    names = [c.name for c in components]
    return ComponentFigures(
        labelled=len(components),
        discovered=tuple(n for n in names if n in found),
        missed=tuple(n for n in names if n not in found),
        top=tuple(top),
    )


def _component(path: Path, index: int, entry: Any) -> GoldComponent:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise GoldError(f"{path}: component {index} needs a name")
    kind = entry.get("kind")
    if kind not in set(EntityKind):
        raise GoldError(f"{path}: component {entry['name']!r} has an unknown kind {kind!r}")
    aliases = entry.get("aliases") or []
    if not isinstance(aliases, list):
        raise GoldError(f"{path}: component {entry['name']!r}: aliases must be a list")
    return GoldComponent(entry["name"], str(kind), tuple(str(a) for a in aliases))
