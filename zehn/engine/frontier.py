"""Frontier walks and bounded answers.

A 3-hop walk from a hub has thousands of distinct paths, and enumerating them
is what made impact answers slow. A frontier walk (breadth first, one named
query per depth) reaches each entity once per depth. When the walk reaches
more entities than an answer can show, the nearest K are shown (supported
first, then shortest path): only their parent edges are read and only their
paths rebuilt and graded. Every other reached entity is counted by distance
and kind (one aggregate query per depth), never listed and never graded;
"truncated" then means entities, not paths.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from zehn.engine.answer import Beyond
from zehn.evidence.grade import SUPPORTED, GradedPath

DEFAULT_NEAREST = 25

Reader = Callable[[list[int]], list[dict[str, Any]]]
"""Runs one internal query of a walk for a list of node ids and returns its rows."""
PathGrader = Callable[[list[dict[str, Any]]], list[GradedPath]]
"""Grades path rows ({"nodes", "keys"}) as the executor grades a walk's rows."""
FAN = 4  # distinct parents kept per shown entity (its shortest paths are rebuilt over them)


@dataclass(frozen=True)
class WalkLimits:
    """How much of a large walk an answer shows; the rest is counted.

    ``nearest`` entities are shown (graded, citable); ``paths_per_entity`` shortest
    paths are tried for each until one is supported; at most ``examine`` entities
    are graded looking for supported ones, nearest first.
    """

    nearest: int = DEFAULT_NEAREST
    paths_per_entity: int = 3
    examine: int = 4 * DEFAULT_NEAREST

    def __post_init__(self) -> None:
        if self.nearest < 1 or self.paths_per_entity < 1 or self.examine < self.nearest:
            raise ValueError(
                "WalkLimits: nearest and paths_per_entity must be >= 1 and examine >= nearest, "
                f"not {self.nearest}, {self.paths_per_entity}, {self.examine}"
            )


@dataclass(frozen=True)
class Reached:
    """An entity the walk reached (by node id), at its shortest distance from the start."""

    node: int
    distance: int


@dataclass
class Frontier:
    """Every entity a walk reached from ``start`` (a node id), in breadth-first order; an
    entity's id and parent edges are read only when its paths are shown."""

    start: int
    start_id: str
    read_parents: Reader
    reached: dict[int, Reached] = field(default_factory=dict)
    via: dict[int, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)  # node id -> entity id, where read
    kinds: dict[int, str] = field(default_factory=dict)  # node id -> kind, where read
    by_distance: dict[int, dict[str, int]] = field(default_factory=dict)  # every reached

    def __post_init__(self) -> None:
        self.ids[self.start] = self.start_id

    def learn_parents(self, nodes: Sequence[int]) -> None:
        """The edges from one layer nearer to each entity, and so on back to the start."""
        wanted = [n for n in dict.fromkeys(nodes) if n in self.reached and n not in self.via]
        while wanted:
            found: dict[int, dict[int, list[str]]] = {n: {} for n in wanted}
            for row in self.read_parents(wanted):
                node, parent = int(row["node"]), int(row["parent"])
                self.ids[node], self.ids[parent] = str(row["id"]), str(row["parent_id"])
                self.kinds[node] = str(row.get("kind") or "")
                nearer = parent == self.start or (
                    parent in self.reached
                    and self.reached[parent].distance == self.reached[node].distance - 1
                )
                if node in found and nearer:
                    found[node].setdefault(parent, []).append(str(row["key"]))
            for node, parents in found.items():
                kept = sorted(parents)[:FAN]
                self.via[node] = tuple((p, k) for p in kept for k in sorted(set(parents[p])))
            further = (p for n in found for p, _k in self.via[n])
            wanted = list(
                dict.fromkeys(p for p in further if p != self.start and p not in self.via)
            )

    def paths_to(self, node: int, limit: int) -> list[list[tuple[int, list[str]]]]:
        """Up to ``limit`` shortest walks from the start to the entity, each a list of
        (node id, keys of the edges from the previous entity), start excluded."""
        self.learn_parents([node])
        found: list[list[tuple[int, list[str]]]] = []

        def back(at: int, tail: list[tuple[int, list[str]]]) -> None:
            if len(found) >= limit:
                return
            if at == self.start:
                found.append(tail)
                return
            keys: dict[int, list[str]] = {}
            for parent, key in self.via.get(at, ()):
                keys.setdefault(parent, []).append(key)
            for parent, parent_keys in keys.items():
                back(parent, [(at, parent_keys), *tail])

        back(node, [])
        return found

    def rows(self, node: int, limit: int) -> list[dict[str, Any]]:
        """Path rows of the walks to the entity (one per combination of parallel edges)."""
        rows: list[dict[str, Any]] = []
        for walked in self.paths_to(node, limit):
            nodes = [self.ids[self.start], *(self.ids[n] for n, _keys in walked)]
            for keys in product(*(k for _n, k in walked)):
                rows.append({"nodes": nodes, "keys": list(keys)})
        return rows

    def counted(self, shown: set[int]) -> dict[int, dict[str, int]]:
        """Reached entities not shown, by distance and kind (most frequent kind first): the
        counts of every reached entity less the shown ones, whose kinds were read."""
        counts = {d: dict(kinds) for d, kinds in self.by_distance.items()}
        for node in shown:
            kinds = counts[self.reached[node].distance]
            kind = self.kinds.get(node, "")
            kinds[kind] = kinds.get(kind, 0) - 1
        return {
            d: dict(
                sorted(((k, n) for k, n in kinds.items() if n > 0), key=lambda kv: (-kv[1], kv[0]))
            )
            for d, kinds in sorted(counts.items())
            if any(n > 0 for n in kinds.values())
        }


