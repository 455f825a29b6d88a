"""Audit sampling and statistics: a stratified sample; label shares with Wilson intervals,
error rates and grader agreement.

Denominators, stated once:

- a label is *stale* when its edge key is no longer in the graph (the
  extractor stopped producing that edge). Stale labels are counted and
  reported, never silently dropped, but they describe an edge the graph no
  longer has, so they are left out of every share below;
- *unsure* is not a judgement: its share is over all current labels, and every
  other share, the error rate ("wrong in any way": anything but ``correct``)
  and the wrong-entity rate (``wrong_target`` + ``wrong_source``) are over the
  *judged* labels (current, not unsure). "9 of 27 sampled edges bound to the
  wrong entity" therefore means 27 judged edges;
- grader agreement: the path grader (with later negations superseding, as an
  investigation grades a hop) calls an edge source-supported exactly when the
  reviewer calls it correct; over the judged labels.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from zehn.evidence.grade import INFERRED, INSUFFICIENT, SUPPORTED, Grader, Negation, supersede
from zehn.review.audit import (
    LABELS,
    WRONG_ENTITY,
    AuditError,
    AuditItem,
    AuditLabel,
    AuditStore,
    read_items,
    read_negated,
)
from zehn.review.observatory import graph_entities
from zehn.store.client import GraphClient

if TYPE_CHECKING:
    import pandas as pd

Z_95 = 1.959963984540054
GRADES: tuple[str, ...] = (SUPPORTED, INFERRED, INSUFFICIENT)
_EXISTING_KEYS = "MATCH ()-[r:RELATES]->() WHERE r.key IN $keys RETURN DISTINCT r.key"


def sample_edges(client: GraphClient, graph: str, n: int, seed: int = 0) -> list[AuditItem]:
    """A sample of ``n`` edges stratified by (strategy, predicate), the same for the same seed.

    Allocation is proportional to each stratum's size, with at least one edge
    per stratum whenever ``n`` is at least the number of strata (largest
    remainders fill up; strata bumped to one give back first). With fewer
    slots than strata, ``n`` strata are drawn at random, one edge each.
    Candidates are sorted by key before ``random.Random(seed)`` picks, and the
    sample is shuffled with it, so the order carries no stratum pattern.
    """
    if n < 1:
        raise AuditError(f"the sample size must be at least 1, not {n}")
    items = read_items(client, graph)
    rng = random.Random(seed)
    strata: dict[tuple[str, str], list[AuditItem]] = defaultdict(list)
    for item in items:
        strata[item.stratum].append(item)
    names = sorted(strata)
    if n >= len(items):
        chosen = list(items)
    elif n < len(names):
        chosen = [rng.choice(strata[name]) for name in rng.sample(names, n)]
    else:
        sizes = {name: len(strata[name]) for name in names}
        quota = _allocate(sizes, n)
        chosen = [item for name in names for item in rng.sample(strata[name], quota[name])]
    rng.shuffle(chosen)
    return chosen


def _allocate(sizes: Mapping[tuple[str, str], int], n: int) -> dict[tuple[str, str], int]:
    """Proportional quotas summing to ``n``, each at least 1 and at most the stratum size."""
    total = sum(sizes.values())
    target = {name: n * size / total for name, size in sizes.items()}
    quota = {name: min(sizes[name], max(1, int(target[name]))) for name in sizes}
    while sum(quota.values()) < n:
        room = [name for name in sizes if quota[name] < sizes[name]]
        best = max(room, key=lambda name: (target[name] - quota[name], name))
        quota[best] += 1
    while sum(quota.values()) > n:
        spare = [name for name in sizes if quota[name] > 1]
        worst = min(spare, key=lambda name: (target[name] - quota[name], name))
        quota[worst] -= 1
    return quota


def wilson(k: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for ``k`` successes in ``n`` trials; n = 0 knows nothing: (0, 1)."""
    if n < 0 or k < 0 or k > n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    low = 0.0 if k == 0 else max(0.0, centre - half)  # exact at the ends, no rounding dust
    return (low, 1.0 if k == n else min(1.0, centre + half))


