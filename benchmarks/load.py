"""Load: several processes asking questions against one FalkorDB server, every answer saved.

``python -m benchmarks.load [--processes 4] [--seconds 60] [--graph NAME] [--policy NAME]
[--json] [--keep]``

Each process connects on its own (as a notebook or the CLI would), answers one
warm-up question, waits for the others, then asks the sample questions in turn
until the time is up, saving every answer to a history graph of this run
(``zehn__load_<stamp>``, deleted afterwards unless ``--keep``). Afterwards the
parent counts what reached the history graph. Printed: questions asked,
throughput, latency p50/p95/max, errors (an exception, or an answer with
status ``error``), and history records written vs found. The exit code is 1
if there was any error or any record was lost.

Without ``--graph`` the sample corpus is built as ``load__rules`` (and deleted
afterwards, unless it already existed or ``--keep``). The server is the one
``Settings.from_env()`` names: ``FALKORDB_URL``, or the managed one under
``ZEHN_HOME``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import sys
import threading
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

from zehn.config import Settings
from zehn.engine import ERROR, Engine
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.review.history import History
from zehn.store.client import GraphClient

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "data" / "sample"
QUESTIONS = (
    "If I change origin-mapper, what breaks?",
    "What depends on the indexer?",
    "What does Redwood Inference depend on?",
    "If I change event-bus, what breaks?",
    "What does search-api depend on?",
    "What is the indexer?",
    "If I change auth-gateway, what breaks?",
    "What breaks if the ledger changes?",
)
STARTUP_GRACE_S = 180.0  # imports, connecting and the warm-up question, per process
_BATCH = 500


@dataclass
class WorkerResult:
    """What one process did in the timed window (the warm-up is counted apart)."""

    worker: int
    asked: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    saved_ids: list[str] = field(default_factory=list)
    warmup_ms: float = 0.0


@dataclass(frozen=True)
class LoadReport:
    processes: int
    seconds: float
    graph: str
    history_graph: str
    asked: int
    throughput_per_s: float
    p50_ms: float
    p95_ms: float
    max_ms: float
    warmup_max_ms: float
    errors: int
    error_samples: tuple[str, ...]
    statuses: dict[str, int]
    history_written: int
    history_found: int

    @property
    def lost(self) -> int:
        return self.history_written - self.history_found

    @property
    def ok(self) -> bool:
        return self.errors == 0 and self.lost == 0 and self.asked > 0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "lost": self.lost, "ok": self.ok}

    def lines(self) -> list[str]:
        statuses = ", ".join(f"{n} {s}" for s, n in sorted(self.statuses.items()))
        lines = [
            f"processes: {self.processes} against one server, {self.seconds:.0f} s each",
            f"graph: {self.graph} (history in {self.history_graph})",
            f"questions asked: {self.asked} ({statuses})",
            f"throughput: {self.throughput_per_s:.2f} questions/s",
            f"latency: p50 {self.p50_ms:.0f} ms, p95 {self.p95_ms:.0f} ms, "
            f"max {self.max_ms:.0f} ms (first question per process: up to "
            f"{self.warmup_max_ms:.0f} ms, not counted)",
            f"errors: {self.errors}",
            f"history records: {self.history_written} written, {self.history_found} found, "
            f"{self.lost} lost",
        ]
        lines += [f"  error: {e}" for e in self.error_samples]
        return lines


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _worker(
    worker: int,
    settings: Settings,
    graph: str,
    history_graph: str,
    policy_name: str,
    seconds: float,
    barrier: Barrier,
    results: Any,
) -> None:
    """One process: connect, warm up, wait for the others, ask until the time is up."""
    result = WorkerResult(worker)
    try:
        client = GraphClient.connect(settings)
        engine = Engine(client, graph, load_policy(policy_name), OfflineModel())
        history = History(client, history_graph)
        started = time.perf_counter()
        warm = engine.ask(QUESTIONS[worker % len(QUESTIONS)])
        result.warmup_ms = (time.perf_counter() - started) * 1000
        result.saved_ids.append(history.save(warm))
        barrier.wait(STARTUP_GRACE_S)  # everyone warm: the timed window starts together
        deadline = time.monotonic() + seconds
        turn = worker
        while time.monotonic() < deadline:
            question = QUESTIONS[turn % len(QUESTIONS)]
            turn += 1
            _ask_once(engine, history, question, result)
    except Exception as e:  # reported, never swallowed: the parent counts it as an error
        result.errors.append(f"worker {worker}: {type(e).__name__}: {e}")
        traceback.print_exc(file=sys.stderr)
        if not barrier.broken:
            barrier.abort()
    results.put(asdict(result))


def _ask_once(engine: Engine, history: History, question: str, result: WorkerResult) -> None:
    started = time.perf_counter()
    try:
        answer = engine.ask(question)
    except Exception as e:
        result.errors.append(f"{question!r}: {type(e).__name__}: {e}")
        return
    result.latencies_ms.append((time.perf_counter() - started) * 1000)
    result.asked += 1
    result.statuses[answer.status] = result.statuses.get(answer.status, 0) + 1
    if answer.status == ERROR:
        result.errors.append(f"{question!r}: {answer.reason}")
    try:
        result.saved_ids.append(history.save(answer))
    except Exception as e:
        result.errors.append(f"saving {question!r}: {type(e).__name__}: {e}")


def run_load(
    settings: Settings,
    *,
    processes: int = 4,
    seconds: float = 60.0,
    graph: str | None = None,
    policy: str = "production",
    keep: bool = False,
) -> LoadReport:
    """Run the load and check the history; the report says what was asked, how fast, and lost."""
    client = GraphClient.connect(settings)
    built = False
    if graph is None:
        graph = "load__rules"
        if not client.graph_exists(graph):
            build_graph(client, "load", SAMPLE, "rules", settings)
            built = True
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
    history_graph = f"zehn__load_{stamp}"
    context = multiprocessing.get_context("spawn")  # no connection is shared with a child
    barrier = context.Barrier(processes + 1)
    queue = context.Queue()
    workers = [
        context.Process(
            target=_worker,
            args=(i, settings, graph, history_graph, policy, seconds, barrier, queue),
            daemon=True,
        )
        for i in range(processes)
    ]
    try:
        for process in workers:
            process.start()
        # A worker that failed to start breaks the barrier; it reports why, and the run fails.
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait(STARTUP_GRACE_S)
        window_started = time.monotonic()
        raw = [queue.get(timeout=seconds + STARTUP_GRACE_S) for _ in workers]
        window = time.monotonic() - window_started
        for process in workers:
            process.join(30)
        results = [WorkerResult(**r) for r in raw]
        return _report(client, results, processes, seconds, window, graph, history_graph)
    finally:
        for process in workers:
            if process.is_alive():
                process.kill()
        if not keep:
            for name in (history_graph, graph if built else None):
                if name and client.graph_exists(name):
                    client.delete_graph(name)
        client.close()


def _report(
    client: GraphClient,
    results: list[WorkerResult],
    processes: int,
    seconds: float,
    window: float,
    graph: str,
    history_graph: str,
) -> LoadReport:
    latencies = [ms for r in results for ms in r.latencies_ms]
    errors = [e for r in results for e in r.errors]
    statuses: Counter[str] = Counter()
    for r in results:
        statuses.update(r.statuses)
    written = [i for r in results for i in r.saved_ids]
    asked = sum(r.asked for r in results)
    return LoadReport(
        processes=processes,
        seconds=seconds,
        graph=graph,
        history_graph=history_graph,
        asked=asked,
        throughput_per_s=asked / window if window > 0 else 0.0,
        p50_ms=percentile(latencies, 50),
        p95_ms=percentile(latencies, 95),
        max_ms=max(latencies, default=math.nan),
        warmup_max_ms=max((r.warmup_ms for r in results), default=0.0),
        errors=len(errors),
        error_samples=tuple(errors[:5]),
        statuses=dict(sorted(statuses.items())),
        history_written=len(written),
        history_found=_found(client, history_graph, written),
    )


def _found(client: GraphClient, history_graph: str, ids: list[str]) -> int:
    """How many of ``ids`` the history graph holds, each exactly once."""
    if not ids or not client.graph_exists(history_graph):
        return 0
    found = 0
    for i in range(0, len(ids), _BATCH):
        batch = ids[i : i + _BATCH]
        rows = client.read(
            history_graph,
            "UNWIND $ids AS id MATCH (n:Investigation {id: id}) "
            "WITH id, count(n) AS copies WHERE copies = 1 RETURN count(id)",
            {"ids": batch},
        )
        found += int(rows.scalar() or 0)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__)
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--graph", help="an existing graph (default: build load__rules)")
    parser.add_argument("--policy", default="production")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--keep", action="store_true", help="keep the history (and built) graph")
    args = parser.parse_args(argv)
    if args.processes < 1 or args.seconds <= 0:
        parser.error("--processes must be at least 1 and --seconds positive")
    report = run_load(
        Settings.from_env(),
        processes=args.processes,
        seconds=args.seconds,
        graph=args.graph,
        policy=args.policy,
        keep=args.keep,
    )
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
