"""The limitations every answer carries that do not depend on the question: what the corpus
holds and lacks, the active policy and what it does not walk, and the annotators' lines (the
graph's audited error rate). The investigation adds its own (evidence, truncation, notes)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from zehn.corpus.model import SourceType
from zehn.engine.tools import ToolExecutor
from zehn.errors import RetrievalError, StoreError, ZehnError
from zehn.evidence.policy import Policy
from zehn.store.client import GraphClient

# the source types a corpus is expected to have: a missing one is said in limitations
SOURCE_TYPES = tuple(t for t in SourceType if t is not SourceType.TEXT)

Annotator = Callable[[GraphClient, str], str]
"""Adds one limitation line to every answer from outside the engine, under a name (``audit``:
the graph's audited error rate, ``zehn.review.stats.audit_summary``, wired by
``zehn.open_engine``). The engine never imports review code; the front door composes them."""


def _outdated(tools: ToolExecutor, policy: Policy) -> str:
    """Said when the policy's evaluation measured this graph at an earlier revision."""
    record = policy.evaluation or {}
    if record.get("graph") != tools.graph or not record.get("revision"):
        return ""
    try:
        current = tools.snapshot().revision
    except (StoreError, RetrievalError):
        return ""
    if current is None or current == record.get("revision"):
        return ""
    return (
        "; its evaluation predates the graph's current revision: run `zehn policy evaluate` again"
    )


def standing_limitations(
    tools: ToolExecutor, policy: Policy, annotators: Mapping[str, Annotator]
) -> list[str]:
    """The corpus's coverage, the policy's blocked predicates and badge, the annotators'."""
    notes = []
    try:
        covered = {
            str(r["source_type"]): int(r["documents"]) for r in tools.internal("coverage", {})
        }
    except (StoreError, RetrievalError):
        covered = {}
    if covered:
        present = ", ".join(f"{n} {t}" for t, n in sorted(covered.items()))
        absent = [t for t in SOURCE_TYPES if t not in covered]
        notes.append(f"corpus: {present}" + (f"; no {', '.join(absent)} sources" if absent else ""))
    blocked = "; ".join(
        f"{p} not walked: {said}" if (said := policy.evaluated(p)) else f"{p} not traversed ({why})"
        for p, why in policy.blocked().items()
    )
    walked = [f"{p} walked: {said}" for p in policy.traversable() if (said := policy.evaluated(p))]
    notes.append(
        f"policy {policy.name} ({policy.mode})"
        + (f": {blocked}" if blocked else "")
        + "".join(f"; {w}" for w in walked)
        + _outdated(tools, policy)
    )
    if policy.badge:
        notes.append(policy.badge)
    for name, annotate in annotators.items():
        try:
            notes.append(annotate(tools.client, tools.graph))
        except ZehnError as e:  # the answer stands; say what we could not check
            notes.append(f"{name}: could not be read ({type(e).__name__}: {e})")
    return notes
