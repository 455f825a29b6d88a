"""Words to a full-text query: what ``search_sentences`` sends to FalkorDB's index.

The index is built with the ``chinese`` language (it segments Chinese words) and so does no
English stemming; a query word therefore carries its common inflections itself ("write"
also finds "writes", "written"). Only word characters reach the index: its query syntax
(``|``, ``-``, ``@``, quotes …) can never be injected by a question.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from zehn.reading.scripts import HAN_SPAN

_WORD = re.compile(f"[A-Za-z0-9_]+|[{HAN_SPAN}]+")
_STOP = frozenset(
    "a an and are as at be by do does for from how if in is it of on or the to what when "
    "where which who why will with would".split()
)
MAX_TERMS = 24
_IRREGULAR = {
    "write": ("wrote", "written"), "send": ("sent",), "feed": ("fed",), "run": ("ran",),
    "hold": ("held",), "keep": ("kept",), "get": ("got", "gotten"),
}  # fmt: skip


_QUESTION_WORD = re.compile(f"[A-Za-z][A-Za-z0-9_-]{{2,}}|[{HAN_SPAN}]+")


def search_words(text: str, names: Iterable[str] = ()) -> str:
    """The words of a question to search sentences with (at most 300 characters), its
    ``names`` left out: a name would match every sentence about the entity."""
    for name in names:
        if name:
            text = text.replace(name, " ")
    return " ".join(_QUESTION_WORD.findall(text))[:300]


def inflections(word: str) -> list[str]:
    """``word`` and its regular English forms (no dictionary: a miss costs recall only)."""
    if not word.isascii() or not word.isalpha() or len(word) < 3:
        return [word]
    stem = word
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    forms = {word, stem, f"{stem}s", f"{stem}es", f"{stem}ed", f"{stem}ing"}
    if stem.endswith("e"):
        forms |= {f"{stem[:-1]}ing", f"{stem}d", f"{stem}n"}
    if stem.endswith("y"):
        forms.add(f"{stem[:-1]}ies")
    forms.update(_IRREGULAR.get(stem, ()))
    return sorted(forms)


def fulltext_query(terms: str) -> str:
    """``terms`` as an OR query of words and their inflections; empty when nothing is left."""
    words = [w.lower() for w in _WORD.findall(terms)]
    words = [w for w in dict.fromkeys(words) if w not in _STOP]
    forms: list[str] = []
    for word in words:
        forms.extend(inflections(word))
    return " | ".join(dict.fromkeys(forms[: MAX_TERMS * 4]))
