"""The ``zehn`` command. Exit codes: 0 success, 1 error, 2 bad usage.

Expected failures (server down, bad input, unknown graph) print one clear
line on stderr, never a traceback. With ``--json`` every outcome is one JSON
object on stdout, failures included (``{"status": "error", "reason": ...}``;
for ``ask`` the answer contract itself, with status ``error``), so a script
reads stdout and the exit code and never has to parse stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from zehn import GraphClient, Settings, ZehnError, ask, check_health, ingest, load_policy
from zehn.cli_parser import UsageError, build_parser
from zehn.cli_review import event_callbacks
from zehn.corpus.sample import SAMPLE_AUDIT_LABELS, SAMPLE_CORPUS, SAMPLE_DIR
from zehn.engine import ERROR, CitedAnswer
from zehn.engine.answer import dont_know
from zehn.engine.render import render_answer
from zehn.extract.pipeline import (
    DEFAULT_STRATEGY,
    BuildReport,
    CorpusLayout,
    resolve_graph,
)
from zehn.models.factory import make_model
from zehn.reading.lang import detect_language
from zehn.reading.names.suggest import suggest_for_path
from zehn.review.audit import AuditStore
from zehn.store.health import Health
from zehn.store.lock import LockHolder
from zehn.store.server import ManagedServer

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
DEMO_QUESTION = "If I change origin-mapper, what breaks?"
WORKBENCH_NOTEBOOK = SAMPLE_DIR.parent.parent / "notebooks" / "00_workbench.ipynb"
APP_URL = "/voila/render/" + WORKBENCH_NOTEBOOK.name  # `zehn lab --app` lands here


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as e:
        return _usage_error(e, argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_USAGE
    as_json = bool(getattr(args, "json", False))
    try:
        settings = Settings.from_env()
        return int(args.handler(args, settings))
    except ZehnError as e:
        if not as_json:
            print(f"error: {e}", file=sys.stderr)
            return EXIT_ERROR
        return _json_error(args, f"{type(e).__name__}: {e}", type(e).__name__)
    except KeyboardInterrupt:
        if as_json:
            return _json_error(args, "interrupted", "KeyboardInterrupt")
        print("interrupted", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # the reader went away (`zehn ask ... | head`): nothing to tell it
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return EXIT_ERROR
    except Exception as e:
        if not as_json:
            raise
        # a bug, not an expected failure: the traceback goes to stderr for a person to read,
        # stdout still holds the one JSON object a script expects
        traceback.print_exc(file=sys.stderr)
        return _json_error(args, f"unexpected {type(e).__name__}: {e}", type(e).__name__)


def _parser() -> argparse.ArgumentParser:
    return build_parser(
        {
            "demo": _demo,
            "ingest": _ingest,
            "ask": _ask,
            "graphs": _graphs,
            "compare": _compare,
            "eval": _eval,
            "graph": _graph,
            "catalog": _catalog,
            "health": _health,
            "lab": _lab,
            "server": _server,
        }
    )


def _ingest(args: argparse.Namespace, settings: Settings) -> int:
    report = _build(
        settings,
        args.path,
        args.graph,
        args.strategy,
        catalog=args.catalog,
        progress=not (args.json or args.no_progress or args.events),
        wait=args.wait,
        events=args.events,
    )
    if not report.swapped:
        if not args.json:
            _print_report(report)
        reason = f"nothing could be ingested from {args.path}"
        return _error(args, reason, "CorpusError", build=report.to_dict())
    if args.json:
        _print_json({"status": "ok", **report.to_dict()})
    else:
        _print_report(report)
    return EXIT_OK


def _demo(args: argparse.Namespace, settings: Settings) -> int:
    if not SAMPLE_DIR.is_dir():
        return _error(args, f"sample corpus not found at {SAMPLE_DIR}", "SourceError")
    report = _build(settings, SAMPLE_DIR, SAMPLE_CORPUS, DEFAULT_STRATEGY, progress=not args.json)
    if SAMPLE_AUDIT_LABELS.is_file():  # the sample's hand audit, so answers state its error rate
        with GraphClient.connect(settings) as client:
            AuditStore(client).import_csv(SAMPLE_AUDIT_LABELS)
    health = check_health(settings)
    answer = _answer(settings, DEMO_QUESTION, report.graph, model_name="offline")
    problems = [
        *([] if health.reachable else [f"FalkorDB is unreachable: {health.error}"]),
        *([] if report.swapped else [f"nothing could be ingested from {SAMPLE_DIR}"]),
        *([f"the demo question failed: {answer.reason}"] if answer.status == ERROR else []),
    ]
    if args.json:
        payload = {
            "status": "error" if problems else "ok",
            "reason": "; ".join(problems) or None,
            "build": report.to_dict(),
            "health": health.to_dict(),
            "answer": answer.to_dict(),
        }
        _print_json(payload)
    else:
        _print_report(report)
        print()
        _print_health(health)
        print()
        print(render_answer(answer))
    return EXIT_ERROR if problems else EXIT_OK


def _build(
    settings: Settings,
    path: Path,
    corpus: str,
    strategy: str,
    *,
    catalog: Path | None = None,
    progress: bool,
    wait: bool = True,
    events: bool = False,
) -> BuildReport:
    def waiting(holder: LockHolder) -> None:
        print(f"waiting: {holder.graph} is being built ({holder.describe()})", file=sys.stderr)

    return ingest(
        path, corpus, strategy=strategy, catalog=catalog, settings=settings, progress=progress,
        wait_s=None if wait else 0, on_wait=waiting,
        **(event_callbacks() if events else {}),  # the workbench reads them (build_process)
    )  # fmt: skip


def _ask(args: argparse.Namespace, settings: Settings) -> int:
    graph = args.graph or settings.graph
    model = args.model or settings.model
    policy: dict[str, Any] = {"name": args.policy or settings.policy}
    try:
        chosen = load_policy(policy["name"])
        policy = chosen.to_dict()
        answer = ask(args.question, graph, policy=chosen, model=model, settings=settings)
    except ZehnError as e:
        if not args.json:
            raise
        reason = f"{type(e).__name__}: {e}"
        payload = _error_answer(args.question, reason, graph=graph, policy=policy, model=model)
        _print_json({**payload, "error": type(e).__name__})
        return EXIT_ERROR
    if args.json:
        _print_json(answer.to_dict())
    else:
        print(render_answer(answer))
    return EXIT_ERROR if answer.status == ERROR else EXIT_OK


def _answer(
    settings: Settings,
    question: str,
    graph: str | None = None,
    policy_name: str | None = None,
    model_name: str | None = None,
) -> CitedAnswer:
    return ask(question, graph, policy=policy_name, model=model_name, settings=settings)


def _eval(args: argparse.Namespace, settings: Settings) -> int:
    from zehn.evaluate.harness import evaluate_grid

    corpus = args.gold.parent if args.gold.name == "gold" else args.gold
    policies = [load_policy(p.strip()) for p in args.policy.split(",") if p.strip()]
    strategies = [s.strip() for s in args.strategy.split(",") if s.strip()]
    model = make_model(settings, args.model)
    with GraphClient.connect(settings) as client:
        frame = evaluate_grid(client, corpus, strategies, policies, model, settings=settings)
    if args.json:
        print(frame.to_json(orient="records", indent=2))
    else:
        print(
            frame.drop(columns=["model"], errors="ignore").to_string(
                index=False, float_format=lambda v: f"{v:.3f}", na_rep="-"
            )
        )
    return EXIT_OK


def _compare(args: argparse.Namespace, settings: Settings) -> int:
    from zehn.evaluate.compare import compare_strategies
    from zehn.evaluate.render import render_comparison

    if args.suite:
        return _suite(args, settings)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    corpus = args.corpus if args.corpus is not None or args.gold is not None else SAMPLE_DIR
    with GraphClient.connect(settings) as client:
        frame = compare_strategies(
            client, corpus, strategies, settings, gold=args.gold, details=args.details
        )
    if args.json:
        print(frame.to_json(orient="records", indent=2, force_ascii=False))
    else:
        print(render_comparison(frame, details=args.details))
    return EXIT_OK


def _suite(args: argparse.Namespace, settings: Settings) -> int:
    from zehn.evaluate.suite import render_suite, run_suite, suite_corpora

    corpora, absent = suite_corpora(SAMPLE_DIR.parent / "gold", SAMPLE_DIR)
    for note in absent:
        print(f"skipped {note}", file=sys.stderr)
    building = lambda name: print(f"building {name}", file=sys.stderr)  # noqa: E731
    with GraphClient.connect(settings) as client:
        frame = run_suite(client, corpora, settings, progress=building)
    if args.json:
        print(frame.to_json(orient="records", indent=2, force_ascii=False))
    else:
        print(render_suite(frame))
    return EXIT_OK


def _graphs(args: argparse.Namespace, settings: Settings) -> int:
    health = check_health(settings)
    if not health.reachable:
        return _error(args, str(health.error), "GraphUnavailable", location=health.location)
    if args.json:
        _print_json([g.to_dict() for g in health.graphs])
    elif not health.graphs:
        print("no graphs yet: run `zehn ingest PATH --graph NAME`")
    else:
        print(health.to_frame().to_string(index=False))
    return EXIT_OK


def _graph(args: argparse.Namespace, settings: Settings) -> int:
    with GraphClient.connect(settings) as client:
        return _graph_action(args, client)


def _graph_action(args: argparse.Namespace, client: GraphClient) -> int:
    if args.action == "create":
        client.create_graph(args.name)
        print(f"created graph {args.name}")
    elif args.action == "copy":
        source = resolve_graph(client, args.source)
        client.copy_graph(source, args.target)
        print(f"copied graph {source} to {args.target}")
    else:
        name = resolve_graph(client, args.name)
        client.delete_graph(name)
        print(f"deleted graph {name}")
    return EXIT_OK


def _catalog(args: argparse.Namespace, settings: Settings) -> int:
    """``catalog suggest``: discovery without a graph, as YAML that ``--catalog`` reads back."""
    found = suggest_for_path(args.path, CorpusLayout.of(args.path).sources)
    if not found.documents:
        reason = f"no documents could be read from {args.path}"
        return _error(args, reason, "CorpusError", skipped=found.to_dict()["skipped"])
    if args.out:
        try:
            args.out.write_text(found.to_yaml(), encoding="utf-8")
        except OSError as e:
            return _error(args, f"cannot write {args.out}: {e.strerror or e}", "OSError")
    if args.json:
        _print_json({"status": "ok", **found.to_dict(), "out": str(args.out or "") or None})
    elif args.out:
        print(f"{len(found.suggestions)} entities from {found.documents} documents: {args.out}")
    else:
        sys.stdout.write(found.to_yaml())
    return EXIT_OK


def _health(args: argparse.Namespace, settings: Settings) -> int:
    health = check_health(settings)
    ok = health.reachable and health.error is None
    if args.json:
        _print_json({"status": "ok" if ok else "error", "reason": health.error, **health.to_dict()})
    else:
        _print_health(health)
    return EXIT_OK if ok else EXIT_ERROR


def _lab(args: argparse.Namespace, settings: Settings) -> int:
    """Replace this process with JupyterLab (or Voila) on notebooks/00_workbench.ipynb."""
    notebook = WORKBENCH_NOTEBOOK
    if not notebook.is_file():
        print(
            f"error: {notebook} not found (ZEHN is installed without its notebooks)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    if args.voila:
        command = [sys.executable, "-m", "voila", notebook.name, f"--port={args.port}",
                   "--Voila.ip=127.0.0.1"]  # fmt: skip
    elif args.app:  # one server: the app page first (Voila's server extension), Lab beside it
        command = [sys.executable, "-m", "jupyter", "lab", f"--port={args.port}",
                   "--ServerApp.ip=127.0.0.1", f"--LabApp.default_url={APP_URL}"]  # fmt: skip
    else:
        command = [sys.executable, "-m", "jupyter", "lab", notebook.name, f"--port={args.port}",
                   "--ServerApp.ip=127.0.0.1"]  # fmt: skip
    if args.no_browser:
        command.append("--no-browser")
    if not args.voila and os.geteuid() == 0:
        command.append("--allow-root")  # containers and CI machines often run as root
    print("starting:", " ".join(command), file=sys.stderr)
    sys.stdout.flush()
    os.chdir(notebook.parent)  # the server's root: the notebooks, with the workbench opened
    os.execv(sys.executable, command)
    return EXIT_OK  # pragma: no cover - execv does not return


def _server(args: argparse.Namespace, settings: Settings) -> int:
    if settings.falkordb_url:
        print("FALKORDB_URL is set: the server is not managed by zehn", file=sys.stderr)
        return EXIT_USAGE
    server = ManagedServer(settings.home, port=settings.server_port)
    if args.action == "start":
        info = server.ensure()
        print(f"FalkorDB running at {info.url} (pid {info.pid}, data in {info.data_dir})")
        if info.moved_from is not None:
            print(
                f"note: it ran on port {info.moved_from} before, which another program now "
                "holds; a FALKORDB_URL naming that port no longer reaches it "
                "(ZEHN_SERVER_PORT keeps one port)",
                file=sys.stderr,
            )
    elif args.action == "stop":
        print("stopped (data saved)" if server.stop() else "no server was running")
    else:
        status = server.status()
        if status is None:
            print("not running")
            return EXIT_ERROR
        print(f"running at {status.url} (pid {status.pid}, data in {status.data_dir})")
    return EXIT_OK


def _print_report(build: BuildReport) -> None:
    report = build.ingest
    types = ", ".join(f"{n} {t}" for t, n in report.documents_by_type.items()) or "none"
    print(f"graph {build.graph}: {report.documents} documents from {report.files} files ({types})")
    print(
        f"  {report.written} written, {report.unchanged} unchanged; "
        f"{report.sentences} sentences in {report.chunks} chunks"
    )
    if build.swapped:
        predicates = ", ".join(f"{n} {p}" for p, n in build.edges_by_predicate.items()) or "none"
        print(
            f"  {build.strategy}: {build.extracted_documents} documents extracted; "
            f"{build.entities} entities, {build.mentions} mentions "
            f"({build.ambiguous_mentions} ambiguous), {build.edges} edges ({predicates})"
        )
        for note in build.notes:
            print(f"  note: {note}")
        print(f"  {build.elapsed_s:.2f} s")
    if report.skipped:
        print(f"  skipped {len(report.skipped)} files:")
        for skipped in report.skipped:
            print(f"    {skipped.path}: {skipped.reason}")


def _print_health(health: Health) -> None:
    if not health.reachable:
        print(f"FalkorDB: UNREACHABLE at {health.location}\n  {health.error}")
        return
    versions = ", ".join(f"{k} {v}" for k, v in health.versions.items())
    print(f"FalkorDB: reachable at {health.location} ({versions})")
    if health.error:
        print(f"  but: {health.error}")
    elif health.graphs:
        print(health.to_frame().to_string(index=False))
    else:
        print("no graphs yet")


def _print_json(payload: Any) -> None:
    print(json.dumps(payload, indent=2, ensure_ascii=False, default=str))


# --- failures ------------------------------------------------------------------------------


def _error(args: argparse.Namespace, reason: str, kind: str, **extra: Any) -> int:
    """A failure a handler found itself: one line on stderr, or the JSON error object."""
    if getattr(args, "json", False):
        return _json_error(args, reason, kind, **extra)
    print(f"error: {reason}", file=sys.stderr)
    return EXIT_ERROR


def _json_error(
    args: argparse.Namespace, reason: str, kind: str, *, code: int = EXIT_ERROR, **extra: Any
) -> int:
    """Print the one JSON object of a failed command; ``ask`` answers in its own contract."""
    if args.command == "ask":
        payload = _error_answer(
            args.question, reason, graph=args.graph, policy={"name": args.policy}, model=args.model
        )
        _print_json({**payload, "error": kind, **extra})
    else:
        _print_json(
            {"status": "error", "reason": reason, "command": args.command, "error": kind, **extra}
        )
    return code


def _error_answer(
    question: str | None,
    reason: str,
    *,
    graph: str | None,
    policy: dict[str, Any],
    model: str | None,
) -> dict[str, Any]:
    """The answer contract of a question that could not be asked: status ``error``, "I don't
    know" (in the question's language), the reason, no citations; graph and policy as far as
    they are known."""
    language = detect_language(question) if question else "en"
    answer = CitedAnswer(
        question=question or "",
        status=ERROR,
        answer=dont_know(language),
        reason=reason,
        graph=graph or "",
        policy=policy,
        model=model or "",
        language=language,
    )
    return {**answer.to_dict(), "question": question, "graph": graph, "model": model}


def _usage_error(error: UsageError, argv: list[str]) -> int:
    """Bad usage exits 2: argparse's usage and message on stderr, or with ``--json`` in the
    arguments the JSON error object (the arguments did not parse, so they are read loosely)."""
    if "--json" not in argv:
        print(f"{error.usage}\n{error.prog}: error: {error.message}", file=sys.stderr)
        return EXIT_USAGE
    command = next((a for a in argv if not a.startswith("-")), None)
    words = _loose_ask_arguments(argv) if command == "ask" else {}
    args = argparse.Namespace(
        command=command,
        question=words.get("question"),
        graph=words.get("graph"),
        policy=words.get("policy"),
        model=words.get("model"),
    )
    reason = f"{error.prog}: {error.message}"
    return _json_error(args, reason, "usage", code=EXIT_USAGE, usage=error.usage)


def _loose_ask_arguments(argv: list[str]) -> dict[str, str]:
    """The question and options of an ``ask`` that argparse refused, as far as they can be read."""
    words: dict[str, str] = {}
    rest = argv[argv.index("ask") + 1 :]
    valued = ("--graph", "--policy", "--model")
    i = 0
    while i < len(rest):
        token = rest[i]
        if token.startswith("--") and "=" in token:
            key, value = token[2:].split("=", 1)
            words.setdefault(key, value)
        elif token in valued and i + 1 < len(rest):
            words.setdefault(token[2:], rest[i + 1])
            i += 1
        elif not token.startswith("-"):
            words.setdefault("question", token)
        i += 1
    return words


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
