"""``python -m benchmarks [--sizes small,medium,large] [--seed N] [--json PATH] [--home DIR]``."""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.run import DEFAULT_INGEST_CAP, STARTS, cold_start, connect, run_size
from benchmarks.synthetic import SIZES
from zehn.store.server import ManagedServer

REPO = Path(__file__).resolve().parent.parent
COLUMNS = (
    ("size", "size", "{}"),
    ("entities", "entities", "{}"),
    ("edges", "edges", "{}"),
    ("sentences", "sentences", "{}"),
    ("impact_engine_first_p50_ms", "eng1 p50", "{:.1f}"),
    ("impact_engine_first_p95_ms", "eng1 p95", "{:.1f}"),
    ("impact_engine_p50_ms", "eng p50", "{:.1f}"),
    ("impact_engine_p95_ms", "eng p95", "{:.1f}"),
    ("impact_cypher_p50_ms", "cyph p50", "{:.1f}"),
    ("impact_cypher_p95_ms", "cyph p95", "{:.1f}"),
    ("impact_paths_cypher_p50_ms", "paths p50", "{:.1f}"),
    ("impact_reached_p50", "reached p50", "{:.0f}"),
    ("impact_networkx_p50_ms", "nx p50", "{:.2f}"),
    ("impact_networkx_p95_ms", "nx p95", "{:.2f}"),
    ("ask_p50_ms", "ask p50", "{:.0f}"),
    ("ask_p95_ms", "ask p95", "{:.0f}"),
    ("ask_hub_p50_ms", "hub ask p50", "{:.0f}"),
    ("ask_hub_p95_ms", "hub ask p95", "{:.0f}"),
    ("ingest_sentences_per_s", "ingest s/s", "{:.0f}"),
    ("raw_load_sentences_per_s", "raw s/s", "{:.0f}"),
    ("python_peak_rss_mb", "py MB", "{:.0f}"),
    ("server_peak_memory_mb", "srv MB", "{:.0f}"),
    ("server_peak_rss_mb", "srv RSS MB", "{:.0f}"),
    ("first_answer_s", "1st ans s", "{:.2f}"),
)
GROWTH = (
    "impact_engine_first_p50_ms",
    "impact_engine_p50_ms",
    "impact_cypher_p50_ms",
    "impact_paths_cypher_p50_ms",
    "impact_reached_p50",
    "impact_networkx_p50_ms",
    "ask_p50_ms",
    "ask_hub_p50_ms",
    "ingest_sentences_per_s",
    "raw_load_sentences_per_s",
    "python_peak_rss_mb",
    "server_peak_memory_mb",
    "server_peak_rss_mb",
    "graph_memory_mb",
    "first_answer_s",
)


