"""Reference mentions: where a sentence names an entity without its name.

Real documentation names its subject once (the title, the file path, a heading) and then says
"This service …", "It …", "该服务 …"; a table row's later cells, a list item under a heading
and a changelog line ("[cart] Use …") leave their subject implicit. This module reads each
document in order and adds a :class:`Mention` for every such reference, marked
``reference=True`` with a reason a person can check ("'This service' = Checkout Service,
from the page title"). Implicit subjects are zero-width mentions at the start of the clause.

An edge resting on a reference keeps its reason (``Edge.subject_reference``); the grader
re-accepts the mention only with that recorded reason. Precision before recall: a reference is
made only at the start of a sentence (or list item / cell), only to one entity, and only when
the referring noun fits the entity's kind.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from itertools import pairwise
from operator import attrgetter
from typing import NamedTuple

from zehn.corpus.model import Progress, Sentence, SourceText
from zehn.reading.diagrams.context import document_flows
from zehn.reading.diagrams.reader import diagram_mentions
from zehn.reading.model import Edge, Entity, Mention
from zehn.reading.names.binding import Binder, entities_by_id
from zehn.reading.names.catalog import Catalog
from zehn.reading.names.curated import corpus_entities
from zehn.reading.names.page_binding import bind_page
from zehn.reading.names.subjects import document_subject as discovered_subject
from zehn.reading.references.agents_zh import agent_references
from zehn.reading.references.forms import (
    clause_it,
    definite_heads,
    opening_this,
    paragraph_terms,
    read_back_objects,
    requirement_this,
    shared_kind_names,
)
from zehn.reading.references.parts import PartLists
from zehn.reading.references.product import Product, corpus_product, we_reference
from zehn.reading.references.title_refs import title_references
from zehn.reading.scripts import HAN
from zehn.reading.vocabulary import EntityKind

_SERVICE_LIKE = frozenset({EntityKind.SERVICE, EntityKind.COMPONENT, EntityKind.PIPELINE})
# the referring noun → the kinds it may refer to
NOUN_KINDS: dict[str, frozenset[str]] = {
    **dict.fromkeys(
        "service server application app system module api gateway daemon backend frontend "
        "服务 系统 模块 应用 网关 服务端 服务器 客户端 中心 平台 引擎 框架 进程".split(),
        _SERVICE_LIKE,
    ),
    **dict.fromkeys(
        "component tool library package plugin proxy collector executor scheduler worker "
        "broker agent exporter sdk 组件 工具 插件 代理 注册中心 监控中心 容器".split(),
        _SERVICE_LIKE,
    ),
    **dict.fromkeys(
        "database db cache store datastore 数据库 缓存 存储 数据源".split(),
        frozenset({EntityKind.DATASTORE}),
    ),
    **dict.fromkeys(
        "queue topic stream 队列 主题 消息队列 事件流 总线".split(),
        frozenset({EntityKind.TOPIC, EntityKind.COMPONENT}),
    ),
}
_NOUNS = "|".join(sorted((n for n in NOUN_KINDS if n.isascii()), key=len, reverse=True))
_NOUNS_ZH = "|".join(sorted((n for n in NOUN_KINDS if not n.isascii()), key=len, reverse=True))
_LIST_MARKER = r"(?:[-*+•]\s+|\d{1,3}[.)]\s+|\[\d{1,3}\]\s*|[（(]?\d{1,3}[）)]\s*)"
# Chinese lists also number "1、" and "一、"; "它们" and "这些服务" are plural: never one entity
_ZH_ITS = r"其(?!中|他|它|余|实|次|间|后)"  # 其中, 其他 … are not "its"
_ZH_MARKER = rf"(?:{_LIST_MARKER}|(?:\d{{1,3}}|[一二三四五六七八九十]{{1,2}})、\s*)"
COREF = re.compile(
    rf"^\s*{_LIST_MARKER}?(?:(?P<noun_phrase>(?:this|that|the|said)\s+(?P<noun>{_NOUNS}))"
    rf"|(?P<pronoun>it|the\s+latter|the\s+former))\b"
    rf"|^\s*{_ZH_MARKER}?(?:(?P<zh_phrase>(?:该|这个|此|本|这一)\s*(?P<zh_noun>{_NOUNS_ZH}))"
    rf"|(?P<zh_pronoun>它(?!们)|{_ZH_ITS}))",
    re.IGNORECASE,
)
# "It is recommended …", "It's possible …": a dummy subject, not a reference
_DUMMY_IT = re.compile(
    r"^\s*it(?:'s|\s+is|\s+was)\s+(?:also\s+)?(?:recommended|possible|important|necessary|"
    r"advised|best|useful|common|likely|worth|easy|hard|not)\b",
    re.IGNORECASE,
)
LIST_ITEM = re.compile(rf"^\s*{_LIST_MARKER}")
CHANGELOG_PREFIX = re.compile(r"^\s*(?:[-*+•]\s+)?\[(?P<name>[^\]\n]{1,60})\]\s*:?\s*")
_END_PUNCTUATION = tuple(".!?。！？;；:：,，")
MAX_HEADING_WORDS = 10
_OPENING = re.compile(r"[\W_]*(?:(?:the|a|an|our|their|its|both)\s+[\W_]*)?", re.IGNORECASE)


class _Focus(NamedTuple):
    """What "it" and "this service" refer to next, and why (a tuple: one is made per
    sentence that names its subject)."""

    entity: Entity
    why: str


def page_focus(document: SourceText, entities: Sequence[Entity], binder: Binder) -> _Focus | None:
    """What the document is about: the entity its title or file path names, as discovery
    reads them (``zehn.reading.names.subjects.document_subject``), else the one entity the binder
    finds covering most of the title ("Cart Service docs")."""
    found = discovered_subject(document, entities)
    if found is not None:
        return _Focus(found[0], f"from the {found[1]}")
    title = document.title.strip()
    if title:
        probe = Sentence(doc_id=document.doc_id, text=title, start=0, end=len(title))
        mentions = [m for m in binder.bind(probe) if m.entity_id]
        covering = [m for m in mentions if (m.end - m.start) * 2 >= len(title)]
        if len(covering) == 1:
            entity = _by_id(entities, covering[0].entity_id)
            if entity is not None:
                return _Focus(entity, f"from the page title {title!r}")
    return None


def document_references(
    document: SourceText,
    bound: dict[str, list[Mention]],
    entities: Sequence[Entity],
    binder: Binder,
    product: Product | None = None,
) -> dict[str, list[Mention]]:
    """Reference mentions per sentence id of ``document`` (only sentences that get one);
    ``product``: what the corpus documents, the referent of a sentence-opening "we"."""
    by_id = entities_by_id(entities)
    subject = page_focus(document, entities, binder)
    section: _Focus | None = None
    focus = subject
    previous: list[Mention] = []
    found: dict[str, list[Mention]] = {}
    row: tuple[int, Mention] | None = None  # a table row's line start and its implicit subject
    item: tuple[int, _Focus] | None = None  # a list item's line start and the name it opens with
    opening = True  # the first sentence of the page or of a section
    earlier: list[Mention] = []  # names the document gave so far
    parts = PartLists(document.text)
    for sentence in document.sentences:
        sid = sentence.id
        mentions = [m for m in bound.get(sid, ()) if len(m.candidates) <= 1]  # not ambiguous
        text = sentence.text
        line_start = document.text.rfind("\n", 0, sentence.start) + 1
        line = _Line.of(document.text, sentence.start, text, line_start)
        refs: list[Mention] = []
        we: Mention | None = None  # "we" names the product, never what the page goes on about
        if _is_heading(document.text, sentence.start, sentence.end):
            parts.opening(sentence, mentions, focus.entity if focus else None, by_id)
            named = [m for m in mentions if (m.end - m.start) * 2 >= len(text.strip())]
            entity = by_id.get(named[0].entity_id or "") if len(named) == 1 else None
            section = _Focus(entity, f"from the heading {text.strip()!r}") if entity else None
            focus = section or subject
            previous = mentions
            opening = True
            earlier.extend([m for m in mentions if not m.reference])
            continue
        first = min(mentions, key=_START, default=None)
        starts_with_name = first is not None and _opens_with_name(
            text, first.start - sentence.start
        )
        if (
            line.item is None
            and item is not None
            and not _same_item(document.text, *item, sentence)
        ):
            item = None
        if not starts_with_name:
            near = item[1] if item is not None and line.item is None else focus
            ref = _coreference(sid, sentence.start, text, near, previous, by_id)
            if ref is None and focus is not None:
                ref = requirement_this(sid, sentence.start, text, focus.entity, focus.why)
            if ref is None and opening and (about := section or subject) is not None:
                ref = opening_this(sid, sentence.start, text, about.entity, about.why)
            if ref is None and product is not None:
                we = ref = we_reference(sid, sentence.start, text, product, mentions)
            if ref is not None:
                refs.append(ref)
            elif implicit := _implicit_subjects(
                sid, sentence.start, text, line, mentions, section, by_id
            ):
                refs.extend(implicit)
            elif row is not None and row[0] == line_start and line.table:
                refs.append(_row_goes_on(sentence, row[1]))
        else:
            refs.extend(_implicit_subjects(sid, sentence.start, text, line, mentions, None, by_id))
            refs.extend(clause_it(sid, sentence.start, text, first))
        if "其" in text:  # what _ZH_CLAUSE_ITS looks for
            refs.extend(_zh_clause_its(sid, sentence.start, text, mentions + refs, focus, by_id))
        if (part := parts.part(sentence, mentions)) is not None:
            refs.append(part)
        elif line.item is None and text.rstrip().endswith((":", "：")):
            parts.opening(sentence, mentions, focus.entity if focus else None, by_id)
        refs.extend(read_back_objects(sid, sentence.start, text, mentions))
        refs.extend(shared_kind_names(sid, sentence.start, text, mentions, binder))
        refs.extend(definite_heads(sid, sentence.start, text, mentions + refs, earlier))
        refs.extend(
            paragraph_terms(sid, sentence.start, text, mentions + refs, earlier, document.text)
        )
        earlier.extend([m for m in mentions if not m.reference])
        opening = False
        if refs:
            found[sid] = refs
            if line.table and _ROW_SUBJECT in refs[-1].reason:
                row = (line_start, refs[-1])
        lead = refs[0] if refs and refs[0].entity_id and refs[0] is not we else None
        lead = lead or (first if starts_with_name else None)
        if lead is not None and lead.entity_id in by_id and line.item is None:
            entity = by_id[lead.entity_id]
            focus = _Focus(entity, _why(lead, entity, focus))
        elif line.item is not None:
            item = None
            if (
                first is not None
                and first.entity_id in by_id
                and _leads_item(text, first, sentence)
            ):
                entity = by_id[first.entity_id]
                item = (line_start, _Focus(entity, f"the list item's subject ({first.surface!r})"))
        previous = mentions + refs
    return found


_ROW_SUBJECT = "from the table row's first cell"
_START = attrgetter("start")


def _same_item(document_text: str, item_start: int, _focus: _Focus, sentence: Sentence) -> bool:
    """Whether ``sentence`` still belongs to the list item starting at ``item_start``: no blank
    line and no new list marker or unindented line in between ("- X - does A. It does B.")."""
    between = document_text[item_start : sentence.start]
    lines = between.split("\n")[1:]
    return all(ln.strip() and ln[:1].isspace() and not LIST_ITEM.match(ln) for ln in lines)


def _row_goes_on(sentence: Sentence, subject: Mention) -> Mention:
    """A later sentence of the same table cell ("Converts amounts. Uses rates from X."): the
    row's implicit subject again, at the sentence's first word."""
    at = sentence.start + len(sentence.text) - len(sentence.text.lstrip())
    why = (
        subject.reason
        if subject.reason.endswith("goes on")
        else f"{subject.reason}; the cell goes on"
    )
    return dataclasses.replace(subject, sentence_id=sentence.id, start=at, end=at, reason=why)


def _why(mention: Mention, entity: Entity, focus: _Focus | None) -> str:
    """Why the next "It" means ``entity``: what its reference said ("'This service' = X,
    from the page title" → "from the page title"), else its name in this sentence."""
    said = f" = {entity.name}, "
    if mention.reference and said in mention.reason:
        return mention.reason.split(said, 1)[1]
    if mention.reference and focus is not None:
        return focus.why
    return f"named in the previous sentence ({mention.surface!r})"


def _coreference(
    sentence_id: str,
    offset: int,
    text: str,
    focus: _Focus | None,
    previous: Sequence[Mention],
    by_id: dict[str, Entity],
) -> Mention | None:
    match = COREF.match(text)
    if match is None or _DUMMY_IT.match(text):
        return None
    group = next(g for g in ("noun_phrase", "pronoun", "zh_phrase", "zh_pronoun") if match[g])
    surface = match[group]
    start, end = match.span(group)
    target: _Focus | None = focus
    word = surface.lower().split()[-1]
    if word in ("latter", "former"):
        named = sorted((m for m in previous if m.entity_id in by_id), key=lambda m: m.start)
        if not named:
            return None
        pick = named[-1] if word == "latter" else named[0]
        target = _Focus(by_id[pick.entity_id or ""], f"the {word} of the previous sentence")
    if target is None:
        return None
    noun = (match["noun"] or match["zh_noun"] or "").lower()
    if noun and target.entity.kind not in NOUN_KINDS.get(noun, frozenset()):
        return None
    return Mention(
        sentence_id,
        offset + start,
        offset + end,
        surface,
        (target.entity.id,),
        f"{surface!r} = {target.entity.name}, {target.why}",
        reference=True,
    )


_ZH_CLAUSE_ITS = re.compile(rf"[，；,;]\s*(?P<its>{_ZH_ITS})(?=[{HAN}])")
_ZH_DEMONSTRATIVE = re.compile(r"\s*(?:该|这个|此|本|这一)")


def _zh_clause_its(
    sentence_id: str,
    offset: int,
    text: str,
    mentions: Sequence[Mention],
    focus: _Focus | None,
    by_id: dict[str, Entity],
) -> list[Mention]:
    """其 opening a later clause ("A 只供内部使用，其可用性依赖于 B"): the subject of the clause
    before it, when that clause opens with a name; when it opens with a demonstrative
    ("此 … 实现只为开源版本提供，其 …"), what the document or section is about."""
    found = []
    for match in _ZH_CLAUSE_ITS.finditer(text):
        start = max(text.rfind(c, 0, match.start()) for c in "，；,;：:") + 1
        clause = text[start : match.start()]
        inside = sorted(
            (m for m in mentions if offset + start <= m.start < offset + match.start()),
            key=lambda m: m.start,
        )
        first = inside[0] if inside else None
        if (
            first is not None
            and first.entity_id in by_id
            and _opens_with_name(clause, first.start - offset - start)
        ):
            entity = by_id[first.entity_id or ""]
            why = f"the subject of the clause before it ({first.surface or entity.name!r})"
        elif _ZH_DEMONSTRATIVE.match(clause) and focus is not None:
            entity, why = focus.entity, focus.why
        else:
            continue
        at = offset + match.start("its")
        reason = f"'其' = {entity.name}, {why}"
        found.append(Mention(sentence_id, at, at + 1, "其", (entity.id,), reason, reference=True))
    return found


def _implicit_subjects(
    sentence_id: str,
    offset: int,
    text: str,
    line: _Line,
    mentions: Sequence[Mention],
    section: _Focus | None,
    by_id: dict[str, Entity],
) -> list[Mention]:
    """Zero-width subjects: a table row's later cells, a changelog line, a list item."""
    cells = _cells(text) if line.table else []
    if cells:
        head = _cell_names(text, offset, cells[0], mentions)
        if len({m.entity_id for m in head}) != 1 or head[0].entity_id not in by_id:
            return []
        entity = by_id[head[0].entity_id or ""]
        why = f"{_ROW_SUBJECT} {head[0].surface!r}"
        return [
            _zero_width(sentence_id, offset + start, entity, why)
            for start, _end in cells[1:]
            if not any(m.start - offset == start for m in mentions)
        ]
    prefix = CHANGELOG_PREFIX.match(text) if "[" in text else None
    if prefix:
        name = (prefix.start("name"), prefix.end("name"))
        named = [m for m in mentions if name[0] <= m.start - offset < name[1]]
        if len(named) == 1 and named[0].entity_id in by_id:
            entity = by_id[named[0].entity_id or ""]
            why = f"from the line's prefix {prefix.group().strip()!r}"
            return [_zero_width(sentence_id, offset + prefix.end(), entity, why)]
        return []
    if line.item is not None and section is not None:
        if any(m.start - offset == line.item for m in mentions):
            return []
        return [_zero_width(sentence_id, offset + line.item, section.entity, section.why)]
    return []


_LINK_TARGET = re.compile(r"\]\((?P<target>[^)\s]*)\)|<(?P<url>[a-z][\w+.-]*://[^>\s]*)>")


def _cell_names(
    text: str, offset: int, cell: tuple[int, int], mentions: Sequence[Mention]
) -> list[Mention]:
    """The mentions a cell names, not those inside a link target: "[cart](cart/)" names cart
    once, by its link text; the target is an address."""
    targets = [
        m.span("target" if m["target"] is not None else "url")
        for m in _LINK_TARGET.finditer(text, *cell)
    ]
    return [
        m
        for m in mentions
        if cell[0] <= m.start - offset < cell[1]
        and not any(a <= m.start - offset < b for a, b in targets)
    ]


_MARKER_ONLY = re.compile(rf"\s*{_LIST_MARKER}")


class _Line(NamedTuple):
    """Where a sentence sits on its line: a list item (where its text starts) or a table row
    (a tuple: one is made per sentence)."""

    item: int | None
    table: bool

    @classmethod
    def of(cls, document_text: str, start: int, text: str, line_start: int) -> _Line:
        """``line_start``: where the line of ``start`` begins in ``document_text``."""
        before = document_text[line_start:start]
        blank = not before.strip()
        if blank or _MARKER_ONLY.fullmatch(before):
            marker = LIST_ITEM.match(text)
            item = marker.end() if marker else (None if blank else 0)
        else:
            item = None
        table = (not blank and before.lstrip().startswith("|")) or text.count("|") >= 2
        return cls(item, table)


def _zero_width(sentence_id: str, at: int, entity: Entity, why: str) -> Mention:
    return Mention(
        sentence_id,
        at,
        at,
        "",
        (entity.id,),
        f"implicit subject = {entity.name}, {why}",
        reference=True,
    )


_RULE_ROW = re.compile(r"[\s|:\-+=]+")


def _cells(text: str) -> list[tuple[int, int]]:
    """Content spans of a table row's cells (``a | b | c``), else none."""
    if "|" not in text or "\n" in text.strip() or _RULE_ROW.fullmatch(text):
        return []
    bounds = [-1, *(i for i, c in enumerate(text) if c == "|"), len(text)]
    spans = []
    for a, b in pairwise(bounds):
        cell = text[a + 1 : b]
        if cell.strip():
            left = len(cell) - len(cell.lstrip())
            spans.append((a + 1 + left, a + 1 + len(cell.rstrip())))
    return spans if len(spans) >= 2 else []


_HASHES = re.compile(r"[ \t]*#{1,6}[ \t]*")
_UNDERLINE = re.compile(r"\n[=\-~^*#+]{3,}[ \t]*(?:\n|$)")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _is_heading(text: str, start: int, end: int) -> bool:
    """A short line standing alone, without closing punctuation (loaders strip '#')."""
    line = text[start:end].strip()
    if not line or "\n" in line or line.endswith(_END_PUNCTUATION) or "|" in line:
        return False
    if (
        len(line.split()) > MAX_HEADING_WORDS
        or LIST_ITEM.match(line)
        or line.startswith(("`", "[", "<"))
    ):
        return False
    line_start = text.rfind("\n", 0, start) + 1
    prefix = text[line_start:start]
    if _HASHES.fullmatch(prefix):  # a Markdown heading kept by the loader
        return not text[end : end + 1].strip()
    if prefix.strip():
        return False
    # What comes before the line is not tested: ``text[:line_start]`` is empty or ends with a
    # line break, which the test that stood here (a blank line or an underline before,
    # ``\n[ \t]*\n$`` on that text plus "\n") always accepted, while copying the whole text
    # before every short line.
    tail = text[end : end + 200]
    after = tail.lstrip(" \t")
    return not after.strip() or bool(_BLANK_LINE.match(after)) or bool(_UNDERLINE.match(tail))


_ONE_WORD_BEFORE = re.compile(r"[\W_]*(?:(?:an?|the)\s+)?[A-Za-z]+\s+[\W_]*", re.IGNORECASE)


def _leads_item(text: str, first: Mention, sentence: Sentence) -> bool:
    """Whether a list item is about its first name: the item opens with it, or with one word
    before it ("Optional *worker*, which …", "A dedicated Vaultstore")."""
    position = first.start - sentence.start
    head = LIST_ITEM.sub("", text[:position], count=1)
    return _opens_with_name(text, position) or bool(_ONE_WORD_BEFORE.fullmatch(head))


def _opens_with_name(text: str, position: int) -> bool:
    """The sentence opens with the name: only a list marker, markup or a determiner before it."""
    if position == 0:
        return True  # nothing before it (``_OPENING`` matches the empty text)
    head = LIST_ITEM.sub("", text[:position], count=1)
    return bool(_OPENING.fullmatch(head))


def _by_id(entities: Sequence[Entity], entity_id: str | None) -> Entity | None:
    return next((e for e in entities if e.id == entity_id), None)


def with_references(edges: Sequence[Edge], mentions: Sequence[Mention]) -> list[Edge]:
    """Edges with the reason of any reference mention an end rests on (or any mention bound by
    what its page says elsewhere: the grader, reading the sentence alone, needs the reason)."""
    if not edges:
        return []
    refs = {
        (m.entity_id, m.start, m.end): m.reason for m in mentions if m.reference or m.page_level
    }
    if not refs:
        return list(edges)
    out = []
    for edge in edges:
        s = refs.get((edge.subject, *edge.subject_span)) if edge.subject_span else None
        o = refs.get((edge.object, *edge.object_span)) if edge.object_span else None
        out.append(
            dataclasses.replace(edge, subject_reference=s or "", object_reference=o or "")
            if s or o
            else edge
        )
    return out


def read_corpus(
    documents: Sequence[SourceText], catalog: Catalog | None, progress: Progress | None = None
) -> tuple[tuple[Entity, ...], list[tuple[Sentence, list[Mention]]]]:
    """Every sentence with its mentions: the names the binder finds, then the references the
    document's own structure adds (the catalog's entities, else the discovered ones)."""
    entities, binder = corpus_binder(documents, catalog)
    product = corpus_product(documents, binder)
    read: list[tuple[Sentence, list[Mention]]] = []
    for document in documents:
        read.extend(read_document(document, entities, binder, product))
        if progress:
            progress(1)
    return entities, read


def corpus_binder(
    documents: Sequence[SourceText], catalog: Catalog | None
) -> tuple[tuple[Entity, ...], Binder]:
    """The entities a corpus is read with (the catalog's, else the discovered ones) and their
    binder: made once, then each document is read with ``read_document``."""
    entities = corpus_entities(documents, catalog)
    return entities, Binder(entities)


def read_document(
    document: SourceText,
    entities: tuple[Entity, ...],
    binder: Binder,
    product: Product | None = None,
) -> list[tuple[Sentence, list[Mention]]]:
    """One document's sentences, each with its mentions (see ``read_corpus``); ``product``:
    what the corpus documents (``corpus_product``)."""
    read: list[tuple[Sentence, list[Mention]]] = []
    bound = bind_page(binder, document.sentences, _page_subject(document, entities))
    bound = title_references(document, bound, entities, binder)
    bound = agent_references(document, bound)
    refs = document_references(document, bound, entities, binder, product)
    flows = document_flows(document)
    nodes = diagram_mentions(
        document.sentences, binder, text=document.text, bound=bound, flows=flows
    )
    for s in document.sentences:
        sid = s.id
        read.append((s, bound[sid] + refs.get(sid, []) + nodes.get(sid, [])))
    return read


def _page_subject(document: SourceText, entities: tuple[Entity, ...]) -> str | None:
    """The entity a page is about: a discovered ordinary-word name binds on it where a definite
    word or a preposition marks it ("the sidecar" on the sidecar's page), as ``zehn catalog
    suggest`` binds it (a name that needs no mark binds anywhere, so this changes nothing
    for it)."""
    found = discovered_subject(document, entities) if entities else None
    return found[0].id if found else None
