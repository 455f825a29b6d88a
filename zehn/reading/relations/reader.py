"""How a sentence states a relation: the cue lexicon applied to bound mentions.

For each cue in a sentence the subject is the mention (or list of mentions)
right before it, separated only by glue words ("still", "no longer",
"which") or a description of the subject ("X is a queue that …"), and the
object the mention(s) right after it or after its tail preposition, or named
in apposition ("to the database (PostgreSQL)"). Negation and hedging are
recorded on the edge, never used to drop it: the grader decides later.
``fact`` is the verbatim sentence.

Real prose states relations in more than one clause; the subject carries
over to a coordinated verb ("… and writes to Y"), a participle ("X uses Y,
retrieving …") and a means phrase ("… through Z"). A middle component joins
two ends ("X connects A with B", see ``zehn.reading.relations.cues``). A reference
mention ("This service", "It") is read like a name; a zero-width reference
(the implicit subject of a list item, table cell or changelog line) is only
ever the subject of the clause that follows it, never an object. Markup
around names (``*x*``, ``[x](url)``, backticks) is not a word, and a cue in a
code span or URL does not fire.

Chinese sentences use the same machinery: Chinese glue words (adverbs,
modals, negations, time phrases) may stand between subject and verb, a
mention right after a preposition (从, 被, 由 …) is never a subject, and
lists are joined by 、 and 和. Chinese prose leaves subjects implicit more often
than English: ``zehn.reading.relations.reader_zh`` finds them (a coordinated or
subjectless clause, a second verb, an instrument phrase, a relative clause).

Extraction (the ``rules`` strategy) and the grader both read sentences here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from operator import attrgetter
from typing import NamedTuple

from zehn.corpus.model import Sentence
from zehn.reading.diagrams.reader import arrow_edges, is_diagram_edge
from zehn.reading.modality import CONDITIONAL_PREFIX, EPISTEMIC, MODAL, NEGATION
from zehn.reading.model import Edge, Mention
from zehn.reading.relations import reader_zh as relations_zh
from zehn.reading.relations.consequences import consequence_edges
from zehn.reading.relations.cue_words import CuePrefilter, with_first_chars
from zehn.reading.relations.cues import (
    CODE_SPAN,
    COORDINATION,
    CUES,
    FILLER_BREAK,
    INSTANCE_CLOSE,
    INSTANCE_GAP,
    INSTEAD_OF,
    MEANS_GAP,
    MESSAGING,
    MIDDLE_JOIN,
    PARTICIPLE_OPENING,
    PURPOSE_GAP,
    URL,
    ZH_A_NOT_A,
    Cue,
)
from zehn.reading.relations.cues_zh import ZH_CUE_OBJECTS
from zehn.reading.relations.opening_means import opening_means_edges
from zehn.reading.relations.parts import part_edges
from zehn.reading.relations.phrases import (
    GAP_CACHE,
    WORD,
    Group,
    agent_group,
    stored_thing,
)
from zehn.reading.relations.phrases import CueHit as _CueHit
from zehn.reading.relations.phrases import Local as _Local
from zehn.reading.relations.phrases import direct_object_start as _direct_object_start
from zehn.reading.relations.phrases import list_from as _list_from
from zehn.reading.relations.phrases import object_group as _object_group
from zehn.reading.relations.phrases import plain as _plain
from zehn.reading.relations.purpose import purpose_edges
from zehn.reading.relations.requirements import requirement_edges
from zehn.reading.relations.roles import role_edges
from zehn.reading.relations.subjects import mentions_between as _mentions_between
from zehn.reading.relations.subjects import series_subject as _series_subject
from zehn.reading.relations.subjects import subject_group as _subject_group
from zehn.reading.relations.subjects import without_glue as _without_glue
from zehn.reading.scripts import has_cjk
from zehn.reading.vocabulary import EntityKind, Predicate

_CAMEL_HUMP = re.compile(r"([a-z0-9])([A-Z])")
RELATIVE = re.compile(r",\s*(?:which|who)\b", re.IGNORECASE)
# the comma that closes a relative clause before the main verb, with glue words only
RELATIVE_CLOSE = re.compile(r"^\s*,\s*(?:(?:also|still|now|then|only|directly)\s+)*$", re.I)


Pair = tuple[_Local, tuple[str, ...], _Local]  # subject, predicates, object
# the same matches, found faster: searched in every sentence that states something
_CONDITIONAL_PREFIX = with_first_chars(CONDITIONAL_PREFIX)
_EPISTEMIC = with_first_chars(EPISTEMIC)
_WORD = WORD


class _Clause:
    """What the previous cue of the sentence read: its subject carries to the next clause.
    (A plain class: one is made per sentence, a dataclass with list defaults is slower.)"""

    __slots__ = ("active", "end", "gap", "objects", "subjects", "uses", "zh")

    def __init__(self) -> None:
        self.subjects: Group = []
        self.objects: Group = []
        self.gap = ""
        self.end = 0
        self.active = False  # the last cue read its subject before it ("via" may follow it)
        self.uses = False  # the last cue was "uses": "X uses Z to read from Y" carries X
        # Chinese: the previous cue, as read
        self.zh: relations_zh.Previous[_Local] | None = None


class _Statement(NamedTuple):
    """The relations one cue states: (subject, predicates, object) with the flags' sources."""

    hit: _CueHit
    pairs: list[Pair]
    gap: str  # between the subject and the cue: negation and modals are read here
    negated: bool = False  # "instead of" negates without a negation word
    hedged: bool = False  # a condition before a carried Chinese subject, or 能/可


