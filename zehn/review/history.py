"""Investigation history: every answer, as its contract, in the graph ``zehn__workbench``.

One investigation is one ``(:Investigation)`` node written by one parameterised
query, so a save either lands whole or not at all; the managed server's AOF
and RDB persistence keep it across restarts. The stored ``answer_json`` is
exactly ``CitedAnswer.to_dict()``: reopening shows what was answered then,
not a re-run against today's graph.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from zehn.errors import GraphNotFound, QueryError, ZehnError
from zehn.store.client import GraphClient

if TYPE_CHECKING:  # the engine imports the audit, which imports this module
    import pandas as pd

    from zehn.engine.answer import CitedAnswer

WORKBENCH_GRAPH = "zehn__workbench"
LABEL = "Investigation"
_SAVE = (
    "MERGE (i:Investigation {id: $id}) "
    "ON CREATE SET i.asked_at = $asked_at, i.question = $question, i.status = $status, "
    "i.graph = $graph, i.policy = $policy, i.model = $model, i.answer_json = $answer_json "
    "RETURN i.id"
)
_LIST = (
    "MATCH (i:Investigation) "
    "RETURN i.id, i.asked_at, i.question, i.status, i.graph, i.policy, i.model "
    "ORDER BY i.asked_at DESC, i.id DESC LIMIT $limit"
)
_LOAD = "MATCH (i:Investigation {id: $id}) RETURN i.answer_json LIMIT 1"
_COLUMNS = ["id", "asked_at", "question", "status", "graph", "policy", "model"]


class HistoryNotFound(ZehnError):
    """No investigation with this id in the history graph."""

    def __init__(self, investigation_id: str, graph: str) -> None:
        self.id = investigation_id
        self.graph = graph
        super().__init__(f"no investigation {investigation_id!r} in graph {graph!r}")


@dataclass(frozen=True)
class HistoryEntry:
    """One row of the history list: enough to recognise an investigation, not its answer."""

    id: str
    asked_at: str
    question: str
    status: str
    graph: str
    policy: str
    model: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _COLUMNS}


class History:
    """Saves, lists and reloads investigations in one workbench graph."""

    def __init__(self, client: GraphClient, graph: str = WORKBENCH_GRAPH) -> None:
        self.client = client
        self.graph = graph
        self._indexed = False

    def save(self, answer: CitedAnswer, *, asked_at: datetime | None = None) -> str:
        """Persist one investigation atomically; returns its id (never overwrites another)."""
        when = (asked_at or datetime.now(UTC)).astimezone(UTC)
        stamp = when.isoformat(timespec="microseconds").replace("+00:00", "Z")
        contract = answer.to_dict()
        answer_json = json.dumps(contract, ensure_ascii=False, sort_keys=True)
        policy = answer.policy.get("name") if isinstance(answer.policy, dict) else None
        params = {
            "asked_at": stamp,
            "question": answer.question,
            "status": answer.status,
            "graph": answer.graph,
            "policy": str(policy or ""),
            "model": answer.model,
            "answer_json": answer_json,
        }
        self._ensure_index()
        for _ in range(3):  # a clash of ids needs the same microsecond and hash: retry anyway
            params["id"] = make_id(when, answer_json)
            result = self.client.write(self.graph, _SAVE, params)
            if result.stats.get("nodes_created", 0) == 1:
                return str(params["id"])
        raise QueryError(f"could not find a free investigation id in graph {self.graph!r}")

    def list(self, limit: int = 50) -> list[HistoryEntry]:
        """The latest ``limit`` investigations, newest first (none yet: an empty list)."""
        if limit <= 0:
            return []
        try:
            rows = self.client.read(self.graph, _LIST, {"limit": int(limit)}).rows
        except GraphNotFound:
            return []  # nothing saved yet on this server: the graph is created by the first save
        return [
            HistoryEntry(*(str(value) if value is not None else "" for value in row))
            for row in rows
        ]

    def load(self, investigation_id: str) -> dict[str, Any]:
        """The stored answer contract (``CitedAnswer.to_dict()``) of one investigation."""
        try:
            raw = self.client.read(self.graph, _LOAD, {"id": str(investigation_id)}).scalar()
        except GraphNotFound as e:
            raise HistoryNotFound(str(investigation_id), self.graph) from e
        if raw is None:
            raise HistoryNotFound(str(investigation_id), self.graph)
        contract: dict[str, Any] = json.loads(str(raw))
        return contract

    def to_frame(self, limit: int = 50) -> pd.DataFrame:
        """The history list as a table, newest first."""
        import pandas as pd  # imported here: it costs half a second at start-up

        return pd.DataFrame([e.to_dict() for e in self.list(limit)], columns=_COLUMNS)

    def _ensure_index(self) -> None:
        """An index on Investigation.id: ``load`` and the MERGE stay fast as history grows."""
        if self._indexed:
            return
        try:
            self.client.write(self.graph, f"CREATE INDEX FOR (i:{LABEL}) ON (i.id)")
        except QueryError as e:
            if "already indexed" not in str(e):
                raise
        self._indexed = True


def make_id(when: datetime, answer_json: str) -> str:
    """``20250101T120000.123456Z-1a2b3c4d``: sortable, readable, unique per save."""
    stamp = when.astimezone(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    digest = hashlib.sha256(f"{answer_json}\x1f{uuid.uuid4().hex}".encode()).hexdigest()
    return f"{stamp}-{digest[:8]}"
