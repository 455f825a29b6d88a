"""Which cues can match a sentence at all, from the words it contains (a cheap prefilter).

Running every cue pattern over every sentence was a fifth of extraction. Each Latin cue
starts at a word boundary with a word from a small known set ("depends", "is", "reads" …),
followed by a non-letter; on ASCII text a cue can only match where that word stands as a
whole run of letters. ``cue_words`` reads those first words out of the compiled pattern
itself, so the set never drifts from the lexicon; a pattern it cannot read that way gets
None and is always run. ``CuePrefilter.possible`` keeps only the cues one of whose first words
the sentence holds, in lexicon order; text that is not ASCII (where case folding has special
cases such as the dotless ı) is read with every cue, as before.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Sequence
from typing import Any

from zehn.reading.cues import Cue

# the standard library's own regular expression parser (public as ``sre_parse`` before 3.11)
sre_parse: Any = importlib.import_module("re._parser")
sre: Any = importlib.import_module("re._constants")

_LETTER_RUN = re.compile(r"[a-z]+")
_MAX_WORDS = 400  # a pattern with more possible first words is not worth a prefilter


class _Unreadable(Exception):
    """The pattern's first word cannot be told from its form: the cue is always run."""


def _is_letter(code: int) -> bool:
    return chr(code).isascii() and chr(code).isalpha()


def _class_letters(items: list[tuple[Any, Any]]) -> list[str] | None:
    """The letters of a character class of letters only; None when it holds no letter (it
    ends a word); _Unreadable when it mixes them or is anything else."""
    letters: list[str] = []
    others = 0
    for op, av in items:
        if op is sre.LITERAL:
            if _is_letter(av):
                letters.append(chr(av).lower())
            else:
                others += 1
        elif op is sre.CATEGORY and av in (sre.CATEGORY_SPACE, sre.CATEGORY_DIGIT):
            others += 1
        else:
            raise _Unreadable
    if letters and others:
        raise _Unreadable
    return letters or None


def _words(items: list[tuple[Any, Any]], word: str, bounded: bool) -> Iterator[str]:
    """Every first word of a match of ``items`` (the rest of the pattern), given the letters
    ``word`` already read; a word is complete where the pattern demands a non-letter. The
    first letter must follow a word boundary (``bounded``): else a match could start inside
    a run of letters ("own" in "known")."""
    if not items:
        raise _Unreadable  # the pattern may end in the middle of a run of letters
    (op, av), rest = items[0], items[1:]
    if op is sre.AT:
        if av is not sre.AT_BOUNDARY:
            raise _Unreadable
        if word:
            yield word  # after letters, a boundary means a non-word character (or the end)
        else:
            yield from _words(rest, word, True)
    elif op in (sre.ASSERT, sre.ASSERT_NOT):  # zero width: ignoring it only widens the set
        yield from _words(rest, word, bounded)
    elif op is sre.LITERAL:
        if _is_letter(av):
            if not bounded:
                raise _Unreadable
            yield from _words(rest, word + chr(av).lower(), bounded)
        elif word:
            yield word
        else:
            raise _Unreadable
    elif op is sre.IN:
        letters = _class_letters(av)
        if letters is None:
            if not word:
                raise _Unreadable
            yield word
        elif not bounded:
            raise _Unreadable
        else:
            for letter in letters:
                yield from _words(rest, word + letter, bounded)
    elif op is sre.SUBPATTERN:
        yield from _words(list(av[-1]) + rest, word, bounded)
    elif op is sre.BRANCH:
        for alternative in av[1]:
            yield from _words(list(alternative) + rest, word, bounded)
    elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, sub = av
        if high is sre.MAXREPEAT:  # once more than the minimum, then the word must be over
            counts: Sequence[int] = (low,) if low else (0, 1)
            tail: list[tuple[Any, Any]] = [(sre.AT, "unbounded")]
            for n in counts:
                yield from _words(list(sub) * n + (tail if n else []) + rest, word, bounded)
            return
        for n in range(low, high + 1):
            yield from _words(list(sub) * n + rest, word, bounded)
    else:
        raise _Unreadable


def cue_words(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """The words (lowercase ASCII letters) a match of ``pattern`` must start with, each a
    whole run of letters in the text; None when that cannot be read from the pattern."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
        words: set[str] = set()
        for word in _words(list(parsed), "", False):
            words.add(word)
            if len(words) > _MAX_WORDS:
                return None
        return frozenset(words)
    except (_Unreadable, RecursionError):
        return None


class CuePrefilter:
    """The cues of ``cues`` that can match a text, in their order (see the module doc)."""

    def __init__(self, cues: Sequence[Cue]) -> None:
        self.cues = tuple(cues)
        self._always: list[int] = []
        self._by_word: dict[str, list[int]] = {}
        for index, cue in enumerate(self.cues):
            words = cue_words(cue.pattern)
            if words is None:
                self._always.append(index)
                continue
            for word in words:
                self._by_word.setdefault(word, []).append(index)

    def possible(self, text: str) -> Sequence[Cue]:
        """A subset of the cues holding every cue that matches ``text`` (all of them when
        the text is not ASCII)."""
        if not text.isascii():
            return self.cues
        picked = set(self._always)
        by_word = self._by_word
        for run in set(_LETTER_RUN.findall(text.lower())):
            found = by_word.get(run)
            if found is not None:
                picked.update(found)
        cues = self.cues
        return [cues[i] for i in sorted(picked)]
