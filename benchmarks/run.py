"""Measurements: impact query vs the same frontier walk as raw Cypher (and the old
path-enumerating walk, and networkx), offline ask, ingest vs raw load, memory, cold start and
a fresh process's first answer. ``python -m benchmarks`` drives them; the smoke test calls
them directly."""

from __future__ import annotations

import functools
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import networkx as nx

from benchmarks.synthetic import Synthetic, generate_size
from benchmarks.walks import (
    first_answer,
    fresh_python,
    raw_frontier,
    raw_paths,
    server_memory,
)
from zehn.config import Settings
from zehn.corpus.model import SourceType
from zehn.engine.loop import Engine
from zehn.engine.snapshot import forget_snapshots
from zehn.engine.tools import ToolExecutor
from zehn.errors import ZehnError
from zehn.evidence.policy import Policy, load_policy
from zehn.extract.name_index import finish_name_index
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.reading.model import Entity
from zehn.reading.names.name_keys import name_fields
from zehn.store.client import GraphClient
from zehn.store.revision import bump_revision
from zehn.store.schema import ensure_schema

BATCH = 5_000
STARTS = 20
DEPTH = 3
# rules ingest and raw load are paired this many times (medians) up to this many sentences
PAIRS = 3
PAIRED_UP_TO = 50_000
# ingest with build_graph may be bounded to this many sentences (``--ingest-cap``; None: the
# whole corpus, as the raw load writes it)
DEFAULT_INGEST_CAP: int | None = None

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
    "impact_paths_cypher_p50_ms",
    "impact_paths_cypher_p95_ms",
    "impact_reached_p50",
    "impact_reached_max",
    "ratio_engine_vs_cypher_paired",
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
    "server_used_memory_mb",
    "memory_total_mb",
    "first_answer_s",
)
REPO = Path(__file__).resolve().parent.parent
MEMORY_LIMIT_MB = 16 * 1024  # server + Python at the largest size (issue 16)


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
    """UNWIND bulk load of the same documents, sentences, entities (with their name index),
    mentions and RELATES edges (the schema ``build_graph`` writes, without chunks). Returns
    seconds. Rows are made batch by batch, so Python holds one batch of them at a time (a
    million edges at xlarge)."""
    if client.graph_exists(graph):
        client.delete_graph(graph)
    started = time.perf_counter()
    ensure_schema(client, graph)
    bump_revision(client, graph)  # as a build does: the engine keeps what it learns per revision
    docs = (
        {"id": d, "title": d, "source_type": SourceType.TEXT.value, "path": f"{d}.md"}
        for d in syn.documents
    )
    _unwind(client, graph, "UNWIND $rows AS r CREATE (d:Document) SET d = r", docs)
    sentences = (
        {"id": s.id, "doc_id": s.doc_id, "text": s.text, "start": s.start, "end": s.end}
        for s in syn.sentences
    )
    _unwind(client, graph, "UNWIND $rows AS r CREATE (s:Sentence) SET s = r", sentences)
    entities = (  # with the name index a build writes (zehn.reading.names.name_keys)
        {"id": e.id, "name": e.name, "kind": e.kind, "aliases": [], "origin": "catalog",
         **name_fields(Entity(e.name, e.kind))}
        for e in syn.entities
    )  # fmt: skip
    _unwind(client, graph, "UNWIND $rows AS r CREATE (e:Entity) SET e = r", entities)
    text = {s.id: s.text for s in syn.sentences}
    names = {e.id: e.name for e in syn.entities}

    def mentions() -> Iterator[dict[str, Any]]:
        for e in syn.edges:
            sentence = text[e.sentence_id]
            a_end = len(names[e.subject])
            b_start = sentence.rfind(names[e.object])
            yield {"e": e.subject, "s": e.sentence_id, "start": 0, "end": a_end,
                   "surface": names[e.subject]}  # fmt: skip
            b_end = b_start + len(names[e.object])
            yield {"e": e.object, "s": e.sentence_id, "start": b_start, "end": b_end,
                   "surface": names[e.object]}  # fmt: skip

    def edges() -> Iterator[dict[str, Any]]:
        for e in syn.edges:
            sentence = text[e.sentence_id]
            yield {
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

    _unwind(
        client,
        graph,
        "UNWIND $rows AS r MATCH (e:Entity {id: r.e}), (s:Sentence {id: r.s}) "
        "CREATE (e)-[:MENTIONED_IN {start: r.start, end: r.end, surface: r.surface, "
        "reason: 'catalog', ambiguous: false}]->(s)",
        mentions(),
    )
    _unwind(
        client,
        graph,
        "UNWIND $rows AS r MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b}) "
        "CREATE (a)-[x:RELATES]->(b) SET x = r.p",
        edges(),
    )
    finish_name_index(client, graph)
    return time.perf_counter() - started


def _unwind(client: GraphClient, graph: str, cypher: str, rows: Iterable[dict[str, Any]]) -> None:
    batch: list[dict[str, Any]] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= BATCH:
            client.write(graph, cypher, {"rows": batch})
            batch = []
    if batch:
        client.write(graph, cypher, {"rows": batch})


def ingest_vs_raw(
    client: GraphClient,
    syn: Synthetic,
    corpus: str,
    workdir: Path,
    cap: int | None,
    first_raw_s: float,
) -> dict[str, Any]:
    """``ingest_rules`` against the raw load, side by side. Up to ``PAIRED_UP_TO`` sentences
    (small, medium) a pair takes seconds and one pair moves by ±10 %, so ``PAIRS`` pairs are
    run, each raw load right before its build, and the median of each side is reported."""
    pairs = PAIRS if len(syn.sentences) <= PAIRED_UP_TO else 1
    raws: list[float] = [first_raw_s]
    builds: list[dict[str, Any]] = []
    for i in range(pairs):
        if i:
            raws.append(raw_load(client, f"{corpus}_raw_again", syn))
            client.delete_graph(f"{corpus}_raw_again")
        written = builds[0]["ingest_sentences"] if builds else None
        builds.append(ingest_rules(client, syn, corpus, workdir, cap, written))
    build = sorted(builds, key=lambda b: b["ingest_s"])[len(builds) // 2]
    raw_s = sorted(raws)[len(raws) // 2]
    return {
        **build,
        "ingest_pairs": pairs,
        "raw_load_s": raw_s,
        "raw_load_sentences_per_s": len(syn.sentences) / raw_s,
    }


def ingest_rules(
    client: GraphClient,
    syn: Synthetic,
    corpus: str,
    workdir: Path,
    cap: int | None,
    written: int | None = None,
) -> dict[str, Any]:
    """``build_graph`` with the rules strategy over the corpus folder (bounded by ``cap``),
    written first unless ``written`` says it is there already (with that many sentences)."""
    folder = workdir / corpus
    if written is None:
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
    """Five ways to the same 3-hop impact set from the same starts.

    - raw Cypher: the engine's frontier walk (one layer query per depth, the parent edges
      of the nearest K, their sentences), plain rows through the falkordb client, no
      grading (``benchmarks.walks.raw_frontier``);
    - raw paths: the walk before the frontier walk, every path up to 2,000 rows per depth
      and the sentences of all their edges (for comparison with earlier figures);
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

    reached: list[int] = []

    def cypher(s: str) -> None:
        reached.append(raw_frontier(client, graph, params, s, DEPTH))

    def paths_cypher(s: str) -> None:
        raw_paths(client, graph, params, s, DEPTH)

    def networkx(s: str) -> None:
        if s in nxg:
            nx.single_source_shortest_path_length(nxg, s, cutoff=DEPTH)

    out: dict[str, Any] = {"impact_starts": len(starts)}
    runners: tuple[tuple[str, Callable[[str], None]], ...] = (
        ("cypher", cypher), ("paths_cypher", paths_cypher), ("engine_first", engine_first),
        ("engine", engine), ("networkx", networkx),
    )  # fmt: skip
    for label, fn in runners:
        timed(functools.partial(fn, starts[0]), label=label)  # warm up
        if label == "engine":
            for s in starts:  # steady state: every start asked once before timing
                timed(functools.partial(fn, s), label=label)
        paths.clear()
        reached.clear()
        truncated[0] = 0
        times = [t for s in starts for t in timed(functools.partial(fn, s), label=label)]
        out[f"impact_{label}_p50_ms"] = statistics.median(times)
        out[f"impact_{label}_p95_ms"] = percentile(times, 95)
        if label == "cypher":
            out["impact_reached_p50"] = statistics.median(reached) if reached else 0
            out["impact_reached_max"] = max(reached, default=0)
        if label == "engine":
            out["impact_paths_p50"] = statistics.median(paths) if paths else 0
            out["impact_paths_max"] = max(paths, default=0)
            out["impact_truncated_walks"] = truncated[0]
    # side by side: raw walk and engine (steady) alternately for each start, so that a load
    # change on a shared machine between the two series above does not make the ratio
    pairs = [
        (timed(functools.partial(engine, s), label="engine")[0],
         timed(functools.partial(cypher, s), label="cypher")[0])
        for s in starts
    ]  # fmt: skip
    out["ratio_engine_vs_cypher_paired"] = statistics.median(e / max(r, 1e-6) for e, r in pairs)
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
    """Python's peak resident set, the server's memory, and the two together (the server's
    process peak where /proc shows it, else its own used_memory_peak)."""
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out: dict[str, Any] = {"python_peak_rss_mb": rss_kb / 1024, **server_memory(client)}
    server = out.get("server_peak_rss_mb") or out["server_peak_memory_mb"]
    out["memory_total_mb"] = out["python_peak_rss_mb"] + server
    out["memory_under_limit"] = out["memory_total_mb"] < MEMORY_LIMIT_MB
    return out


# --- cold start --------------------------------------------------------------------------

_COLD = """
import sys, tempfile, time
from pathlib import Path
started = time.perf_counter()
from benchmarks.synthetic import generate
from zehn.config import Settings
from zehn.engine.loop import Engine
from zehn.engine.snapshot import forget_snapshots
from zehn.extract.name_index import finish_name_index
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.reading.model import Entity
from zehn.reading.names.name_keys import name_fields
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
        try:
            done, wall = fresh_python(repo, home, _COLD, [], timeout=300)
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
    first: bool = True,
    ingest: bool = True,
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
    out["graph_memory_mb"] = server_memory(client)["server_used_memory_mb"]
    if first:  # a fresh process asks first: nothing about this graph is known anywhere
        names = ask_names(syn, 1)["ordinary"]
        home = client.settings.home
        if names and client.server is not None:
            log(f"[{label}] first answer from a fresh process ...")
            question = f"If I change {names[0]}, what breaks?"
            out.update(first_answer(REPO, home, graph, question))
    if ingest:
        log(f"[{label}] ingest (rules) ...")
        out.update(ingest_vs_raw(client, syn, f"{prefix}_{label}", workdir, ingest_cap, seconds))
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
    out["ratio_engine_first_vs_steady"] = (
        out["impact_engine_first_p50_ms"] / out["impact_engine_p50_ms"]
    )
    out["ratio_paths_vs_frontier_cypher"] = (
        out["impact_paths_cypher_p50_ms"] / out["impact_cypher_p50_ms"]
    )
    if ingest:
        out["ratio_ingest_vs_raw_load"] = (
            out["ingest_sentences_per_s"] / out["raw_load_sentences_per_s"]
        )
    return out


def connect(home: Path) -> GraphClient:
    return GraphClient.connect(Settings(home=home))
