"""Runs named queries for an investigation and records every evidence ID they return.

Path queries come back graded: the executor fetches each edge's sentence
(``edges_by_keys``), grades every hop against its own sentence, and hands the
model paths with labels, reasons and verbatim quotes. Policy predicates are
filled in here, never by the model.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from zehn.engine.frontier import Bounded, Readers, WalkLimits, nearest, walk
from zehn.engine.reread import reread
from zehn.engine.snapshot import GraphSnapshot, snapshot_for
from zehn.errors import QueryError, UnknownPredicate, UnknownQuery
from zehn.evidence.grade import SUPPORTED, Evidence, GradedPath, Negation, graded_hop
from zehn.evidence.policy import Policy
from zehn.queries import QUERIES, NamedQuery, get_query
from zehn.queries.named import MAX_PATH_ROWS
from zehn.queries.spec import MAX_LIST
from zehn.queries.terms import fulltext_query
from zehn.reading.modality import NEGATION
from zehn.reading.vocabulary import GradeLabel
from zehn.store.client import GraphClient

NO_SEARCH = (
    "the graph has no full-text index on sentences (built before sentence search): "
    "relations the build missed were not searched for; rebuild the graph to search them"
)


@dataclass
class ToolOutcome:
    """What one call returned: a JSON-able payload and the sentence IDs in it."""

    query: str
    params: dict[str, Any]
    payload: dict[str, Any]
    returned_ids: tuple[str, ...]
    ms: float
    paths: tuple[GradedPath, ...] = ()
    rows: list[dict[str, Any]] = field(default_factory=list)

    def as_text(self) -> str:
        return json.dumps(self.payload, ensure_ascii=False, default=str)


class ToolExecutor:
    """One per investigation: the only way the question path reaches the database."""

    def __init__(
        self, client: GraphClient, graph: str, policy: Policy, limits: WalkLimits | None = None
    ) -> None:
        self.client = client
        self.graph = graph
        self.policy = policy
        self.limits = limits or WalkLimits()
        self._predicates: tuple[str, ...] | None = None
        self._searchable: bool | None = None
        self._snapshot: GraphSnapshot | None = None

    def tool_queries(self) -> list[NamedQuery]:
        return [q for q in QUERIES.values() if not q.internal]

    def run(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        """Validate, run read-only, post-process. Raises ZehnError families.

        Engine-internal queries are not tools: a model naming one is refused
        like any query off the whitelist.
        """
        query = get_query(name)
        if query.internal:
            raise UnknownQuery(name, tuple(q.name for q in self.tool_queries()))
        params = query.validate(arguments)
        started = time.perf_counter()
        if query.from_snapshot and self.snapshot().revision is not None:
            rows = self.snapshot().find_entities(str(params["text"]))
            ms = (time.perf_counter() - started) * 1000
            return ToolOutcome(name, params, {"rows": rows, "count": len(rows)}, (), ms, (), rows)
        bound = self._bind_policy(query, params)
        rows, cut, bounded = self._walk(query, params, bound)
        if query.returns_paths:
            paths = list(bounded.paths) if bounded else self._graded_paths(rows)
            payload = self._path_payload(query, params, paths, bounded, cut)
            ids = tuple(dict.fromkeys(sid for p in paths for h in p.hops for sid in h.sentence_ids))
            ms = (time.perf_counter() - started) * 1000
            return ToolOutcome(name, params, payload, ids, ms, tuple(paths), rows)
        if query.fulltext is not None and not self.can_search():
            # a graph built before sentence search: "nothing found" would look like an answer
            ms = (time.perf_counter() - started) * 1000
            note = {"rows": [], "count": 0, "unavailable": NO_SEARCH}
            return ToolOutcome(name, params, note, (), ms)
        ids = tuple(dict.fromkeys(_sentence_ids(rows)))
        payload = {"rows": rows, "count": len(rows)}
        read_again: tuple[GradedPath, ...] = ()
        if query.fulltext is not None:  # the found sentences, re-read like extraction reads
            read_again = tuple(reread(rows, self.snapshot()))
            payload["paths"] = [_path_for_model(p) for p in read_again]
        ms = (time.perf_counter() - started) * 1000
        return ToolOutcome(name, params, payload, ids, ms, read_again, rows)

    def _walk(
        self, query: NamedQuery, params: dict[str, Any], bound: dict[str, Any]
    ) -> tuple[list[dict[str, Any]], list[int], Bounded | None]:
        """The query's rows: a frontier walk (bounded), every depth's fixed variant, or one
        read; with the depths whose rows reached the limit."""
        cut: list[int] = []  # depths whose walk reached the row limit
        if query.frontier is not None:  # each reached entity once; a large walk is bounded
            bounded = self._frontier(query.frontier, bound)
            if bounded is not None:
                return [], cut, bounded
        if query.variants:  # paths of every length up to depth, each from its fixed variant
            rows: list[dict[str, Any]] = []
            for depth in range(1, int(params["depth"]) + 1):
                found = self._read(query, {**bound, "depth": depth})
                if len(found) >= MAX_PATH_ROWS:
                    cut.append(depth)
                rows.extend(found)
            return rows, cut, None
        rows = self._read(query, bound)
        if query.returns_paths and len(rows) >= MAX_PATH_ROWS:
            cut.append(1)
        return rows, cut, None

    def _path_payload(
        self,
        query: NamedQuery,
        params: dict[str, Any],
        paths: list[GradedPath],
        bounded: Bounded | None,
        cut: list[int],
    ) -> dict[str, Any]:
        """What the model reads of a walk: its paths, how it was bounded or cut, and that a
        predicate the policy blocks was looked up directly."""
        payload: dict[str, Any] = {
            "paths": [_path_for_model(p) for p in paths],
            "count": len(paths),
        }
        if bounded is not None:
            payload.update(bounded.payload())
            payload["truncated"] = _bounded_note(bounded)
        if cut:
            payload["truncated"] = (
                f"the walk stopped at {MAX_PATH_ROWS} paths at depth "
                f"{', '.join(map(str, cut))}: more entities may be at risk"
            )
        asked = params.get("predicate")
        if query.policy_binding == "predicates" and asked in self.policy.blocked():
            payload["policy_note"] = (
                f"{asked} is not traversed by policy {self.policy.name}: "
                f"{self.policy.blocked()[asked]}; this is a direct lookup"
            )
        return payload

    def internal(self, name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        """Run an engine-side query; list parameters are sent in bounded batches. Rows of a
        per-item query are kept per graph revision: only unseen items are asked for."""
        query = get_query(name)
        if query.per_item is not None and self.snapshot().revision is not None:
            return self._per_item(self.snapshot(), query, arguments)
        return self._batched(query, arguments)

    def _per_item(
        self, snap: GraphSnapshot, query: NamedQuery, arguments: dict[str, Any]
    ) -> list[dict[str, Any]]:
        assert query.per_item is not None
        param, field_name = query.per_item
        items = [str(i) for i in dict.fromkeys(arguments[param])]
        rest = json.dumps({k: v for k, v in arguments.items() if k != param}, sort_keys=True)
        memo = snap.rows.setdefault((query.name, rest), {})
        missing = [i for i in items if i not in memo]
        if missing:
            fetched: dict[str, list[dict[str, Any]]] = {i: [] for i in missing}
            for row in self._batched(query, {**arguments, param: missing}):
                fetched.setdefault(str(row[field_name]), []).append(row)
            memo.update(fetched)
        return [row for i in items for row in memo.get(i, ())]

    def _batched(self, query: NamedQuery, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        lists = [k for k, v in arguments.items() if isinstance(v, list) and len(v) > MAX_LIST]
        if not lists:
            return self._read(query, query.validate(arguments))
        key, values = lists[0], arguments[lists[0]]
        rows: list[dict[str, Any]] = []
        for i in range(0, len(values), MAX_LIST):
            rows.extend(self._batched(query, {**arguments, key: values[i : i + MAX_LIST]}))
        return rows

    def can_search(self) -> bool:
        """Whether the graph has the full-text index on sentence text (read once)."""
        if self._searchable is None:
            rows = self.internal("fulltext_indexes", {})
            self._searchable = any(
                r["label"] == "Sentence" and "FULLTEXT" in (r.get("types") or {}).get("text", [])
                for r in rows
            )
        return self._searchable

    def graph_predicates(self) -> tuple[str, ...]:
        if self._predicates is None:
            rows = self.internal("graph_predicates", {})
            self._predicates = tuple(str(r["rel_type"]) for r in rows)
        return self._predicates

    # --- internals ------------------------------------------------------------------

    def _frontier(self, prefix: str, bound: dict[str, Any]) -> Bounded | None:
        """The frontier walk of an impact or upstream query: None when it reaches no more
        entities than an answer shows (then every path is listed, as the variants find
        them), else the nearest entities shown and the rest counted (as far as the walk
        counted: it stops at ``WalkLimits.count_limit`` entities)."""
        policy = {k: bound[k] for k in ("reverse", "forward")}

        def reader(name: str) -> Callable[[list[int]], list[dict[str, Any]]]:
            query = get_query(name)
            size = next(p.max_items for p in query.params if p.name == "frontier")
            extra = policy if query.policy_binding == "impact" else {}

            def read(nodes: list[int]) -> list[dict[str, Any]]:
                rows: list[dict[str, Any]] = []
                for i in range(0, len(nodes), size):
                    batch = query.validate({"frontier": nodes[i : i + size]})
                    rows.extend(self._read(query, {**batch, **extra}))
                return rows

            return read

        start_id, depth = str(bound["entity_id"]), int(bound["depth"])
        started = self.internal("entity_node", {"entity_id": start_id})
        if not started:
            return None  # no such entity: the variants find nothing, as before
        start = int(started[0]["node"])
        other = "upstream" if prefix == "impact" else "impact"  # its parents: our children
        read = Readers(
            reader(f"{prefix}_layer"),
            reader(f"{prefix}_parents"),
            reader(f"{other}_parents"),
            reader("node_entities"),
        )
        found = walk(start, start_id, depth, read, self.limits.count_limit)
        if len(found.reached) <= self.limits.nearest:
            return None  # never a walk that stopped counting: count_limit > nearest
        bounded = nearest(found, self.limits, self._graded_paths)
        self._same_revision()
        return bounded

    def _same_revision(self) -> None:
        """Node ids hold within one revision: a build that swapped the graph in during the
        walk makes its counts meaningless, which is an error, never an answer."""
        known = self.snapshot().revision
        if known is None:
            return
        rows = self.internal("graph_revision", {})
        now = str(rows[0]["revision"]) if rows and rows[0].get("revision") else None
        if now != known:
            raise QueryError(f"graph {self.graph} was rebuilt while the walk ran; ask again")

    def _read(self, query: NamedQuery, params: dict[str, Any]) -> list[dict[str, Any]]:
        return self.client.read(self.graph, query.text_for(params), params).records()

    def _bind_policy(self, query: NamedQuery, params: dict[str, Any]) -> dict[str, Any]:
        bound = dict(params)
        if query.fulltext is not None:
            bound["query"] = fulltext_query(str(params[query.fulltext])) or "_"
        if query.policy_binding == "impact":
            bound["reverse"] = list(self.policy.impact_predicates("reverse"))
            bound["forward"] = list(self.policy.impact_predicates("forward"))
        if query.policy_binding == "predicates":
            predicate = params.get("predicate")
            if predicate is not None:
                known = self.graph_predicates()
                if predicate not in known:
                    raise UnknownPredicate(predicate, self.graph, known)
                bound["predicates"] = [predicate]
            else:
                bound["predicates"] = list(self.policy.traversable())
            bound["direction"] = params.get("direction") or "both"
        return bound

    def snapshot(self) -> GraphSnapshot:
        """What is known about this revision of the graph (read once per investigation)."""
        if self._snapshot is None:
            self._snapshot = snapshot_for(
                self.client.location, self.graph, lambda name, args: self.internal(name, args)
            )
        return self._snapshot

    def _graded_paths(self, rows: list[dict[str, Any]]) -> list[GradedPath]:
        keys = sorted({k for row in rows for k in row["keys"]})
        if not keys:
            return []
        snap = self.snapshot()
        missing = snap.missing_evidence(keys)
        if missing:
            for row in self.internal("edges_by_keys", {"keys": missing}):
                evidence = Evidence.from_row(row)
                snap.evidence[evidence.key] = evidence
        known = {k: snap.evidence[k] for k in keys if k in snap.evidence}
        # A path is a walk over entities; parallel edges between the same two entities
        # on the same predicate are one hop with several sentences.
        walks: dict[tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]], None] = {}
        for row in rows:
            hops = tuple(
                (known[k].source, known[k].rel_type, known[k].target)
                for k in row["keys"]
                if k in known
            )
            if len(hops) == len(row["keys"]):
                walks[(tuple(row["nodes"]), hops)] = None
        by_hop: dict[tuple[str, str, str], list[Evidence]] = defaultdict(list)
        for e in known.values():
            by_hop[(e.source, e.rel_type, e.target)].append(e)
        grades = snap.grade_all(known.values())
        # only support can be superseded: negations are looked up for supported pairs
        pairs = sorted(
            {(e.source, e.target) for k, e in known.items() if grades[k].label == SUPPORTED}
        )
        self._learn_negations(snap, snap.missing_pairs(pairs))
        graded = {
            hop: graded_hop(
                [grades[e.key] for e in sorted(items, key=lambda e: e.sentence_id)],
                snap.negations.get((hop[0], hop[2]), ()),
            )
            for hop, items in by_hop.items()
        }
        names = snap.names
        paths = [
            GradedPath(nodes, tuple(graded[h] for h in hops), names) for (nodes, hops) in walks
        ]
        # strongest first: supported, then inferred, then insufficient
        return sorted(paths, key=lambda p: (-GradeLabel(p.label).rank, len(p.hops), p.nodes))

    def _learn_negations(self, snap: GraphSnapshot, pairs: list[tuple[str, str]]) -> None:
        """Statements between the same entities that negate an edge, flagged or not: the
        grader re-reads each one (a cooccurrence edge never carries the flag)."""
        if not pairs:
            return
        found: dict[tuple[str, str], list[Negation]] = {pair: [] for pair in pairs}
        rows = self.internal("negations", {"pairs": [f"{a} -> {b}" for a, b in pairs]})
        read = [
            Evidence.from_row({**row, "hedged": False})
            for row in rows
            if row.get("negated") or NEGATION.search(str(row["text"]))
        ]  # without a negation word there is no need to re-read a statement
        grader = snap.grader_for([e for e in read if not e.negated]) if read else None
        for evidence in read:
            if evidence.negated or (
                grader is not None
                and grader.grade(evidence).reason.startswith("the sentence negates")
            ):
                negation = Negation.from_evidence(evidence)
                found.setdefault((evidence.source, evidence.target), []).append(negation)
        for pair, negations in found.items():
            snap.negations[pair] = tuple(negations)


def _bounded_note(bounded: Bounded) -> str:
    """What a bounded walk shows and counts, and where it stopped counting (a floor, never
    a total): the answer's ``truncated:`` limitation."""
    shown = (
        f"the nearest {len(bounded.shown)} are shown (supported first) and the rest counted "
        "by distance and kind"
    )
    if bounded.complete:
        return f"the walk reached {bounded.reached:,} entities; {shown}"
    return (
        f"the walk reached at least {bounded.reached:,} entities: it stops counting at "
        f"{bounded.count_limit:,}, so distance {bounded.counted_depth + 1}"
        f"{f'-{bounded.depth}' if bounded.depth > bounded.counted_depth + 1 else ''} was not "
        f"walked or counted; {shown} within distance {bounded.counted_depth}"
    )


def _sentence_ids(rows: list[dict[str, Any]]) -> list[str]:
    ids: list[str] = []
    for row in rows:
        if row.get("sentence_id"):
            ids.append(str(row["sentence_id"]))
        ids.extend(str(s) for s in row.get("evidence") or [])
    return ids


def _path_for_model(path: GradedPath) -> dict[str, Any]:
    return {
        "label": path.label,
        "nodes": list(path.nodes),
        "entities": [path.names.get(n, n) for n in path.nodes],
        "hops": [
            {
                "source": h.source,
                "rel_type": h.rel_type,
                "target": h.target,
                "label": h.label,
                "reason": h.best.reason,
                "sentence_id": h.best.evidence.sentence_id,
                "quote": h.best.evidence.text,
                # every sentence that supports the hop, best first (a draft may cite each)
                "supported": [
                    {"sentence_id": g.evidence.sentence_id, "quote": g.evidence.text}
                    for g in (h.best, *h.alternatives)
                    if g.label == GradeLabel.SUPPORTED
                ],
            }
            for h in path.hops
        ],
    }
