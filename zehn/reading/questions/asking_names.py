"""Names as engineers write them in a question: "the product catalog" for ``product-catalog``,
"the load generator" for ``load-generator``, "OpAMP server" for ``opamp-server``.

A question is short and names are its anchors, so a name written with spaces where the graph's
name has a hyphen, an underscore or nothing is respelled as the graph writes it before the
question is bound (``zehn.reading.names.binding`` then binds it like any mention). Only runs of two
to four words are respelled, only when their letters equal one entity's name (or alias) and no
other entity's, and never where the words already are a name: a loose match never merges two
entities, and ordinary single words are never taken for names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from zehn.reading.model import Entity

_TOKEN = re.compile(r"[A-Za-z0-9]+")
_JOINER = re.compile(r"[\s\-_.]{1,2}")
MIN_KEY = 6  # letters: shorter runs ("to be") are too easily something else
MAX_WORDS = 4


def loose_key(text: str) -> str:
    """``text`` without case, spaces or punctuation: "Product Catalog" -> "productcatalog"."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def respelled(question: str, entities: Iterable[Entity]) -> str:
    """``question`` with every loosely written entity name spelled as the graph names it."""
    keys: dict[str, set[str]] = {}  # loose key -> entity ids
    forms: dict[str, list[str]] = {}  # loose key -> the names and aliases written so
    for entity in entities:
        for form in (entity.name, *entity.aliases):
            key = loose_key(form)
            if not form.isascii() or len(key) < MIN_KEY:
                continue
            keys.setdefault(key, set()).add(entity.id)
            forms.setdefault(key, []).append(form)
    if not keys:
        return question
    tokens = list(_TOKEN.finditer(question))
    replacements: list[tuple[int, int, str]] = []
    i = 0
    while i < len(tokens):
        found = _longest_at(question, tokens, i, keys, forms)
        if found is None:
            i += 1
            continue
        end_index, form = found
        replacements.append((tokens[i].start(), tokens[end_index].end(), form))
        i = end_index + 1
    for start, end, form in reversed(replacements):
        question = question[:start] + form + question[end:]
    return question


def _longest_at(
    question: str,
    tokens: list[re.Match[str]],
    i: int,
    keys: dict[str, set[str]],
    forms: dict[str, list[str]],
) -> tuple[int, str] | None:
    start = tokens[i].start()
    for j in range(min(len(tokens), i + MAX_WORDS) - 1, i, -1):
        gaps = [question[tokens[k].end() : tokens[k + 1].start()] for k in range(i, j)]
        if not all(_JOINER.fullmatch(gap) for gap in gaps):
            continue
        key = loose_key(question[start : tokens[j].end()])
        if len(keys.get(key, ())) != 1:
            continue
        written = question[start:].lower()
        if any(written.startswith(form.lower()) for form in forms[key]):
            return None  # already written as the graph writes it
        return j, forms[key][0]
    return None
