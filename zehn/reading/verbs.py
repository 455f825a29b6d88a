"""A verb's written forms, from its lemma: the one place English inflection is known.

The cue lexicon names verbs by lemma ("fetch", "serialize") and the tense forms a cue reads
("fetches", "fetching"; "fetched" after "is" in a passive); the forms come from ``lemminflect``
(a maintained English lemmatizer and inflector, Penn tags VB/VBZ/VBG/VBD/VBN), not from
hand-written alternations such as ``fetch(?:es)?``, which each cue spelled differently and
which missed forms ("submit", "parse", "employ") that nobody wrote down. A lemma the library's
dictionary lacks ("enqueue", "proxy") is inflected by its out-of-vocabulary rules.

``forms`` gives the word forms; ``alternation`` gives them as one regular-expression group
(longest first), for the patterns of ``zehn.reading.relations.cues``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from lemminflect import getAllInflections, getAllInflectionsOOV  # type: ignore[import-untyped]

# the forms a verb takes in an active clause: "X fetch(es) Y", "X is fetching Y"
PRESENT = ("VB", "VBZ", "VBG")
# the simple present alone: "X stores …", "the workers store …"
SIMPLE_PRESENT = ("VB", "VBZ")
# … and in a report of what happened ("X fetched Y"): the past is also a participle
# ("data fetched from Y"), so a cue reads it only where its row says so
PAST = ("VBD",)
PARTICIPLE = ("VBN",)
# Verbs whose bare form ("cache", "watch", "add") is read as a noun or as the imperative that
# opens a change title or a diagram label ("Add attributes to X spans", "Put the commands …")
# far more often than as the verb of a stated relation: only their "-s" and "-ing" forms (and
# their participles) are cues. English rows; a word here is about the word, never a sentence.
BARE_NOT_A_VERB = frozenset(
    """add assign cache employ enqueue extract insert monitor observe parse place proxy put
    serialise serialize stream submit watch""".split()
)


@cache
def _inflections(lemma: str) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = getAllInflections(lemma, upos="VERB")
    if not found:
        found = getAllInflectionsOOV(lemma, upos="VERB")
    if "VBN" not in found and "VBD" in found:  # the dictionary gives some verbs one past form
        found = {**found, "VBN": found["VBD"]}
    return found


def forms(lemmas: Iterable[str], tags: Iterable[str] = PRESENT) -> tuple[str, ...]:
    """Every written form of the verbs (a lemma may be several words: "back up", "make use
    of"; the first word is inflected) under the Penn tags, sorted, each once. The bare form
    (VB) of a verb of :data:`BARE_NOT_A_VERB` is left out."""
    wanted = tuple(tags)
    found: set[str] = set()
    for lemma in lemmas:
        head, _, rest = lemma.partition(" ")
        for tag in wanted:
            if tag == "VB" and head in BARE_NOT_A_VERB:
                continue
            for form in _inflections(head).get(tag, ()):
                found.add(f"{form} {rest}".strip())
    return tuple(sorted(found))


def alternation(lemmas: Iterable[str], tags: Iterable[str] = PRESENT) -> str:
    """The forms as one regular-expression group of alternatives, longest first (so
    "fetches" is tried before "fetch"); spaces inside a form match any run of white space."""
    written = sorted(forms(lemmas, tags), key=lambda form: (-len(form), form))
    return "(?:" + "|".join(r"\s+".join(map(re.escape, form.split())) for form in written) + ")"
