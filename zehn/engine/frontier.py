"""Frontier walks and bounded answers.

A 3-hop walk from a hub has thousands of distinct paths, and enumerating them
is what made impact answers slow. A frontier walk (breadth first, one named
query per depth) reaches each entity once per depth. When the walk reaches
more entities than an answer can show, the nearest K are shown (supported
first, then shortest path): only their parent edges are read and only their
paths rebuilt and graded. Every other reached entity is counted by distance
and kind (the layer query returns its entities grouped by kind), never listed and
never graded; "truncated" then means entities, not paths.

Counting has a budget too: the walk expands no further layer once it has reached
``WalkLimits.count_limit`` entities. What it reached is still counted exactly, by distance
and kind; the distances beyond are said to be not counted, never shown as zero.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from zehn.engine.answer import Beyond
from zehn.evidence.grade import SUPPORTED, GradedPath

DEFAULT_NEAREST = 25
# The walk stops counting (expands no further layer) once it has reached this many entities.
# At the benchmark's large size a hub reaches 3,600-6,600 entities within 2 hops, and its
# third layer (a 3,500-5,200-entity frontier, ~30,000 rows) takes 190-460 ms for that one
# query; no layer expanded from under 2,000 entities took more than ~65 ms there. It is
# 20 times the entities ever examined (``examine``), so the shown entities never change
# (docs/benchmarks.md, "The counting budget").
DEFAULT_COUNT_LIMIT = 2_000

Reader = Callable[[list[int]], list[dict[str, Any]]]
"""Runs one internal query of a walk for a list of node ids and returns its rows."""
PathGrader = Callable[[list[dict[str, Any]]], list[GradedPath]]
"""Grades path rows ({"nodes", "keys"}) as the executor grades a walk's rows."""
FAN = 4  # distinct parents kept per shown entity (its shortest paths are rebuilt over them)
# Parent edges are read forward, from the whole nearer layer, where that layer's children are
# at most this many per wanted entity; else backward from the wanted entities (whose own
# edges may be thousands: a store that hundreds of services write to).
FORWARD_RATIO = 3


@dataclass(frozen=True)
class Readers:
    """The queries a walk runs, each for a list of node ids (rows as named)."""

    layer: Reader  # the entities one step further, by kind: kind, nodes
    parents: Reader  # the edges back from entities: node, parent (the other end), key
    children: Reader  # the edges on from entities, the walk's way: node, parent (the child), key
    ids: Reader  # the entity ids of nodes: node, id


@dataclass(frozen=True)
class WalkLimits:
    """How much of a large walk an answer shows; the rest is counted.

    ``nearest`` entities are shown (graded, citable); ``paths_per_entity`` shortest
    paths are tried for each until one is supported; at most ``examine`` entities
    are graded looking for supported ones, nearest first. The walk expands no further
    layer once it has reached ``count_limit`` entities (at least ``examine``, so what is
    shown is the same as without it; more than ``nearest``, so a stopped walk is bounded).
    """

    nearest: int = DEFAULT_NEAREST
    paths_per_entity: int = 3
    examine: int = 4 * DEFAULT_NEAREST
    count_limit: int = DEFAULT_COUNT_LIMIT

    def __post_init__(self) -> None:
        if self.nearest < 1 or self.paths_per_entity < 1 or self.examine < self.nearest:
            raise ValueError(
                "WalkLimits: nearest and paths_per_entity must be >= 1 and examine >= nearest, "
                f"not {self.nearest}, {self.paths_per_entity}, {self.examine}"
            )
        if self.count_limit < self.examine or self.count_limit <= self.nearest:
            raise ValueError(
                "WalkLimits: count_limit must be >= examine and > nearest, "
                f"not {self.count_limit} (examine {self.examine}, nearest {self.nearest})"
            )


