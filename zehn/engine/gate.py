"""The abstention gate: code, not a prompt, decides whether an answer may be shown.

After verification, every cited sentence must back something: a
source-supported hop of a path this investigation returned, or — for a
"what is X" question — a sentence that mentions X. At least one citation is
required. Otherwise the answer is withheld and the reason says why.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zehn.evidence.grade import INFERRED, INSUFFICIENT, SUPPORTED, GradedPath


@dataclass(frozen=True)
class GateDecision:
    open: bool
    reason: str | None


def supported_sentences(paths: Iterable[GradedPath]) -> set[str]:
    """Sentences that carry a source-supported hop (any path, best or alternative sentence)."""
    found: set[str] = set()
    for path in paths:
        for hop in path.hops:
            for grade in (hop.best, *hop.alternatives):
                if grade.label == SUPPORTED:
                    found.add(grade.evidence.sentence_id)
    return found


def evidence_summary(paths: Sequence[GradedPath]) -> str:
    """'12 paths found, 11 inferred, 1 insufficient' — the numbers behind an abstention."""
    if not paths:
        return "no path found"
    labels = Counter(p.label for p in paths)
    parts = [f"{len(paths)} path{'s' if len(paths) != 1 else ''} found"]
    for label, word in (
        (SUPPORTED, "supported"),
        (INFERRED, "inferred"),
        (INSUFFICIENT, "insufficient"),
    ):
        if labels[label]:
            parts.append(f"{labels[label]} {word}")
    return ", ".join(parts)


def decide(
    cited: Sequence[str],
    paths: Sequence[GradedPath],
    mention_sentences: set[str],
) -> GateDecision:
    """Open only if every cited sentence supports a hop (or mentions the asked-about entity)."""
    if not cited:
        return GateDecision(False, f"{evidence_summary(paths)}: no source states it")
    backed = supported_sentences(paths) | mention_sentences
    unbacked = [c for c in cited if c not in backed]
    if unbacked:
        return GateDecision(
            False,
            f"{evidence_summary(paths)}; cited sentence {unbacked[0]!r} supports no "
            "source-supported hop, so the answer is withheld",
        )
    return GateDecision(True, None)
