"""How Chinese prose leaves a subject implicit, and where ``relations`` finds it.

Chinese documentation names a subject once and lets the following clauses
share it; ``zehn.reading.relations.reader`` calls these functions only for text with
a Chinese character:

- a subjectless clause keeps the subject of the previous clause ("A 向 X 获取
  列表，并根据负载算法直接调用 Y" → A CALLS Y) or the sentence's topic, the
  name(s) opening an earlier clause ("A 和 B，在内存中累计…，定时发送…到 M";
  "X 和 Y 宕机，不影响 Z" → X, Y AFFECTS Z, negated). The clause may open only
  with a coordinator (并/同时/然后 …), adverbs and a short adverbial phrase;
- a second verb in the same clause keeps the first verb's subject when the
  first had no named object ("推送事件通知 Y");
- "基于 X 实现的 Y", "与 X 交互的 Y", "被 X 调用的 Y": the head noun Y is the
  subject of the relative clause (not "从 X 读取的 Y": there Y is what is read);
- at one position the cue its nearest verb (or tail) completes wins
  ("向 X 注册其提供的服务": 注册, not 提供).

Precision first: a clause that holds a name of its own, or opens with a word
that is not an adverb, keeps nothing; a condition between the topic and the
clause ("A 启动，如果有变更，推送 …") hedges the edge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Generic, Protocol, TypeVar

from zehn.reading.modality import CONDITIONAL_PREFIX
from zehn.reading.relations.cues import (
    CLAUSE_PUNCTUATION,
    LIST_SEPARATOR,
    MARKUP,
    ZH_PREPOSITION_BEFORE,
    ZH_SUBJECT_GLUE,
    Cue,
)
from zehn.reading.relations.cues_zh import (
    ZH_APPOSITION_NOUNS,
    ZH_CLAUSE_PUNCTUATION,
    ZH_COORDINATOR,
    ZH_LIST_SEPARATOR,
    ZH_MANNER,
    ZH_MORE_GLUE,
    ZH_MORE_MODAL,
    ZH_POSSESSED_NOUN,
    ZH_POSSESSIVE,
    ZH_RELATIVE_HEAD,
    ZH_TOPIC_OPENING,
    predicates_for,
)
from zehn.reading.vocabulary import Predicate

NEVER = 1 << 30
_GAP_MAX = 24
_REACH = 160  # how far a preposition's verb may be (a code span counts as one character)
_ADVERBIAL = rf"\s|{ZH_MORE_GLUE.pattern}|{ZH_SUBJECT_GLUE.pattern}|{ZH_MANNER}"
_ADVERBIALS = re.compile(rf"(?:{_ADVERBIAL})*")
_GLUE_ONLY = re.compile(rf"(?:\s|{ZH_MORE_GLUE.pattern}|{ZH_SUBJECT_GLUE.pattern})*")
_CARRY = re.compile(rf"\s*{ZH_COORDINATOR}?(?:{_ADVERBIAL})*")
# prepositions ``cues.ZH_PREPOSITION_BEFORE`` does not list (their object is no subject)
_OTHER_PREPOSITIONS = re.compile(r"(?:借助|利用|基于|依托于?|(?<![给参])与|跟)\s*$")
# an instrument or 把-phrase: the subject stands before it ("A 通过 X 调用 Y", "A 把 X 写入 Y")
THROUGH_BEFORE = re.compile(r"(?:通过|经由|借助|利用|把|将)\s*$")
_DISPOSAL = re.compile(r"(?:把|将)\s*$")
# (a link or markup may open the name after it: "时序数据库 [X](https://…)")
_OBJECT_MODIFIER = re.compile(
    r"(?:[^\s，。；！？,;、]{1,6}的\s*[`*_“「『《\[]?"
    rf"|(?:[^\s，。；！？,;、]{{1,6}}的)?[^\s，。；！？,;、的]{{0,4}}(?:{ZH_APPOSITION_NOUNS})\s*"
    r"[`*_“「『《\[]*)"
)
# a clause that is only a place: "从提供者列表中", "在 X 里"
_LOCATIVE_PHRASE = re.compile(r"(?:从|在|于|自)[^，。；！？,;]{1,30}?(?:中|里|内|之中|当中|上)")
_RELATIVE_HEAD_PREDICATES = frozenset({Predicate.DEPENDS_ON, Predicate.CALLS})


class Span(Protocol):
    """A mention with offsets in its sentence (``relations._Local``)."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


class Hit(Span, Protocol):
    """A cue match (``relations._CueHit``)."""

    @property
    def cue(self) -> Cue: ...