def sentence_edges(
    sentence: Sentence, mentions: Sequence[Mention], strategy: str
) -> tuple[list[Edge], int]:
    """Edges one sentence asserts, negates or hedges; also how many were skipped as ambiguous."""
    if is_diagram_edge(sentence.text):  # an arrow line of a diagram: the arrow states it
        return arrow_edges(sentence, mentions, strategy)
    text = sentence.text
    local = _local(sentence, mentions)
    # Every reading below takes a statement's subject and object from two places of the
    # sentence (before and after the cue, a clause's subject before an earlier cue, an agent
    # after the object, a middle before its two ends); purpose and requirement edges relate
    # two mentions too. So one mention states nothing, and is not read (a Chinese implicit
    # subject may follow its verb, "基于 X 实现的 Y": Chinese text is read all the same).
    if len(local) < 2 and (not local or not has_cjk(text)):
        return [], 0
    edges: list[Edge] = []
    ambiguous = 0
    clause = _Clause()
    for hit in _cue_hits(text, local):
        statement = _read(text, local, hit, clause)
        if statement is None:
            continue
        found, skipped = _edges(sentence, statement, strategy)
        edges.extend(found)
        ambiguous += skipped
    edges.extend(purpose_edges(sentence, local, strategy))
    edges.extend(role_edges(sentence, local, strategy))
    edges.extend(part_edges(sentence, local, strategy))
    edges.extend(requirement_edges(sentence, local, strategy))
    edges.extend(consequence_edges(sentence, local, strategy))
    edges.extend(opening_means_edges(sentence, local, strategy))
    return edges, ambiguous


_position = attrgetter("start", "end")


def _local(sentence: Sentence, mentions: Sequence[Mention]) -> list[_Local]:
    """The mentions outside URLs, with offsets in the sentence, in order."""
    base = sentence.start
    local = [_Local(m, m.start - base, m.end - base) for m in mentions]
    urls = _urls(sentence.text)
    if urls:
        local = [m for m in local if not _inside(m.start, m.end, urls)]
    local.sort(key=_position)
    return local


