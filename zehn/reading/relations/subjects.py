"""Who does what a cue states: the subject before a verb, through glue words, descriptions and
lists ("X, a broker, sends …", "the billing and ledger services read …"), Chinese prepositions
and 将-phrases ("A 通过 X 调用 Y": A), and the subject a later verb of a series shares with the
sentence's opening name ("X runs on one host, reads files from Y …", "X: connects to Y",
"…; it serves A and proxies to Y"). ``zehn.reading.relations.reader`` calls these for each cue.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter

from zehn.reading.lexicon import head_of
from zehn.reading.relations import reader_zh as relations_zh
from zehn.reading.relations.cues import (
    ADVERB_MIN_CHARS,
    DEFINITION_GAP,
    LABEL_GAP,
    NOT_ADVERBS,
    PARENTHETICAL,
    RELATIVE_SERIES,
    SENTENCE_OPENING,
    SERIES_AND,
    SERIES_GAP,
    SUBJECT_DESCRIPTION,
    SUBJECT_GLUE,
    THIRD_PERSON,
    VERB_PHRASE_GAP,
    ZH_SUBJECT_GLUE,
)
from zehn.reading.relations.phrases import GAP_CACHE, Group, separates
from zehn.reading.relations.phrases import Local as _Local
from zehn.reading.relations.phrases import list_from as _list_from
from zehn.reading.relations.phrases import plain as _plain
from zehn.reading.relations.phrases import words as _words
from zehn.reading.scripts import CJK, has_cjk

__all__ = ["mentions_between", "series_subject", "subject_group", "without_glue"]

_HEAD_WORD = re.compile(r"^\s*([A-Za-z]+)\b")


def mentions_between(mentions: Sequence[_Local], start: int, end: int) -> bool:
    return any(start <= m.start and m.end <= end and not m.zero_width for m in mentions)


def _is_subject_gap(gap: str) -> bool:
    if CJK.search(gap) and relations_zh.adverbial_gap(gap):
        return True  # "注册中心将立即推送 …", "A 将基于长连接推送 …"
    gap = ZH_SUBJECT_GLUE.sub(" ", _plain(gap))
    if CJK.search(gap):
        return False  # a Chinese word that is not glue: "origin-mapper 的变更影响 …"
    stripped = re.sub(r"[\w'\s]", "", gap)
    if stripped not in ("", ","):
        return False
    if "," in gap and not re.search(r",\s*(?:which|that|who)\b", gap):
        return False
    return all(word in SUBJECT_GLUE or _is_adverb(word) for word in _words(gap))


def without_glue(gap: str) -> str:
    """A gap without the glue words that end it: "… and do not require" is coordinated like
    "… and require" (the negation is read from the gap itself)."""
    words = re.findall(r"\S+", gap)
    while words and (words[-1].lower() in SUBJECT_GLUE or _is_adverb(words[-1].lower())):
        words.pop()
    return " ".join(words) + " " if words else ""


def _is_adverb(word: str) -> bool:
    return word.endswith("ly") and len(word) >= ADVERB_MIN_CHARS and word not in NOT_ADVERBS


_CLAUSE_START = re.compile(r";\s*$")


def series_subject(
    text: str, mentions: Sequence[_Local], position: int, participle: bool = False
) -> tuple[Group | None, str]:
    """The subject that opens the sentence, for a later verb of its series: "X runs on one
    host, reads files from Y …", of a definition's description ("X - takes jobs from Y"), or
    of a participle after its verb phrase ("X starts a process using Y"). Only when nothing
    but that series stands in between."""
    opener = next((m for m in mentions if m.zero_width or m.end > m.start), None)
    if opener is None or opener.end > position:
        return None, ""
    if not opener.zero_width and not SENTENCE_OPENING.match(_plain(text[: opener.start])):
        return None, ""
    # a later clause after ";" that opens with a name of its own ("…; it serves A and proxies
    # to Y"): its subject, not the sentence's
    opener = next(
        (
            m
            for m in reversed(mentions)
            if opener.end <= m.start and m.end <= position and _CLAUSE_START.search(text[: m.start])
        ),
        opener,
    )
    named = [m for m in mentions if m.start >= opener.start and not m.zero_width]
    group = [opener] if opener.zero_width else _list_from(text, named)[0]
    between = text[group[-1].end : position]
    if mentions_between(mentions, group[-1].end, position):
        return None, ""
    if len(group) == 1 and not opener.zero_width and _defines(text, between, position):
        return group, between  # "X - process the tasks and run using Y", "X: connects to Y"
    if participle and VERB_PHRASE_GAP.match(_plain(between)):
        return group, between  # "X starts a new process using Y"
    if SERIES_AND.match(_plain(between)):
        return group, between  # "X takes a job and, when it is ready, sends it to Y"
    if RELATIVE_SERIES.match(_plain(between)):
        return group, between  # "X, which handles A, and submitting B to Y"
    if not SERIES_GAP.match(_plain(between)):
        return None, ""
    return group, between[between.rfind(",") + 1 :]


def _defines(text: str, between: str, position: int) -> bool:
    """Whether the words after a sentence's opening name describe it: "X - process the tasks
    …", or a third-person verb right after "X:" ("X: connects to Y")."""
    plain = _plain(between)
    if DEFINITION_GAP.match(plain):
        return True
    return bool(LABEL_GAP.match(plain)) and THIRD_PERSON.match(text, position) is not None


