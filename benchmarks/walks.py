"""The frontier walk as raw Cypher, the old path-enumerating walk, memory of the server
process, and a fresh process's first answer on a loaded graph (``benchmarks.run`` uses them).

"Raw" means the engine's own query texts sent through the plain client: no parameter
checks, no grading, no snapshot; the breadth-first bookkeeping is the engine's own
(``zehn.engine.frontier``), so the ratio measures what the engine adds to the same walk.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zehn.engine.frontier import DEFAULT_COUNT_LIMIT, DEFAULT_NEAREST, Readers, walk
from zehn.queries.named import MAX_FRONTIER, QUERIES
from zehn.store.client import GraphClient

RAW_SENTENCES = (
    "UNWIND $keys AS k MATCH ()-[r:RELATES {key: k}]->() WITH r "
    "MATCH (s:Sentence {id: r.sentence_id}) RETURN r.key, s.id, s.text"
)


def raw_frontier(
    client: GraphClient, graph: str, policy_params: dict[str, Any], start: str, depth: int
) -> int:
    """The engine's frontier walk as raw Cypher: one layer query per depth (its entities by
    kind) up to the same counting budget, the parent edges of the nearest K entities and
    their entity ids, and their sentences. Returns the entities reached."""

    def reader(name: str) -> Callable[[list[int]], list[dict[str, Any]]]:
        cypher = QUERIES[name].cypher

        def read(ids: list[int]) -> list[dict[str, Any]]:
            rows: list[dict[str, Any]] = []
            for i in range(0, len(ids), MAX_FRONTIER):
                extra = policy_params if "$reverse" in cypher else {}
                params = {**extra, "frontier": ids[i : i + MAX_FRONTIER]}
                rows.extend(client.read(graph, cypher, params).records())
            return rows

        return read

    node = client.read(graph, QUERIES["entity_node"].cypher, {"entity_id": start}).scalar()
    if node is None:
        return 0
    read = Readers(
        reader("impact_layer"),
        reader("impact_parents"),
        reader("upstream_parents"),  # the edges on from entities: the walk's children
        reader("node_entities"),
    )
    found = walk(int(node), start, depth, read, DEFAULT_COUNT_LIMIT)
    shown = list(found.reached)[:DEFAULT_NEAREST]
    found.learn_parents(shown)
    keys = sorted({k for e in found.via for _p, k in found.via[e]})
    if keys:
        client.read(graph, RAW_SENTENCES, {"keys": keys})
    return len(found.reached)


def raw_paths(
    client: GraphClient, graph: str, policy_params: dict[str, Any], start: str, depth: int
) -> int:
    """The walk as it was before the frontier walk: every path up to ``depth`` (2,000 rows
    per depth at most) and the sentences of every edge on them. Returns the paths."""
    keys: set[str] = set()
    paths = 0
    for d in range(1, depth + 1):
        cypher = QUERIES["downstream_impact"].variants[d]
        rows = client.read(graph, cypher, {**policy_params, "entity_id": start}).rows
        paths += len(rows)
        for _nodes, walked in rows:
            keys.update(walked)
    ordered = sorted(keys)
    for i in range(0, len(ordered), 5_000):
        client.read(graph, RAW_SENTENCES, {"keys": ordered[i : i + 5_000]})
    return paths


def server_memory(client: GraphClient) -> dict[str, Any]:
    """The server's own accounting now and at its peak, and its process's resident set."""
    info = client._db.connection.info("memory")  # the redis connection, for this metric only
    out: dict[str, Any] = {
        "server_used_memory_mb": int(info.get("used_memory", 0)) / 2**20,
        "server_peak_memory_mb": int(info.get("used_memory_peak", 0)) / 2**20,
        "server_peak_memory": info.get("used_memory_peak_human"),
    }
    pid = client.server.pid if client.server is not None else None
    status = Path(f"/proc/{pid}/status") if pid else None
    if status is not None and status.is_file():
        fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        for name, key in (("VmHWM", "server_peak_rss_mb"), ("VmRSS", "server_rss_mb")):
            if name in fields:
                out[key] = int(fields[name].split()[0]) / 1024
    return out


_FIRST = """
import sys, time
started = time.perf_counter()
from pathlib import Path
from zehn.config import Settings
from zehn.engine.loop import Engine
from zehn.evidence.policy import load_policy
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient
client = GraphClient.connect(Settings(home=Path(sys.argv[1])))
engine = Engine(client, sys.argv[2], load_policy("production"), OfflineModel())
asked = time.perf_counter()
answer = engine.ask(sys.argv[3])
print(round(time.perf_counter() - started, 3), round(time.perf_counter() - asked, 3),
      answer.status)
"""


def fresh_python(
    repo: Path, home: Path, script: str, args: list[str], *, timeout: float
) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``script`` in a new Python process with ``ZEHN_HOME=home`` (its own managed server,
    never ``FALKORDB_URL``), ``home`` as its first argument; the result and the wall time."""
    env = {**os.environ, "ZEHN_HOME": str(home)}
    env.pop("FALKORDB_URL", None)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", script, str(home), *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return done, time.perf_counter() - started


def first_answer(repo: Path, home: Path, graph: str, question: str) -> dict[str, Any]:
    """A fresh Python process against the running server holding ``graph``: start-up,
    imports, connection and the first investigation (nothing known about the graph)."""
    done, wall = fresh_python(repo, home, _FIRST, [graph, question], timeout=600)
    if done.returncode != 0:
        return {"first_answer_s": None, "first_answer_error": done.stderr[-500:]}
    _total, ask, status = done.stdout.split()[-3:]
    return {"first_answer_s": wall, "first_answer_ask_s": float(ask), "first_answer_status": status}
