"""Reading speed against a baseline commit: issue 26 asks that ingest of otel-demo stay within
2x the time of the reader at ``30ac030`` (before discovery by termhood).

``python -m benchmarks.reading [--baseline 30ac030] [--current REV] [--pairs 3]
[--corpus DIR] [--no-ingest] [--profile N] [--home DIR] [--json PATH]``

The baseline is checked out in a temporary ``git worktree`` (removed at the end); the current
side is this working tree (uncommitted changes included), or ``--current REV`` checked out the
same way. Each measurement is a fresh Python process (this interpreter, ``PYTHONPATH`` and
working directory set to the checkout, which it checks it imported), so neither side shares
imports, caches or warm state with the other or with this process:

- reading: the corpus loaded as an ingest stores it (``read_sources``, not timed), then
  ``read_corpus(documents, None)`` timed: discovery, binding and the references, no database;
- ingest: ``zehn ingest CORPUS --strategy rules --json`` of that checkout into a throwaway
  graph (deleted after each run) on one managed server started beforehand; the time is the
  build's own ``elapsed_s`` (its wall time with interpreter start-up is kept too).

After one uncounted run per side (a fresh worktree compiles its bytecode), the sides
alternate, the first of a pair swapped from pair to pair, so that a load change on a shared
machine falls on both; the medians and current/baseline are printed. ``--profile N``
then prints the current reading's N heaviest functions under cProfile (cumulative, own time).
Nothing here imports ``zehn``: a checkout in the middle of a change cannot break the runner.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_BASELINE = "30ac030"
DEFAULT_CORPUS = Path("/work/shared/corpora/otel-demo/docs")
DEFAULT_PAIRS = 3
BOUND = 2.0  # issue 26: current/baseline at most this
READ_TIMEOUT_S = 600
INGEST_TIMEOUT_S = 900
GRAPH_PREFIX = "bench_reading"

# run inside a checkout: argv = [corpus, mode, top]; mode "time" or "profile"; one JSON line
_READ = r"""
import importlib, json, sys, time
from pathlib import Path

def first(candidates, name):
    # the function from the first module that has it: modules move between commits
    for module in candidates:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    raise SystemExit(f"{name} not found in any of {candidates}")

corpus, mode, top = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
started = time.perf_counter()
import zehn
read_sources = first(["zehn.reading.suggest", "zehn.reading.names.suggest"], "read_sources")
read_corpus = first(["zehn.reading.references", "zehn.reading.references.reader"], "read_corpus")
imported = time.perf_counter()
documents, skipped = read_sources(corpus)
loaded = time.perf_counter()
profiler = None
if mode == "profile":
    import cProfile
    profiler = cProfile.Profile()
    profiler.enable()
began = time.perf_counter()
entities, read = read_corpus(documents, None)
read_s = time.perf_counter() - began
out = {
    "zehn": zehn.__file__, "import_s": imported - started, "load_s": loaded - imported,
    "read_s": read_s, "documents": len(documents), "skipped": len(skipped),
    "sentences": len(read), "entities": len(entities),
    "mentions": sum(len(m) for _s, m in read),
}
if profiler is not None:
    import pstats, sysconfig
    profiler.disable()
    root = Path(zehn.__file__).resolve().parent.parent
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()

    def where(filename, function):
        # module:function, the module dotted where the file is one of ours or a package's
        if filename.startswith(("~", "<")):
            return function
        path = Path(filename).resolve()
        # a package's first: this interpreter's site-packages may lie under the checkout
        packages = (Path(p).resolve() for p in sys.path if "site-packages" in p)
        for base in (*packages, root, stdlib):
            if path.is_relative_to(base):
                dotted = ".".join(path.relative_to(base).with_suffix("").parts)
                return f"{dotted.removesuffix('.__init__')}:{function}"
        return f"{path.name}:{function}"

    rows = [
        {"function": where(f, fn), "calls": nc, "own_s": tt, "cumulative_s": ct}
        for (f, _line, fn), (_cc, nc, tt, ct, _callers) in pstats.Stats(profiler).stats.items()
    ]
    out["by_cumulative"] = sorted(rows, key=lambda r: -r["cumulative_s"])[:top]
    out["by_own"] = sorted(rows, key=lambda r: -r["own_s"])[:top]
