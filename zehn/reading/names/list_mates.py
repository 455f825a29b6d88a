"""Names listed with names: an enumeration whose other items are components names its items.

Documentation lists the parts of a system together ("nginx, Supervisor, memcached, Redis,
RabbitMQ, PostgreSQL"): where most items of a comma-separated list are entities already
discovered by a name that is no ordinary English ("tasks" vouches for nothing), the others
are names of the same sort, even when they have no clue of their own (a lower-case product,
an ordinary word written with a capital). A list holds at least three items of one or two
words each; an item that is an ordinary English word written in lower case is a word, not a
name. The new entity takes the kind most of its list-mates have, and
its reason names two of them.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from zehn.corpus.model import SourceText
from zehn.reading.lexicon import is_ordinary_phrase
from zehn.reading.model import Entity
from zehn.reading.names.clues import name_key

__all__ = ["listed_with_names"]

_SEPARATOR = re.compile(r"\s*(?:,|、|，)\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+|\s*(?:和|及|或)\s*")
_MARKUP = re.compile(r"[*_`\[\]\"“”]")
_ITEM = re.compile(r"[A-Za-z][\w.+-]*(?: [A-Za-z][\w.+-]*)?")
_ARTICLES = frozenset({"the", "a", "an"})
MIN_ITEMS = 3
MIN_LISTINGS = 2  # a name listed once may be an example; twice, the docs mean it


def listed_with_names(entities: Sequence[Entity], documents: Sequence[SourceText]) -> list[Entity]:
    """New entities for the items listed beside known ones (at least half the list)."""
    # an entity named by an ordinary word ("tasks", "executor") vouches for nothing
    known = {
        name_key(form): e
        for e in entities
        if not is_ordinary_phrase(e.name)
        for form in (e.name, *e.aliases)
    }
    taken = {name_key(form) for e in entities for form in (e.name, *e.aliases)}
    listings: Counter[str] = Counter()
    mates: dict[str, list[Entity]] = defaultdict(list)
    for document in documents:
        for sentence in document.sentences:
            if not _may_list(sentence.text):
                continue
            for items in _lists(sentence.text, known.keys()):
                found = [known[name_key(i.text)] for i in items if name_key(i.text) in known]
                if len({e.id for e in found}) < 2 or 2 * len(found) < len(items):
                    continue
                for item in items:
                    if item.inner and name_key(item.text) not in taken and _may_name(item.text):
                        listings[item.text] += 1
                        mates[item.text].extend(found)
    added: dict[str, Entity] = {}
    for name, count in listings.items():
        if count < MIN_LISTINGS or name_key(name) in added:
            continue
        kind = Counter(e.kind for e in mates[name]).most_common(1)[0][0]
        mates_named = list(dict.fromkeys(e.name for e in mates[name]))[:2]
        why = f"listed {count} times with {' and '.join(repr(n) for n in mates_named)}"
        added[name_key(name)] = Entity(name, kind, origin="discovered", evidence=((name, why),))
    return list(added.values())


class _Item(NamedTuple):
    """A listed item; ``inner`` unless it stands at the list's edge, where the part also holds
    the sentence's own words ("Install A, B …"): an edge item is never taken as a new name."""

    text: str
    inner: bool


def _lists(text: str, known: AbstractSet[str]) -> list[list[_Item]]:
    """The runs of three or more short items joined by commas (and a last "and"/"or"). The
    first and last parts (of the list, or of the sentence) also hold the words around the
    list ("runs A, B and C on one host"): their item is the known name they end or start
    with, else their last or first word."""
    parts = [p.strip(" .:;()") for p in _SEPARATOR.split(_MARKUP.sub("", text))]
    runs: list[list[_Item]] = []
    run: list[_Item] = []
    for index, part in enumerate(parts):
        inner = 0 < index < len(parts) - 1  # the sentence's first and last parts are edges
        if inner and _ITEM.fullmatch(part):
            run.append(_Item(part, inner=True))
            continue
        head = _edge(_undetermined(part.split())[:2], known, last=False)
        if head is not None and run:
            run.append(_Item(head, inner=False))
        if len(run) >= MIN_ITEMS:
            runs.append(run)
        tail = _edge(part.split()[-2:], known, last=True)
        run = [_Item(tail, inner=False)] if tail is not None else []
    if len(run) >= MIN_ITEMS:
        runs.append(run)
    return runs


def _may_list(text: str) -> bool:
    """At least two separators: three items need them (most sentences are skipped here)."""
    commas = text.count(",") + text.count("、") + text.count("，")
    return commas >= 2 or (commas == 1 and any(w in text for w in (" and ", " or ", "和", "或")))


def _undetermined(words: list[str]) -> list[str]:
    """ "the Tornado server" -> "Tornado server": an article is no part of the item."""
    return words[1:] if words and words[0].lower() in _ARTICLES else words


def _edge(words: list[str], known: AbstractSet[str], *, last: bool) -> str | None:
    """The item at a list's edge: two words that are a known name, else the one nearest the list."""
    if len(words) == 2 and name_key(" ".join(words)) in known:
        return " ".join(words)
    word = words[-1] if last and words else (words[0] if words else "")
    return word if _ITEM.fullmatch(word) else None


def _may_name(item: str) -> bool:
    """An item that is not plain lower-case English ("caching", "logs")."""
    return not (item.islower() and is_ordinary_phrase(item))
