"""Measurements: impact query vs raw Cypher vs networkx, offline ask, ingest vs raw load,
memory, cold start. ``python -m benchmarks`` drives them; the smoke test calls them directly."""

from __future__ import annotations

import functools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx

from benchmarks.synthetic import Synthetic, generate_size
from zehn.config import Settings
from zehn.corpus.model import SourceType
from zehn.engine.loop import Engine
from zehn.engine.snapshot import forget_snapshots
from zehn.engine.tools import ToolExecutor
from zehn.errors import ZehnError
from zehn.evidence.policy import Policy, load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.queries.named import QUERIES
from zehn.store.client import GraphClient
from zehn.store.revision import bump_revision
from zehn.store.schema import ensure_schema

BATCH = 5_000
STARTS = 20
DEPTH = 3
# ingest with build_graph is bounded to this many sentences per size (the rest is said in output)
DEFAULT_INGEST_CAP = 50_000

METRIC_KEYS = (
    "entities",
    "edges",
    "sentences",
    "impact_engine_first_p50_ms",
    "impact_engine_first_p95_ms",
    "impact_engine_p50_ms",
    "impact_engine_p95_ms",
    "impact_cypher_p50_ms",
    "impact_cypher_p95_ms",
    "impact_networkx_p50_ms",
    "impact_networkx_p95_ms",
    "ask_p50_ms",
    "ask_p95_ms",
    "ask_hub_p50_ms",
    "ask_hub_p95_ms",
    "ingest_sentences",
    "ingest_sentences_per_s",
    "raw_load_s",
    "raw_load_sentences_per_s",
    "python_peak_rss_mb",
    "server_peak_memory",
    "server_peak_memory_mb",
)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


ERRORS: dict[str, int] = {}


def timed(fn: Callable[[], Any], repeats: int = 1, label: str = "") -> list[float]:
    """Wall times in ms; a ZehnError (e.g. a query timeout) is counted in ERRORS, time kept."""
    out = []
    for _ in range(repeats):
        started = time.perf_counter()
        try:
            fn()
        except ZehnError as e:
            key = f"{label}: {type(e).__name__}"
            ERRORS[key] = ERRORS.get(key, 0) + 1
        out.append((time.perf_counter() - started) * 1000)
    return out


# --- loading -----------------------------------------------------------------------------


def raw_load(client: GraphClient, graph: str, syn: Synthetic) -> float:
    """UNWIND bulk load of the same documents, sentences, entities, mentions and RELATES edges
    (the schema ``build_graph`` writes, without chunks). Returns seconds."""
    if client.graph_exists(graph):
        client.delete_graph(graph)
    started = time.perf_counter()
    ensure_schema(client, graph)
    bump_revision(client, graph)  # as a build does: the engine keeps what it learns per revision
    docs = [
        {"id": d, "title": d, "source_type": SourceType.TEXT.value, "path": f"{d}.md"}
        for d in syn.documents
    ]
    _unwind(client, graph, "UNWIND $rows AS r CREATE (d:Document) SET d = r", docs)
    sentences = [
        {"id": s.id, "doc_id": s.doc_id, "text": s.text, "start": s.start, "end": s.end}
        for s in syn.sentences
    ]
    _unwind(client, graph, "UNWIND $rows AS r CREATE (s:Sentence) SET s = r", sentences)
    entities = [
        {"id": e.id, "name": e.name, "kind": e.kind, "aliases": [], "origin": "catalog"}
        for e in syn.entities
    ]
    _unwind(client, graph, "UNWIND $rows AS r CREATE (e:Entity) SET e = r", entities)
    text = {s.id: s.text for s in syn.sentences}
    names = {e.id: e.name for e in syn.entities}
    mentions = []
    edges = []
    for e in syn.edges:
        sentence = text[e.sentence_id]
        a_end = len(names[e.subject])
        b_start = sentence.rfind(names[e.object])
        mentions.append({"e": e.subject, "s": e.sentence_id, "start": 0, "end": a_end,
                         "surface": names[e.subject]})  # fmt: skip
        b_end = b_start + len(names[e.object])
        mentions.append({"e": e.object, "s": e.sentence_id, "start": b_start, "end": b_end,
                         "surface": names[e.object]})  # fmt: skip
        edges.append(
            {
                "a": e.subject,
                "b": e.object,
                "p": {
                    "key": e.key,
                    "rel_type": e.rel_type,
                    "sentence_id": e.sentence_id,
                    "doc_id": e.doc_id,
                    "start": 0,
                    "end": len(sentence),
                    "fact": sentence,
                    "strategy": "rules",
                    "negated": False,
                    "hedged": False,
                },
            }
        )
    _unwind(
        client,
        graph,
        "UNWIND $rows AS r MATCH (e:Entity {id: r.e}), (s:Sentence {id: r.s}) "
        "CREATE (e)-[:MENTIONED_IN {start: r.start, end: r.end, surface: r.surface, "
        "reason: 'catalog', ambiguous: false}]->(s)",
        mentions,
    )
    _unwind(
        client,
        graph,
        "UNWIND $rows AS r MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b}) "
        "CREATE (a)-[x:RELATES]->(b) SET x = r.p",
        edges,
    )
    return time.perf_counter() - started