print(json.dumps(out))
"""

_CLI = "import sys; from zehn.cli import main; sys.exit(main())"


@dataclass(frozen=True)
class Side:
    """One checkout measured: its name in the output, its root, and what it holds."""

    name: str
    root: Path
    label: str


class RunFailed(RuntimeError):
    """A measuring process exited non-zero or printed no result."""


# --- checkouts ---------------------------------------------------------------------------


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True)


def skip_reason(corpus: Path) -> str | None:
    """Why the benchmark cannot run here (no corpus, no git), or None."""
    if not corpus.is_dir():
        return f"corpus folder {corpus} not found (--corpus DIR)"
    if shutil.which("git") is None:
        return "git is not on PATH"
    if git("rev-parse", "--git-dir").returncode != 0:
        return f"{REPO} is not a git repository"
    return None


def describe(rev: str) -> str:
    """``rev`` as a short hash with its subject line: the figures name what was measured."""
    done = git("log", "-1", "--format=%h %s", rev)
    text = done.stdout.strip()
    return (text if len(text) <= 80 else text[:79] + "…") if done.returncode == 0 else rev


def working_tree_label() -> str:
    """HEAD, and whether zehn/ has uncommitted changes (they are what gets measured)."""
    dirty = git("status", "--porcelain", "--", "zehn").stdout.strip()
    return f"working tree at {describe('HEAD')}" + (
        " (+ uncommitted changes under zehn/)" if dirty else ""
    )


@contextlib.contextmanager
def checkout(rev: str, parent: Path, name: str) -> Iterator[Path]:
    """A detached worktree of ``rev`` under ``parent``, removed on the way out (also when a
    run fails), so nothing is left in the repository's worktree list."""
    path = parent / name
    done = git("worktree", "add", "--detach", str(path), rev)
    if done.returncode != 0:
        raise RunFailed(f"git worktree add {rev}: {done.stderr.strip()}")
    try:
        yield path
    finally:
        git("worktree", "remove", "--force", str(path))


# --- one process in a checkout -----------------------------------------------------------


def in_checkout(
    root: Path, home: Path, args: Sequence[str], timeout: float
) -> tuple[subprocess.CompletedProcess[str], float]:
    """This interpreter in ``root`` with only that checkout's ``zehn`` on the path (the
    editable install's finder comes after ``PYTHONPATH``), ``ZEHN_HOME=home`` and never
    ``FALKORDB_URL``; the result and the wall time."""
    env = {**os.environ, "PYTHONPATH": str(root), "ZEHN_HOME": str(home)}
    env.pop("FALKORDB_URL", None)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], cwd=root, env=env, capture_output=True, text=True,
        timeout=timeout, check=False,
    )  # fmt: skip
    return done, time.perf_counter() - started


def _json_out(done: subprocess.CompletedProcess[str], what: str) -> dict[str, Any]:
    start = done.stdout.find("{")
    if done.returncode != 0 or start < 0:
        tail = (done.stderr or done.stdout)[-800:]
        raise RunFailed(f"{what} exited {done.returncode}: {tail}")
    out: dict[str, Any] = json.loads(done.stdout[start:])
    return out


def read_once(
    side: Side, corpus: Path, home: Path, mode: str = "time", top: int = 0
) -> dict[str, Any]:
    """``read_corpus`` over the corpus in a fresh process of ``side``; seconds and counts."""
    args = ["-c", _READ, str(corpus), mode, str(top)]
    done, wall = in_checkout(side.root, home, args, READ_TIMEOUT_S)
    out = _json_out(done, f"reading in {side.name}")
    if not Path(out["zehn"]).resolve().is_relative_to(side.root.resolve()):
        raise RunFailed(f"{side.name} imported {out['zehn']}, not its checkout {side.root}")
    return {**out, "wall_s": wall}