def _cell(fmt: str, value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return fmt.format(value)


def table(rows: list[dict[str, Any]]) -> str:
    cells = [[h for _k, h, _f in COLUMNS]]
    cells += [[_cell(f, r.get(k)) for k, _h, f in COLUMNS] for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(COLUMNS))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def summary(rows: list[dict[str, Any]], cold: dict[str, Any]) -> str:
    out = [table(rows), "", "ratios (p50; ingest = sentences/s):"]
    for r in rows:
        bounded = (
            f" (ingest bounded to the first {r['ingest_sentences']} of {r['sentences']} sentences)"
            if r.get("ingest_bounded")
            else ""
        )
        ingest = r.get("ratio_ingest_vs_raw_load")
        out.append(
            f"  {r['size']:>7}: engine/raw-cypher (same frontier walk) "
            f"{r['ratio_engine_vs_cypher']:.2f}x, paired per start "
            f"{r['ratio_engine_vs_cypher_paired']:.2f}x (first investigation after a build "
            f"{r['ratio_engine_first_vs_cypher']:.2f}x, first/steady "
            f"{r['ratio_engine_first_vs_steady']:.2f}x), old path walk/frontier walk "
            f"{r['ratio_paths_vs_frontier_cypher']:.2f}x, "
            f"engine/networkx {r['ratio_engine_vs_networkx']:.0f}x, "
            + (f"ingest/raw-load {ingest:.3f}x{bounded}; " if ingest else "ingest not run; ")
            + f"impact reached p50 {r.get('impact_reached_p50')} max "
            f"{r.get('impact_reached_max')}, paths shown p50 {r.get('impact_paths_p50')} max "
            f"{r.get('impact_paths_max')}, bounded walks {r.get('impact_truncated_walks')}; "
            f"ask statuses {r.get('ask_statuses')}; server peak {r.get('server_peak_memory')}, "
            f"graph {r.get('graph_memory_mb', 0):.0f} MB; server + Python "
            f"{r.get('memory_total_mb', 0):.0f} MB (under 16 GB: {r.get('memory_under_limit')}); "
            f"first answer from a fresh process {r.get('first_answer_s') or '-'} s "
            f"({r.get('first_answer_status') or r.get('first_answer_error') or '-'}); "
            f"errors {r.get('errors') or 'none'}"
        )
    if len(rows) > 1:
        first, last = rows[0], rows[-1]
        out.append(f"growth {first['size']} -> {last['size']} "
                   f"(entities x{last['entities'] / first['entities']:.0f}):")  # fmt: skip
        for key in GROWTH:
            a, b = first.get(key), last.get(key)
            if a and b:
                out.append(f"  {key}: x{b / a:.2f}")
    if cold.get("cold_start_s") is not None:
        out.append(
            f"cold start (empty ZEHN_HOME -> server, tiny build, first answer): "
            f"{cold['cold_start_s']:.1f} s ({cold['cold_start_status']})"
        )
    elif cold.get("cold_start_error"):
        out.append(f"cold start failed: {cold['cold_start_error']}")
    else:
        out.append("cold start: not measured (--no-cold-start)")
    out.append(
        "note: eng1 = the engine's first investigation after a build (nothing known about the "
        "graph: the shown hops fetched and graded); eng = steady state (grades kept per graph "
        "revision); cyph = the same frontier walk as raw Cypher (layers, parents of the "
        "nearest 25, their sentences), plain rows through the falkordb client; paths = the "
        "old walk enumerating every path (2,000 rows per depth at most); reached = entities "
        "the 3-hop walk reaches; ask = ordinary entities, hub ask = hub entities; 1st ans = a "
        "fresh Python process asking its first question on the loaded graph.\n"
        "note: impact/ask run against the raw-loaded graph (same nodes and edges); ingest is "
        "build_graph with the rules strategy, end to end; server memory is the server-wide "
        "used_memory_peak (cumulative over the sizes in this run)."
    )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--sizes", default="small,medium", help=f"of {', '.join(SIZES)}")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", type=Path, default=Path(".artifacts/bench.json"))
    parser.add_argument("--home", type=Path, default=None, help="ZEHN_HOME (default: a temp dir)")
    parser.add_argument("--ingest-cap", type=int, default=DEFAULT_INGEST_CAP,
                        help="most sentences ingested through build_graph per size "
                             "(default: all of them, as the raw load writes)")  # fmt: skip
    parser.add_argument("--no-cold-start", action="store_true")
    parser.add_argument("--no-ingest", action="store_true", help="skip the build_graph ingest")
    parser.add_argument("--starts", type=int, default=STARTS, help="impact starts per size")
    args = parser.parse_args(argv)
    sizes = [s.strip() for s in args.sizes.split(",") if s.strip()]
    unknown = [s for s in sizes if s not in SIZES]
    if unknown:
        parser.error(f"unknown sizes {unknown}; use {', '.join(SIZES)}")
    with tempfile.TemporaryDirectory(prefix="zehn-bench-") as tmp:
        home = args.home or Path(tmp) / "home"
        log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
        client = connect(home)
        rows = []
        try:
            for size in sizes:
                rows.append(run_size(client, size, seed=args.seed, workdir=Path(tmp),
                                     ingest_cap=args.ingest_cap, log=log, starts=args.starts,
                                     ingest=not args.no_ingest))  # fmt: skip
        finally:
            client.close()
            if args.home is None:
                ManagedServer(home).stop()
        cold = {} if args.no_cold_start else cold_start(REPO)
    print(summary(rows, cold))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"seed": args.seed, "sizes": rows, "cold_start": cold},
                                    indent=2, default=str))  # fmt: skip
    print(f"JSON: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
