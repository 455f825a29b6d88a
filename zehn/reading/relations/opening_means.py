"""A means put before the subject: "Through X, S keeps …", "通过 X，S 可以 …" (S USES X).

A sentence may open with the means its subject works with, set off by a comma, before the
subject is named: "Using X, S schedules its jobs", "借助 X，S 可以无缝运行 …", "基于 X，S 实现了
…". The opening phrase names the means (one name, perhaps with a modifier: "通过单机的 X",
"通过实现 X"); the clause after the comma opens with the subject. S USES X, or DEPENDS_ON X
after "based on" / 基于 (S is built on X). The opening words are data rows per language beside
this one mechanism; a sentence whose opening names two things, or whose next clause does not
open with a name, states nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.reading.modality import NEGATION
from zehn.reading.model import Edge
from zehn.reading.relations.phrases import Local
from zehn.reading.vocabulary import Predicate

__all__ = ["opening_means_edges"]

# (opening words, predicate): what the phrase before the subject says of it
_OPENINGS: tuple[tuple[str, Predicate], ...] = (
    # not "with": "With X, S remains …" is what S does beside X, not by means of it
    (r"(?i:through|using|via|by\s+using)\s", Predicate.USES),
    (r"(?i:based\s+on|built\s+on)\s", Predicate.DEPENDS_ON),
    (r"通过|借助|利用|使用", Predicate.USES),
    (r"基于|依托", Predicate.DEPENDS_ON),
)
_OPENING = re.compile(
    r"^[\s*_`>\-•]*(?:" + "|".join(f"(?P<o{i}>{words})" for i, (words, _) in enumerate(_OPENINGS))
    + r")\s*(?P<phrase>[^,，;；。:：]{1,40}?)\s*[,，]\s*[`*_\[「“]*"
)  # fmt: skip


_CLAUSE_END = re.compile(r"[,，;；。.!?！？]")


def opening_means_edges(sentence: Sentence, local: Sequence[Local], strategy: str) -> list[Edge]:
    """S USES (or DEPENDS_ON) X for "Through X, S …" and "通过 X，S …"."""
    text = sentence.text
    match = _OPENING.match(text)
    if match is None:
        return []
    predicate = next(p for i, (_, p) in enumerate(_OPENINGS) if match[f"o{i}"])
    a, b = match.span("phrase")
    means = [m for m in local if a <= m.start and m.end <= b and not m.zero_width]
    subject = next((m for m in local if m.start == match.end() and not m.zero_width), None)
    if len(means) != 1 or subject is None:
        return []
    (thing,) = means
    ends = (subject.mention.entity_id, thing.mention.entity_id)
    if not all(ends) or ends[0] == ends[1]:
        return []  # an ambiguous name (several identities) is no end: shown, never merged
    clause = _CLAUSE_END.split(text[subject.end :], maxsplit=1)[0]  # what S does with it
    return [
        Edge.stated_by(
            sentence,
            ends[0] or "",
            predicate,
            ends[1] or "",
            fact=text,
            strategy=strategy,
            cue=text[match.start() : a].strip(),
            # a modal in S's clause is about what S does, not whether it uses X ("S 可以 …")
            negated=NEGATION.search(clause) is not None,
            subject_span=(subject.mention.start, subject.mention.end),
            object_span=(thing.mention.start, thing.mention.end),
        )
    ]