def walk(
    start: int,
    start_id: str,
    depth: int,
    read_layer: Reader,
    read_parents: Reader,
    count_kinds: Reader | None = None,
) -> Frontier:
    """Breadth first from the node ``start`` to ``depth``: one layer query per depth, each
    entity kept at its shortest distance (a layer in node id order); with ``count_kinds``,
    each layer's entities counted by kind (one query per layer, a few rows)."""
    frontier = Frontier(start, start_id, read_parents)
    layer = [start]
    for distance in range(1, depth + 1):
        if not layer:
            break
        reached = frontier.reached
        layer = sorted({int(row["node"]) for row in read_layer(layer)} - reached.keys() - {start})
        for node in layer:
            reached[node] = Reached(node, distance)
        if layer and count_kinds is not None:
            frontier.by_distance[distance] = {
                str(row["kind"] or ""): int(row["entities"]) for row in count_kinds(layer)
            }
    return frontier


@dataclass(frozen=True)
class Bounded:
    """The shown part of a large walk and the count of the rest."""

    paths: tuple[GradedPath, ...]
    shown: tuple[str, ...]  # entity ids, supported first, then nearest
    reached: int
    counted: Mapping[int, Mapping[str, int]]  # distance -> kind -> count (not shown)

    def payload(self) -> dict[str, Any]:
        """The JSON a model (and the answer contract) gets beside the shown paths."""
        return {
            "reached": self.reached,
            "shown": len(self.shown),
            "counted": {str(d): dict(k) for d, k in self.counted.items()},
        }


def nearest(frontier: Frontier, limits: WalkLimits, grade: PathGrader) -> Bounded:
    """The nearest ``limits.nearest`` reached entities, supported first: candidates are
    graded nearest first, in batches, only their own paths; the rest is counted."""
    order = list(frontier.reached)  # breadth-first: distance, then node id
    best: dict[int, list[GradedPath]] = {}
    supported: list[int] = []
    others: list[int] = []
    examined = 0
    while len(supported) < limits.nearest and examined < min(len(order), limits.examine):
        batch = order[examined : examined + limits.nearest]
        examined += len(batch)
        frontier.learn_parents(batch)
        first = _graded(grade, frontier, batch, 1)
        unsupported = [n for n in batch if not _any_supported(first.get(n, []))]
        if unsupported and limits.paths_per_entity > 1:
            first.update(_graded(grade, frontier, unsupported, limits.paths_per_entity))
        for node in batch:
            paths = first.get(node, [])
            best[node] = paths
            if paths:  # an edge whose evidence could not be read is counted, not shown
                (supported if _any_supported(paths) else others).append(node)
    shown = (supported[: limits.nearest] + others)[: limits.nearest]
    paths = [p for e in shown for p in _keep(best[e])]
    return Bounded(
        tuple(paths),
        tuple(frontier.ids[n] for n in shown),
        len(frontier.reached),
        frontier.counted(set(shown)),
    )


def _graded(
    grade: PathGrader, frontier: Frontier, nodes: Sequence[int], limit: int
) -> dict[int, list[GradedPath]]:
    rows = [row for n in nodes for row in frontier.rows(n, limit)]
    node_of = {frontier.ids[n]: n for n in nodes if n in frontier.ids}
    by_end: dict[int, list[GradedPath]] = {}
    for path in grade(rows):
        by_end.setdefault(node_of[path.nodes[-1]], []).append(path)
    return by_end


def _any_supported(paths: Sequence[GradedPath]) -> bool:
    return any(p.label == SUPPORTED for p in paths)


def _keep(paths: Sequence[GradedPath]) -> list[GradedPath]:
    """The supported paths of a shown entity, or every path tried when none is."""
    supported = [p for p in paths if p.label == SUPPORTED]
    return supported or list(paths)


def beyond_text(counted: Mapping[int, Mapping[str, int]], language: str = "en") -> str:
    """'and 5,180 more at distance 3: 4,900 services, 280 teams — name a kind or a team to
    narrow' (code, not the model: counts are facts of the walk, not claims to cite)."""
    total = sum(n for kinds in counted.values() for n in kinds.values())
    if not total:
        return ""
    if language == "zh":
        parts = [
            f"距离 {d}：" + "，".join(f"{n:,} 个{kind}" for kind, n in kinds.items())
            for d, kinds in counted.items()
        ]
        return f"另有 {total:,} 个未列出（{'；'.join(parts)}）——请指明类型或团队以缩小范围"
    parts = [
        f"at distance {d}: " + ", ".join(f"{n:,} {_plural(kind, n)}" for kind, n in kinds.items())
        for d, kinds in counted.items()
    ]
    return f"and {total:,} more {'; '.join(parts)} — name a kind or a team to narrow"


def _plural(kind: str, n: int) -> str:
    if n == 1:
        return kind
    return kind + ("es" if kind.endswith("s") else "s")


def beyond_of(query: str, params: Mapping[str, Any], payload: Mapping[str, Any]) -> Beyond | None:
    """What a bounded walk's payload counted (None for a walk shown whole)."""
    counted = payload.get("counted")
    if not isinstance(counted, Mapping):
        return None
    return Beyond(
        query,
        str(params.get("entity_id") or ""),
        int(payload.get("reached") or 0),
        int(payload.get("shown") or 0),
        {int(d): dict(kinds) for d, kinds in counted.items()},
    )


def with_beyond(text: str, beyond: Sequence[Beyond], language: str = "en") -> str:
    """The answer text with one line per bounded walk saying what was counted, not shown."""
    lines = [line for b in beyond if (line := beyond_text(b.counted, language))]
    return "\n".join([text, *dict.fromkeys(lines)]) if lines else text
