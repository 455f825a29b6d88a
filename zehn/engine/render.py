"""Plain-text rendering of a ``CitedAnswer`` for the terminal (widgets render their own)."""

from __future__ import annotations

from zehn.corpus.model import SourceType
from zehn.engine.answer import ANSWERED, Citation, CitedAnswer

_SOURCE_NAMES: dict[str, str] = {
    SourceType.CONFLUENCE: "Confluence",
    SourceType.PULL_REQUEST: "pull request",
    SourceType.MEETING: "meeting notes",
    SourceType.EMAIL: "email",
    SourceType.TICKET: "ticket",
    SourceType.TEXT: "document",
}


def render_answer(answer: CitedAnswer) -> str:
    """The terminal rendering: the answer, its context, sources, paths and limitations."""
    lines = _head(answer)
    if answer.related:
        lines.append("\nrelated (context the sources state, not the answer):")
        lines.extend(
            f"  - {r.text} {' '.join(f'[{n}]' for n in r.citations)}" for r in answer.related
        )
    if answer.citations:
        lines.append("\nsources:")
        for c in answer.citations:
            lines.extend(_source(c))
    if answer.paths and answer.status != ANSWERED:
        lines.append("\npaths found (not claimed):")
        for path in answer.paths[:10]:
            hops = " → ".join(f"{h.source} {h.rel_type} {h.target} [{h.label}]" for h in path.hops)
            lines.append(f"  - {path.label}: {hops}")
        if len(answer.paths) > 10:
            lines.append(f"  … {len(answer.paths) - 10} more (use --json)")
    lines.append(
        f"\npolicy: {answer.policy['name']} ({answer.policy['mode']}) · graph: {answer.graph}"
        f" · model: {answer.model} · {len(answer.tool_calls)} queries · {answer.elapsed_ms:.0f} ms"
    )
    if answer.limitations:
        lines.append("limitations:")
        lines.extend(f"  - {note}" for note in answer.limitations)
    return "\n".join(lines)


def _head(answer: CitedAnswer) -> list[str]:
    """The badge, the question, the status, the answer and why; identities and parts."""
    badge = answer.policy.get("badge")
    lines = [f"[{badge}]"] if badge else []
    lines += [f"Q: {answer.question}", f"status: {answer.status.upper()}", "", answer.answer]
    if answer.reason:
        lines.append(f"\nwhy: {answer.reason}")
    if answer.identities:
        lines.append("\nidentities:")
        for identity in answer.identities:
            evidence = ", ".join(identity.evidence) or "no mentions"
            lines.append(f"  - {identity.name} ({identity.kind}, {identity.id}): {evidence}")
    for i, part in enumerate(answer.parts, start=1):
        lines.append(f"\npart {i} ({part.status}): {part.question}")
        if part.reason:
            lines.append(f"  why: {part.reason}")
    return lines


def _source(c: Citation) -> list[str]:
    """One numbered source: the quote with its marks, where it is from, and why it is stale."""
    kind = _SOURCE_NAMES.get(c.source_type, c.source_type)
    date = f", {c.date[:10]}" if c.date else ""
    marks = [
        mark
        for mark, on in (
            ("diagram line", c.diagram_line),
            ("found by search", c.found_by == "search"),
            ("related context", c.role == "related"),
        )
        if on
    ]
    lines = [f'  [{c.n}] "{c.quote}"' + (f" ({', '.join(marks)})" if marks else "")]
    lines.append(f"      — {c.title} ({kind}{date}) {c.id}")
    if c.stale:
        because = (
            f'superseded by "{c.superseded_quote}" ({c.superseded_by})'
            if c.superseded_by
            else c.stale_reason
        )
        lines.append(f"      STALE: {because}")
    return lines
