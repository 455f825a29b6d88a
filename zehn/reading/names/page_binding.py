"""Binding a page: a name the page marks as a component binds in its other sentences too.

An ordinary-word name ("sidecar", "store") binds only where a sentence marks it as the
component (``binding``). Within one page a word keeps one sense (Gale, Church and Yarowsky,
"One sense per discourse", 1992): a page that writes "the Sidecar" mid-sentence, or
`` `sidecar` `` in code, means the component by "the sidecar" in its other sentences too. So
a page is bound twice: once with its subject, then again, in the sentences that hold such a
name, with every name the page marked. The second binding takes the same places as the
page subject does (after a definite word or a preposition: "the sidecar", "to sidecar", not
"a sidecar" or "motorcycle sidecar"), and each mention it adds says why (``PAGE_MARKED``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from zehn.corpus.model import Sentence
from zehn.reading.model import Mention
from zehn.reading.names.binding import Binder, sentence_marked
from zehn.reading.names.marks import PAGE_MARKED, PAGE_SUBJECT

MIN_MARKED_USES = 1  # sentence-marked uses on a page before its plain uses bind


def bind_page(
    binder: Binder, sentences: Sequence[Sentence], subject: str | None = None
) -> dict[str, list[Mention]]:
    """Each sentence's mentions (by sentence id), the page's marked names bound throughout."""
    subjects: dict[str, str] = {subject: PAGE_SUBJECT} if subject else {}
    bound = {s.id: binder.bind(s, subjects=subjects) for s in sentences}
    marked = _marked_names(bound, binder, exclude=subjects)
    if not marked:
        return bound
    subjects = {**dict.fromkeys(marked, PAGE_MARKED), **subjects}
    for sentence in sentences:
        lowered = sentence.text.lower()
        if any(form in lowered for forms in marked.values() for form in forms):
            bound[sentence.id] = binder.bind(sentence, subjects=subjects)
    return bound


def _marked_names(
    bound: Mapping[str, list[Mention]], binder: Binder, exclude: Mapping[str, str]
) -> dict[str, tuple[str, ...]]:
    """The entities the page marks at least ``MIN_MARKED_USES`` times, with their lower-case
    names and aliases (a sentence without one of them is not bound again)."""
    uses = Counter(
        m.entity_id
        for mentions in bound.values()
        for m in mentions
        if m.entity_id and sentence_marked(m) and m.entity_id not in exclude
    )
    found = {}
    for entity_id, count in uses.items():
        if count >= MIN_MARKED_USES and (entity := binder.entities.get(entity_id)):
            found[entity_id] = tuple(f.lower() for f in (entity.name, *entity.aliases))
    return found
