"""How a sentence states a relation: the cue lexicon applied to bound mentions.

For each cue in a sentence the subject is the mention (or list of mentions)
right before it, separated only by glue words ("still", "no longer",
"which"), and the object the mention(s) right after it or after its tail
preposition. Negation and hedging are recorded on the edge, never used to
drop it: the grader decides later. ``fact`` is the verbatim sentence.

Chinese sentences use the same machinery: Chinese glue words (adverbs,
modals, negations, time phrases) may stand between subject and verb, a
mention right after a preposition (从, 被, 由 …) is never a subject, and
lists are joined by 、 and 和.

Extraction (the ``rules`` strategy) and the grader both read sentences here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from zehn.corpus.model import Sentence
from zehn.reading.cues import (
    CJK,
    CLAUSE_PUNCTUATION,
    CONDITIONAL_PREFIX,
    COORDINATION,
    CUES,
    EPISTEMIC,
    FILLER_MAX_WORDS,
    INSTEAD_OF,
    LIST_SEPARATOR,
    MODAL,
    NEGATION,
    OBJECT_GLUE,
    SUBJECT_GLUE,
    ZH_A_NOT_A,
    ZH_OBJECT_GLUE,
    ZH_PREPOSITION_BEFORE,
    ZH_SUBJECT_GLUE,
    Cue,
)
from zehn.reading.model import Edge, Mention

_WORD = re.compile(r"[A-Za-z']+")
_FILLER = re.compile(rf"(?:\s+(?!(?:and|but|or)\b)[\w.\-/]+){{0,{FILLER_MAX_WORDS}}}?\s+")


@dataclass(frozen=True)
class _CueHit:
    start: int
    end: int
    cue: Cue


@dataclass(frozen=True)
class _Local:
    """A mention with offsets relative to its sentence."""

    mention: Mention
    start: int
    end: int


def sentence_edges(
    sentence: Sentence, mentions: Sequence[Mention], strategy: str
) -> tuple[list[Edge], int]:
    """Edges one sentence asserts, negates or hedges; also how many were skipped as ambiguous."""
    text = sentence.text
    local = [_Local(m, m.start - sentence.start, m.end - sentence.start) for m in mentions]
    edges: list[Edge] = []
    ambiguous = 0
    previous_subjects: list[_Local] = []
    previous_end = 0
    for hit in _cue_hits(text, local):
        left, gap = _subject_group(text, local, hit.start)
        negated_by_coordination = False
        if left is None and previous_subjects and not hit.cue.passive:
            between = text[previous_end : hit.start]
            if INSTEAD_OF.match(between):
                left, gap, negated_by_coordination = previous_subjects, between, True
            elif COORDINATION.search(between):
                left, gap = previous_subjects, between
        right, right_end = _object_group(text, local, hit)
        subjects, objects = (right, left) if hit.cue.passive else (left, right)
        previous_end = max(hit.end, right_end)
        if left and not hit.cue.passive:
            previous_subjects = left
        if not subjects or not objects:
            continue
        prefix = text[: min(m.start for m in subjects + objects)]
        negated = negated_by_coordination or bool(
            NEGATION.search(ZH_A_NOT_A.sub(" ", gap + " " + text[hit.start : hit.end]))
        )
        hedged = (
            text.rstrip(" \"'”’)").endswith(("?", "？"))
            or bool(MODAL.search(gap))
            or bool(CONDITIONAL_PREFIX.search(prefix))
            or bool(EPISTEMIC.search(text))
        )
        for subject in subjects:
            for obj in objects:
                s_id, o_id = subject.mention.entity_id, obj.mention.entity_id
                if s_id is None or o_id is None:
                    ambiguous += len(hit.cue.predicates)
                    continue
                if s_id == o_id:
                    continue
                for predicate in hit.cue.predicates:
                    edges.append(
                        Edge.stated_by(
                            sentence,
                            s_id,
                            predicate,
                            o_id,
                            fact=text,
                            strategy=strategy,
                            negated=negated,
                            hedged=hedged,
                            cue=text[hit.start : hit.end],
                            subject_span=(subject.mention.start, subject.mention.end),
                            object_span=(obj.mention.start, obj.mention.end),
                        )
                    )
    return edges, ambiguous


# Chinese cues all need a Chinese character: text without one is read with the rest only
# (half the cue lexicon; cue matching is a third of extraction time)
_LATIN_CUES = tuple(cue for cue in CUES if not cue.cjk)


def _cue_hits(
    text: str, mentions: Sequence[_Local], cues: Sequence[Cue] | None = None
) -> list[_CueHit]:
    """Cue matches outside mentions; at one position the longest wins, overlaps dropped."""
    if cues is None:
        cues = CUES if CJK.search(text) else _LATIN_CUES
    hits = [
        _CueHit(m.start(), m.end(), cue)
        for cue in cues
        for m in cue.pattern.finditer(text)
        if not any(x.start < m.end() and m.start() < x.end for x in mentions)
    ]
    hits.sort(key=lambda h: (h.start, -(h.end - h.start)))
    kept: list[_CueHit] = []
    for hit in hits:
        if not kept or hit.start >= kept[-1].end:
            kept.append(hit)
    return kept


def _words(gap: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(gap)]


def _is_subject_gap(gap: str) -> bool:
    gap = ZH_SUBJECT_GLUE.sub(" ", gap)
    if CJK.search(gap):
        return False  # a Chinese word that is not glue: "origin-mapper 的变更影响 …"
    stripped = re.sub(r"[\w'\s]", "", gap)
    if stripped not in ("", ","):
        return False
    if "," in gap and not re.search(r",\s*(?:which|that|who)\b", gap):
        return False
    return all(word in SUBJECT_GLUE for word in _words(gap))


def _subject_group(
    text: str, mentions: Sequence[_Local], position: int
) -> tuple[list[_Local] | None, str]:
    before = [m for m in mentions if m.end <= position]
    if not before:
        return None, ""
    last = before[-1]
    gap = text[last.end : position]
    if not _is_subject_gap(gap):
        return None, ""
    group = [last]
    for candidate in reversed(before[:-1]):
        if not LIST_SEPARATOR.match(text[candidate.end : group[0].start]):
            break
        group.insert(0, candidate)
    if ZH_PREPOSITION_BEFORE.search(text[: group[0].start]):
        return None, ""  # "从 event-bus 消费": event-bus is the preposition's object
    return group, gap


def _object_group(
    text: str, mentions: Sequence[_Local], hit: _CueHit
) -> tuple[list[_Local] | None, int]:
    start = _direct_object_start(text, mentions, hit.end)
    if start is None and hit.cue.tail is not None and hit.cue.cjk:
        tail_end = _cjk_tail(text, hit.end, hit.cue.tail)  # "发布 …事件到 billing-events"
        if tail_end is not None:
            start = _direct_object_start(text, mentions, tail_end)
    elif start is None and hit.cue.tail is not None:
        filler = _FILLER.match(text, hit.end)
        tail = hit.cue.tail.match(text, filler.end()) if filler else None
        if tail is None and filler:  # filler is lazy: try each shorter filler end
            for end in range(hit.end, min(len(text), hit.end + 80)):
                tail = hit.cue.tail.match(text, end)
                if tail and _is_filler(text[hit.end : end]):
                    break
                tail = None
        if tail is not None:
            start = _direct_object_start(text, mentions, tail.end())
    if start is None:
        return None, hit.end
    after = [m for m in mentions if m.start >= start]
    group = [after[0]]
    for candidate in after[1:]:
        if not LIST_SEPARATOR.match(text[group[-1].end : candidate.start]):
            break
        group.append(candidate)
    return group, group[-1].end


def _cjk_tail(text: str, position: int, tail: re.Pattern[str]) -> int | None:
    """End of a Chinese tail ("到") after a short filler in the same clause, if any."""
    for end in range(position, min(len(text), position + 20)):
        if text[end] in CLAUSE_PUNCTUATION:
            return None
        if match := tail.match(text, end):
            return match.end()
    return None


def _is_filler(gap: str) -> bool:
    words = gap.split()
    return (
        gap[:1].isspace()
        and gap[-1:].isspace()
        and len(words) <= FILLER_MAX_WORDS
        and not any(w.lower() in ("and", "but", "or") or "," in w for w in words)
    )


def _direct_object_start(text: str, mentions: Sequence[_Local], position: int) -> int | None:
    after = [m for m in mentions if m.start >= position]
    if not after:
        return None
    gap = ZH_OBJECT_GLUE.sub(" ", text[position : after[0].start])
    if re.sub(r"[\w\s]", "", gap) or not all(w in OBJECT_GLUE for w in _words(gap)):
        return None
    if CJK.search(gap):
        return None
    return after[0].start
