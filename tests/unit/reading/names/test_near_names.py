"""The near-miss index finds exactly what a full scan finds: ``process.extractOne`` over every
code-like name (the best score at or above the cutoff, the first name in entity order on a
tie). Names and words are invented: random identifiers, and near misses made from them by
inserting, deleting and replacing characters, so that many land on either side of the cutoff.
"""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel

from zehn.reading.names import near_names
from zehn.reading.names.near_names import (
    FUZZY_CUTOFF,
    CodeLikeNames,
    near_lengths,
    shared_at_cutoff,
)

_ALPHABET = "abcdefz0123456789-"


def _full_scan(forms: list[tuple[str, str]], word: str) -> tuple[str, str, float] | None:
    """The reference: every name one entity alone has, scored in entity order."""
    owners: dict[str, set[str]] = {}
    for form, entity in forms:
        owners.setdefault(form, set()).add(entity)
    owner = {form: next(iter(ids)) for form, ids in owners.items() if len(ids) == 1}
    hit = process.extractOne(word, list(owner), scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
    return None if hit is None else (str(hit[0]), owner[str(hit[0])], float(hit[1]))


def _name(rng: random.Random) -> str:
    stem = "".join(rng.choice(string.ascii_lowercase[:6]) for _ in range(rng.randint(1, 9)))
    return f"{stem}-{''.join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 14)))}"


def _near(rng: random.Random, name: str) -> str:
    """``name`` with a few characters inserted, deleted or replaced."""
    chars = list(name)
    for _ in range(rng.randint(0, 4)):
        at = rng.randrange(len(chars) + 1)
        edit = rng.choice("idr")
        if edit == "i":
            chars.insert(at, rng.choice(_ALPHABET))
        elif chars and at < len(chars):
            if edit == "d":
                del chars[at]
            else:
                chars[at] = rng.choice(_ALPHABET)
    return "".join(chars) or "x"


def _forms(rng: random.Random, count: int) -> list[tuple[str, str]]:
    names = [_name(rng) for _ in range(count)]
    # near-duplicate names make ties; a name two entities share is no near-miss target
    names += [_near(rng, rng.choice(names)) for _ in range(count // 3)]
    forms = [(name, f"e{i}") for i, name in enumerate(names)]
    forms += [(rng.choice(names), "shared") for _ in range(count // 20)]
    return forms


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000), count=st.sampled_from([5, 60, 400]))
def test_the_index_finds_what_a_full_scan_finds(seed: int, count: int) -> None:
    rng = random.Random(seed)
    forms = _forms(rng, count)
    names = [form for form, _ in forms]
    words = [_near(rng, rng.choice(names)) for _ in range(60)] + [_name(rng) for _ in range(10)]
    indexed, scanned = CodeLikeNames(forms, eager=True), CodeLikeNames(forms)
    hits = 0
    for word in words:
        expected = _full_scan(forms, word)
        assert indexed.closest(word) == expected, word
        assert scanned.closest(word) == expected, word
        hits += expected is not None
    assert hits > 0  # the comparison is not between two Nones
    assert indexed.index_entries > 0  # and the index did answer


def test_words_at_the_cutoff_edge_are_kept_or_dropped_as_the_scan_does() -> None:
    """Pairs right at 90 (indel = 10 % of both lengths) and just under it."""
    names = ["abcde-fghij", "abcde-fghijk", "abcdefghij", "qrstu-vwxyz0", "aaaa-bbbbbbbbb"]
    forms = [(name, f"e{i}") for i, name in enumerate(names)]
    index = CodeLikeNames(forms, eager=True)
    words = [
        "abcde-fghi",  # 10+11 chars, one deletion: 95.2
        "abcde-fghi-",  # one substitution (indel 2) over 22 characters: 90.9
        "abcd-fghijk",  # one deletion from the 12-character name: 95.7
        "qrstu-vwxy",  # 10+12 chars, indel 2: 90.9
        "qrstu-vwx",  # 9+12 chars, indel 3: 85.7, under the cutoff
        "aaaa-bbbbbbb",  # 12+14 chars, indel 2: 92.3
        "aaaa-bbbbb",  # 10+14 chars, indel 4: 83.3
        "abcde-fghijkl",  # 13+12, indel 1
        "zbcde-fghij",  # a substitution at the start: indel 2 over 22
        "abcdx-fghix",  # two substitutions: indel 4 over 22, under the cutoff
    ]
    edge = 0
    for word in words:
        expected = _full_scan(forms, word)
        assert index.closest(word) == expected, word
        edge += expected is not None and expected[2] < 91
    assert edge >= 2  # scores just over the cutoff were found


def test_a_tie_goes_to_the_first_name_in_entity_order() -> None:
    # "abcd-efgh" is one insertion from the 10-character names (94.7), one deletion from the
    # 8-character ones (94.1)
    names = ["abcd-efghx", "xabcd-efgh", "abcd-efg", "abcd-xefgh", "abc-efgh"]
    for order in (names, names[::-1], names[2:] + names[:2]):
        forms = [(name, name) for name in order]
        expected = _full_scan(forms, "abcd-efgh")
        assert expected is not None and expected[0] == next(n for n in order if len(n) == 10)
        assert CodeLikeNames(forms, eager=True).closest("abcd-efgh") == expected


def test_a_long_bucket_is_indexed_once_scans_have_paid_for_it_and_answers_as_a_scan() -> None:
    names = [f"svc-{i:05d}" for i in range(3_000)]
    forms = [(name, name) for name in names]
    lazy = CodeLikeNames(forms)
    words = [
        "svc-0042",
        "svc-000421",
        "svc-00042x",
        "doc-00042",
        *(f"svc-{i:04d}" for i in range(40)),
    ]
    for word in words:
        assert lazy.closest(word) == _full_scan(forms, word), word
    assert lazy.index_entries > 0
    # what the index holds: the names at the depths asked, 12 bytes an entry
    assert lazy.index_entries <= len(names) * (1 + 9)


def test_an_index_past_the_budget_leaves_the_bucket_scanned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(near_names, "_MAX_ENTRIES", 10)
    forms = [(f"abc-{i:03d}", str(i)) for i in range(50)]
    names = CodeLikeNames(forms, eager=True)
    for word in ("abc-0042", "abc-04", "abd-041"):
        assert names.closest(word) == _full_scan(forms, word), word
    assert names.index_entries == 0


def test_the_cutoff_bound_is_exact_on_every_small_pair_of_lengths() -> None:
    """``shared_at_cutoff`` is the least common subsequence with a ratio of 90 or more."""
    rng = random.Random(7)
    for a in range(1, 30):
        for b in near_lengths("x" * a):
            shared = shared_at_cutoff(a, b)
            for lcs in range(min(a, b) + 1):
                reaches = 100 * (1 - (a + b - 2 * lcs) / (a + b)) >= FUZZY_CUTOFF - 1e-9
                assert reaches == (shared is not None and lcs >= shared), (a, b, lcs)
    # and the scorer agrees on real strings of those lengths
    for _ in range(2_000):
        word = _name(rng)
        other = _near(rng, word)
        shared = shared_at_cutoff(len(word), len(other))
        common = (len(word) + len(other) - Indel.distance(word, other)) // 2
        reaches = shared is not None and common >= shared
        assert reaches == (fuzz.ratio(word, other) >= FUZZY_CUTOFF), (word, other)
