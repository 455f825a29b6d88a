"""Termhood: whether a word is a term of this corpus or a word of general language.

A component's name is a word the documentation uses and everyday language rarely does
("ledger", "risk-model", "TiKV", 风控); the words around it ("new", "main", "same") are
frequent everywhere. General-language frequency comes from ``wordfreq`` (English and
Chinese data shipped in the package), as a Zipf value: log10 of uses per billion words,
about 7 for "the", 5 for "model", 3.5 for "ledger", 0 for a word it never saw. The
thresholds are data rows per language beside one mechanism.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from wordfreq import zipf_frequency


@dataclass(frozen=True)
class TermRows:
    """One language's thresholds: ``common`` is the Zipf value from which a word is general
    language whatever the corpus does; ``lift`` how many Zipf points more a corpus must use a
    word than general language for the word to be a term of the corpus."""

    common: float
    lift: float


ROWS: dict[str, TermRows] = {
    "en": TermRows(common=5.0, lift=2.0),
    "zh": TermRows(common=5.0, lift=2.0),
}


@lru_cache(maxsize=65536)
def general_zipf(term: str, lang: str = "en") -> float:
    """How often general ``lang`` uses ``term`` (Zipf scale; 0 when never)."""
    return float(zipf_frequency(term, lang))


def is_general(term: str, lang: str = "en") -> bool:
    """A word everyday language uses so often that naming a component with it says nothing
    ("new", "main", "data"; 服务, 资源)."""
    return general_zipf(term, lang) >= ROWS[lang].common


def corpus_zipf(count: int, total: int) -> float:
    """A corpus frequency on the Zipf scale: ``count`` uses in ``total`` words."""
    if count <= 0 or total <= 0:
        return 0.0
    return math.log10(count * 1e9 / total)


def termhood(term: str, count: int, total: int, lang: str = "en") -> float:
    """How many Zipf points more this corpus uses ``term`` than general language does."""
    return corpus_zipf(count, total) - general_zipf(term, lang)


def is_term(term: str, count: int, total: int, lang: str = "en") -> bool:
    """A term of the corpus: not general language, and used clearly more than it would be."""
    return not is_general(term, lang) and termhood(term, count, total, lang) >= ROWS[lang].lift
