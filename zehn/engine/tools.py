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
from dataclasses import dataclass, field
from typing import Any

from zehn.errors import UnknownPredicate, UnknownQuery
from zehn.extract.cues import NEGATION
from zehn.extract.model import Entity
from zehn.grade import Evidence, GradedPath, Grader, Negation
from zehn.policy import Policy
from zehn.queries import QUERIES, NamedQuery, get_query
from zehn.queries.spec import MAX_LIST
from zehn.store.client import GraphClient


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

    def __init__(self, client: GraphClient, graph: str, policy: Policy) -> None:
        self.client = client
        self.graph = graph
        self.policy = policy
        self._predicates: tuple[str, ...] | None = None
        self._entities: dict[str, Entity] = {}
        self._namesakes_checked: set[str] = set()

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
        bound = self._bind_policy(query, params)
        if query.variants:  # paths of every length up to depth, each from its fixed variant
            rows = [
                row
                for depth in range(1, int(params["depth"]) + 1)
                for row in self._read(query, {**bound, "depth": depth})
            ]
        else:
            rows = self._read(query, bound)
        if query.returns_paths:
            paths = self._graded_paths(rows)
            payload = {"paths": [_path_for_model(p) for p in paths], "count": len(paths)}
            if query.name == "neighbours" and params.get("predicate") in self.policy.blocked():
                payload["policy_note"] = (
                    f"{params['predicate']} is not traversed by policy {self.policy.name}: "
                    f"{self.policy.blocked()[params['predicate']]}; this is a direct lookup"
                )
            ids = tuple(dict.fromkeys(sid for p in paths for h in p.hops for sid in h.sentence_ids))
            ms = (time.perf_counter() - started) * 1000
            return ToolOutcome(name, params, payload, ids, ms, tuple(paths), rows)
        ids = tuple(dict.fromkeys(_sentence_ids(rows)))
        ms = (time.perf_counter() - started) * 1000
        return ToolOutcome(name, params, {"rows": rows, "count": len(rows)}, ids, ms, (), rows)

    def internal(self, name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        """Run an engine-side query; list parameters are sent in bounded batches."""
        query = get_query(name)
        lists = [k for k, v in arguments.items() if isinstance(v, list) and len(v) > MAX_LIST]
        if not lists:
            return self._read(query, query.validate(arguments))
        key, values = lists[0], arguments[lists[0]]
        rows: list[dict[str, Any]] = []
        for i in range(0, len(values), MAX_LIST):
            rows.extend(self.internal(name, {**arguments, key: values[i : i + MAX_LIST]}))
        return rows

    def graph_predicates(self) -> tuple[str, ...]:
        if self._predicates is None:
            rows = self.internal("graph_predicates", {})
            self._predicates = tuple(str(r["rel_type"]) for r in rows)
        return self._predicates

    # --- internals ------------------------------------------------------------------

    def _read(self, query: NamedQuery, params: dict[str, Any]) -> list[dict[str, Any]]:
        return self.client.read(self.graph, query.text_for(params), params).records()

    def _bind_policy(self, query: NamedQuery, params: dict[str, Any]) -> dict[str, Any]:
        bound = dict(params)
        if query.name in ("downstream_impact", "upstream_dependencies"):
            bound["reverse"] = list(self.policy.impact_predicates("reverse"))
            bound["forward"] = list(self.policy.impact_predicates("forward"))
        if query.name == "neighbours":
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

    def _graded_paths(self, rows: list[dict[str, Any]]) -> list[GradedPath]:
        keys = sorted({k for row in rows for k in row["keys"]})
        if not keys:
            return []
        evidence = {
            e.key: e
            for e in (Evidence.from_row(r) for r in self.internal("edges_by_keys", {"keys": keys}))
        }
        endpoints = {e.source for e in evidence.values()} | {e.target for e in evidence.values()}
        sentences = sorted({e.sentence_id for e in evidence.values()})
        grader = Grader(self._entities_for(endpoints, sentences))
        # A path is a walk over entities; parallel edges between the same two entities
        # on the same predicate are one hop with several sentences.
        walks: dict[tuple[tuple[str, ...], tuple[tuple[str, str, str], ...]], set[str]] = (
            defaultdict(set)
        )
        for row in rows:
            hops = tuple(
                (evidence[k].source, evidence[k].rel_type, evidence[k].target)
                for k in row["keys"]
                if k in evidence
            )
            if len(hops) == len(row["keys"]):
                walks[(tuple(row["nodes"]), hops)].update(row["keys"])
        by_hop: dict[tuple[str, str, str], list[Evidence]] = defaultdict(list)
        for e in evidence.values():
            by_hop[(e.source, e.rel_type, e.target)].append(e)
        negations = self._negations(grader, by_hop)
        graded = {
            hop: grader.grade_hop(sorted(items, key=lambda e: e.sentence_id), negations)
            for hop, items in by_hop.items()
        }
        names = {i: e.name for i, e in self._entities.items()}
        paths = [
            GradedPath(nodes, tuple(graded[h] for h in hops), names) for (nodes, hops) in walks
        ]
        rank = {"source-supported": 0, "inferred-assumption": 1, "insufficient-evidence": 2}
        return sorted(paths, key=lambda p: (rank[p.label], len(p.hops), p.nodes))

    def _negations(
        self, grader: Grader, hops: dict[tuple[str, str, str], list[Evidence]]
    ) -> list[Negation]:
        """Statements between the same entities that negate an edge, flagged or not: the
        grader re-reads each one (a cooccurrence edge never carries the flag)."""
        pairs = sorted({f"{source} -> {target}" for source, _, target in hops})
        rows = self.internal("negations", {"pairs": pairs})
        found = []
        for row in rows:
            if not row.get("negated") and not NEGATION.search(str(row["text"])):
                continue  # no negation word: no need to re-read it
            evidence = Evidence.from_row({**row, "hedged": False})
            if evidence.negated or grader.grade(evidence).reason.startswith("the sentence negates"):
                found.append(
                    Negation(evidence.source, evidence.rel_type, evidence.target,
                             evidence.sentence_id, evidence.text, evidence.date,
                             evidence.document, evidence.start)
                )  # fmt: skip
        return found

    def _entities_for(self, ids: set[str], sentences: list[str]) -> list[Entity]:
        """Endpoints, everything else named in their sentences, and namesakes of both."""
        for row in self.internal("entities_in_sentences", {"ids": sentences}):
            if str(row["id"]) not in self._entities:
                self._remember(row)
        missing = sorted(ids - set(self._entities))
        if missing:
            for row in self.internal("entities_by_ids", {"ids": missing}):
                self._remember(row)
        names = sorted({e.name for e in self._entities.values()} - self._namesakes_checked)
        if names:
            for row in self.internal("namesakes", {"names": names}):
                if str(row["id"]) not in self._entities:
                    self._remember(row)
            self._namesakes_checked.update(names)
        return list(self._entities.values())

    def _remember(self, row: dict[str, Any]) -> None:
        entity = Entity(
            name=str(row["name"]),
            kind=str(row["kind"]),
            aliases=tuple(row.get("aliases") or ()),
            origin=str(row.get("origin") or "catalog"),
        )
        self._entities[str(row["id"])] = entity


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
            }
            for h in path.hops
        ],
    }
