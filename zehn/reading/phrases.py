"""Where a cue's object is: the mentions after a verb or its tail, lists, apposition, agents.

``zehn.reading.relations`` reads each cue of a sentence with these: the object is the
mention right after the cue (glue words and markup only in between, or named in apposition:
"to the database (PostgreSQL)"), else after its tail preposition within a short filler of the
verb's own clause ("stores the items in the user's cart **in** Valkey"). A name the verb
takes first and a place after its tail ("reads Dag files **from** the bundle") make the place
the object. A zero-width mention (an implicit subject) is never an object.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from zehn.reading import relations_zh
from zehn.reading.cues import (
    APPOSITION_CLOSE,
    CJK,
    FILLER_BREAK,
    FILLER_MAX_WORDS,
    LIST_SEPARATOR,
    MARKUP,
    MIDDLE_JOIN,
    OBJECT_APPOSITION,
    OBJECT_GLUE,
    ZH_OBJECT_GLUE,
    Cue,
)
from zehn.reading.model import Mention
from zehn.reading.vocabulary import Predicate

WORD = re.compile(r"[A-Za-z']+")
# predicates whose tail names the place ("reads A from B", "writes A to B", "requests A from
# B"): A is the data
_PLACES = frozenset({Predicate.READS_FROM, Predicate.WRITES_TO, Predicate.PUBLISHES_TO,
                     Predicate.CONSUMES_FROM, Predicate.FEEDS, Predicate.CALLS})  # fmt: skip
_PLACE_FILLER = 2
_AGENT = re.compile(r"^\s*,?\s*by\s+", re.IGNORECASE)


@dataclass(frozen=True)
class CueHit:
    """Where a cue matched in a sentence (offsets relative to the sentence)."""

    start: int
    end: int
    cue: Cue


@dataclass(frozen=True)
class Local:
    """A mention with offsets relative to its sentence."""

    mention: Mention
    start: int
    end: int

    @property
    def zero_width(self) -> bool:
        """An implicit subject: a subject of what follows, never an object."""
        return self.start == self.end


Group = list[Local]


def plain(gap: str) -> str:
    """A gap without markup: "* and *" reads " and "."""
    return MARKUP.sub(" ", gap)


def words(gap: str) -> list[str]:
    return [w.lower() for w in WORD.findall(gap)]


def is_list_separator(gap: str) -> bool:
    return bool(LIST_SEPARATOR.match(gap) or relations_zh.is_list_separator(gap))


def list_from(text: str, after: Sequence[Local]) -> tuple[Group, int]:
    """The first mention and those listed after it ("A, B and C")."""
    group = [after[0]]
    for candidate in after[1:]:
        if not is_list_separator(plain(text[group[-1].end : candidate.start])):
            break
        group.append(candidate)
    return group, group[-1].end


def object_group(text: str, mentions: Sequence[Local], hit: CueHit) -> tuple[Group | None, int]:
    objects = [m for m in mentions if not m.zero_width]  # an implicit subject is no object
    cue = hit.cue
    start = None if cue.tail_only else direct_object_start(text, objects, hit.end)
    direct = start is not None
    if start is None and cue.tail is not None and cue.cjk:
        tail_end = relations_zh.cjk_tail(text, hit.end, cue.tail)  # "发布 …事件到 billing-events"
        if tail_end is not None:
            start = direct_object_start(text, objects, tail_end)
    elif start is None and cue.tail is not None:
        start = tail_object_start(text, objects, hit.end, cue.tail)
    if start is None:
        return None, hit.end
    group, end = list_from(text, [m for m in objects if m.start >= start])
    group = [m for m in group if not _MODIFIES_ARTIFACT.match(text, m.end)]
    if not group:
        return None, hit.end  # "using the Prometheus Java client library": not Prometheus
    group, end = _repeated_preposition(text, objects, hit, group, end)
    if direct and cue.tail is not None and not cue.cjk and _PLACES.issuperset(cue.predicates):
        # "reads Dag files from the bundle": what is read is named first, the place after
        place = tail_object_start(text, objects, end, cue.tail)
        if place is not None:
            return list_from(text, [m for m in objects if m.start >= place])
        tail = cue.tail.search(text, end, min(len(text), end + 40))
        filler = text[end : tail.start()] if tail else ""
        if tail and len(filler.split()) <= _PLACE_FILLER and not FILLER_BREAK.search(plain(filler)):
            return None, hit.end  # the place is named, but not as anything known
    return group, end


_PREPOSITION = re.compile(r"\b(in|on|to|into|from|inside|within)\s+(?:the\s+)?$", re.IGNORECASE)


def _repeated_preposition(
    text: str, objects: Sequence[Local], hit: CueHit, group: Group, end: int
) -> tuple[Group, int]:
    """A second object after the cue's own preposition, repeated: "can be run as a process in
    X, or as a pod in Y", "writes to X and to Y"."""
    prep = _PREPOSITION.search(plain(text[hit.start : group[0].start]))
    after = [m for m in objects if m.start >= end]
    if prep is None or not after:
        return group, end
    again = re.compile(
        rf"\s*,?\s*(?:and|or)\s+(?:as\s+an?\s+(?:[\w-]+\s+){{1,3}})?{prep.group(1)}\s+(?:the\s+)?",
        re.IGNORECASE,
    )
    if again.fullmatch(plain(text[end : after[0].start])):
        return [*group, after[0]], after[0].end
    return group, end