def _described(gap: str) -> str | None:
    """The gap after a description of the subject ("is a queue that", ", a broker,") or after
    its head noun ("the billing and ledger *services* read"); None without either."""
    description = SUBJECT_DESCRIPTION.match(gap)
    if description is not None:
        return gap[description.end() :]
    head = _HEAD_WORD.match(gap)
    if head is not None and head_of(head[1]) is not None:
        return gap[head.end() :]
    return None


_last = attrgetter("end", "start")


@lru_cache(maxsize=GAP_CACHE)
def _subject_gap(raw: str) -> tuple[str, bool, str | None]:
    """The words between a name and a verb as read (a time clause set off by commas left
    out: "X, when it becomes aware of it, sends …"); whether they link the name as the
    subject; if not, the rest after a description of it that does ("is a queue that")."""
    gap = raw
    if PARENTHETICAL.match(_plain(gap)):
        gap = PARENTHETICAL.sub(" ", _plain(gap), count=1)
    if _is_subject_gap(gap):
        return gap, True, None
    rest = _described(_plain(gap))
    return gap, False, rest if rest is not None and _is_subject_gap(rest) else None


def subject_group(text: str, mentions: Sequence[_Local], position: int) -> tuple[Group | None, str]:
    before = [m for m in mentions if m.end <= position]
    if not before:
        return None, ""
    last = max(before, key=_last)
    gap, direct, rest = _subject_gap(text[last.end : position])
    if not direct and not relations_zh.possessive(last.mention.surface, gap):
        moved = relations_zh.moved_from(text, last.start, gap) if has_cjk(gap) else None
        if moved is not None:  # "A 将 X 中的消息保存到 Y": A
            outer = subject_group(text, mentions, moved)[0]
            return (outer, text[outer[-1].end : position]) if outer else (None, "")
        if rest is None:
            return None, ""
        gap = rest  # flags are read in the subject's own words
    group = [last]
    if last.start != last.end:  # an implicit subject stands alone
        for candidate in reversed(before):
            if candidate is last or candidate.start == candidate.end:
                continue
            if candidate.end > group[0].start or not separates(
                text[candidate.end : group[0].start]
            ):
                break
            group.insert(0, candidate)
    head = text[: group[0].start]
    # "从 event-bus 消费": it is 从's object (a Chinese preposition: only in Chinese text)
    if has_cjk(head) and relations_zh.after_preposition(head):
        through = relations_zh.THROUGH_BEFORE.search(head)  # "A 通过 X 调用 Y": A calls
        outer = subject_group(text, mentions, through.start())[0] if through else None
        return (outer, text[outer[-1].end : position]) if outer else (None, "")
    return group, gap
