"""A failure's stated consequence: "If X is down, Y cannot …", "Without X, Y …", "X 宕机后，Y
无法 …" state that X's outage reaches Y: X AFFECTS Y, cited to the sentence, so that "what
happens if X goes down?" has an evidence path.

The form: a condition clause (opened by "if", "when", "once", "whenever", "in case", or
"without"; in Chinese 如果, 若, 当, 一旦, or closed by 时, 后, 的话) that names X and its outage
(``zehn.reading.failure``: "is down", "crashes", 宕机 …; for "without X" the absence is the
outage), then, after the clause's comma, a main clause whose first name Y comes before a
consequence word ("cannot", "will not work", "stops", 无法, 不能 …). A modal before the
consequence ("may", "might", 可能) hedges the edge. A condition that names no outage ("If X
fails to parse a file"), or a main clause that states no consequence ("…, Y retries"), states
nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.reading.failure import CONSEQUENCE_WORDS, OUTAGE_WORDS, words_pattern
from zehn.reading.model import Edge
from zehn.reading.relations.phrases import Local
from zehn.reading.scripts import has_cjk
from zehn.reading.vocabulary import Predicate

__all__ = ["consequence_edges"]


_OPENER_EN = re.compile(r"^\s*(?P<opener>if|when|whenever|once|in\s+case|without)\b", re.IGNORECASE)
_OPENER_ZH = re.compile(r"^\s*(?:如果|若|当|一旦|假如)?")
_CLOSER_ZH = re.compile(r"(?:时|后|之后|以后|的话)?\s*[，,]")
_OUTAGE = {
    "en": re.compile(rf"\b(?:{words_pattern(OUTAGE_WORDS['en'])})\b(?!\s+to\b)", re.IGNORECASE),
    "zh": re.compile(words_pattern(OUTAGE_WORDS["zh"])),
}
_CONSEQUENCE = {
    "en": re.compile(rf"\b(?:{words_pattern(CONSEQUENCE_WORDS['en'])})(?![\w'])", re.IGNORECASE),
    "zh": re.compile(words_pattern(CONSEQUENCE_WORDS["zh"])),
}
_HEDGE = re.compile(r"\b(?:may|might|could|possibly)\b|可能|也许", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,，]")
_MAX_GAP = 40  # characters between the failing name and its outage word ("X is down")


def consequence_edges(sentence: Sentence, local: Sequence[Local], strategy: str) -> list[Edge]:
    """X AFFECTS Y for "If X is down, Y cannot …" and its Chinese forms."""
    text = sentence.text
    language = "zh" if has_cjk(text) else "en"
    clause = _condition(text, language)
    if clause is None:
        return []
    end, absent = clause
    failing = [m for m in local if m.end <= end and m.mention.entity_id]
    if not absent:
        failing = [m for m in failing if _outage_after(text, m, end, language)]
    if not failing:
        return []
    cause = failing[0]
    main = [m for m in local if m.start > end and m.mention.entity_id]
    consequence = _CONSEQUENCE[language].search(text, end)
    if not main or consequence is None or main[0].start > consequence.start():
        return []
    affected = main[0]
    if affected.mention.entity_id == cause.mention.entity_id:
        return []
    hedged = _HEDGE.search(text, affected.end, consequence.start()) is not None
    return [
        Edge.stated_by(
            sentence,
            cause.mention.entity_id or "",
            Predicate.AFFECTS,
            affected.mention.entity_id or "",
            fact=text,
            strategy=strategy,
            cue=consequence.group(),
            hedged=hedged,
            subject_span=(cause.mention.start, cause.mention.end),
            object_span=(affected.mention.start, affected.mention.end),
        )
    ]


def _condition(text: str, language: str) -> tuple[int, bool] | None:
    """Where the condition clause ends (its comma) and whether it states an absence
    ("without X"), or None when the sentence opens with no condition."""
    if language == "en":
        opener = _OPENER_EN.match(text)
        if opener is None:
            return None
        comma = _CLAUSE_END.search(text, opener.end())
        absent = opener["opener"].lower() == "without"
        return (comma.start(), absent) if comma else None
    comma = _CLAUSE_END.search(text)
    if comma is None or comma.start() > 80 or _OPENER_ZH.match(text) is None:
        return None
    return comma.start(), False


def _outage_after(text: str, mention: Local, end: int, language: str) -> bool:
    """The condition states this name's outage: an outage word right after it."""
    found = _OUTAGE[language].search(text, mention.end, end)
    return found is not None and found.start() - mention.end <= _MAX_GAP