S = TypeVar("S", bound=Span)
H = TypeVar("H", bound=Hit)


@dataclass(frozen=True)
class Previous(Generic[S]):
    """The cue read before this one in the sentence."""

    hit: Hit
    subjects: list[S] | None  # its own subject, if it had one
    latest: list[S]  # the latest subject the sentence had by then
    end: int  # where it (or its object) ended
    had_object: bool


def order_ties(text: str, hits: list[H]) -> list[H]:
    """Hits sorted by position, longest first; Chinese cues tied on one span by where they are
    completed (the nearest verb or tail first), a cue reading only after its tail first."""
    spans = [(h.start, h.end) for h in hits if h.cue.cjk]
    tied = {span for span in spans if spans.count(span) > 1}
    if not tied:
        return hits

    def key(h: H) -> tuple[int, int, int, bool]:
        if not h.cue.cjk or (h.start, h.end) not in tied:
            return h.start, h.start - h.end, 0, False
        return h.start, h.start - h.end, reach(text, h.start, h.end, h.cue), not h.cue.tail_only

    return sorted(hits, key=key)


def is_preposition_cue(cue: Cue) -> bool:
    """A Chinese preposition cue: its verb comes later in the clause (a cue with a tail looks
    ahead for its tail, not for a verb)."""
    return cue.cjk and cue.tail is None and "(?=" in cue.pattern.pattern


@lru_cache(maxsize=1024)
def reach(text: str, start: int, end: int, cue: Cue) -> int:
    """Where a Chinese cue is completed: the end of its verb (a preposition cue) or of its
    tail; ``NEVER`` when that is not in the clause."""
    if cue.tail is not None:
        tail = cjk_tail(text, end, cue.tail)
        return NEVER if tail is None else tail
    if not is_preposition_cue(cue):
        return end
    for stop in range(end + 1, min(len(text), end + _REACH) + 1):
        if cue.pattern.match(text, start, stop):  # the look-ahead sees only text[:stop]
            return stop
    return NEVER


def cjk_tail(text: str, position: int, tail: re.Pattern[str]) -> int | None:
    """End of a Chinese tail ("到") after a short filler in the same clause, if any."""
    for end in range(position, min(len(text), position + 20)):
        if text[end] in CLAUSE_PUNCTUATION:
            return None
        if match := tail.match(text, end):
            return match.end()
    return None


def predicates(cue: Cue, text: str, start: int, end: int, object_id: str) -> tuple[str, ...]:
    """A Chinese cue's predicates for one object; a preposition cue is read up to its verb
    ("向 X 推送": a hand-over, by the object's kind)."""
    stated = text[start:end]
    if is_preposition_cue(cue):
        verb_end = reach(text, start, end, cue)
        if verb_end != NEVER:
            stated = text[start:verb_end]
    return predicates_for(cue.predicates, stated, object_id)


def adverbial_gap(gap: str) -> bool:
    """Adverbs and a short adverbial phrase between subject and verb ("将立即", "将基于长连接")."""
    return len(gap) <= _GAP_MAX and bool(_ADVERBIALS.fullmatch(gap))


def moved_from(text: str, mention_start: int, gap: str) -> int | None:
    """Where 将/把 stands when the mention before a verb is what is moved, with a short
    modifier ("A 将 X 中的消息保存到 Y": A is the subject, before 将)."""
    disposal = _DISPOSAL.search(text, 0, mention_start)
    if disposal is None or len(gap) > 8 or any(c in ZH_CLAUSE_PUNCTUATION for c in gap):
        return None
    return disposal.start()


def possessive(surface: str, gap: str) -> bool:
    """其 (its) and a short noun speak for its entity: "其可靠性依赖于 X"."""
    return surface == ZH_POSSESSIVE and bool(ZH_POSSESSED_NOUN.fullmatch(gap))


def is_list_separator(gap: str) -> bool:
    return bool(ZH_LIST_SEPARATOR.match(gap))


def after_preposition(head: str) -> bool:
    """A name right after one of these is the preposition's object, never a subject."""
    return bool(ZH_PREPOSITION_BEFORE.search(head) or _OTHER_PREPOSITIONS.search(head))


def object_modifier(raw: str) -> bool:
    """A short modifier before the object: "不影响已运行的 X"."""
    return bool(_OBJECT_MODIFIER.fullmatch(raw))


_OWNER_OF = re.compile(r"\s*的\s*$")


def possessed(text: str, mentions: Sequence[S], owner: S) -> S | None:
    """The thing an object owns, named right after it ("调用 A 的 B": B is called, A only
    says whose), or None."""
    after = next((m for m in mentions if m.start >= owner.end and m.start != m.end), None)
    if after is None or not _OWNER_OF.match(text[owner.end : after.start]):
        return None
    return possessed(text, mentions, after) or after