@dataclass(frozen=True)
class Share:
    """``k`` of ``n`` with its 95% Wilson interval."""

    k: int
    n: int

    @property
    def share(self) -> float | None:
        return self.k / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def text(self, what: str = "") -> str:
        """``9 of 27 <what> (33%, 95% CI 19–52%)``."""
        head = f"{self.k} of {self.n}" + (f" {what}" if what else "")
        if not self.n:
            return head
        low, high = self.interval
        return f"{head} ({self.k / self.n:.0%}, 95% CI {low * 100:.0f}–{high:.0%})"

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        share = self.share
        return {
            "k": self.k,
            "n": self.n,
            "share": None if share is None else round(share, 4),
            "low": round(low, 4),
            "high": round(high, 4),
        }


@dataclass(frozen=True)
class StrategyStats:
    """The labels of one strategy (or ``all``) in one graph."""

    strategy: str
    counts: Mapping[str, int]
    stale: int = 0
    confusion: Mapping[tuple[str, str], int] = field(default_factory=dict)

    @property
    def labelled(self) -> int:
        """Current labels (edge still in the graph), unsure included."""
        return sum(self.counts.values())

    @property
    def unsure(self) -> int:
        return self.counts.get("unsure", 0)

    @property
    def judged(self) -> int:
        return self.labelled - self.unsure

    def share(self, label: str) -> Share:
        n = self.labelled if label == "unsure" else self.judged
        return Share(self.counts.get(label, 0), n)

    @property
    def errors(self) -> Share:
        return Share(self.judged - self.counts.get("correct", 0), self.judged)

    @property
    def wrong_entity(self) -> Share:
        return Share(sum(self.counts.get(label, 0) for label in WRONG_ENTITY), self.judged)

    @property
    def agreement(self) -> Share:
        """Grader source-supported ⇔ reviewer correct, over judged labels that were graded."""
        judged = {(g, x): c for (g, x), c in self.confusion.items() if x != "unsure"}
        agree = sum(c for (g, x), c in judged.items() if (g == SUPPORTED) == (x == "correct"))
        return Share(agree, sum(judged.values()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "strategy": self.strategy,
            "labelled": self.labelled,
            "judged": self.judged,
            "unsure": self.unsure,
            "stale": self.stale,
            "shares": {label: self.share(label).to_dict() for label in LABELS},
            "errors": self.errors.to_dict(),
            "wrong_entity": self.wrong_entity.to_dict(),
            "agreement": self.agreement.to_dict(),
            "confusion": [
                {"grader": g, "reviewer": x, "count": c}
                for (g, x), c in sorted(self.confusion.items())
            ],
        }


@dataclass(frozen=True)
class AuditStats:
    """Per strategy and over all labels of one graph; ``stale_keys`` name the vanished edges."""

    graph: str
    strategies: Mapping[str, StrategyStats]
    overall: StrategyStats
    stale_keys: tuple[str, ...] = ()

    @property
    def audited(self) -> bool:
        return self.overall.judged > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "graph": self.graph,
            "audited": self.audited,
            "overall": self.overall.to_dict(),
            "strategies": {name: s.to_dict() for name, s in self.strategies.items()},
            "stale_keys": list(self.stale_keys),
        }

    def _rows(self) -> list[StrategyStats]:
        """Each strategy, and ``all`` when there is more than one."""
        rows = list(self.strategies.values())
        return rows if len(rows) == 1 else [*rows, self.overall]

    def to_frame(self) -> pd.DataFrame:
        """One row per strategy and label: k, n, share and its 95% Wilson interval."""
        import pandas as pd

        rows = [
            {"strategy": s.strategy, "label": label, **s.share(label).to_dict()}
            for s in self._rows()
            for label in LABELS
        ]
        return pd.DataFrame(rows, columns=["strategy", "label", "k", "n", "share", "low", "high"])

    def summary_frame(self) -> pd.DataFrame:
        """One row per strategy: counts, error and wrong-entity rates, grader agreement."""
        import pandas as pd

        rows = []
        for s in self._rows():
            row: dict[str, Any] = {
                "strategy": s.strategy,
                "labelled": s.labelled,
                "judged": s.judged,
                "unsure": s.unsure,
                "stale": s.stale,
            }
            for name, value in (
                ("error", s.errors),
                ("wrong_entity", s.wrong_entity),
                ("agreement", s.agreement),
            ):
                low, high = value.interval
                row |= {name: value.share, f"{name}_low": low, f"{name}_high": high}
            rows.append(row)
        return pd.DataFrame(rows)

    def confusion_frame(self, strategy: str | None = None) -> pd.DataFrame:
        """Grader label (rows) against reviewer label (columns)."""
        import pandas as pd

        stats = self.strategies[strategy] if strategy else self.overall
        table = [[stats.confusion.get((g, x), 0) for x in LABELS] for g in GRADES]
        return pd.DataFrame(table, index=pd.Index(GRADES, name="grader"), columns=list(LABELS))