def zehn_cli(
    side: Side, home: Path, *args: str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return in_checkout(side.root, home, ["-c", _CLI, *args], timeout)[0]


def ingest_once(side: Side, corpus: Path, home: Path) -> dict[str, Any]:
    """``zehn ingest`` of ``side`` into a throwaway graph, deleted afterwards: the build's
    own seconds, the wall time with start-up and imports, and what it wrote."""
    name = f"{GRAPH_PREFIX}_{side.name}"
    done, wall = in_checkout(
        side.root, home,
        ["-c", _CLI, "ingest", str(corpus), "--graph", name, "--strategy", "rules", "--json",
         "--no-progress"],
        INGEST_TIMEOUT_S,
    )  # fmt: skip
    try:
        report = _json_out(done, f"zehn ingest in {side.name}")
    finally:
        zehn_cli(side, home, "graph", "delete", f"{name}__rules")
    return {
        "ingest_s": report["elapsed_s"],
        "extraction_s": report.get("extraction_s"),
        "wall_s": wall,
        "entities": report.get("entities"),
        "mentions": report.get("mentions"),
        "edges": report.get("edges"),
    }


# --- alternating pairs -------------------------------------------------------------------


def alternate(
    sides: tuple[Side, Side],
    pairs: int,
    measure: Callable[[Side], dict[str, Any]],
    log: Callable[[str], None],
    what: str,
) -> dict[str, list[dict[str, Any]]]:
    """``pairs`` runs per side, side by side; the side that goes first swaps each pair. One
    run per side first is not counted: a fresh worktree has no ``__pycache__``, and a lazy
    import compiled inside the timed call, or a cold file cache, would fall on one side."""
    for side in sides:
        log(f"[{what} warm-up] {side.name}: {_seconds(measure(side))}")
    runs: dict[str, list[dict[str, Any]]] = {s.name: [] for s in sides}
    for i in range(pairs):
        for side in sides if i % 2 == 0 else sides[::-1]:
            runs[side.name].append(run := measure(side))
            log(f"[{what} {i + 1}/{pairs}] {side.name}: {_seconds(run)}")
    return runs


def _seconds(run: dict[str, Any]) -> str:
    key = "read_s" if "read_s" in run else "ingest_s"
    return f"{run[key]:.2f} s (wall {run['wall_s']:.2f} s)"


def compare(runs: dict[str, list[dict[str, Any]]], key: str) -> dict[str, Any]:
    """Medians of ``key`` per side (and their spread) and current/baseline."""
    out: dict[str, Any] = {}
    for name, rows in runs.items():
        values = [r[key] for r in rows]
        out[name] = {"median_s": statistics.median(values), "min_s": min(values),
                     "max_s": max(values), "runs_s": values}  # fmt: skip
    out["ratio"] = out["current"]["median_s"] / out["baseline"]["median_s"]
    out["within_bound"] = out["ratio"] <= BOUND
    return out


# --- output ------------------------------------------------------------------------------


def _line(title: str, figures: dict[str, Any]) -> str:
    b, c = figures["baseline"], figures["current"]
    verdict = "holds" if figures["within_bound"] else "DOES NOT hold"
    return (
        f"  {title}: baseline {b['median_s']:.2f} s ({b['min_s']:.2f}-{b['max_s']:.2f}), "
        f"current {c['median_s']:.2f} s ({c['min_s']:.2f}-{c['max_s']:.2f}); "
        f"current/baseline {figures['ratio']:.2f}x: <= {BOUND:.1f}x {verdict}"
    )


def _counts(run: dict[str, Any], keys: Sequence[str]) -> str:
    return ", ".join(f"{run.get(k)} {k}" for k in keys)


def summary(result: dict[str, Any]) -> str:
    """Medians per side, the ratios and the issue's bound, and what each side read."""
    sides = result["sides"]
    out = [
        f"corpus {result['corpus']}, {result['pairs']} pairs, {result['date']}",
        f"  baseline: {sides['baseline']}",
        f"  current:  {sides['current']}",
        "medians (min-max):",
        _line("reading (read_corpus, no database)", result["reading"]),
    ]
    if "ingest" in result:
        out.append(_line("zehn ingest --strategy rules (build elapsed_s)", result["ingest"]))
        out.append(_line("zehn ingest, wall with start-up", result["ingest_wall"]))
    for name in ("baseline", "current"):
        read = result["runs"]["reading"][name][0]
        counts = _counts(read, ("documents", "sentences", "entities", "mentions"))
        line = f"  {name} read {counts}"
        if "ingest" in result:
            wrote = _counts(result["runs"]["ingest"][name][0], ("entities", "mentions", "edges"))
            line += f"; ingest wrote {wrote}"
        out.append(line)
    key = "ingest" if "ingest" in result else "reading"
    holds = result[key]["within_bound"]
    out.append(
        f"issue 26 (otel-demo {key} within {BOUND:.0f}x of {result['baseline']}): "
        + ("holds" if holds else "DOES NOT hold")
        + f" at {result[key]['ratio']:.2f}x"
    )
    return "\n".join(out)


def profile_table(rows: list[dict[str, Any]], title: str) -> str:
    width = max(len(r["function"]) for r in rows)
    lines = [title, f"  {'function'.ljust(width)}  {'cum s':>7}  {'own s':>7}  {'calls':>9}"]
    lines += [
        f"  {r['function'].ljust(width)}  {r['cumulative_s']:7.3f}  {r['own_s']:7.3f}  "
        f"{r['calls']:9d}"
        for r in rows
    ]
    return "\n".join(lines)


# --- the run -----------------------------------------------------------------------------


@contextlib.contextmanager
def server(side: Side, home: Path, stop: bool) -> Iterator[None]:
    """The managed server started before the first timed ingest (neither side pays for it),
    stopped at the end when its home is this run's own."""
    done = zehn_cli(side, home, "server", "start")
    if done.returncode != 0:
        raise RunFailed(f"zehn server start: {(done.stderr or done.stdout)[-500:]}")
    try:
        yield
    finally:
        if stop:
            zehn_cli(side, home, "server", "stop")


def measure(
    sides: tuple[Side, Side],
    corpus: Path,
    home: Path,
    *,
    pairs: int,
    ingest: bool,
    stop_server: bool,
    log: Callable[[str], None],
) -> dict[str, Any]:
    reading = alternate(sides, pairs, lambda s: read_once(s, corpus, home), log, "reading")
    result: dict[str, Any] = {"reading": compare(reading, "read_s"), "runs": {"reading": reading}}
    if ingest:
        with server(sides[1], home, stop_server):
            runs = alternate(sides, pairs, lambda s: ingest_once(s, corpus, home), log, "ingest")
        result["ingest"] = compare(runs, "ingest_s")
        result["ingest_wall"] = compare(runs, "wall_s")
        result["runs"]["ingest"] = runs
    return result


def run(args: argparse.Namespace, log: Callable[[str], None]) -> dict[str, Any]:
    """Check out the sides, measure them, profile the current one; the checkouts (and this
    run's server and home) are gone afterwards, also when a run fails."""
    corpus = args.corpus.resolve()
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="zehn-reading-")))
        root = stack.enter_context(checkout(args.baseline, tmp, "baseline"))
        baseline = Side("baseline", root, describe(args.baseline))
        if args.current:
            root = stack.enter_context(checkout(args.current, tmp, "current"))
            current = Side("current", root, describe(args.current))
        else:
            current = Side("current", REPO, working_tree_label())
        home = args.home or tmp / "home"
        result = measure(
            (baseline, current),
            corpus,
            home,
            pairs=args.pairs,
            ingest=not args.no_ingest,
            stop_server=args.home is None,
            log=log,
        )
        if args.profile:
            result["profile"] = read_once(current, corpus, home, "profile", args.profile)
    result.update({
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "corpus": str(corpus), "pairs": args.pairs, "baseline": args.baseline,
        "sides": {"baseline": baseline.label, "current": current.label}, "bound": BOUND,
    })  # fmt: skip
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.reading",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help="commit (default %(default)s)")
    parser.add_argument("--current", help="a commit instead of the working tree")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--pairs", type=int, default=DEFAULT_PAIRS, help="runs per side")
    parser.add_argument("--no-ingest", action="store_true", help="time the reading only")
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="then the current reading's top N functions (cProfile)")  # fmt: skip
    parser.add_argument("--home", type=Path, help="ZEHN_HOME (default: a temp dir)")
    parser.add_argument("--json", type=Path, default=Path(".artifacts/bench-reading.json"))
    args = parser.parse_args(argv)
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    reason = skip_reason(args.corpus)
    if reason:
        print(f"reading benchmark skipped: {reason}")
        return 0
    try:
        result = run(args, lambda m: print(m, file=sys.stderr, flush=True))
    except (RunFailed, subprocess.TimeoutExpired) as e:
        print(f"reading benchmark failed: {e}", file=sys.stderr)
        return 1
    print(summary(result))
    if profile := result.get("profile"):
        print(f"cProfile of the current reading (read_corpus {profile['read_s']:.2f} s profiled)")
        print(profile_table(profile["by_cumulative"], "by cumulative time:"))
        print(profile_table(profile["by_own"], "by own time:"))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2, default=str))
    print(f"JSON: {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