@dataclass
class Frontier:
    """Every entity a walk reached from ``start`` (a node id), in breadth-first order, with
    its kind; an entity's id and parent edges are read only when its paths are shown.
    ``counted_depth`` is the farthest distance counted whole: ``depth`` unless the walk
    stopped counting at ``count_limit`` entities."""

    start: int
    start_id: str
    read: Readers
    depth: int = 0  # the distance asked for
    count_limit: int | None = None
    counted_depth: int = 0
    reached: dict[int, int] = field(default_factory=dict)  # node id -> shortest distance
    layers: list[list[int]] = field(default_factory=list)  # [start], distance 1, 2, …
    via: dict[int, tuple[tuple[int, str], ...]] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)  # node id -> entity id, where read
    kinds: dict[int, str] = field(default_factory=dict)  # node id -> kind, every reached
    by_distance: dict[int, dict[str, int]] = field(default_factory=dict)  # every reached

    def __post_init__(self) -> None:
        self.ids[self.start] = self.start_id
        self.layers.append([self.start])

    @property
    def complete(self) -> bool:
        """Whether every entity within ``depth`` was reached (and counted)."""
        return self.counted_depth >= self.depth

    def learn_parents(self, nodes: Sequence[int]) -> None:
        """The edges from one layer nearer to each entity, and so on back to the start; then
        the entity ids of every entity on those edges (one query)."""
        wanted = [n for n in dict.fromkeys(nodes) if n in self.reached and n not in self.via]
        learned: list[int] = []
        while wanted:
            learned.extend(wanted)
            found: dict[int, dict[int, list[str]]] = {n: {} for n in wanted}
            for node, parent, key in self._edges_to(wanted):
                if node in found and (
                    parent == self.start or self.reached.get(parent) == self.reached[node] - 1
                ):
                    found[node].setdefault(parent, []).append(key)
            for node, parents in found.items():
                kept = sorted(parents)[:FAN]
                self.via[node] = tuple((p, k) for p in kept for k in sorted(set(parents[p])))
            further = (p for n in found for p, _k in self.via[n])
            wanted = list(
                dict.fromkeys(p for p in further if p != self.start and p not in self.via)
            )
        unnamed = list(dict.fromkeys(n for n in learned if n not in self.ids))
        if unnamed:
            for row in self.read.ids(unnamed):
                self.ids[int(row["node"])] = str(row["id"])

    def _edges_to(self, wanted: Sequence[int]) -> list[tuple[int, int, str]]:
        """(entity, other end, key) of the edges that could reach each wanted entity: read
        forward from its whole nearer layer where that layer leads to few more entities than
        are wanted, else backward from the wanted entities (at most two queries)."""
        at: dict[int, list[int]] = {}
        for node in wanted:
            at.setdefault(self.reached[node], []).append(node)
        forward = [
            d for d, nodes in at.items() if len(self.layers[d]) <= FORWARD_RATIO * len(nodes)
        ]
        backward = [n for d, nodes in at.items() if d not in forward for n in nodes]
        edges: list[tuple[int, int, str]] = []
        if forward:
            nearer = [n for d in sorted(forward) for n in self.layers[d - 1]]
            rows = self.read.children(nearer)
            edges.extend((int(r["parent"]), int(r["node"]), str(r["key"])) for r in rows)
        if backward:
            rows = self.read.parents(backward)
            edges.extend((int(r["node"]), int(r["parent"]), str(r["key"])) for r in rows)
        return edges

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
        counts of every reached entity less the shown ones."""
        counts = {d: dict(kinds) for d, kinds in self.by_distance.items()}
        for node in shown:
            kinds = counts[self.reached[node]]
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
    start: int, start_id: str, depth: int, read: Readers, count_limit: int | None = None
) -> Frontier:
    """Breadth first from the node ``start`` to ``depth``: one layer query per depth (rows:
    a kind and its entities), each entity kept at its shortest distance (a layer in node id
    order) and counted by kind. No further layer is expanded once ``count_limit`` entities
    are reached: ``counted_depth`` then says how far the counts go."""
    frontier = Frontier(start, start_id, read, depth, count_limit)
    reached, kinds = frontier.reached, frontier.kinds
    layer = [start]
    for distance in range(1, depth + 1):
        if not layer:
            break  # nothing further: every distance is counted
        if count_limit is not None and len(reached) >= count_limit:
            frontier.counted_depth = distance - 1
            return frontier
        found: dict[str, set[int]] = {}  # kind -> entities (an entity has one kind)
        for row in read.layer(layer):
            found.setdefault(str(row["kind"] or ""), set()).update(map(int, row["nodes"]))
        counts: dict[str, int] = {}
        fresh: list[int] = []
        for kind, nodes in found.items():
            new = nodes.difference(reached, (start,))
            if new:
                counts[kind] = len(new)
                kinds.update(dict.fromkeys(new, kind))
                fresh.extend(new)
        layer = sorted(fresh)
        reached.update(dict.fromkeys(layer, distance))
        frontier.layers.append(layer)
        if counts:
            frontier.by_distance[distance] = counts
    frontier.counted_depth = depth
    return frontier


@dataclass(frozen=True)
class Bounded:
    """The shown part of a large walk and the count of the rest."""

    paths: tuple[GradedPath, ...]
    shown: tuple[str, ...]  # entity ids, supported first, then nearest
    reached: int
    counted: Mapping[int, Mapping[str, int]]  # distance -> kind -> count (not shown)
    depth: int  # the distance asked for
    counted_depth: int  # the farthest distance counted whole (< depth: the walk stopped)
    count_limit: int  # the walk stops counting once it reaches this many entities

    @property
    def complete(self) -> bool:
        return self.counted_depth >= self.depth

    def payload(self) -> dict[str, Any]:
        """The JSON a model (and the answer contract) gets beside the shown paths."""
        return {
            "reached": self.reached,
            "shown": len(self.shown),
            "counted": {str(d): dict(k) for d, k in self.counted.items()},
            "depth": self.depth,
            "counted_depth": self.counted_depth,
            "complete": self.complete,
            "count_limit": self.count_limit,
        }


def nearest(frontier: Frontier, limits: WalkLimits, grade: PathGrader) -> Bounded:
    """The nearest ``limits.nearest`` reached entities, supported first: candidates are
    graded nearest first, in batches, only their own paths; the rest is counted.

    The first batch is the nearest K; each later one is sized to find the supported still
    needed at the rate found so far, with a margin (every candidate's grade is its own, so
    the batches change what is read, never what is shown: the first K supported in
    breadth-first order, or all supported and the nearest others among the ``examine``)."""
    order = list(frontier.reached)  # breadth-first: distance, then node id
    best: dict[int, list[GradedPath]] = {}
    supported: list[int] = []
    others: list[int] = []
    examined, size = 0, limits.nearest
    cap = min(len(order), limits.examine)
    while len(supported) < limits.nearest and examined < cap:
        batch = order[examined : min(examined + size, cap)]
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
        need = limits.nearest - len(supported)
        size = max(need, -(-2 * need * examined // max(len(supported), 1)))
    shown = (supported[: limits.nearest] + others)[: limits.nearest]
    paths = [p for e in shown for p in _keep(best[e])]
    return Bounded(
        tuple(paths),
        tuple(frontier.ids[n] for n in shown),
        len(frontier.reached),
        frontier.counted(set(shown)),
        frontier.depth,
        frontier.counted_depth,
        limits.count_limit,
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


def beyond_text(
    counted: Mapping[int, Mapping[str, int]],
    language: str = "en",
    *,
    counted_depth: int | None = None,
    count_limit: int = 0,
) -> str:
    """'and 5,180 more at distance 3: 4,900 services, 280 teams — name a kind or a team to
    narrow' (code, not the model: counts are facts of the walk, not claims to cite). With
    ``counted_depth`` (the walk stopped counting there) the total is a floor and the text
    says so: 'and at least 6,591 more …; not counted beyond distance 2 (…)'."""
    total = sum(n for kinds in counted.values() for n in kinds.values())
    if not total and counted_depth is None:
        return ""
    if language == "zh":
        parts = [
            f"距离 {d}：" + "，".join(f"{n:,} 个{kind}" for kind, n in kinds.items())
            for d, kinds in counted.items()
        ]
        listed = f"（{'；'.join(parts)}）" if parts else ""
        if counted_depth is None:
            return f"另有 {total:,} 个未列出{listed}——请指明类型或团队以缩小范围"
        return (
            f"另有至少 {total:,} 个未列出{listed}；距离 {counted_depth} 以外未计数"
            f"（遍历达到 {count_limit:,} 个实体即停止计数）——请指明类型或团队以缩小范围"
        )
    parts = [
        f"at distance {d}: " + ", ".join(f"{n:,} {_plural(kind, n)}" for kind, n in kinds.items())
        for d, kinds in counted.items()
    ]
    if counted_depth is None:
        return f"and {total:,} more {'; '.join(parts)} — name a kind or a team to narrow"
    more = f"and at least {total:,} more {'; '.join([*parts, ''])}" if parts else "and "
    return (
        f"{more}not counted beyond distance "
        f"{counted_depth} (the walk stops counting at {count_limit:,} entities) — name a kind "
        "or a team to narrow"
    )


def walk_text(walk: Beyond, language: str = "en") -> str:
    """What a bounded walk counted, and for a walk that stopped counting, that it did."""
    return beyond_text(
        walk.counted,
        language,
        counted_depth=None if walk.complete else walk.counted_depth,
        count_limit=walk.count_limit,
    )


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
        int(payload["depth"]),
        int(payload["counted_depth"]),
        int(payload["count_limit"]),
    )


def with_beyond(text: str, beyond: Sequence[Beyond], language: str = "en") -> str:
    """The answer text with one line per bounded walk saying what was counted, not shown."""
    lines = [line for b in beyond if (line := walk_text(b, language))]
    return "\n".join([text, *dict.fromkeys(lines)]) if lines else text