def _read(text: str, local: Sequence[_Local], hit: _CueHit, clause: _Clause) -> _Statement | None:
    """The statement of one cue, given what the previous cue read (``clause`` is updated)."""
    cue = hit.cue
    form = cue.form
    if form == "means":
        return _read_means(text, local, hit, clause)
    if form == "middle":
        return _read_middle(text, local, hit, clause)
    if form == "instance":
        return _read_instance(text, local, hit)
    left, gap = _subject_group(text, local, hit.start)
    negated = False
    if not cue.passive and clause.subjects:
        between = text[clause.end : hit.start]
        if left is None:
            if INSTEAD_OF.match(between):
                left, gap, negated = clause.subjects, between, True
            elif COORDINATION.search(_without_glue(between)) or (
                _is_participle(text, hit)
                and PARTICIPLE_OPENING.match(between)
                and not _mentions_between(local, clause.end, hit.start)
            ):
                left, gap = clause.subjects, between
            elif clause.uses and PURPOSE_GAP.match(_plain(between)):
                left, gap = clause.subjects, between  # "X uses this interface to talk to Y"
        elif left == clause.objects and _is_participle(text, hit) and not gap.strip():
            left, gap = clause.subjects, clause.gap + between  # "X reads from Y using Z"
        if left is None and RELATIVE.search(clause.gap) and RELATIVE_CLOSE.match(between):
            left, gap = clause.subjects, between  # "X, which stores A in Y, calls Z"
    zh, hedged = has_cjk(text), False
    if left is None and not cue.passive and not zh:
        left, gap = _series_subject(text, local, hit.start, _is_participle(text, hit))
    if left is None and zh:  # a subject Chinese prose leaves implicit
        left, gap, hedged = relations_zh.implicit_subject(text, local, hit, clause.zh)
    right, right_end = _object_group(text, local, hit)
    subjects, objects = (right, left) if cue.passive else (left, right)
    if left is None and right and not cue.passive and not zh:
        subjects = stored_thing(text, local, hit, right)  # "Foo stores blobs in Y": blobs → Y
    if cue.agent and right:
        agent, agent_end = agent_group(text, local, right_end)
        if agent:
            subjects, right_end = agent, agent_end
            left = None  # the subject before the cue is what was moved, not who moved it
    clause.end = max(hit.end, right_end)
    clause.active = bool(left) and not cue.passive
    clause.uses = clause.active and cue.predicates == (Predicate.USES,) and cue.form == "verb"
    if left and not cue.passive:
        clause.subjects, clause.objects, clause.gap = left, right or [], gap
    if zh:
        own = None if cue.passive else left
        clause.zh = relations_zh.Previous(hit, own, clause.subjects, clause.end, bool(right))
        hedged = hedged or relations_zh.capability(gap)
    if not subjects or not objects:
        return None
    if not cue.cjk and not cue.by_kind:  # the cue's predicates, whatever the object
        predicates = cue.predicates
        pairs = [(s, predicates, o) for s in subjects for o in objects]
        if Predicate.FEEDS in predicates:
            pairs = [_by_messaging(*p) for p in pairs]
        return _Statement(hit, pairs, gap, negated, hedged)
    pairs = [(s, _predicates(hit, text, o), o) for s in subjects for o in objects]
    if not cue.cjk:  # only a FEEDS pair may change
        pairs = [_by_messaging(*p) if Predicate.FEEDS in p[1] else p for p in pairs]
    return _Statement(hit, pairs, gap, negated, hedged)


def _read_means(
    text: str, local: Sequence[_Local], hit: _CueHit, clause: _Clause
) -> _Statement | None:
    """A means phrase: "X connects to Y through Z" is X USES Z. Only with the subject of the
    clause it closes; the mention right before "via" is that clause's object, never the subject."""
    between = text[clause.end : hit.start]
    if not (clause.active and clause.subjects) or not MEANS_GAP.match(between):
        return None
    if FILLER_BREAK.search(_plain(between)):
        return None  # "X reads from Y when traffic flows through Z": another clause's means
    if _mentions_between(local, clause.end, hit.start):
        return None
    right, right_end = _object_group(text, local, hit)
    if not right:
        return None
    clause.end = right_end
    pairs = [(s, hit.cue.predicates, o) for s in clause.subjects for o in right]
    return _Statement(hit, pairs, clause.gap + between)


def _read_instance(text: str, local: Sequence[_Local], hit: _CueHit) -> _Statement | None:
    """A kind and the products that usually are it: "a *metadata database*, usually A or B"
    is the database DEPENDS_ON A and B, hedged (a choice or an example). Only right after the
    name, set off by a comma or a parenthesis; the clause reading is not changed."""
    before = [m for m in local if m.end <= hit.start and not m.zero_width]
    if not before:
        return None
    last = max(before, key=lambda m: (m.end, m.start))
    if not INSTANCE_GAP.match(_plain(text[last.end : hit.start])):
        return None
    right, end = _object_group(text, local, hit)
    if not right or not INSTANCE_CLOSE.match(_plain(text[end : end + 20])):
        return None  # "…, such as the worker namespace": the name only modifies a noun
    return _Statement(hit, [(last, hit.cue.predicates, o) for o in right], "", hedged=True)


