"""Near misses of code-like names: "orgin-mapper" is origin-mapper when that name is clearly
the closest one.

Kept apart from the binder so that the engine can score a near miss against code-like names
it reads from the graph's name index by length (``zehn.engine.names``), exactly as the binder
scores it against every name it holds.
"""

from __future__ import annotations

from collections.abc import Iterable

from rapidfuzz import fuzz, process

FUZZY_CUTOFF = 90.0
_CLOSEST_KEPT = 50_000  # near-miss look-ups kept


def near_lengths(word: str) -> range:
    """The name lengths a near miss of ``word`` can have: fuzz.ratio is at most
    200·min/(a+b), under the cutoff once one length exceeds the other by 11/9."""
    low, high = len(word) * 9 // 11 - 1, -(-len(word) * 11 // 9) + 1
    return range(max(low, 1), high + 1)


class CodeLikeNames:
    """The code-like names that one entity alone has, in the order first given (a tie goes to
    the first), bucketed by length."""

    def __init__(self, forms: Iterable[tuple[str, str]]) -> None:
        """``forms``: (code-like form, entity id) in entity order."""
        owners: dict[str, set[str]] = {}
        for form, entity_id in forms:
            owners.setdefault(form, set()).add(entity_id)
        self.owner = {form: next(iter(ids)) for form, ids in owners.items() if len(ids) == 1}
        self._by_length: dict[int, tuple[list[int], list[str]]] = {}
        for index, form in enumerate(self.owner):
            indexes, names = self._by_length.setdefault(len(form), ([], []))
            indexes.append(index)
            names.append(form)
        self._closest: dict[str, tuple[str, str, float] | None] = {}

    def __bool__(self) -> bool:
        return bool(self.owner)

    def closest(self, word: str) -> tuple[str, str, float] | None:
        """(form, entity id, score) of the name ``word`` is a near miss of; kept per word (a
        corpus repeats its identifiers, and each look-up scores every name of near length)."""
        if word in self._closest:
            return self._closest[word]
        found = self._score(word)
        if len(self._closest) >= _CLOSEST_KEPT:
            self._closest.clear()
        self._closest[word] = found
        return found

    def _score(self, word: str) -> tuple[str, str, float] | None:
        """``process.extractOne`` over every name of a near length (the best score, the first
        such name on a tie)."""
        best: tuple[float, int, str] | None = None
        for length in near_lengths(word):
            bucket = self._by_length.get(length)
            if bucket is None:
                continue
            indexes, names = bucket
            hit = _best(word, names)
            if hit is None:
                continue
            score, index = hit[0], indexes[hit[1]]
            if best is None or score > best[0] or (score == best[0] and index < best[1]):
                best = (score, index, names[hit[1]])
        return None if best is None else (best[2], self.owner[best[2]], best[0])


_BATCH_FROM = 200  # names in a bucket from which scoring them all at once pays


def _best(word: str, names: list[str]) -> tuple[float, int] | None:
    """(score, position) of the best name at or above the cutoff, the first on a tie: what
    ``process.extractOne`` gives. A long bucket is scored in one ``cdist`` call (several
    times faster: a corpus heading like "doc-00042" is scored against every name of its
    length, 50,000 at the large benchmark), with the same scores in double precision."""
    if len(names) < _BATCH_FROM:
        hit = process.extractOne(word, names, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        return None if hit is None else (float(hit[1]), int(hit[2]))
    scores = process.cdist(
        [word], names, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, dtype="float64", workers=1
    )[0]
    position = int(scores.argmax())  # the first of the best
    score = float(scores[position])
    return None if score < FUZZY_CUTOFF else (score, position)