def audit_stats(client: GraphClient, graph: str, store: AuditStore | None = None) -> AuditStats:
    """Statistics of the labels for ``graph``; each current labelled edge is re-graded."""
    store = store or AuditStore(client)
    labels = store.labels(graph)
    items = {i.key: i for i in read_items(client, graph, [x.edge_key for x in labels])}
    grades: dict[str, str] = {}
    if items:
        entities = graph_entities(client, graph)
        negations = [Negation.from_evidence(i.to_evidence()) for i in read_negated(client, graph)]
        grader = Grader(entities)
        for key, item in items.items():
            grades[key] = supersede(grader.grade(item.to_evidence()), negations).label
    return _stats(graph, labels, set(items), grades)


def _stats(
    graph: str, labels: Sequence[AuditLabel], existing: set[str], grades: Mapping[str, str]
) -> AuditStats:
    def one(name: str, chosen: Sequence[AuditLabel]) -> StrategyStats:
        current = [x for x in chosen if x.edge_key in existing]
        counts = Counter(x.label for x in current)
        confusion = Counter((grades[x.edge_key], x.label) for x in current if x.edge_key in grades)
        return StrategyStats(
            name,
            {label: counts.get(label, 0) for label in LABELS},
            len(chosen) - len(current),
            dict(confusion),
        )

    names = sorted({x.strategy for x in labels})
    return AuditStats(
        graph,
        {name: one(name, [x for x in labels if x.strategy == name]) for name in names},
        one("all", labels),
        tuple(sorted({x.edge_key for x in labels if x.edge_key not in existing})),
    )


def audit_summary(client: GraphClient, graph: str, store: AuditStore | None = None) -> str:
    """The audit line for an answer's limitations: the audited error rate, or "unaudited".

    Cheap (no grading): it reads the labels and which of their edges still
    exist. A missing workbench graph means unaudited; any other store error
    propagates as a ``ZehnError``.
    """
    store = store or AuditStore(client)
    labels = store.labels(graph)
    if not labels:
        return f"audit: graph {graph} is unaudited"
    keys = sorted({x.edge_key for x in labels})
    existing = {str(row[0]) for row in client.read(graph, _EXISTING_KEYS, {"keys": keys}).rows}
    overall = _stats(graph, labels, existing, {}).overall
    extras = []
    if overall.unsure:
        extras.append(f"{overall.unsure} marked unsure (not counted)")
    if overall.stale:
        extras.append(f"{overall.stale} stale label(s) not counted (edge no longer in the graph)")
    if not overall.judged:
        return "; ".join([f"audit: graph {graph} is unaudited", *extras])
    parts = [
        "audit: " + overall.wrong_entity.text("sampled edges bound to the wrong entity"),
        overall.errors.text("wrong in any way"),
        *extras,
    ]
    return "; ".join(parts)
