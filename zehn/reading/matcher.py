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
        for key in dict.fromkeys(keys):
            if key and not any(_SEP in word or not word for word in key):
                pattern = _SEP + _SEP.join(key) + _SEP
                self._automaton.add_word(pattern, (len(key), len(pattern)))
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
        # the character offset of the separator before each token -> the token's index
        index: dict[int, int] = {}
        offset = 0
        for i, word in enumerate(words):
            index[offset] = i
            offset += len(word) + 1
        found: dict[int, list[int]] = {}
        for end, (count, length) in self._automaton.iter(haystack):
            found.setdefault(index[end - length + 1], []).append(count)
        for counts in found.values():
            counts.sort(reverse=True)
        return found
