"""The reviewers' commands, kept beside ``zehn.cli`` (which registers them):

- ``zehn policy evaluate``: a policy's predicates measured on a graph's reviewed edges — the
  figures, the proposal per predicate, and with ``--write`` the evaluation recorded in the policy
  file and its proposals applied (``zehn.review.policy_eval``);
- ``zehn audit export-gold``: the reviewed edges as a gold folder that ``zehn compare --gold``
  scores every strategy against (``zehn.review.audit_gold``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from zehn.config import Settings
from zehn.evidence.policy import load_policy
from zehn.review.audit_gold import export_gold
from zehn.review.policy_eval import PolicyEvaluation, evaluate_policy, write_evaluation
from zehn.store.client import GraphClient

EXIT_OK = 0


def add_review_parsers(sub: Any) -> None:
    """Register ``zehn policy evaluate`` and ``zehn audit export-gold`` on the CLI."""
    policy = sub.add_parser("policy", help="traversal policies: measure them on reviewed edges")
    actions = policy.add_subparsers(dest="policy_action", required=True)
    evaluate = actions.add_parser(
        "evaluate", help="per predicate: edges, supported share, audited precision, proposal"
    )
    evaluate.add_argument("--graph", required=True, help="the graph whose reviewed edges count")
    evaluate.add_argument("--policy", default=None, help="policy name or YAML path")
    evaluate.add_argument(
        "--write", action="store_true", help="record the evaluation in the policy file and apply it"
    )
    evaluate.add_argument("--json", action="store_true")
    evaluate.set_defaults(handler=_evaluate)
    audit = sub.add_parser("audit", help="reviewed edges: export them as gold")
    audit_actions = audit.add_subparsers(dest="audit_action", required=True)
    export = audit_actions.add_parser(
        "export-gold", help="every reviewed edge as a gold row (rejected ones as negatives)"
    )
    export.add_argument("--graph", required=True, help="the graph whose labels are exported")
    export.add_argument("--out", required=True, type=Path, help="the gold folder to write")
    export.add_argument("--json", action="store_true")
    export.set_defaults(handler=_export_gold)


def _evaluate(args: argparse.Namespace, settings: Settings) -> int:
    policy = load_policy(args.policy or settings.policy)
    with GraphClient.connect(settings) as client:
        evaluation = evaluate_policy(client, args.graph, policy)
    written = str(write_evaluation(evaluation, policy)) if args.write else None
    if args.json:
        print(json.dumps({"status": "ok", "written": written, **evaluation.to_dict()}, indent=2))
        return EXIT_OK
    print(render_evaluation(evaluation))
    if written:
        print(f"written to {written}: the proposals are applied; answers quote the evaluation")
    return EXIT_OK


def _export_gold(args: argparse.Namespace, settings: Settings) -> int:
    with GraphClient.connect(settings) as client:
        written = export_gold(client, args.graph, args.out)
    if args.json:
        print(json.dumps({"status": "ok", **written.to_dict()}, indent=2))
    else:
        print(
            f"wrote {written.path}: {written.correct} correct, {written.rejected} rejected "
            f"({written.left_out} unsure or stale labels left out); score strategies against it "
            f"with: zehn compare --gold {args.out}"
        )
    return EXIT_OK


def render_evaluation(evaluation: PolicyEvaluation) -> str:
    """The evaluation as a terminal table, one predicate per line."""
    lines = [
        f"policy {evaluation.policy} on graph {evaluation.graph} ({evaluation.date}); walk when "
        f"the audited precision's 95 % lower bound reaches {evaluation.min_precision:.2f} "
        f"with at least {evaluation.min_sample} audited edges",
        f"{'predicate':<14} {'edges':>6} {'supported':>10} {'audited':>8} "
        f"{'precision (95% CI)':>24}  {'now':<5} proposal",
    ]
    for p in evaluation.predicates:
        share = f"{p.supported_share:.0%}" if p.supported_share is not None else "-"
        precision = (
            f"{p.correct}/{p.audited} ({p.low:.2f}–{p.high:.2f})"
            if p.audited and p.low is not None and p.high is not None
            else "-"
        )
        walked = "walk" if p.walked else "off"
        lines.append(
            f"{p.predicate:<14} {p.edges:>6} {share:>10} {p.audited:>8} {precision:>24}"
            f"  {walked:<5} {p.proposal}"
        )
    return "\n".join(lines)


def event_callbacks() -> dict[str, Any]:
    """``stage`` and ``files`` callbacks of ``zehn.api.ingest`` that print each event as one
    JSON line on stderr (``zehn ingest --events``): what a build run in another process
    reports to the workbench (``widgets.build_process``)."""

    def emit(event: dict[str, Any]) -> None:
        print(json.dumps(event), file=sys.stderr, flush=True)

    class _Files:
        def __init__(self, total: int) -> None:
            emit({"event": "files", "total": total})

        def update(self, n: int = 1) -> None:
            emit({"event": "file", "done": n})

        def close(self) -> None:
            pass

    return {"stage": lambda name: emit({"event": "stage", "stage": name}), "files": _Files}
