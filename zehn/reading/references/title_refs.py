"""What a page's title makes its plain words mean.

A page titled "Redis 注册中心" is about one registry, and on it a bare 注册中心 ("the
registry") is that registry, not the generic role the rest of the corpus calls 注册中心:
the title's entity is the more specific one of the same head noun. And when the title's
qualifier names a datastore ("Redis"), the storage addresses the page writes in code
(`` `Key:/app/orders` ``, `` `/app/*` ``) are places inside that datastore, so they stand
for it. Both readings are recorded as reference mentions with their reason, like the
references of ``zehn.reading.references.reader``; a word qualified by another name ("Zookeeper
注册中心") is never re-read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder, entities_by_id
from zehn.reading.scripts import HAN, HAN_SPAN_COMPAT
from zehn.reading.vocabulary import EntityKind

# a storage address in code: an optional "Key:" / "Channel:" prefix, then an absolute path
_ADDRESS = re.compile(r"`(?P<address>(?:[A-Za-z][\w-]*:)?/(?!/)[^`\s]*)`")
MIN_HEAD = 2
_CJK_START = re.compile(f"[{HAN_SPAN_COMPAT}]")
_QUALIFIED = re.compile(r"[A-Za-z0-9_\-.]\s?$")
# a paragraph that opens with the verb of its unnamed subject: "使用 Redis 的 Map 结构存储 …"
_AGENT_VERB = re.compile(rf"\s*(?:使用|采用|依赖于?|借助|利用)(?=\s*[`A-Za-z{HAN}])")


def _norm(text: str) -> str:
    return "".join(text.lower().split())


@dataclasses.dataclass(frozen=True)
class _Title:
    """The page's entity, the head words it owns, and the datastore its qualifier names."""

    entity: Entity
    title: str
    heads: frozenset[str]
    store: Entity | None


def _title(document: SourceText, entities: Sequence[Entity], binder: Binder) -> _Title | None:
    title = " ".join(document.title.split())
    if not title:
        return None
    probe = Sentence(doc_id=document.doc_id, text=title, start=0, end=len(title))
    covering = [
        m for m in binder.bind(probe) if m.entity_id and (m.end - m.start) * 2 >= len(title)
    ]
    by_id = entities_by_id(entities)
    entity = by_id.get(covering[0].entity_id or "") if len(covering) == 1 else None
    if entity is None:
        return None
    heads: set[str] = set()
    store: Entity | None = None
    for form in (entity.name, *entity.aliases):
        for other in entities:
            if other.id == entity.id:
                continue
            for head in (other.name, *other.aliases):
                if _headed_by(form, head):
                    heads.add(_norm(head))
                    store = store or _qualifier_store(form[: -len(head)], entities)
    return _Title(entity, title, frozenset(heads), store)


def _headed_by(form: str, head: str) -> bool:
    """ "Redis 注册中心" is headed by 注册中心, "Redis Registry" by "Registry"; "checkout" is not
    headed by "out": the qualifier ends at a word boundary (or the head is Chinese)."""
    if len(head) < MIN_HEAD or len(form) <= len(head) or form.lower()[-len(head) :] != head.lower():
        return False
    qualifier = form[: -len(head)]
    return qualifier.endswith((" ", "-", "_")) or bool(_CJK_START.match(head))


def _qualifier_store(qualifier: str, entities: Sequence[Entity]) -> Entity | None:
    """The datastore a title's qualifier names exactly ("Redis" in "Redis 注册中心")."""
    key = _norm(qualifier)
    found = [
        e for e in entities if key and any(_norm(form) == key for form in (e.name, *e.aliases))
    ]
    return found[0] if len(found) == 1 and found[0].kind == EntityKind.DATASTORE else None


def title_references(
    document: SourceText,
    bound: dict[str, list[Mention]],
    entities: Sequence[Entity],
    binder: Binder,
) -> dict[str, list[Mention]]:
    """``bound`` with the page title's references: its bare head noun re-read as the title's
    entity, and storage addresses as the datastore the title's qualifier names."""
    page = _title(document, entities, binder)
    if page is None:
        return bound
    out: dict[str, list[Mention]] = {}
    for sentence in document.sentences:
        mentions = bound.get(sentence.id, [])
        mentions = [_reread(sentence, m, page) for m in mentions]
        if page.store is not None:
            mentions = _addresses(sentence, mentions, page, page.store)
        if _opens_with_verb(document.text, sentence, mentions):
            mentions = [_implicit(sentence, page), *mentions]
        out[sentence.id] = mentions
    return out


def _reread(sentence: Sentence, mention: Mention, page: _Title) -> Mention:
    if (
        mention.reference
        or mention.entity_id in (None, page.entity.id)
        or _norm(mention.surface) not in page.heads
        or _QUALIFIED.search(sentence.text[: mention.start - sentence.start])
    ):
        return mention
    why = (
        f"{mention.surface!r} = {page.entity.name}, the head noun of the page title {page.title!r}"
    )
    return dataclasses.replace(mention, candidates=(page.entity.id,), reason=why, reference=True)


def _addresses(
    sentence: Sentence, mentions: list[Mention], page: _Title, store: Entity
) -> list[Mention]:
    found: list[Mention] = []
    for match in _ADDRESS.finditer(sentence.text):
        start, end = (sentence.start + i for i in match.span("address"))
        why = (
            f"{match['address']!r} = {store.name}, an address in the datastore the page title "
            f"{page.title!r} names"
        )
        found.append(
            Mention(sentence.id, start, end, match["address"], (store.id,), why, reference=True)
        )
    if not found:
        return mentions
    kept = [m for m in mentions if not any(f.start <= m.start < f.end for f in found)]
    return sorted(kept + found, key=lambda m: m.start)


def _opens_with_verb(document_text: str, sentence: Sentence, mentions: list[Mention]) -> bool:
    """A paragraph (not a list item, a heading or a table row) that opens with a verb whose
    subject it leaves unnamed: on a page about one component, that component."""
    line_start = document_text.rfind("\n", 0, sentence.start) + 1
    if document_text[line_start : sentence.start].strip():
        return False  # a list item, a quote, a table cell or a later sentence of a paragraph
    return bool(_AGENT_VERB.match(sentence.text)) and not any(
        m.start == sentence.start for m in mentions
    )


def _implicit(sentence: Sentence, page: _Title) -> Mention:
    why = f"implicit subject = {page.entity.name}, from the page title {page.title!r}"
    at = sentence.start + len(sentence.text) - len(sentence.text.lstrip())
    return Mention(sentence.id, at, at, "", (page.entity.id,), why, reference=True)
