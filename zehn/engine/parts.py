"""Multi-part questions: "If X goes down, which pages stop working, and who owns them?".

Each part is its own investigation — planned, graded, verified and gated alone — so a
fabricated citation in one part rejects that part only, and the whole answer never claims
more than its parts. A part that names nothing and refers back ("who owns them?") is asked
about what the previous part's answer reached. The parts' citations are numbered once for
the whole answer.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from zehn.engine.answer import (
    ABSTAINED,
    AMBIGUOUS,
    ANSWERED,
    ERROR,
    Citation,
    CitedAnswer,
    Part,
    Related,
    dont_know,
)
from zehn.reading.vocabulary import GradeLabel

Carried = tuple[tuple[str, str], ...]
"""(entity id, name) pairs a referring part is asked about."""
AskPart = Callable[[str, Carried], CitedAnswer]
_MARKER = re.compile(r"\[(\d+)\]")
_SEVERITY = (ERROR, AMBIGUOUS, ABSTAINED)  # the whole answer, when no part is answered


def ask_in_parts(question: str, parts: Sequence[str], ask: AskPart) -> CitedAnswer:
    """Ask each part in turn and compose one answer with numbered parts."""
    answers: list[CitedAnswer] = []
    carried: Carried = ()
    for text in parts:
        answer = ask(text, carried)
        answers.append(answer)
        carried = reached(answer) or carried
        if answers and len(answers) < len(parts) and _means_the_subject(parts[len(answers)]):
            carried = asked_about(answer) or carried
    return compose(question, answers)


_SUBJECT_IT = re.compile(r"\b(?:it|its|itself)\b|(?<![被由让给])它(?!们)", re.IGNORECASE)
_PLURAL = re.compile(r"\b(?:them|they|those|these|their)\b|它们|这些|那些")


def _means_the_subject(text: str) -> bool:
    """A part whose pronoun is the previous part's subject ("where does it write …?", "which
    team owns it?", "它还调用什么？"), not what the previous answer reached ("who owns them?",
    "被它启动的服务")."""
    return _SUBJECT_IT.search(text) is not None and _PLURAL.search(text) is None


def asked_about(answer: CitedAnswer) -> Carried:
    """The entity a part asked about: the one its model's first lookup or walk started at."""
    for call in answer.tool_calls:
        entity = call.params.get("entity_id")
        if call.by == "model" and entity:
            names = {n: path.names.get(n, n) for path in answer.paths for n in path.nodes}
            return ((str(entity), names.get(str(entity), str(entity).split(":", 1)[-1])),)
    return ()


def reached(answer: CitedAnswer) -> Carried:
    """The entities an answered part's cited, supported paths end at (what "them" means)."""
    if answer.status != ANSWERED:
        return ()
    cited = {c.id for c in answer.answer_citations}
    ends: dict[str, str] = {}
    for path in answer.paths:
        if path.label != GradeLabel.SUPPORTED or not path.hops:
            continue
        if all(h.best.evidence.sentence_id in cited for h in path.hops):
            end = path.nodes[-1]
            ends.setdefault(end, path.names.get(end, end))
    return tuple(ends.items())


def compose(question: str, answers: Sequence[CitedAnswer]) -> CitedAnswer:
    """One answer from its parts: ``answered`` when at least one part is."""
    numbers: dict[str, int] = {}
    citations: list[Citation] = []
    parts: list[Part] = []
    related: list[Related] = []
    lines: list[str] = []
    for i, answer in enumerate(answers, start=1):
        local: dict[int, int] = {}
        for citation in answer.citations:
            if citation.id not in numbers:
                numbers[citation.id] = len(numbers) + 1
                citations.append(dataclasses.replace(citation, n=numbers[citation.id]))
            local[citation.n] = numbers[citation.id]
        text = _renumbered(answer.answer, local)
        own = tuple(local[c.n] for c in answer.answer_citations)
        parts.append(
            Part(answer.question, answer.status, text, answer.reason, own, answer.reason_code)
        )
        related.extend(
            Related(r.text, tuple(local[n] for n in r.citations if n in local))
            for r in answer.related
        )
        why = f" ({answer.reason})" if answer.reason and answer.status != ANSWERED else ""
        lines.append(f"{i}. {answer.question}\n{text}{why}")
    status = ANSWERED if any(a.status == ANSWERED for a in answers) else _worst(answers)
    reasons = [f"part {i}: {a.reason}" for i, a in enumerate(answers, start=1) if a.reason]
    first = answers[0]
    return dataclasses.replace(
        first,
        question=question,
        status=status,
        answer="\n\n".join(lines) if status == ANSWERED else dont_know(first.language),
        reason=None if status == ANSWERED else "; ".join(reasons),
        # the whole's cause is its first part's of the same status (each part keeps its own)
        reason_code=None
        if status == ANSWERED
        else next((a.reason_code for a in answers if a.status == status), None),
        citations=tuple(citations),
        paths=tuple(p for a in answers for p in a.paths),
        identities=tuple({i.id: i for a in answers for i in a.identities}.values()),
        tool_calls=tuple(t for a in answers for t in a.tool_calls),
        limitations=tuple(dict.fromkeys(n for a in answers for n in a.limitations)),
        elapsed_ms=sum(a.elapsed_ms for a in answers),
        parts=tuple(parts),
        related=tuple(related),
        beyond=tuple(b for a in answers for b in a.beyond),  # each part's counted walks
    )


def _renumbered(text: str, numbers: dict[int, int]) -> str:
    """``[n]`` markers of one part's text in the whole answer's numbering."""

    def number(match: re.Match[str]) -> str:
        return f"[{numbers.get(int(match[1]), int(match[1]))}]"

    return _MARKER.sub(number, text)


def _worst(answers: Sequence[CitedAnswer]) -> str:
    statuses = {a.status for a in answers}
    return next((s for s in _SEVERITY if s in statuses), ABSTAINED)