def _read_middle(
    text: str, local: Sequence[_Local], hit: _CueHit, clause: _Clause
) -> _Statement | None:
    """A middle: "X connects A with B" is A → X → B (messaging when X is a queue or topic)."""
    left, gap = _subject_group(text, local, hit.start)
    ends = _middle_ends(text, local, hit)
    if ends is None:
        return None
    first, second, end = ends
    clause.end, clause.active = max(hit.end, end), False
    if left is None or len(left) != 1:
        return None
    (middle,) = left
    kind = (middle.mention.entity_id or "").split(":", 1)[0]
    # "the event bus connects …", "Kafka is a queue that connects …"
    description = middle.mention.surface + " " + text[middle.end : hit.start]
    pairs: list[Pair]
    if kind == EntityKind.TOPIC or MESSAGING.search(description):
        pairs = [(a, (Predicate.PUBLISHES_TO,), middle) for a in first]
        pairs += [(b, (Predicate.CONSUMES_FROM,), middle) for b in second]
    else:
        pairs = [(a, (Predicate.CALLS,), middle) for a in first]
        pairs += [(middle, (Predicate.CALLS,), b) for b in second]
    return _Statement(hit, pairs, gap)


def _middle_ends(
    text: str, local: Sequence[_Local], hit: _CueHit
) -> tuple[Group, Group, int] | None:
    """The two ends: "A with/to B" (each may be a list), or a pair "A and B"."""
    group, end = _object_group(text, local, hit)
    if not group:
        return None
    join = MIDDLE_JOIN.match(_plain(text[end : end + 40]))
    if join is not None and len(group) >= 1:
        nxt = [m for m in local if m.start >= end and not m.zero_width]
        if nxt and _direct_object_start(text, nxt, end, join_words=True) is not None:
            second, second_end = _list_from(text, nxt)
            return group, second, second_end
    if len(group) == 2:
        return [group[0]], [group[1]], end
    return None


def _edges(sentence: Sentence, statement: _Statement, strategy: str) -> tuple[list[Edge], int]:
    text = sentence.text
    hit = statement.hit
    involved = [m for s, _, o in statement.pairs for m in (s, o)]
    prefix = text[: min(m.start for m in involved)]
    cue_text = text[hit.start : hit.end]
    negated = statement.negated or _negated(statement.gap + " " + cue_text)
    hedged = (
        statement.hedged
        or text.rstrip(" \"'”’)").endswith(("?", "？"))
        or _modal(_disposal_dropped(statement.gap, cue_text))
        or bool(_CONDITIONAL_PREFIX.search(prefix))
        or bool(_EPISTEMIC.search(text))
    )
    edges: list[Edge] = []
    ambiguous = 0
    for subject, predicates, obj in statement.pairs:
        s_id, o_id = subject.mention.entity_id, obj.mention.entity_id
        if s_id is None or o_id is None:
            ambiguous += len(predicates)
            continue
        if s_id == o_id:
            continue
        for predicate in predicates:
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
                    cue=cue_text,
                    subject_span=(subject.mention.start, subject.mention.end),
                    object_span=(obj.mention.start, obj.mention.end),
                )
            )
    return edges, ambiguous


@lru_cache(maxsize=GAP_CACHE)
def _negated(words: str) -> bool:
    """The gap and the cue negate ("does not call"; "会不会" asks, it does not negate)."""
    return bool(NEGATION.search(ZH_A_NOT_A.sub(" ", words)))


@lru_cache(maxsize=GAP_CACHE)
def _modal(gap: str) -> bool:
    return bool(MODAL.search(gap))


def _disposal_dropped(gap: str, cue_text: str) -> str:
    """The gap without a disposal 将/把 whose object opens the cue ("A 将请求转发给 B": the
    request is what 将 takes, so 将 is not "will")."""
    if cue_text.startswith(ZH_CUE_OBJECTS):
        return _DISPOSAL_END.sub("", gap)
    return gap


