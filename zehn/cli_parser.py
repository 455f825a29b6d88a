"""The ``zehn`` command's argument parser, one function per group of commands; ``zehn.cli``
gives it the handlers (``build_parser``) and runs them. A parser that raises on bad usage
(``UsageError``) instead of printing and exiting, so that ``--json`` can answer it in JSON too.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn

from zehn.cli_review import add_review_parsers
from zehn.config import Settings
from zehn.corpus.sample import SAMPLE_DIR
from zehn.extract.pipeline import DEFAULT_STRATEGY, STRATEGIES

Handler = Callable[[argparse.Namespace, Settings], int]


class UsageError(Exception):
    """Bad usage, raised by ``Parser`` instead of argparse's print-and-exit."""

    def __init__(self, prog: str, usage: str, message: str) -> None:
        self.prog = prog
        self.usage = usage.strip()
        self.message = message
        super().__init__(message)


class Parser(argparse.ArgumentParser):
    """argparse that raises on bad usage, so that ``--json`` can answer it in JSON too
    (subcommand parsers are made of the same class)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(self.prog, self.format_usage(), message)


def build_parser(handlers: Mapping[str, Handler]) -> argparse.ArgumentParser:
    """Every command, each with its handler (``handlers[name]``)."""
    parser = Parser(prog="zehn", description="Citation-first GraphRAG workbench")
    sub = parser.add_subparsers(dest="command")
    _build_commands(sub, handlers)
    _graph_commands(sub, handlers)
    _question_commands(sub, handlers)
    _service_commands(sub, handlers)
    add_review_parsers(sub)  # zehn policy evaluate, zehn audit export-gold (zehn.cli_review)
    server = sub.add_parser("server", help="the managed local FalkorDB server")
    server.add_argument("action", choices=["start", "stop", "status"])
    server.set_defaults(handler=handlers["server"])
    return parser


def _build_commands(sub: Any, handlers: Mapping[str, Handler]) -> None:
    """demo, ingest, graphs: what builds graphs and lists them."""
    demo = sub.add_parser(
        "demo", help="build the sample graph, print its health, answer a change-impact question"
    )
    demo.add_argument("--json", action="store_true")
    demo.set_defaults(handler=handlers["demo"])

    ingest = sub.add_parser(
        "ingest", help="ingest a corpus and extract edges into the graph NAME__STRATEGY"
    )
    ingest.add_argument("path", type=Path, help="a corpus folder (sources/, catalog.yaml) or files")
    ingest.add_argument("--graph", required=True, help="corpus name; the graph is NAME__STRATEGY")
    ingest.add_argument("--strategy", default=DEFAULT_STRATEGY, help=", ".join(STRATEGIES))
    ingest.add_argument(
        "--catalog", type=Path, help="entity catalog YAML (default: PATH/catalog.yaml)"
    )
    ingest.add_argument("--json", action="store_true", help="print the report as JSON")
    ingest.add_argument("--no-progress", action="store_true")
    ingest.add_argument(
        "--events", action="store_true", help="stage and file progress as JSON lines on stderr"
    )
    ingest.add_argument(
        "--wait",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="while another build of the same graph runs, wait for it (default: a script "
        "that builds gets the graph complete either way) or, with --no-wait, exit 1 naming it",
    )
    ingest.set_defaults(handler=handlers["ingest"])

    graphs = sub.add_parser("graphs", help="list named graphs with counts")
    graphs.add_argument("--json", action="store_true")
    graphs.set_defaults(handler=handlers["graphs"])


def _graph_commands(sub: Any, handlers: Mapping[str, Handler]) -> None:
    """graph, catalog: named graphs and entity catalogs."""
    graph = sub.add_parser("graph", help="create, copy or delete a named graph")
    graph_sub = graph.add_subparsers(dest="action", required=True)
    create = graph_sub.add_parser("create")
    create.add_argument("name")
    copy = graph_sub.add_parser("copy")
    copy.add_argument("source")
    copy.add_argument("target")
    delete = graph_sub.add_parser("delete")
    delete.add_argument("name")
    graph.set_defaults(handler=handlers["graph"])

    catalog = sub.add_parser("catalog", help="entity catalogs: suggest one for a corpus")
    catalog_sub = catalog.add_subparsers(dest="action", required=True)
    suggest = catalog_sub.add_parser(
        "suggest", help="discover the corpus's entities and write them as a catalog to curate"
    )
    suggest.add_argument("path", type=Path, help="a corpus folder (sources/) or files")
    suggest.add_argument("--out", type=Path, help="write the catalog YAML here (default: stdout)")
    suggest.add_argument("--json", action="store_true", help="print the suggestion as JSON")
    catalog.set_defaults(handler=handlers["catalog"])


def _question_commands(sub: Any, handlers: Mapping[str, Handler]) -> None:
    """ask, compare, eval: questions and their scores."""
    ask = sub.add_parser(
        "ask", help="answer a question with verbatim citations, or say I don't know"
    )
    ask.add_argument("question")
    ask.add_argument("--graph", help="graph or corpus name (default: ZEHN_GRAPH)")
    ask.add_argument("--policy", help="traversal policy name or YAML path (default: ZEHN_POLICY)")
    ask.add_argument("--model", choices=["offline", "openai"], help="default: ZEHN_MODEL")
    ask.add_argument("--json", action="store_true", help="print the answer contract as JSON")
    ask.set_defaults(handler=handlers["ask"])

    compare = sub.add_parser("compare", help="build each strategy's graph and score it on gold")
    compare.add_argument(
        "--corpus",
        type=Path,
        help="corpus folder or files (default: the gold's `corpus:`, else data/sample)",
    )
    compare.add_argument(
        "--gold", type=Path, help="gold folder with relations.yaml (default: CORPUS/gold)"
    )
    compare.add_argument("--strategies", default=",".join(STRATEGIES))
    compare.add_argument(
        "--details", action="store_true", help="list unmatched edges and missed gold relations"
    )
    compare.add_argument(
        "--suite",
        action="store_true",
        help="build every corpus with gold (data/gold/*, the sample) with rules: one table",
    )
    compare.add_argument("--json", action="store_true")
    compare.set_defaults(handler=handlers["compare"])

    evaluate = sub.add_parser("eval", help="ask every gold question and score the answers")
    evaluate.add_argument("--gold", type=Path, default=SAMPLE_DIR, help="corpus folder with gold/")
    evaluate.add_argument("--strategy", default="rules", help="comma-separated strategies")
    evaluate.add_argument("--policy", default="production", help="comma-separated policies")
    evaluate.add_argument("--model", choices=["offline", "openai"], default="offline")
    evaluate.add_argument("--json", action="store_true")
    evaluate.set_defaults(handler=handlers["eval"])


def _service_commands(sub: Any, handlers: Mapping[str, Handler]) -> None:
    """health, lab: the server and the workbench."""
    health = sub.add_parser("health", help="server reachability, version, per-graph counts")
    health.add_argument("--json", action="store_true")
    health.set_defaults(handler=handlers["health"])

    lab = sub.add_parser("lab", help="open JupyterLab on the workbench notebook")
    lab.add_argument("--no-browser", action="store_true", help="headless: print the URL instead")
    lab.add_argument("--voila", action="store_true", help="serve the workbench as an app (Voila)")
    lab.add_argument(
        "--app",
        action="store_true",
        help="JupyterLab that opens on the workbench as an app (Voila), the notebooks a link away",
    )
    lab.add_argument("--port", type=int, default=8888)
    lab.set_defaults(handler=handlers["lab"])
