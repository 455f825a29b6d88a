"""Near misses of code-like names: "orgin-mapper" is origin-mapper when that name is clearly
the closest one.

Kept apart from the binder so that the engine can score a near miss against code-like names
it reads from the graph's name index by length (``zehn.engine.names``), exactly as the binder
scores it against every name it holds.

Scoring every name of a near length costs a scan per look-up, and a corpus looks up every
code-like word that is no name (a heading "doc-00042", a file name, a flag): at 50,000 names
that was most of the binder's time. So a long length bucket is searched through a deletion
index instead (``_Bucket``), which returns every name that can reach the cutoff and maybe a
few more; those alone are scored, by the same scorer, so the result is the scan's.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import chain, combinations
from math import comb

import numpy as np
from numpy.typing import NDArray
from rapidfuzz import fuzz, process

FUZZY_CUTOFF = 90.0
_CLOSEST_KEPT = 50_000  # near-miss look-ups kept

# A deletion index costs 12 bytes an entry (a 64-bit hash and a 32-bit position); a bucket of
# n names of length L indexed at depth d has n·C(L, d) entries. Past these, a bucket is scanned.
# At 200,000 synthetic names ("svc-123456") the headings' look-ups build 3.3 M entries (39 MB,
# about twice that while one is sorted); at 50,000, 0.4 M (5 MB).
_INDEX_FROM = 512  # names in a bucket from which a look-up in an index beats a scan
_MAX_ENTRIES = 4_000_000  # entries of one index (48 MB)
_MAX_TOTAL = 12_000_000  # entries of all the indexes of one set of names (144 MB)
_MAX_WAYS = 2_048  # ways to delete the characters of one name or word an index needs
_HASH_BASE = 0x9E3779B97F4A7C15  # odd: a polynomial hash modulo 2**64


def near_lengths(word: str) -> range:
    """The name lengths a near miss of ``word`` can have: fuzz.ratio is at most
    200·min/(a+b), under the cutoff once one length exceeds the other by 11/9."""
    low, high = len(word) * 9 // 11 - 1, -(-len(word) * 11 // 9) + 1
    return range(max(low, 1), high + 1)


def shared_at_cutoff(word_length: int, name_length: int) -> int | None:
    """How many characters in order (a common subsequence) a word and a name of these lengths
    share at least when fuzz.ratio reaches the cutoff, or None when it cannot.

    fuzz.ratio is 100·(1 − indel/(a+b)) with indel = a + b − 2·LCS, so a ratio of 90 or more
    is indel ≤ (a+b)/10, that is LCS ≥ (a + b − ⌊(a+b)/10⌋)/2. A pair that misses the bound
    scores at most 90 − 10/(a+b): no rounding brings it to the cutoff.
    """
    total = word_length + name_length
    most_indel = total // 10  # at most 10 % of the characters inserted or deleted
    if abs(word_length - name_length) > most_indel:
        return None
    return (total - most_indel + 1) // 2


class CodeLikeNames:
    """The code-like names that one entity alone has, in the order first given (a tie goes to
    the first), bucketed by length."""

    def __init__(self, forms: Iterable[tuple[str, str]], *, eager: bool = False) -> None:
        """``forms``: (code-like form, entity id) in entity order. ``eager``: index every
        bucket at its first look-up, however short (tests; the default indexes a bucket once
        it is long and scanned often enough to pay for its index)."""
        self.owner: dict[str, str] = {}  # first given order; a shared form is removed
        shared: set[str] = set()
        for form, entity_id in forms:
            if self.owner.setdefault(form, entity_id) != entity_id:
                shared.add(form)
        for form in shared:
            del self.owner[form]
        self._by_length: dict[int, _Bucket] = {}
        for index, form in enumerate(self.owner):
            bucket = self._by_length.get(len(form))
            if bucket is None:
                bucket = self._by_length[len(form)] = _Bucket(len(form))
            bucket.indexes.append(index)
            bucket.names.append(form)
        self._budget = _Budget(eager)
        self._closest: dict[str, tuple[str, str, float] | None] = {}

    def __bool__(self) -> bool:
        return bool(self.owner)

    @property
    def index_entries(self) -> int:
        """Entries of the deletion indexes built so far (12 bytes each)."""
        return self._budget.used

    def closest(self, word: str) -> tuple[str, str, float] | None:
        """(form, entity id, score) of the name ``word`` is a near miss of; kept per word (a
        corpus repeats its identifiers)."""
        if word in self._closest:
            return self._closest[word]
        found = self._score(word)
        if len(self._closest) >= _CLOSEST_KEPT:
            self._closest.clear()
        self._closest[word] = found
        return found

    def _score(self, word: str) -> tuple[str, str, float] | None:
        """``process.extractOne`` over every name of a near length (the best score, the first
        such name on a tie), scoring in each bucket only the names that can reach the cutoff."""
        best: tuple[float, int, str] | None = None
        variants = _WordVariants(word)
        for length in near_lengths(word):
            bucket = self._by_length.get(length)
            shared = shared_at_cutoff(len(word), length)
            if bucket is None or shared is None:
                continue  # no name, or none of this length can reach the cutoff
            positions = bucket.candidates(variants, shared, self._budget)
            names = bucket.names if positions is None else [bucket.names[p] for p in positions]
            hit = _best(word, names) if names else None
            if hit is None:
                continue
            position = hit[1] if positions is None else positions[hit[1]]
            score, index = hit[0], bucket.indexes[position]
            if best is None or score > best[0] or (score == best[0] and index < best[1]):
                best = (score, index, bucket.names[position])
        return None if best is None else (best[2], self.owner[best[2]], best[0])


class _WordVariants:
    """The hashes of what deleting some of a word's characters leaves, by how many (a word is
    looked up in several length buckets, often at the same depth)."""

    def __init__(self, word: str) -> None:
        self.word = word
        self._hashes: dict[int, NDArray[np.uint64]] = {}

    def hashes(self, depth: int) -> NDArray[np.uint64]:
        """Sorted, each once."""
        found = self._hashes.get(depth)
        if found is None:
            found = self._hashes[depth] = np.unique(_deletion_hashes(_codes([self.word]), depth))
        return found


class _Budget:
    """The index entries one set of names may hold, and whether to index at once."""

    def __init__(self, eager: bool) -> None:
        self.eager = eager
        self.used = 0


class _Bucket:
    """The names of one length, and the deletion indexes built for them so far.

    A word of length a and a name of length b reach the cutoff only if they share a common
    subsequence of m = ``shared_at_cutoff(a, b)`` characters, that is if deleting a − m
    characters from the word and b − m from the name gives the same string. The index at depth
    b − m holds, for every name, the hash of every string left by deleting that many of its
    characters; a look-up hashes the word's own deletions and takes every name with an equal
    hash. Equal strings have equal hashes, so no name that reaches the cutoff is missed (a hash
    collision only adds a name to score).
    """

    def __init__(self, length: int) -> None:
        self.length = length
        self.indexes: list[int] = []  # position in the whole name order
        self.names: list[str] = []
        self._index: dict[int, tuple[NDArray[np.uint64], NDArray[np.int32]]] = {}
        self._scanned: dict[int, int] = {}  # depth -> names scanned without an index

    def candidates(self, word: _WordVariants, shared: int, budget: _Budget) -> list[int] | None:
        """Positions (ascending) of the names that may reach the cutoff with the word, or
        None where the bucket is scanned whole."""
        depth, word_depth = self.length - shared, len(word.word) - shared
        if comb(len(word.word), word_depth) > _MAX_WAYS:
            return None
        index = self._index.get(depth)
        if index is None:
            index = self._build(depth, budget)
            if index is None:
                return None
        keys, positions = index
        hashes = word.hashes(word_depth)
        low = keys.searchsorted(hashes, side="left").tolist()
        high = keys.searchsorted(hashes, side="right").tolist()
        found: set[int] = set()
        for first, stop in zip(low, high, strict=True):
            if stop > first:
                found.update(positions[first:stop].tolist())
        return sorted(found)

    def _build(
        self, depth: int, budget: _Budget
    ) -> tuple[NDArray[np.uint64], NDArray[np.int32]] | None:
        """The index at ``depth`` when it is worth building now (within the budget, and
        once scans of this bucket have cost about what building it costs), else None."""
        ways = comb(self.length, depth)
        entries = len(self.names) * ways
        if ways > _MAX_WAYS or entries > _MAX_ENTRIES or budget.used + entries > _MAX_TOTAL:
            return None
        if not budget.eager:
            scanned = self._scanned.get(depth, 0)
            if len(self.names) < _INDEX_FROM or scanned < entries:
                self._scanned[depth] = scanned + len(self.names)
                return None
        hashes = _deletion_hashes(_codes(self.names), depth)
        positions = np.repeat(np.arange(len(self.names), dtype=np.int32), ways)
        order = np.argsort(hashes, kind="stable")
        index = self._index[depth] = (hashes[order], positions[order])
        budget.used += entries
        return index


def _codes(names: list[str]) -> NDArray[np.uint64]:
    """The code points of names of one length, one row per name."""
    length = len(names[0])
    points = np.array(names, dtype=f"<U{length}").view(np.uint32).reshape(len(names), length)
    return points.astype(np.uint64)


_CHUNK = 1 << 21  # code points multiplied at once while hashing: bounds the working memory


def _deletion_hashes(codes: NDArray[np.uint64], depth: int) -> NDArray[np.uint64]:
    """The hash of every string left by deleting ``depth`` characters from each row of
    ``codes``: the first row's strings, then the next row's. The hash is the polynomial
    sum(c_j · B^(m−1−j)) modulo 2**64 (unsigned arithmetic wraps)."""
    count, length = codes.shape
    kept = _kept(length, depth)
    powers = _powers(length - depth)
    out = np.empty((count, len(kept)), dtype=np.uint64)
    step = max(1, _CHUNK // max(1, count * (length - depth)))
    for first in range(0, len(kept), step):
        picked = codes[:, kept[first : first + step]]  # (names, ways, kept characters)
        out[:, first : first + step] = (picked * powers).sum(axis=2, dtype=np.uint64)
    return out.ravel()


@lru_cache(maxsize=64)
def _kept(length: int, depth: int) -> NDArray[np.intp]:
    """The positions each way of deleting ``depth`` of ``length`` characters keeps, a row each."""
    size = length - depth
    ways = combinations(range(length), size)
    flat = np.fromiter(chain.from_iterable(ways), dtype=np.intp, count=comb(length, size) * size)
    return flat.reshape(comb(length, size), size)


@lru_cache(maxsize=256)
def _powers(size: int) -> NDArray[np.uint64]:
    """B^(size−1), …, B, 1 modulo 2**64."""
    return np.array([pow(_HASH_BASE, e, 1 << 64) for e in range(size - 1, -1, -1)], dtype=np.uint64)


_BATCH_FROM = 200  # names in a bucket from which scoring them all at once pays


def _best(word: str, names: list[str]) -> tuple[float, int] | None:
    """(score, position) of the best name at or above the cutoff, the first on a tie: what
    ``process.extractOne`` gives. A long bucket is scored in one ``cdist`` call (several
    times faster), with the same scores in double precision."""
    if len(names) < _BATCH_FROM:
        hit = process.extractOne(word, names, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        return None if hit is None else (float(hit[1]), int(hit[2]))
    scores = process.cdist(
        [word], names, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, dtype="float64", workers=1
    )[0]
    position = int(scores.argmax())  # the first of the best
    score = float(scores[position])
    return None if score < FUZZY_CUTOFF else (score, position)
