"""Every known name in a sentence's tokens in one pass: an Aho-Corasick automaton over token keys.

The binder's names are tuples of lowercased tokens ("search", "api"). Probing a dict at
every token position is a Python loop per token; the automaton, built once per set of
entities and kept, finds every (first token, token count) whose words are a name in C, so
the binder only looks at positions where a name starts. Tokens are joined with a character
no token can contain, so a hit always covers whole tokens.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import ahocorasick  # type: ignore[import-not-found]  # a C extension without type information

# \x1f is whitespace to the tokenizer (str.isspace), so no token ever contains it
_SEP = "\x1f"


class TokenMatcher:
    """Finds each occurrence of a token key in a token sequence; build once, use for every
    sentence."""

    def __init__(self, keys: Iterable[tuple[str, ...]]) -> None:
        self._automaton = ahocorasick.Automaton()
        self.size = 0
        add = self._automaton.add_word
        for key in dict.fromkeys(keys):
            pattern = _SEP + _SEP.join(key) + _SEP
            # a key of words, none empty (two separators in a row), none holding a separator
            if key and pattern.count(_SEP) == len(key) + 1 and _SEP + _SEP not in pattern:
                add(pattern, (len(key), len(pattern)))
                self.size += 1
        if self.size:
            self._automaton.make_automaton()

    def starts(self, words: Sequence[str]) -> dict[int, list[int]]:
        """Token index -> token counts of the keys starting there, longest first.

        ``words`` are the sentence's tokens already lowercased as the keys are.
        """
        if not self.size or not words:
            return {}
        haystack = _SEP + _SEP.join(words) + _SEP
        found: dict[int, list[int]] = {}
        for end, (count, length) in self._automaton.iter(haystack):
            # the separators before a hit's own leading one: the index of its first token
            found.setdefault(haystack.count(_SEP, 0, end - length + 1), []).append(count)
        for counts in found.values():
            if len(counts) > 1:
                counts.sort(reverse=True)
        return found