def capability(gap: str) -> bool:
    """能, 仍能, 可: hedged like 可以."""
    return bool(ZH_MORE_MODAL.search(gap))


def implicit_subject(
    text: str, mentions: Sequence[S], hit: Hit, previous: Previous[S] | None
) -> tuple[list[S] | None, str, bool]:
    """A Chinese cue's implicit subject, the gap read for negation and hedging, and whether a
    condition stands between them."""
    cue = hit.cue
    relative = cue.passive or _RELATIVE_HEAD_PREDICATES.issuperset(cue.predicates)
    if is_preposition_cue(cue) and relative:  # "基于 X 实现的 Y": Y
        verb_end = reach(text, hit.start, hit.end, cue)
        head = ZH_RELATIVE_HEAD.match(text, verb_end) if verb_end != NEVER else None
        after = [m for m in mentions if m.start >= verb_end and m.start < m.end]
        if head and after and after[0].start == head.end():
            return _group_from(text, mentions, after[0]), "", False
    if cue.passive:
        return None, "", False
    if previous is not None and previous.subjects and not previous.had_object:
        between = text[previous.end : hit.start]  # "推送事件通知消费者": two verbs, one subject
        if (
            previous.end <= hit.start
            and len(between) <= 12
            and not any(c in ZH_CLAUSE_PUNCTUATION for c in between)
            and not any(previous.end <= m.start < hit.start for m in mentions)
        ):
            return previous.subjects, between, False
    clause = max(text.rfind(c, 0, hit.start) for c in ZH_CLAUSE_PUNCTUATION) + 1
    if clause == 0:
        return None, "", False
    prefix = _clause_prefix(text, mentions, clause, hit.start)
    if prefix is None or len(prefix) > _GAP_MAX or not _CARRY.fullmatch(prefix):
        return None, "", False
    topic = _topic(text, mentions, clause)
    latest = previous.latest if previous is not None else []
    if latest and previous is not None and (topic is None or topic[0].start < previous.end):
        subjects = latest  # "，并汇报 …": the previous clause's subject
    elif topic is not None:
        subjects = topic  # "A 在启动时，向 X 注册": the sentence's topic
    else:
        return None, "", False
    conditional = bool(CONDITIONAL_PREFIX.search(text[subjects[-1].end : clause]))
    return subjects, prefix, conditional


def _group_from(text: str, mentions: Sequence[S], first: S) -> list[S]:
    group = [first]
    for candidate in (m for m in mentions if m.start > first.start and m.start < m.end):
        gap = text[group[-1].end : candidate.start]
        if not (LIST_SEPARATOR.match(MARKUP.sub(" ", gap)) or is_list_separator(gap)):
            break
        group.append(candidate)
    return group


def _clause_prefix(text: str, mentions: Sequence[S], start: int, end: int) -> str | None:
    """The clause's text before its cue without instrument phrases ("通过 X"), or None when a
    name is left in it (the clause has a subject of its own)."""
    kept, position = [], start
    for mention in (m for m in mentions if start <= m.start < end and m.start < m.end):
        before = text[position : mention.start]
        through = THROUGH_BEFORE.search(before)
        if through is None:
            return None
        kept.append(before[: through.start()])
        position = mention.end
    kept.append(text[position:end])
    return "".join(kept)


def _topic(text: str, mentions: Sequence[S], clause: int) -> list[S] | None:
    """The nearest earlier clause's topic: the name(s) opening it ("服务消费者和提供者，…")."""
    end = clause - 1
    while end > 0:
        start = max(text.rfind(c, 0, end) for c in ZH_CLAUSE_PUNCTUATION) + 1
        inside = [m for m in mentions if start <= m.start < end]
        if inside and _LOCATIVE_PHRASE.fullmatch(text[start:end].strip()):
            end = start - 1  # "从 X 列表中": a place, not a topic
            continue
        if inside:
            # a name written there is the topic before a reference the page adds at the
            # same place (a zero-width "one of the parts listed under …")
            first = next((m for m in inside if m.start == inside[0].start < m.end), inside[0])
            opening = text[start : first.start]
            lead = ZH_TOPIC_OPENING.match(opening)
            rest = opening[lead.end() :] if lead else opening
            if rest and not _GLUE_ONLY.fullmatch(rest):  # "在有 X 的情况下": not a topic
                return None
            return _group_from(text, mentions, first)
        end = start - 1
    return None
