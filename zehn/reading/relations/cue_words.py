"""Which cues can match a sentence at all, from the words it contains (a cheap prefilter).

Running every cue pattern over every sentence was a fifth of extraction. Each Latin cue
starts at a word boundary with a word from a small known set ("depends", "is", "reads" …),
followed by a non-letter; on ASCII text a cue can only match where that word stands as a
whole run of letters. ``cue_words`` reads those first words out of the compiled pattern
itself, so the set never drifts from the lexicon; a pattern it cannot read that way gets
None and is always run. ``CuePrefilter.possible`` keeps only the cues one of whose first words
the sentence holds, in lexicon order; text that is not ASCII (where case folding has special
cases such as the dotless ı) is read with every cue, as before.

``CuePrefilter.matches`` goes further: it tries each cue only where one of its first words
starts (``pattern.match`` at that position sees the text before it, as a search does), which
finds what ``finditer`` finds. That holds for any text without one of the four characters
that case folding maps onto an ASCII letter (``FOLDS_TO_ASCII``): Chinese text, "café". A
word that starts many cues ("is" starts twenty) is tried once with all of them first; a cue
without first words (a Chinese one) runs only on text holding one of its first characters
(``first_chars``: 被, 由 …). ``with_first_chars`` puts that look-ahead before any pattern.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Sequence
from typing import Any

from zehn.reading.relations.cues import Cue

# the standard library's own regular expression parser (public as ``sre_parse`` before 3.11)
sre_parse: Any = importlib.import_module("re._parser")
sre: Any = importlib.import_module("re._constants")

_LETTER_RUN = re.compile(r"[a-z]+")
_ASCII_RUN = re.compile(r"[A-Za-z]+")
# the characters that match an ASCII letter of a pattern under re.IGNORECASE (İ, ı, ſ and the
# Kelvin sign): a text holding one may match a cue where no first word stands as ASCII letters
FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")
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


def _firsts(items: list[tuple[Any, Any]]) -> set[str]:
    """The characters the first character of a match of ``items`` may be."""
    for position, (op, av) in enumerate(items):
        if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):  # zero width: skipping only widens
            continue
        rest = items[position + 1 :]
        if op is sre.LITERAL:
            return {chr(av)}
        if op is sre.IN:
            if any(item_op is not sre.LITERAL for item_op, _ in av):
                raise _Unreadable
            return {chr(code) for _, code in av}
        if op is sre.SUBPATTERN:
            _, add_flags, del_flags, sub = av
            if add_flags or del_flags:  # "(?i:…)": a case of its own
                raise _Unreadable
            return _firsts(list(sub) + rest)
        if op is sre.BRANCH:
            return set().union(*(_firsts(list(branch) + rest) for branch in av[1]))
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            low, _, sub = av
            found = _firsts(list(sub) + rest)
            return found if low else found | _firsts(rest)
        raise _Unreadable
    raise _Unreadable  # a match may be empty


def first_chars(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """The characters a match of ``pattern`` may start with (a Chinese cue: 被, 由 …); None
    when that cannot be read from the pattern, or when case folding could widen it."""
    if pattern.flags & re.IGNORECASE:
        return None
    try:
        return frozenset(_firsts(list(sre_parse.parse(pattern.pattern, pattern.flags))))
    except (_Unreadable, RecursionError):
        return None


# ASCII letters and the characters case folding maps onto them
_FOLDED = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}


def _variants(char: str) -> set[str]:
    """``char`` in either case, and what folds onto it: a superset of what it matches."""
    found = {char, *(c for c in (char.lower(), char.upper()) if len(c) == 1)}
    return found | set(_FOLDED.get(char.lower(), ""))


def with_first_chars(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` behind a look-ahead for the characters a match may start with: the same
    matches, found faster. A pattern of many alternatives is otherwise tried alternative by
    alternative at every position of the text (``EPISTEMIC`` took 7 µs on a sentence of 80
    characters, 3 this way). The pattern itself when its first characters cannot be read."""
    try:
        chars = _firsts(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    except (_Unreadable, RecursionError):
        return pattern
    if pattern.flags & re.IGNORECASE:
        chars = {variant for char in chars for variant in _variants(char)}
    ahead = "".join(re.escape(c) for c in sorted(chars))
    try:
        return re.compile(f"(?=[{ahead}])(?:{pattern.pattern})", pattern.flags)
    except re.error:  # inline global flags must stay first
        return pattern


class CuePrefilter:
    """The cues of ``cues`` that can match a text, in their order (see the module doc)."""

    def __init__(self, cues: Sequence[Cue]) -> None:
        self.cues = tuple(cues)
        self._always: list[int] = []  # no first words
        self._by_word: dict[str, list[int]] = {}
        self._unread: list[int] = []  # neither first words nor first characters
        self._by_char: dict[str, list[int]] = {}  # the rest of ``_always``, by first character
        for index, cue in enumerate(self.cues):
            words = cue_words(cue.pattern)
            if words is None:
                self._always.append(index)
                chars = first_chars(cue.pattern)
                if chars is None:
                    self._unread.append(index)
                for char in chars or ():
                    self._by_char.setdefault(char, []).append(index)
                continue
            for word in words:
                self._by_word.setdefault(word, []).append(index)
        self._chars = frozenset(self._by_char)
        # one match for the many cues a word may start ("is" starts twenty): where none of
        # them matches, none is tried
        self._gates = {
            word: gate
            for word, indexes in self._by_word.items()
            if len(indexes) >= _GATE_MIN
            and (gate := _union([self.cues[i].pattern for i in indexes])) is not None
        }

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

    def matches(self, text: str) -> list[tuple[Cue, re.Match[str]]]:
        """What ``cue.pattern.finditer(text)`` finds for each cue, cue by cue in lexicon
        order, each cue tried only where one of its first words starts (see the module doc)."""
        cues = self.cues
        ascii_text = text.isascii()
        if not ascii_text and FOLDS_TO_ASCII.search(text) is not None:
            return [(cue, m) for cue in cues for m in cue.pattern.finditer(text)]
        by_word = self._by_word
        gates = self._gates
        starts: dict[int, list[int]] = {}
        runs = _LETTER_RUN.finditer(text.lower()) if ascii_text else _ASCII_RUN.finditer(text)
        for run in runs:
            word = run.group() if ascii_text else run.group().lower()
            found = by_word.get(word)
            if found is not None:
                position = run.start()
                gate = gates.get(word)
                if gate is not None and gate.match(text, position) is None:
                    continue
                for index in found:
                    if index in starts:
                        starts[index].append(position)
                    else:
                        starts[index] = [position]
        whole = set(self._unread)  # the cues run over the whole text
        if self._chars:
            for char in self._chars.intersection(text):
                whole.update(self._by_char[char])
        out: list[tuple[Cue, re.Match[str]]] = []
        for index in sorted(starts.keys() | whole) if whole else sorted(starts):
            cue = cues[index]
            positions = starts.get(index)
            if positions is None:  # a cue without first words: run as it is
                out.extend((cue, m) for m in cue.pattern.finditer(text))
                continue
            match = cue.pattern.match
            end = 0  # as finditer: the next match starts where the last one ended
            for position in positions:
                if position >= end:
                    found_match = match(text, position)
                    if found_match is not None:
                        out.append((cue, found_match))
                        end = found_match.end()
        return out


_GATE_MIN = 3


def _union(patterns: Sequence[re.Pattern[str]]) -> re.Pattern[str] | None:
    """One pattern matching where any of ``patterns`` matches (all of one set of flags)."""
    flags = {p.flags for p in patterns}
    if len(flags) != 1:
        return None
    try:
        return re.compile("|".join(f"(?:{p.pattern})" for p in patterns), flags.pop())
    except re.error:  # a group name used twice, inline flags
        return None