# How many, before an object: "listens to one or more queues", "to several workers".
_QUANTITY = re.compile(
    r"\b(?:(?:one|two|\d+)\s+or\s+(?:more|multiple|several|many)|multiple|several|many)\b",
    re.IGNORECASE,
)
# A name that only modifies the library, package or client named after it ("the Prometheus
# Java client library", "the Kafka client package"): the thing used is that artifact.
_MODIFIES_ARTIFACT = re.compile(
    r"[`*_]*\s+(?:[A-Z][\w.+#-]*\s+){0,2}(?:client\s+|python\s+|java\s+)?"
    r"(?:library|libraries|package|packages|module|modules|sdk|sdks|client|clients|wrapper"
    r"|bindings|driver|drivers|crate|gem)\b",
    re.IGNORECASE,
)


def _without_modifier(found: list[str]) -> list[str]:
    """The gap's words without one describing word right after a determiner: "uses the
    configured executor", "reads the default database" (the thing named is still the object)."""
    for i, word in enumerate(found[:-1] if len(found) > 1 else []):
        after = found[i + 1]
        if word in _DETERMINERS and (after in _DESCRIBING or after.endswith("ed")):
            return found[: i + 1] + found[i + 2 :]
    if (
        len(found) >= 2
        and found[-2] in _DETERMINERS
        and (found[-1] in _DESCRIBING or found[-1].endswith("ed"))
    ):
        return found[:-1]
    return found


_DETERMINERS = frozenset("the a an its their our".split())
_DESCRIBING = frozenset(
    """default same new existing current underlying main local remote external internal shared
    central primary dedicated separate single specific standard appropriate relevant
    corresponding respective""".split()
)


def agent_group(text: str, mentions: Sequence[Local], position: int) -> tuple[Group | None, int]:
    """The agent of a passive with a place: "… from Y by Z" -> Z."""
    window = text[position : position + 40]
    if not _AGENT.match(plain(window)):
        return None, position
    by = re.search(r"\bby\b", window, re.IGNORECASE)
    objects = [m for m in mentions if not m.zero_width]
    start = direct_object_start(text, objects, position + by.end()) if by else None
    if start is None:
        return None, position
    return list_from(text, [m for m in objects if m.start >= start])


def tail_object_start(
    text: str, mentions: Sequence[Local], position: int, tail: re.Pattern[str]
) -> int | None:
    """The object after the first tail ("to", "from" …) that a mention follows, within a
    short filler of the verb's own clause: "stores the items in the user's cart in Valkey"."""
    for match in tail.finditer(text, position, min(len(text), position + 120)):
        filler = text[position : match.start()]
        if FILLER_BREAK.search(plain(filler)) or len(filler.split()) > FILLER_MAX_WORDS:
            return None
        if not (filler[:1].isspace() and filler[-1:].isspace()):
            continue
        start = direct_object_start(text, mentions, match.end())
        if start is not None:
            return start
    return None


def direct_object_start(
    text: str, mentions: Sequence[Local], position: int, *, join_words: bool = False
) -> int | None:
    """Where the object right after ``position`` starts: after glue words only, or named in
    apposition to a short noun phrase ("the database (PostgreSQL)")."""
    after = [m for m in mentions if m.start >= position and not m.zero_width]
    if not after:
        return None
    raw = text[position : after[0].start]
    if CJK.search(text) and relations_zh.object_modifier(raw):
        return after[0].start  # "不影响已运行的提供者"
    if CJK.search(ZH_OBJECT_GLUE.sub(" ", raw)):
        return None
    gap = _QUANTITY.sub(" ", plain(ZH_OBJECT_GLUE.sub(" ", raw)))  # "one or more queues"
    if join_words:
        gap = MIDDLE_JOIN.sub(" ", gap, count=1)
    found = words(gap)
    possessives = sum(w.endswith("'s") for w in found)  # "the demo's OpAMP server"
    if (
        not re.sub(r"[\w\s']", "", gap)
        and possessives <= 1
        and all(w in OBJECT_GLUE or w.endswith("'s") for w in _without_modifier(found))
    ):
        return after[0].start
    apposition = OBJECT_APPOSITION.match(gap)
    if apposition is not None:
        close = APPOSITION_CLOSE[apposition["open"]]
        if close.match(plain(text[after[0].end : after[0].end + 40])):
            return after[0].start
    return None


# A writing verb in the third person ("stores", "persists"): a statement, never an instruction
# ("Store the file in …" has no subject to stand in for).
_STATES_A_WRITE = re.compile(r"(?:writes|stores|persists|saves|caches|keeps)\b", re.IGNORECASE)


def stored_thing(text: str, mentions: Sequence[Local], hit: CueHit, place: Group) -> Group | None:
    """What "… stores X in Y" stores, when the one who stores it is no entity ("The default
    backend, Foo, stores blobs in the Wren database"): X is then written to Y, as the
    passive "blobs are stored in the Wren database" reads."""
    cue = hit.cue
    if cue.passive or cue.cjk or cue.tail is None or set(cue.predicates) != {Predicate.WRITES_TO}:
        return None
    if not _STATES_A_WRITE.fullmatch(text[hit.start : hit.end].strip()):
        return None
    objects = [m for m in mentions if not m.zero_width and m.end <= place[0].start]
    start = direct_object_start(text, objects, hit.end)
    if start is None:
        return None
    group, end = list_from(text, [m for m in objects if m.start >= start])
    tail = cue.tail.search(text, end, place[0].start)
    filler = text[end : tail.start()] if tail else "x"
    if not group or tail is None or len(filler.split()) > _PLACE_FILLER:
        return None  # the place must follow the stored thing: "stores blobs in Y"
    return group
