"""References ``zehn.reading.references`` leaves to this module: a bare "This" opening a
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
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence
from zehn.reading.binding import Binder
from zehn.reading.lexicon import number_stem
from zehn.reading.model import Entity, Mention
from zehn.reading.requirements import OPENING as _REQUIREMENT_OPENING

__all__ = [
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
    ``why``), the subject of the requirement (``zehn.reading.requirements``)."""
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
_PUT = r"(?:stores?|writes?|saves?|persists?|caches?|puts?|keeps?|places?|uploads?|pushes)"
_READ_BACK = re.compile(
    r"\s*(?:,\s*)?(?:and|then|,\s*then|and\s+then|and\s+later)\s+"
    r"(?P<verb>retrieves?|reads?|fetch(?:es)?|loads?|gets?|pulls?|downloads?)\s+"
    r"(?P<pronoun>it|them)(?:\s+back)?\b",
    re.IGNORECASE,
)
_PUT_THEN_PLACE = re.compile(
    rf"\b{_PUT}\b[^,;:.!?()]{{0,80}}\b(?:in|into|to|onto)\s+(?:the\s+)?$", re.IGNORECASE
)


def read_back_objects(
    sentence_id: str, offset: int, text: str, mentions: Sequence[Mention]
) -> list[Mention]:
    """Pronoun objects read back from the place the clause before put them (see the module
    docstring): one reference mention per pronoun, bound to that place."""
    found = []
    for place in sorted((m for m in mentions if m.entity_id and m.end > m.start), key=_start):
        start, end = place.start - offset, place.end - offset
        if start < 0 or not _PUT_THEN_PLACE.search(text[:start]):
            continue
        back = _READ_BACK.match(text, end)
        if back is None:
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


def shared_kind_names(
    sentence_id: str, offset: int, text: str, mentions: Sequence[Mention], binder: Binder
) -> list[Mention]:
    """Names before "and" that share the kind word of the name after it: in "the accounting
    and fraud detection services" the word "services" marks "accounting" as a service name
    too. A name counts only when "<name> <kind word>" binds, as a whole, to one entity."""
    found: list[Mention] = []
    taken = [(m.start - offset, m.end - offset) for m in mentions]
    for mention in mentions:
        words = mention.surface.split()
        if mention.entity_id is None or len(words) < 2 or words[-1].lower() not in _SHARED_KINDS:
            continue
        start = mention.start - offset
        listed = _LIST_BEFORE.search(text, 0, start) if start > 0 else None
        if listed is None:
            continue
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
    by_head = _heads_of(earlier)
    found = []
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
    for mention in reversed(earlier):
        if mention.start >= offset:
            continue
        if _PARAGRAPH_BREAK.search(document_text, mention.end, offset):
            return []
        surface = mention.surface
        if (
            mention.entity_id
            and not mention.reference
            and surface.isalpha()
            and surface.islower()
            and number_stem(surface) == key
        ):
            word = match["word"]
            reason = f"{word!r} = {surface!r}, the term marked earlier in the paragraph"
            return [
                Mention(sentence_id, offset + a, offset + b, word, mention.candidates, reason,
                        reference=True)
            ]  # fmt: skip
    return []
