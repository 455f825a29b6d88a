"""Where a cue's object is: the mentions after a verb or its tail, lists, apposition, agents.

``zehn.reading.relations.reader`` reads each cue of a sentence with these: the object is the
mention right after the cue (glue words and markup only in between, or named in apposition:
"to the database (PostgreSQL)"), else after its tail preposition within a short filler of the
verb's own clause ("stores the items in the user's cart **in** Valkey"). A name the verb
takes first and a place after its tail ("reads Dag files **from** the bundle") make the place
the object. A zero-width mention (an implicit subject) is never an object.

What the words between a verb and a name say depends on those words alone, and the same few
gaps (" ", " to ", " from the ") come back sentence after sentence: their readings are kept
(``functools.lru_cache``, bounded by ``GAP_CACHE``) rather than read again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from zehn.reading.model import Mention
from zehn.reading.relations import reader_zh as relations_zh
from zehn.reading.relations.cues import (
    APPOSITION_CLOSE,
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
from zehn.reading.relations.cues_zh import ZH_ACTIVITY_AFTER
from zehn.reading.scripts import CJK
from zehn.reading.vocabulary import Predicate

WORD = re.compile(r"[A-Za-z']+")
# predicates whose tail names the place ("reads A from B", "writes A to B", "requests A from
# B"): A is the data
_PLACES = frozenset({Predicate.READS_FROM, Predicate.WRITES_TO, Predicate.PUBLISHES_TO,
                     Predicate.CONSUMES_FROM, Predicate.FEEDS, Predicate.CALLS})  # fmt: skip
_PLACE_FILLER = 2
_AGENT = re.compile(r"^\s*,?\s*by\s+", re.IGNORECASE)
GAP_CACHE = 4096  # gaps whose reading is kept, per reading


class CueHit(NamedTuple):
    """Where a cue matched in a sentence (offsets relative to the sentence). A named tuple,
    not a dataclass: a sentence makes several, and a tuple is made three times as fast."""

    start: int
    end: int
    cue: Cue


class Local(NamedTuple):
    """A mention with offsets relative to its sentence (a named tuple, as ``CueHit``)."""

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


@lru_cache(maxsize=GAP_CACHE)
def separates(raw: str) -> bool:
    """``raw`` (with markup) only separates two items of a list."""
    return is_list_separator(plain(raw))


def list_from(text: str, after: Sequence[Local]) -> tuple[Group, int]:
    """The first mention and those listed after it ("A, B and C")."""
    group = [after[0]]
    for candidate in after[1:]:
        if not separates(text[group[-1].end : candidate.start]):
            break
        group.append(candidate)
    return group, group[-1].end


def object_group(text: str, mentions: Sequence[Local], hit: CueHit) -> tuple[Group | None, int]:
    objects = [m for m in mentions if m.start != m.end]  # an implicit subject is no object
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
    first = next(m for m in objects if m.start >= start)
    owned = relations_zh.possessed(text, objects, first) if cue.cjk else None
    if owned is not None:
        start = owned.start  # "调用 A 的 B": B
    group, end = list_from(text, [m for m in objects if m.start >= start])
    group = [m for m in group if not _modifies_artifact(text, m.end)]
    if cue.cjk and Predicate.OWNS in cue.predicates:  # "负责任务队列的提交": the submitting
        group = [m for m in group if not ZH_ACTIVITY_AFTER.match(text, m.end)]
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
    for after in objects:
        if after.start >= end:
            break
    else:
        return group, end
    again = _again(text[hit.start : group[0].start])
    if again is not None and again.fullmatch(plain(text[end : after.start])):
        return [*group, after], after.end
    return group, end


@lru_cache(maxsize=GAP_CACHE)
def _again(before_object: str) -> re.Pattern[str] | None:
    """What repeats the cue's own preposition, from the words between a cue and its object
    ("writes to "): ", and to ", "or as a pod in "; None without a preposition."""
    prep = _PREPOSITION.search(plain(before_object))
    if prep is None:
        return None
    return re.compile(
        rf"\s*,?\s*(?:and|or)\s+(?:as\s+an?\s+(?:[\w-]+\s+){{1,3}})?{prep.group(1)}\s+(?:the\s+)?",
        re.IGNORECASE,
    )


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


def _modifies_artifact(text: str, end: int) -> bool:
    """``_MODIFIES_ARTIFACT`` after a name (it needs markup or a space right after it)."""
    after = text[end : end + 1]
    return (after.isspace() or after in _MARKUP_AFTER) and bool(_MODIFIES_ARTIFACT.match(text, end))


_MARKUP_AFTER = ("`", "*", "_")


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


_POSSESSIVE_START = re.compile(r"^['’]s?(?=\s)")


def tail_object_start(
    text: str, mentions: Sequence[Local], position: int, tail: re.Pattern[str]
) -> int | None:
    """The object after the first tail ("to", "from" …) that a mention follows, within a
    short filler of the verb's own clause: "stores the items in the user's cart in Valkey"."""
    for match in tail.finditer(text, position, min(len(text), position + 120)):
        filler = _POSSESSIVE_START.sub("", text[position : match.start()])  # "X's data into Y"
        if breaks(filler):
            return None
        if not (filler[:1].isspace() and filler[-1:].isspace()):
            continue
        start = direct_object_start(text, mentions, match.end())
        if start is not None:
            return start
    return None


@lru_cache(maxsize=GAP_CACHE)
def breaks(filler: str) -> bool:
    """A filler between a verb and its tail that holds a clause of its own, or is too long."""
    return bool(FILLER_BREAK.search(plain(filler))) or len(filler.split()) > FILLER_MAX_WORDS


def direct_object_start(
    text: str, mentions: Sequence[Local], position: int, *, join_words: bool = False
) -> int | None:
    """Where the object right after ``position`` starts: after glue words only, or named in
    apposition to a short noun phrase ("the database (PostgreSQL)")."""
    for after in mentions:
        if after.start >= position and after.start != after.end:
            break
    else:
        return None
    modifier, reading = _object_gap(text[position : after.start], join_words)
    if modifier and CJK.search(text):
        return after.start  # "不影响已运行的提供者"
    if isinstance(reading, bool):
        return after.start if reading else None
    if reading.match(plain(text[after.end : after.end + 40])):
        return after.start
    return None


@lru_cache(maxsize=GAP_CACHE)
def _object_gap(raw: str, join_words: bool) -> tuple[bool, bool | re.Pattern[str]]:
    """What the words between a position and the next name say: whether they are a Chinese
    modifier of it (in a Chinese sentence, the name is then the object); True when the name
    is the object (glue words only), what must follow the name when it closes an apposition
    ("the database (" needs ")"), else False."""
    return relations_zh.object_modifier(raw), _object_words(raw, join_words)


def _object_words(raw: str, join_words: bool) -> bool | re.Pattern[str]:
    if CJK.search(ZH_OBJECT_GLUE.sub(" ", raw)):
        return False
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
        return True
    apposition = OBJECT_APPOSITION.match(gap)
    if apposition is not None:
        return APPOSITION_CLOSE[apposition["open"]]
    return False


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
