"""What a document is about, and a corpus bound with its discovered names.

A page's title or file path names its subject ("Cart Service", ``services/cart.md``); a
heading that names one entity scopes what follows it. Without a catalog, a document's
subject binds by its plain name too ("cart" on the cart service's page).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from zehn.corpus.model import Progress, Sentence, SourceText
from zehn.reading.lexicon import CJK_HEADS, head_of
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.names.clues import name_key
from zehn.reading.names.curated import corpus_entities
from zehn.reading.names.page_binding import bind_page
from zehn.reading.outline import headings, path_subject

_PAREN = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")
_MARKUP = re.compile(r"^[\s`*_\[\"“]+|[\s`*_\]\"”:]+$")

# --- what a document is about ----------------------------------------------------------------


# the last tuple of entities indexed and its index: a corpus asks once per document with the
# same tuple, and indexing 10k entities per document was most of a synthetic build's time
_LAST_INDEX: list[tuple[tuple[Entity, ...], dict[str, list[Entity]]]] = []


def _by_key(entities: Iterable[Entity]) -> dict[str, list[Entity]]:
    if isinstance(entities, tuple):
        if _LAST_INDEX and _LAST_INDEX[0][0] is entities:
            return _LAST_INDEX[0][1]
        index = _index_by_key(entities)
        _LAST_INDEX[:] = [(entities, index)]
        return index
    return _index_by_key(entities)


def _index_by_key(entities: Iterable[Entity]) -> dict[str, list[Entity]]:
    index: dict[str, list[Entity]] = defaultdict(list)
    for entity in entities:
        for form in {entity.name, *entity.aliases}:
            key = name_key(form)
            if key and entity not in index[key]:
                index[key].append(entity)
    return dict(index)  # read only: a missing key must not grow it


def _named(text: str, index: dict[str, list[Entity]]) -> Entity | None:
    """The one entity ``text`` (a title or heading, maybe with a kind head) names, or None."""
    text = _MARKUP.sub("", _PAREN.sub("", " ".join(text.split())))
    candidates = index.get(name_key(text), [])
    kind = None
    if not candidates:
        words = text.split()
        head = head_of(words[-1]) if len(words) > 1 else None
        cjk = next((h for noun, h in CJK_HEADS.items() if text.endswith(noun)), None)
        head = head or cjk
        if head is not None:
            bare = " ".join(words[:-1]) if head is not cjk else text[: -len(cjk.noun)]
            candidates, kind = index.get(name_key(bare), []), head.kind
    if kind is not None:
        candidates = [e for e in candidates if e.kind == kind] or candidates
    return candidates[0] if len(candidates) == 1 else None


def document_subject(document: SourceText, entities: Sequence[Entity]) -> tuple[Entity, str] | None:
    """The entity ``document`` is about and why: its page title names it ("page title 'Cart
    Service'"), else its file path does ("file path services/cart")."""
    index = _by_key(entities)
    title = " ".join(document.title.split())
    entity = _named(title, index) if title else None
    subject = path_subject(document.doc_id)
    if entity is not None and not (subject and name_key(title) == name_key(subject[0])):
        return entity, f"page title {title!r}"
    if subject is not None:
        stem, folders = subject
        found = _named(stem.replace("-", " "), index) or index_one(index, stem)
        if found is not None:
            return found, "file path " + "/".join((*folders[-1:], stem))
    return (entity, f"page title {title!r}") if entity is not None else None


def index_one(index: dict[str, list[Entity]], name: str) -> Entity | None:
    found = index.get(name_key(name), [])
    return found[0] if len(found) == 1 else None


def heading_entities(
    document: SourceText, entities: Sequence[Entity]
) -> list[tuple[int, int, Entity, str]]:
    """Each heading that names one entity (alone, or with its kind: "Cart", "Cart Service"):
    its span (document offsets), the entity, and the reason ("heading 'Cart Service'")."""
    index = _by_key(entities)
    found: list[tuple[int, int, Entity, str]] = []
    for heading in headings(document):
        entity = _named(heading.text, index)
        if entity is not None:
            found.append((heading.start, heading.end, entity, f"heading {heading.text!r}"))
    return found


# --- binding a corpus ------------------------------------------------------------------------


def bind_corpus(
    documents: Sequence[SourceText], catalog: Catalog | None, progress: Progress | None = None
) -> tuple[tuple[Entity, ...], list[tuple[Sentence, list[Mention]]]]:
    """The entities (catalog, else discovered) and every sentence with its bound mentions.

    Without a catalog, a document's subject binds in it by its plain name too ("cart" on the
    cart service's page).
    """
    entities = corpus_entities(documents, catalog)
    binder = Binder(entities)
    bound: list[tuple[Sentence, list[Mention]]] = []
    for document in documents:
        subject = None if catalog else document_subject(document, entities)
        page = bind_page(binder, document.sentences, subject[0].id if subject else None)
        bound.extend((s, page[s.id]) for s in document.sentences)
        if progress:
            progress(1)
    return tuple(entities), bound