def _unwind(client: GraphClient, graph: str, cypher: str, rows: list[dict[str, Any]]) -> None:
    for i in range(0, len(rows), BATCH):
        client.write(graph, cypher, {"rows": rows[i : i + BATCH]})


def ingest_rules(
    client: GraphClient, syn: Synthetic, corpus: str, workdir: Path, cap: int | None
) -> dict[str, Any]:
    """``build_graph`` with the rules strategy over the corpus folder (bounded by ``cap``)."""
    folder = workdir / corpus
    written = syn.write_corpus(folder, max_sentences=cap)
    started = time.perf_counter()
    report = build_graph(client, corpus, folder, "rules", rebuild=True)
    seconds = time.perf_counter() - started
    client.delete_graph(report.graph)
    return {
        "ingest_sentences": written,
        "ingest_bounded": written < len(syn.sentences),
        "ingest_s": seconds,
        "ingest_sentences_per_s": written / seconds if seconds else float("nan"),
        "ingest_edges": report.edges,
        "ingest_entities": report.entities,
    }


# --- queries -----------------------------------------------------------------------------


def start_entities(syn: Synthetic, count: int = STARTS) -> list[str]:
    """Half hubs, a quarter chain ends, the rest ordinary entities: deterministic."""
    hubs = syn.hubs[: count // 2]
    chains = syn.chain_heads[: count // 4]
    taken = set(hubs) | set(chains)
    step = max(1, len(syn.entities) // count)
    ordinary = [e.id for e in syn.entities[::step] if e.id not in taken]
    return (hubs + chains + ordinary)[:count]


def raw_impact_cypher(depth: int) -> str:
    """The engine's fixed-depth impact variant, as written (ids and edge keys per path)."""
    return QUERIES["downstream_impact"].variants[depth]


RAW_SENTENCES = (
    "UNWIND $keys AS k MATCH ()-[r:RELATES {key: k}]->() WITH r "
    "MATCH (s:Sentence {id: r.sentence_id}) RETURN r.key, s.id, s.text"
)


def impact_networkx(syn: Synthetic, policy: Policy) -> nx.DiGraph:
    """Edges in impact direction over the policy's traversable predicates."""
    reverse = set(policy.impact_predicates("reverse"))
    forward = set(policy.impact_predicates("forward"))
    graph = nx.DiGraph()
    for e in syn.edges:
        if e.rel_type in reverse:
            graph.add_edge(e.object, e.subject)
        elif e.rel_type in forward:
            graph.add_edge(e.subject, e.object)
    return graph


def measure_impact(
    client: GraphClient, graph: str, syn: Synthetic, policy: Policy, count: int = STARTS
) -> dict[str, Any]:
    """Four ways to the same 3-hop impact set from the same starts.

    - raw Cypher: the three walk variants and one query for the sentences of the edges
      walked, plain rows through the falkordb client, no grading;
    - engine, first: ``downstream_impact`` with nothing known about the graph (every hop's
      sentence fetched and graded, as in the first investigation after a build);
    - engine, steady: the same after every start was asked once (grades kept per revision);
    - networkx: BFS over the edges held in this process.
    """
    starts = start_entities(syn, count)
    params = {
        "reverse": list(policy.impact_predicates("reverse")),
        "forward": list(policy.impact_predicates("forward")),
    }
    queries = {d: raw_impact_cypher(d) for d in range(1, DEPTH + 1)}
    nxg = impact_networkx(syn, policy)
    paths: list[int] = []
    truncated = [0]

    def engine(s: str) -> None:
        outcome = ToolExecutor(client, graph, policy).run(
            "downstream_impact", {"entity_id": s, "depth": DEPTH}
        )
        paths.append(len(outcome.paths))
        truncated[0] += bool(outcome.payload.get("truncated"))

    def engine_first(s: str) -> None:
        forget_snapshots()
        engine(s)

    def cypher(s: str) -> None:
        keys: set[str] = set()
        for d in range(1, DEPTH + 1):
            for _nodes, walked in client.read(graph, queries[d], {**params, "entity_id": s}).rows:
                keys.update(walked)
        ordered = sorted(keys)
        for i in range(0, len(ordered), BATCH):
            client.read(graph, RAW_SENTENCES, {"keys": ordered[i : i + BATCH]})

    def networkx(s: str) -> None:
        if s in nxg:
            nx.single_source_shortest_path_length(nxg, s, cutoff=DEPTH)

    out: dict[str, Any] = {"impact_starts": len(starts)}
    runners: tuple[tuple[str, Callable[[str], None]], ...] = (
        ("cypher", cypher), ("engine_first", engine_first), ("engine", engine),
        ("networkx", networkx),
    )  # fmt: skip
    for label, fn in runners:
        timed(functools.partial(fn, starts[0]), label=label)  # warm up
        if label == "engine":
            for s in starts:  # steady state: every start asked once before timing
                timed(functools.partial(fn, s), label=label)
        paths.clear()
        truncated[0] = 0
        times = [t for s in starts for t in timed(functools.partial(fn, s), label=label)]
        out[f"impact_{label}_p50_ms"] = statistics.median(times)
        out[f"impact_{label}_p95_ms"] = percentile(times, 95)
        if label == "engine":
            out["impact_paths_p50"] = statistics.median(paths) if paths else 0
            out["impact_paths_max"] = max(paths, default=0)
            out["impact_truncated_walks"] = truncated[0]
    return out


def ask_names(syn: Synthetic, count: int) -> dict[str, list[str]]:
    """Unambiguous names to ask about: hubs (thousands of paths), and ordinary entities
    (every n-th entity that is neither a hub nor shares its name)."""
    by_id = syn.by_id()
    counts: dict[str, int] = {}
    for e in syn.entities:
        counts[e.name] = counts.get(e.name, 0) + 1
    hubs = [by_id[h].name for h in syn.hubs if counts[by_id[h].name] == 1][:count]
    taken = set(syn.hubs)
    step = max(1, len(syn.entities) // (count * 3))
    ordinary = [e.name for e in syn.entities[::step] if e.id not in taken and counts[e.name] == 1][
        :count
    ]
    return {"ordinary": ordinary, "hub": hubs}


def measure_ask(
    client: GraphClient, graph: str, syn: Synthetic, policy: Policy, count: int = 10
) -> dict[str, Any]:
    """The whole offline ``ask`` (resolve, impact, grade, verify, staleness, answer), in the
    steady state (each question asked once before timing), for ordinary and hub entities."""
    engine = Engine(client, graph, policy, OfflineModel())
    out: dict[str, Any] = {}
    statuses: dict[str, int] = {}
    for group, names in ask_names(syn, count).items():
        questions = [f"If I change {name}, what breaks?" for name in names]
        for q in questions:
            engine.ask(q)
        times = []
        for question in questions:
            started = time.perf_counter()
            try:
                status = engine.ask(question).status
            except ZehnError as e:
                status = f"error:{type(e).__name__}"
            times.append((time.perf_counter() - started) * 1000)
            statuses[status] = statuses.get(status, 0) + 1
        suffix = "" if group == "ordinary" else f"_{group}"
        out[f"ask_questions{suffix}"] = len(questions)
        out[f"ask{suffix}_p50_ms"] = statistics.median(times) if times else float("nan")
        out[f"ask{suffix}_p95_ms"] = percentile(times, 95)
    out["ask_statuses"] = statuses
    return out


def memory(client: GraphClient) -> dict[str, Any]:
    info = client._db.connection.info("memory")  # the redis connection, for this metric only
    peak = int(info.get("used_memory_peak", 0))
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "python_peak_rss_mb": rss_kb / 1024,
        "server_peak_memory": info.get("used_memory_peak_human"),
        "server_peak_memory_mb": peak / 2**20,
    }


# --- cold start --------------------------------------------------------------------------

_COLD = """
import sys, tempfile, time
from pathlib import Path
started = time.perf_counter()
from benchmarks.synthetic import generate
from zehn.config import Settings
from zehn.engine.loop import Engine
from zehn.engine.snapshot import forget_snapshots
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.evidence.policy import load_policy
from zehn.store.client import GraphClient
home = Path(sys.argv[1])
client = GraphClient.connect(Settings(home=home))
syn = generate(50, 120, 150, seed=1)
folder = home / "corpus"
syn.write_corpus(folder)
graph = build_graph(client, "cold", folder, "rules").graph
name = syn.by_id()[syn.hubs[0]].name
answer = Engine(client, graph, load_policy("production"), OfflineModel()).ask(
    f"If I change {name}, what breaks?")
print(round(time.perf_counter() - started, 3), answer.status)
"""


def cold_start(repo: Path) -> dict[str, Any]:
    """Empty ZEHN_HOME -> managed server started, tiny corpus built, first answer (seconds)."""
    with tempfile.TemporaryDirectory(prefix="zehn-cold-") as tmp:
        home = Path(tmp) / "home"
        env = {**os.environ, "ZEHN_HOME": str(home)}
        env.pop("FALKORDB_URL", None)
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-c", _COLD, str(home)],
                cwd=repo,
                env=env,
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
            wall = time.perf_counter() - started
        finally:
            from zehn.store.server import ManagedServer

            ManagedServer(home).stop()
    if done.returncode != 0:
        return {"cold_start_s": None, "cold_start_error": done.stderr[-500:]}
    inner, status = done.stdout.split()[-2:]
    return {"cold_start_s": wall, "cold_start_inner_s": float(inner), "cold_start_status": status}


# --- one size ----------------------------------------------------------------------------


def run_size(
    client: GraphClient,
    size: str | Synthetic,
    *,
    seed: int = 7,
    workdir: Path,
    ingest_cap: int | None = DEFAULT_INGEST_CAP,
    prefix: str = "bench",
    starts: int = STARTS,
    log: Callable[[str], None] = lambda _m: None,
) -> dict[str, Any]:
    syn = size if isinstance(size, Synthetic) else generate_size(size, seed)
    label = size if isinstance(size, str) else "custom"
    policy = load_policy("production")
    out: dict[str, Any] = {"size": label, **syn.counts()}
    ERRORS.clear()
    graph = f"{prefix}_{label}_raw"
    log(f"[{label}] raw load {out['edges']} edges ...")
    seconds = raw_load(client, graph, syn)
    out["raw_load_s"] = seconds
    out["raw_load_sentences_per_s"] = len(syn.sentences) / seconds
    log(f"[{label}] ingest (rules) ...")
    out.update(ingest_rules(client, syn, f"{prefix}_{label}", workdir, ingest_cap))
    log(f"[{label}] impact ...")
    out.update(measure_impact(client, graph, syn, policy, starts))
    log(f"[{label}] ask ...")
    out.update(measure_ask(client, graph, syn, policy, max(1, starts // 2)))
    out.update(memory(client))
    out["errors"] = dict(ERRORS)
    client.delete_graph(graph)
    out["ratio_engine_vs_cypher"] = out["impact_engine_p50_ms"] / out["impact_cypher_p50_ms"]
    out["ratio_engine_first_vs_cypher"] = (
        out["impact_engine_first_p50_ms"] / out["impact_cypher_p50_ms"]
    )
    out["ratio_engine_vs_networkx"] = out["impact_engine_p50_ms"] / max(
        out["impact_networkx_p50_ms"], 1e-6
    )
    out["ratio_ingest_vs_raw_load"] = (
        out["ingest_sentences_per_s"] / out["raw_load_sentences_per_s"]
    )
    return out


def connect(home: Path) -> GraphClient:
    return GraphClient.connect(Settings(home=home))
