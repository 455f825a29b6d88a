"""Why an ordinary-word name names the component where it stands: the marks binding reads.

A discovered name that is also an English word ("sidecar", "store", "Master") binds only
where the text marks it as a name: its own kind word or one after it ("the store gateway"),
markup, a line of its own, Title Case, a capital mid-sentence or a bare subject before its
verb, the page being about it after a definite word, or Latin script inside Chinese text.
``mark_of`` says which, as the reason the mention carries; ``zehn.reading.names.binding``
calls it for every such form it finds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from zehn.reading.lexicon import head_of, is_ordinary_phrase
from zehn.reading.scripts import CJK_CHARS
from zehn.reading.verbs import SIMPLE_PRESENT, alternation

# Marks a sentence does not hold: its page is about the name, or marks it elsewhere.
PAGE_SUBJECT = "the page being about it"
PAGE_MARKED = "its marked uses elsewhere on the page"

_OPENERS = {"`": "`", "*": "*", "_": "_", "[": "]", '"': '"', "“": "”", "'": "'", "「": "」"}
_LABEL_JUNK = re.compile(r"[\s`*_\[\]\"“”'「」():：.,;!?#|>-]+")
_HEAD_AFTER = re.compile(r"^[ \t-]?([A-Za-z]+)")
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
# On its own page a plain name is the subject after a definite word or a preposition ("the
# cart", "calls cart"), not after "a" or a modifier ("a LangGraph agent", "shopping cart").
# a lower-case word before a capitalised one: "extend the Sidecar", not a sentence's first word
_MID_SENTENCE = re.compile(r"[a-z,;][\s\"'*_(\[]*$")
# a third-person verb right after a sentence's first word ("Sidecar makes …", "Store exposes"),
# or after it as a label ("**Store**: exposes …")
# (not a plural noun before a verb of its own: "Garden beds were added")
_VERB_AFTER = re.compile(
    r"[`*_\]]*(?:\s*[:：–—-])?\s+(?:[a-z]+ly\s+)?[a-z]{2,}(?<![su])s\b"
    r"(?!\s+(?:are|were|is|was|have|had|can|could|will|would|should|must|may|might|do)\b)"
)
# Chinese prose writes Latin script for terms only: a Latin word with a Chinese character (or
# Chinese punctuation) on both sides, spaces between allowed, is a name, not an English word;
# so is each of two or three joined by slashes ("Master/Worker注册": a list)
_IN_CHINESE_BEFORE = re.compile(
    rf"(?:[{CJK_CHARS}，。；：、（）【】「」]|^[\W_]*)\s*(?:[A-Z][A-Za-z]+/){{0,2}}$"
)
_IN_CHINESE_AFTER = re.compile(rf"(?:/[A-Z][A-Za-z]+){{0,2}}\s*[{CJK_CHARS}，。；：、（）【】「」]")


def in_chinese(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` stands between Chinese characters or Chinese punctuation."""
    return bool(_IN_CHINESE_BEFORE.search(text[:start]) and _IN_CHINESE_AFTER.match(text, end))


_DEFINITE_BEFORE = re.compile(
    r"^[\W_]*$|[.:;,|>(\[-]\s*$|\b(?:the|this|our|its|to|from|by|with|in|on|of|for|and|"
    r"or|via|into|through|than|as|at|about|when|if|"
    + alternation(("call", "use", "read", "write"), SIMPLE_PRESENT)
    + r")\s+$",
    re.IGNORECASE,
)


def mark_of(
    text: str,
    start: int,
    end: int,
    kinds: set[str],
    subjects: Mapping[str, str],
    entity_ids: Iterable[str],
) -> str:
    """Why an ordinary-word name at ``text[start:end]`` names the component here, or ''."""
    surface = text[start:end]
    if not is_ordinary_phrase(surface):
        return f"its spelling {surface!r}"
    words = surface.split()
    own_head = head_of(words[-1])
    if len(words) > 1 and own_head is not None and own_head.kind in kinds:
        return f"its kind word {words[-1]!r}"
    after = _HEAD_AFTER.match(text[end : end + 20])
    head = head_of(after.group(1)) if after else None
    if after and head is not None and head.kind in kinds:
        return f"the kind word {after.group(1)!r} after it"
    before = text[start - 1] if start > 0 else ""
    closer = _OPENERS.get(before)
    if before == "`" or (closer is not None and text[end : end + 1] == closer):
        return "markup"
    rest = _LABEL_JUNK.sub("", text[:start] + text[end:])
    if not rest or (head is not None and rest.lower() == after.group(1).lower() if after else 0):
        return "a line of its own"
    if len(words) > 1 and start > 0 and all(w[:1].isupper() for w in words):
        return "Title Case"
    if own_head is not None and own_head.kind in kinds and _THE_BEFORE.search(text[:start]):
        return f"'the' before the kind word {surface!r}"
    page = next((subjects[i] for i in entity_ids if i in subjects), "")
    opening = page == PAGE_MARKED and not _LABEL_JUNK.sub("", text[:start])
    if page and not opening and _DEFINITE_BEFORE.search(text[:start]):
        return page  # (a marked term opening a sentence binds in its paragraph only: forms.py)
    if in_chinese(text, start, end):
        return "Latin script inside Chinese text"  # "向Master汇报": written there as a term
    if len(words) == 1 and surface[:1].isupper():
        if _MID_SENTENCE.search(text[:start]):
            return "a capital mid-sentence"  # "extend the Sidecar": written as a name
        if not _LABEL_JUNK.sub("", text[:start]) and _VERB_AFTER.match(text, end):
            return "a bare subject"  # "Sidecar makes use of …", "Sidecar: connects to …"
    return ""
