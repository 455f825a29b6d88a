"""A policy decided by measured evidence: which predicates a graph's reviewed edges support.

"Production keeps CALLS off: its edges are mostly hedged or second-hand" was written once, for
the sample. ``evaluate_policy`` measures it on any graph: per predicate of the policy, the
number of edges, the share whose hop the grader reads as source-supported, and the audited
precision — reviewers' ``correct`` among the judged labels of the graph's current edges, with
its Wilson 95 % interval. It proposes to walk a predicate when the interval's lower bound
reaches the policy's ``min_audited_precision``, to keep it off when it does not, and says
"not enough audited edges" below ``min_audited_sample``: nothing unverified is turned on.

``write_evaluation`` records the evaluation in the policy file (date, graph, revision,
figures) and applies the proposals; every answer's limitation line then quotes it
(``zehn.engine.limitations``), and says when the graph has changed since.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from zehn.errors import PolicyError
from zehn.evidence.grade import SUPPORTED, Grader, Negation, supersede
from zehn.evidence.policy import Policy, load_policy
from zehn.extract.pipeline import graph_meta
from zehn.review.audit import AuditStore, read_items, read_negated
from zehn.review.observatory import graph_entities
from zehn.review.stats import wilson
from zehn.store.client import GraphClient

if TYPE_CHECKING:
    import pandas as pd

WALK = "walk"
KEEP_OFF = "keep off"
TOO_FEW = "not enough audited edges"


@dataclass(frozen=True)
class PredicateEvaluation:
    """One predicate's evidence on one graph, and what the policy should do with it."""

    predicate: str
    edges: int
    supported: int  # edges whose hop the grader reads as source-supported
    audited: int  # judged labels of current edges (unsure ones left out)
    correct: int
    low: float | None  # Wilson 95 % interval of the audited precision
    high: float | None
    walked: bool  # by the policy as it stands
    proposal: str

    @property
    def supported_share(self) -> float | None:
        return self.supported / self.edges if self.edges else None

    def quote(self, graph: str, date: str) -> str:
        """The limitation line's words: "audited 31/50 correct, 95 % CI 0.48–0.74, graph X,
        2026-12-04"."""
        if not self.audited:
            return f"not audited on graph {graph} ({date})"
        return (
            f"audited {self.correct}/{self.audited} correct, 95 % CI {self.low:.2f}–"
            f"{self.high:.2f}, graph {graph}, {date}"
        )


@dataclass(frozen=True)
class PolicyEvaluation:
    """Every predicate of one policy, measured on one graph revision."""

    policy: str
    graph: str
    revision: str | None
    date: str
    min_precision: float
    min_sample: int
    predicates: tuple[PredicateEvaluation, ...]

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "predicates": [asdict(p) for p in self.predicates]}

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd  # imported here: it costs half a second at start-up

        rows = [{**asdict(p), "supported_share": p.supported_share} for p in self.predicates]
        return pd.DataFrame(rows)


def evaluate_policy(
    client: GraphClient, graph: str, policy: Policy, store: AuditStore | None = None
) -> PolicyEvaluation:
    """Measure ``policy``'s predicates on ``graph`` (edges graded, labels counted)."""
    store = store or AuditStore(client)
    items = read_items(client, graph)
    grader = Grader(graph_entities(client, graph))
    negations = [Negation.from_evidence(i.to_evidence()) for i in read_negated(client, graph)]
    edges: Counter[str] = Counter()
    supported: Counter[str] = Counter()
    for item in items:
        edges[item.rel_type] += 1
        grade = supersede(grader.grade(item.to_evidence()), negations)
        supported[item.rel_type] += grade.label == SUPPORTED
    current = {i.key: i.rel_type for i in items}
    judged: Counter[str] = Counter()
    correct: Counter[str] = Counter()
    for label in store.labels(graph):
        predicate = current.get(label.edge_key)
        if predicate is None or label.label == "unsure":
            continue
        judged[predicate] += 1
        correct[predicate] += label.label == "correct"
    walked = set(policy.traversable())
    rows = []
    for rule in policy.rules:
        p = rule.predicate
        low, high = wilson(correct[p], judged[p]) if judged[p] else (None, None)
        rows.append(
            PredicateEvaluation(
                p, edges[p], supported[p], judged[p], correct[p], low, high, p in walked,
                _proposal(judged[p], low, policy),
            )
        )  # fmt: skip
    revision = graph_meta(client, graph).get("revision")
    return PolicyEvaluation(
        policy.name,
        graph,
        None if revision is None else str(revision),
        datetime.now(UTC).date().isoformat(),
        policy.min_audited_precision,
        policy.min_audited_sample,
        tuple(rows),
    )


