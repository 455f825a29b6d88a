"""References ``zehn.reading.references.reader`` leaves to this module: a bare "This" opening a
page, a pronoun object that is read back from where the clause before put it, and a name that
shares the kind word of the name after it.

- "This is used as a message queue …" as the first sentence under a title or heading: the
  bare demonstrative names what the page (or section) is about. Later in a section "This"
  usually means the statement before it, so only the opening sentence counts.
- "X stores the items in Y and retrieves it": what is retrieved was put in Y, so the read
  is from Y. The pronoun ("it", "them") gets a reference mention bound to Y, with a reason
  that says so; the cue lexicon then reads "retrieves it" as a read from Y.
- "the accounting and fraud detection services": "services" marks both names, though the
  binder sees it only after the second.
- "X is the front-end server; it serves A and proxies to Y": "it" opening a later clause, before
  a verb of its own, is the name the sentence opens with (the subject of its first clause).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.reading.lexicon import number_stem
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder
from zehn.reading.relations.requirements import OPENING as _REQUIREMENT_OPENING
from zehn.reading.verbs import SIMPLE_PRESENT, alternation

__all__ = [
    "clause_it",
    "definite_heads",
    "opening_this",
    "paragraph_terms",
    "read_back_objects",
    "requirement_this",
    "shared_kind_names",
]

# "This is used as …", "This is a …", "This is the …", "This acts as …"
_OPENING_THIS = re.compile(
    r"^\s*(?P<this>this)\s+(?:is|was)\s+(?:(?:also|mainly|primarily)\s+)?"
    r"(?:used\s+as|an?|the)\b|^\s*(?P<this2>this)\s+(?:acts|serves|works)\s+as\b",
    re.IGNORECASE,
)


def opening_this(
    sentence_id: str, offset: int, text: str, entity: Entity | None, why: str
) -> Mention | None:
    """The reference a bare "This" opening a page or section makes to what it is about
    (``entity``, ``why``); the caller asks only for the first sentence under a heading."""
    return _this(
        _OPENING_THIS, sentence_id, offset, text, entity, why, "the section's opening sentence"
    )


def requirement_this(
    sentence_id: str, offset: int, text: str, entity: Entity | None, why: str
) -> Mention | None:
    """ "For this to work, you need …": "this" is what the text was just about (``entity``,
    ``why``), the subject of the requirement (``zehn.reading.relations.requirements``)."""
    return _this(
        _REQUIREMENT_OPENING, sentence_id, offset, text, entity, why, "what needs the requirement"
    )


def _this(
    opening: re.Pattern[str],
    sentence_id: str,
    offset: int,
    text: str,
    entity: Entity | None,
    why: str,
    role: str,
) -> Mention | None:
    """A "this" (group ``this`` or ``this2`` of ``opening``) that refers to ``entity``."""
    match = opening.match(text)
    if match is None or entity is None:
        return None
    group = "this" if match["this"] else "this2"
    start, end = match.span(group)
    surface = text[start:end]
    return Mention(
        sentence_id,
        offset + start,
        offset + end,
        surface,
        (entity.id,),
        f"{surface!r} = {entity.name}, {why} ({role})",
        reference=True,
    )


# A verb that puts something somewhere, its place after a preposition, then a coordinated
# verb that reads it back: "stores … in Y and retrieves it", "writes … to Y, then loads them".
_PUT = alternation(
    ("store", "write", "save", "persist", "cache", "put", "keep", "place", "upload", "push"),
    SIMPLE_PRESENT,
)
_READ = alternation(
    ("retrieve", "read", "fetch", "load", "get", "pull", "download"), SIMPLE_PRESENT
)
_READ_BACK = re.compile(
    r"\s*(?:,\s*)?(?:and|then|,\s*then|and\s+then|and\s+later)\s+"
    rf"(?P<verb>{_READ})\s+"
    r"(?P<pronoun>it|them)(?:\s+back)?\b",
    re.IGNORECASE,
)
_PUT_THEN_PLACE = re.compile(
    rf"\b{_PUT}\b[^,;:.!?()]{{0,80}}\b(?:in|into|to|onto)\s+(?:the\s+)?$", re.IGNORECASE
)
# Where a sentence has no put verb, or no "it"/"them" standing as a word, neither pattern
# above can match any part of it (both need the word whole).
_ANY_PUT = re.compile(rf"\b{_PUT}\b", re.IGNORECASE)
_ANY_PRONOUN = re.compile(r"\b(?:it|them)\b", re.IGNORECASE)


def read_back_objects(
    sentence_id: str, offset: int, text: str, mentions: Sequence[Mention]
) -> list[Mention]:
    """Pronoun objects read back from the place the clause before put them (see the module
    docstring): one reference mention per pronoun, bound to that place."""
    found: list[Mention] = []
    if not mentions or _ANY_PRONOUN.search(text) is None or _ANY_PUT.search(text) is None:
        return found
    for place in sorted((m for m in mentions if m.entity_id and m.end > m.start), key=_start):
        start, end = place.start - offset, place.end - offset
        if start < 0:
            continue
        back = _READ_BACK.match(text, end)  # anchored: cheaper than the search before it
        if back is None or not _PUT_THEN_PLACE.search(text[:start]):
            continue
        a, b = back.span("pronoun")
        reason = (
            f"{back['pronoun']!r} = what the clause before put in {place.surface}, read back "
            f"from {place.surface}"
        )
        found.append(
            Mention(
                sentence_id,
                offset + a,
                offset + b,
                text[a:b],
                place.candidates,
                reason,
                reference=True,
            )
        )
    return found


def _start(mention: Mention) -> int:
    return mention.start


# --- "X is a web server; it serves … and proxies to Y": "it" opening a later clause -----------

# "it" as the subject of a clause after ";" / ", and" / "and" / "but", before a third-person verb
_CLAUSE_IT = re.compile(
    r"(?:[;:]\s*|,\s*(?:and|but|so|then)\s+|\s(?:and|but)\s+)(?:then\s+|also\s+)?"
    r"(?P<it>it)\s+(?:\w+ly\s+|also\s+|then\s+)?(?!is\b|was\b|has\b)[a-z]{2,}(?<![su])s\b"
)


def clause_it(sentence_id: str, offset: int, text: str, first: Mention | None) -> list[Mention]:
    """ "it" as the subject of a later clause of a sentence that opens with a name: that name,
    the subject of the first clause ("X is the front-end server; it serves … and proxies to
    Y"). Only before a verb of its own in the third person; not "it is …", "it has …", where
    "it" is as often the sentence's object or a dummy subject."""
    if first is None or not first.entity_id or "it" not in text:
        return []
    found = []
    for match in _CLAUSE_IT.finditer(text):
        a, b = match.span("it")
        if a <= first.end - offset:
            continue
        reason = f"'it' = {first.surface}, the subject of the sentence's first clause"
        found.append(
            Mention(sentence_id, offset + a, offset + b, "it", first.candidates, reason,
                    reference=True)
        )  # fmt: skip
    return found


# --- names that share a later name's kind word ----------------------------------------------

# Plural kind words a list of names may share: "the accounting and fraud detection services".
_SHARED_KINDS = frozenset(
    "services databases stores queues topics components apps applications servers workers "
    "tools libraries plugins modules systems brokers caches".split()
)
_NOT_NAME = r"(?!(?:the|a|an|and|or|with|to|of|for|from|in|on|by|both)\b)"
_NAME_WORDS = rf"{_NOT_NAME}[A-Za-z][\w.-]*(?:\s+{_NOT_NAME}[A-Za-z][\w.-]*)?"
_LIST_BEFORE = re.compile(
    rf"(?<![\w.-])(?P<names>{_NAME_WORDS}(?:\s*,\s*{_NAME_WORDS})*)\s*,?\s+(?:and|or|&)\s+(?:the\s+)?$",
    re.IGNORECASE,
)
_NAME = re.compile(_NAME_WORDS, re.IGNORECASE)
_CONJUNCTION = re.compile(r"\s(?:and|or|&)\s", re.IGNORECASE)


def shared_kind_names(
    sentence_id: str, offset: int, text: str, mentions: Sequence[Mention], binder: Binder
) -> list[Mention]:
    """Names before "and" that share the kind word of the name after it: in "the accounting
    and fraud detection services" the word "services" marks "accounting" as a service name
    too. A name counts only when "<name> <kind word>" binds, as a whole, to one entity."""
    found: list[Mention] = []
    if _CONJUNCTION.search(text) is None:
        return found  # no "and"/"or" for a list of names to end with (``_LIST_BEFORE``)
    taken: list[tuple[int, int]] | None = None  # the spans already named, once one is needed
    for mention in mentions:
        if mention.entity_id is None:
            continue
        words = mention.surface.split()
        if len(words) < 2 or words[-1].lower() not in _SHARED_KINDS:
            continue
        start = mention.start - offset
        listed = _LIST_BEFORE.search(text, 0, start) if start > 0 else None
        if listed is None:
            continue
        if taken is None:
            taken = [(m.start - offset, m.end - offset) for m in mentions]
        noun = (
            words[-1].lower()[:-1]
            if not words[-1].lower().endswith("ies")
            else words[-1][:-3] + "y"
        )
        for name in _NAME.finditer(text, *listed.span("names")):
            a, b = name.span()
            if any(x < b and a < y for x, y in taken):
                continue
            entity = _named_as(binder, name.group(), noun)
            if entity is None:
                continue
            reason = (
                f"{name.group()!r} = '{name.group()} {noun}', sharing the kind word "
                f"{words[-1]!r} of {mention.surface!r}"
            )
            found.append(
                Mention(sentence_id, offset + a, offset + b, name.group(), (entity,), reason,
                        reference=True)
            )  # fmt: skip
    return found


def _named_as(binder: Binder, name: str, noun: str) -> str | None:
    """The one entity "<name> <noun>" names as a whole ("accounting service")."""
    phrase = f"{name} {noun}"
    probe = Sentence("probe", " " + phrase, 0, len(phrase) + 1)
    bound = [m for m in binder.bind(probe) if m.entity_id]
    whole = [m for m in bound if m.start <= 1 and m.end == probe.end]
    return whole[0].entity_id if len(whole) == 1 and len(bound) == 1 else None


# --- "the Collector": a capitalised head word for a name given in full earlier ----------------

_DEFINITE_HEAD = re.compile(
    r"\b(?P<the>[Tt]he)\s+(?P<head>[A-Z][a-z]{2,}(?:[A-Z][a-z]+)*)\b(?!\s*[A-Z-])"
)


# (the list of earlier mentions, how many of them are indexed, the index): a document asks
# once per sentence with the same growing list, so only its new mentions are indexed (the
# whole list each time made a 200k-sentence document quadratic)
_HEADS: list[tuple[Sequence[Mention], int, dict[str, dict[str, str]]]] = []


def _heads_of(earlier: Sequence[Mention]) -> dict[str, dict[str, str]]:
    """Last word (lowercase) -> {entity id: the latest surface} of earlier names of two words
    or more; kept for the list last asked about while it only grows."""
    if _HEADS and _HEADS[0][0] is earlier and _HEADS[0][1] <= len(earlier):
        _, done, by_head = _HEADS[0]
    else:
        done, by_head = 0, {}
    for mention in earlier[done:]:
        words = mention.surface.split()
        if mention.entity_id and not mention.reference and len(words) >= 2:
            by_head.setdefault(words[-1].lower(), {})[mention.entity_id] = mention.surface
    _HEADS[:] = [(earlier, len(earlier), by_head)]
    return by_head


def definite_heads(
    sentence_id: str,
    offset: int,
    text: str,
    mentions: Sequence[Mention],
    earlier: Sequence[Mention],
) -> list[Mention]:
    """ "the Collector" after the page named "OpenTelemetry Collector": a capitalised head word
    after "the" is the one name given in full earlier in the document that ends in it. Only a
    name of two words or more counts, and only when exactly one entity so ends."""
    found: list[Mention] = []
    if "he" not in text:  # no "the"/"The" (``_HEADS`` catches up with ``earlier`` next time)
        return found
    by_head = _heads_of(earlier)
    if not by_head:
        return found
    for match in _DEFINITE_HEAD.finditer(text):
        named = by_head.get(match["head"].lower(), {})
        start, end = match.span()
        if len(named) != 1 or any(
            m.start - offset < end and start < m.end - offset for m in mentions
        ):
            continue
        ((entity_id, full),) = named.items()
        surface = match.group()
        reason = f"{surface!r} = {full}, named in full earlier in the document"
        found.append(
            Mention(sentence_id, offset + start, offset + end, surface, (entity_id,), reason,
                    reference=True)
        )  # fmt: skip
    return found


# --- "*plugins* … Plugins are …": a term the paragraph marked, opening a later sentence ---------

_OPENING_WORD = re.compile(r"\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)?(?P<word>[A-Z][a-z]+)\b")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# where a blank line (``_PARAGRAPH_BREAK``) starts: the lookahead sees no further than endpos
_BREAK_START = re.compile(r"\n(?=[ \t]*\n)")


def paragraph_terms(
    sentence_id: str,
    offset: int,
    text: str,
    mentions: Sequence[Mention],
    earlier: Sequence[Mention],
    document_text: str,
) -> list[Mention]:
    """ "… a folder of *plugins*. Plugins are read by …": an ordinary word the paragraph
    marked as a term (so it bound there) names the same entity when a later sentence of that
    paragraph opens with it, capitalised only because it opens the sentence. The binder reads
    one sentence at a time and cannot see the earlier mark; only a lowercase term counts, so a
    capitalised word ("Search") stays untrusted at a sentence's start."""
    match = _OPENING_WORD.match(text)
    if match is None:
        return []
    a, b = match.span("word")
    if any(m.start - offset < b and a < m.end - offset for m in mentions):
        return []
    key = number_stem(match["word"].lower())
    index = _terms_of(earlier, document_text)
    if index.max_start < offset:
        mention = index.latest_term(key, offset)
    else:  # an earlier mention starting at or after this sentence: read the list as it is
        mention = _latest_term(key, offset, earlier, document_text)
    if mention is None:
        return []
    word = match["word"]
    reason = f"{word!r} = {mention.surface!r}, the term marked earlier in the paragraph"
    return [
        Mention(sentence_id, offset + a, offset + b, word, mention.candidates, reason,
                reference=True)
    ]  # fmt: skip


def _latest_term(
    key: str, offset: int, earlier: Sequence[Mention], document_text: str
) -> Mention | None:
    """The latest lowercase term of ``earlier`` with the stem ``key`` before ``offset``, with no
    blank line between it and ``offset`` (nor after any mention in between)."""
    for mention in reversed(earlier):
        if mention.start >= offset:
            continue
        if _PARAGRAPH_BREAK.search(document_text, mention.end, offset):
            return None
        if _is_term(mention) and number_stem(mention.surface) == key:
            return mention
    return None


def _is_term(mention: Mention) -> bool:
    surface = mention.surface
    return bool(
        mention.entity_id and not mention.reference and surface.isalpha() and surface.islower()
    )


class _TermIndex:
    """What ``_latest_term`` reads of one document's growing ``earlier`` list, kept between the
    calls of its sentences (asked in document order): walking the list back and searching for a
    blank line after each mention cost a 3,000-line paragraph minutes.

    ``_latest_term`` stops at the latest mention ``m`` (in list order) that ends at or before
    the start of the last blank line before ``offset`` (``m.end <= last_break``: a blank line
    lies between), or at the latest term, whichever comes first. The first is the latest of the
    suffix minima of the mentions' ends with ``end <= last_break`` (kept as a stack); the term
    is the latest index per stem.
    """

    def __init__(self, earlier: Sequence[Mention], document_text: str) -> None:
        self.earlier = earlier
        self.text = document_text
        self.done = 0  # mentions of ``earlier`` indexed
        self.max_start = -1
        self.minima_index: list[int] = []  # suffix minima of ``end``: indices, ends increasing
        self.minima_end: list[int] = []
        self.terms: dict[str, int] = {}  # stem -> index of the latest term with it
        self.scanned = 0  # blank lines are known up to here (as if the text ended here)
        self.last_break = -1  # where the last of them starts

    def catch_up(self) -> None:
        earlier, indices, ends = self.earlier, self.minima_index, self.minima_end
        for i in range(self.done, len(earlier)):
            mention = earlier[i]
            self.max_start = max(self.max_start, mention.start)
            while ends and ends[-1] >= mention.end:
                ends.pop()
                indices.pop()
            ends.append(mention.end)
            indices.append(i)
            if _is_term(mention):
                self.terms[number_stem(mention.surface)] = i
        self.done = len(earlier)

    def _break_before(self, offset: int) -> int:
        """Where the last blank line wholly before ``offset`` starts (-1: none)."""
        if offset < self.scanned:
            self.scanned, self.last_break = 0, -1
        start = self.scanned
        back = start
        while back > 0 and self.text[back - 1] in " \t":
            back -= 1  # a blank line may start before ``scanned`` and end after it
        if back > 0 and self.text[back - 1] == "\n":
            start = back - 1
        for found in _BREAK_START.finditer(self.text, start, offset):
            self.last_break = max(self.last_break, found.start())
        self.scanned = offset
        return self.last_break

    def latest_term(self, key: str, offset: int) -> Mention | None:
        """``_latest_term``, when every indexed mention starts before ``offset``."""
        last_break = self._break_before(offset)
        stop = bisect_right(self.minima_end, last_break)
        blocked = self.minima_index[stop - 1] if stop else -1
        term = self.terms.get(key, -1)
        return self.earlier[term] if term > blocked else None


# the index of the list last asked about, while that list only grows (one document at a time)
_TERMS: list[_TermIndex] = []


def _terms_of(earlier: Sequence[Mention], document_text: str) -> _TermIndex:
    kept = _TERMS[0] if _TERMS else None
    if (
        kept is None
        or kept.earlier is not earlier
        or kept.text is not document_text
        or kept.done > len(earlier)
    ):
        kept = _TermIndex(earlier, document_text)
        _TERMS[:] = [kept]
    kept.catch_up()
    return kept