_DISPOSAL_END = re.compile(r"[将把]\s*$")


def _by_messaging(subject: _Local, predicates: tuple[str, ...], obj: _Local) -> Pair:
    """Data handed to a queue or broker is published to it ("X sends jobs to the
    QueueBroker"); a queue or broker that hands data on is consumed from ("the QueueBroker
    sends the job to Y" is Y CONSUMES_FROM the broker), as a diagram arrow out of a queue."""
    if Predicate.FEEDS not in predicates:
        return subject, predicates, obj
    if _messaging(obj):
        return subject, (Predicate.PUBLISHES_TO,), obj
    if _messaging(subject):
        return obj, (Predicate.CONSUMES_FROM,), subject
    return subject, predicates, obj


def _messaging(end: _Local) -> bool:
    """A topic, or a name whose words say queue, broker or topic ("QueueBroker")."""
    kind = (end.mention.entity_id or "").split(":", 1)[0]
    words = _CAMEL_HUMP.sub(r"\1 \2", end.mention.surface)
    return kind == EntityKind.TOPIC or bool(MESSAGING.search(words))


def _predicates(hit: _CueHit, text: str, obj: _Local) -> tuple[str, ...]:
    """The cue's predicates for this object: by the object's kind where the cue says so."""
    object_id = obj.mention.entity_id
    if object_id is None:
        return hit.cue.predicates
    if hit.cue.cjk:
        return relations_zh.predicates(hit.cue, text, hit.start, hit.end, object_id)
    return hit.cue.predicates_for(object_id)


# Chinese cues all need a Chinese character: text without one is read with the rest only
# (half the cue lexicon; cue matching is a third of extraction time), and each cue is tried
# only where one of its first words stands (``zehn.reading.relations.cue_words``)
_LATIN_CUES = tuple(cue for cue in CUES if not cue.cjk)
_LATIN_PREFILTER = CuePrefilter(_LATIN_CUES)
_PREFILTER = CuePrefilter(CUES)  # the Chinese cues have no first words: always run


def _cue_hits(
    text: str, mentions: Sequence[_Local], cues: Sequence[Cue] | None = None
) -> list[_CueHit]:
    """Cue matches outside mentions, code spans and URLs; at one position the longest wins,
    overlaps dropped."""
    zh = has_cjk(text)
    if cues is None:
        found = (_PREFILTER if zh else _LATIN_PREFILTER).matches(text)
    else:
        found = [(cue, m) for cue in cues for m in cue.pattern.finditer(text)]
    hidden = _hidden(text)
    hits = []
    for cue, m in found:
        start, end = m.span()
        if _overlaps(mentions, start, end):
            continue
        if hidden and any(a < end and start < b for a, b in hidden):
            continue
        hits.append(_CueHit(start, end, cue))
    if len(hits) > 1:
        hits.sort(key=lambda h: (h.start, -(h.end - h.start)))
    if zh:  # Chinese ties: the cue its nearest verb or tail completes wins
        hits = relations_zh.order_ties(text, hits)
    kept: list[_CueHit] = []
    for hit in hits:
        if not kept or hit.start >= kept[-1].end:
            kept.append(hit)
    return kept


def _overlaps(mentions: Sequence[_Local], start: int, end: int) -> bool:
    for m in mentions:  # noqa: SIM110 (a loop, not a generator: once per cue match)
        if m.start < end and start < m.end:
            return True
    return False


def _hidden(text: str) -> list[tuple[int, int]]:
    """Code spans, then URLs (a code span needs a backtick, a URL "://" or "](")."""
    spans = [m.span() for m in CODE_SPAN.finditer(text)] if "`" in text else []
    return spans + _urls(text)


def _urls(text: str) -> list[tuple[int, int]]:
    if "://" not in text and "](" not in text:
        return []
    return [m.span() for m in URL.finditer(text)]


def _inside(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(a <= start and end <= b and start < end for a, b in spans)


def _is_participle(text: str, hit: _CueHit) -> bool:
    first = _WORD.match(text, hit.start)
    return first is not None and first.group().lower().endswith("ing")