def _proposal(judged: int, low: float | None, policy: Policy) -> str:
    if judged < policy.min_audited_sample or low is None:
        return TOO_FEW
    return WALK if low >= policy.min_audited_precision else KEEP_OFF


def write_evaluation(evaluation: PolicyEvaluation, policy: Policy) -> Path:
    """Record ``evaluation`` in the policy's file and apply its proposals (a predicate with too
    few audited edges keeps its setting); the file's other lines and comments stay."""
    path = Path(policy.source)
    if not policy.source or not path.is_file():
        raise PolicyError(f"policy {policy.name!r} has no file to write its evaluation to")
    text = _without_evaluation(path.read_text(encoding="utf-8"))  # the last one is replaced
    for row in evaluation.predicates:
        if row.proposal in (WALK, KEEP_OFF):
            text = _set_traverse(text, row.predicate, row.proposal == WALK, path)
    text += _evaluation_block(evaluation)
    path.write_text(text, encoding="utf-8")
    load_policy(path)  # the written file must still be a valid policy
    return path


def _set_traverse(text: str, predicate: str, walk: bool, path: Path) -> str:
    """``traverse:`` of one predicate's rule set, in its inline (``{traverse: …}``) or block
    form; the line's other content and comments stay."""
    lines = text.splitlines(keepends=True)
    value = "true" if walk else "false"
    setting = re.compile(r"(\btraverse:\s*)(true|false)\b")
    for n, line in enumerate(lines):
        if not re.match(rf"^([ \t]*){re.escape(predicate)}:", line):
            continue
        if setting.search(line):  # inline: CALLS: {traverse: false, impact: reverse}
            lines[n] = setting.sub(rf"\g<1>{value}", line, count=1)
            return "".join(lines)
        indent = len(line) - len(line.lstrip())
        for m in range(n + 1, len(lines)):  # block: the rule's more indented lines
            inner = lines[m]
            if inner.strip() and len(inner) - len(inner.lstrip()) <= indent:
                break
            if setting.search(inner):
                lines[m] = setting.sub(rf"\g<1>{value}", inner, count=1)
                return "".join(lines)
    raise PolicyError(f"{path}: cannot find the traverse setting of {predicate}")


_BLOCK_START = "# --- evaluation (written by `zehn policy evaluate --write`) ---"


def _without_evaluation(text: str) -> str:
    at = text.find(_BLOCK_START)
    return (text if at < 0 else text[:at]).rstrip("\n") + "\n"


def _evaluation_block(evaluation: PolicyEvaluation) -> str:
    data = {
        "evaluation": {
            "date": evaluation.date,
            "graph": evaluation.graph,
            "revision": evaluation.revision,
            "predicates": {
                p.predicate: {
                    "edges": p.edges,
                    "supported": p.supported,
                    "audited": p.audited,
                    "correct": p.correct,
                    "ci95": None if p.low is None else [round(p.low, 3), round(p.high or 0, 3)],
                    "proposal": p.proposal,
                }
                for p in evaluation.predicates
            },
        }
    }
    return "\n" + _BLOCK_START + "\n" + yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
