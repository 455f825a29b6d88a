"""The keys a graph's name index stores for each entity, and the keys of a text to look up.

A question or a graded sentence needs only the entities whose names occur in it, but finding
them by scanning every entity costs seconds at 200k entities. A build therefore stores, on
each entity, the keys under which the binder files its names (``Binder``: lower-cased tokens
of each name and alias, in either number), the spelling keys the question reader matches
loosely written names by, the name's last word (a possessed kind word, "Celery's broker") and
its code-like forms (near misses). The engine then looks up the keys a text contains, through
range indexes, and binds over exactly the entities that can bind there
(``zehn.engine.names``). Keys are computed here, beside the binder, so that both always agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from zehn.reading.model import Entity
from zehn.reading.names.binding import (
    _CODE_LIKE,
    MAX_FORM_TOKENS,
    _contiguous,
    _last_word,
    binding_forms,
    tokens,
)
from zehn.reading.questions.asking_names import MIN_KEY, loose_key

NAME_INDEX_VERSION = 2  # 2: CamelCase names also keyed in words ("StoreAPI": "store api")
FIND_TOKENS = 16
"""Names of up to this many tokens are indexed: the binder binds names of up to
``MAX_FORM_TOKENS``; longer ones are still found by ``find_entities`` (a long title)."""
"""Written to the graph's Meta node by a build that stores the fields below; a graph without
it (an older build, another tool) is read the old way, every entity once per revision."""

# Entity properties of the index, each with a range index (arrays index their elements).
INDEXED = ("name_keys", "loose_keys", "lname", "head", "code_lengths", "namesake")


def form_key(words: Iterable[str]) -> str:
    """The key of a token sequence: lower-cased tokens joined by a space (no token holds one)."""
    return " ".join(word.lower() for word in words)


def name_fields(entity: Entity) -> dict[str, Any]:
    """What the name index stores on an entity (``Entity`` properties, written at build)."""
    keys: dict[str, None] = {}
    longest = 0
    code_forms: dict[str, None] = {}
    for form in binding_forms(entity):
        words = [t.text for t in tokens(form)]
        if not words or len(words) > FIND_TOKENS:
            continue
        keys[form_key(words)] = None
        longest = max(longest, len(words))
        if len(words) <= MAX_FORM_TOKENS and _CODE_LIKE.fullmatch(form):  # as the binder
            code_forms[form] = None
    loose = [
        key
        for key in dict.fromkeys(loose_key(form) for form in (entity.name, *entity.aliases))
        if len(key) >= MIN_KEY
    ]
    return {
        "name_keys": list(keys),
        "name_tokens": longest,
        "loose_keys": loose,
        "lname": entity.name.strip().lower(),
        "folded": entity.name.casefold(),
        "head": _last_word(entity.name),
        "code_forms": list(code_forms),
        "code_lengths": sorted({len(form) for form in code_forms}),
    }


def text_keys(text: str, longest: int = FIND_TOKENS) -> set[str]:
    """Every key a name of up to ``longest`` tokens could have in ``text``: its runs of
    contiguous tokens (as the binder joins a name's tokens), lower-cased."""
    toks = tokens(text)
    found: set[str] = set()
    for i in range(len(toks)):
        for n in range(1, min(longest, len(toks) - i) + 1):
            window = toks[i : i + n]
            if n > 1 and not _contiguous(text, window[-2:]):
                break
            found.add(form_key(t.text for t in window))
    return found
