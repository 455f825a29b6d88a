"""Clues a page's structure gives: its title, its file path, its tables and its diagrams.

A page about a component says so in its frame more than in its prose: "Cart Service" as the
title, ``services/cart.md`` as the path, a row of a table under "Service", a node of an
architecture diagram. See ``zehn.reading.names.clues`` for what a clue is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from zehn.corpus.model import SourceText
from zehn.reading.diagrams.reader import diagram_nodes
from zehn.reading.lexicon import (
    CJK_HEADS,
    NOT_NAMES,
    head_of,
    is_ordinary,
    is_ordinary_phrase,
    store_kind,
)
from zehn.reading.names.clues import (
    CORROBORATED,
    GENERIC_CAPS,
    REPEATED,
    STRONG,
    Clue,
    name_key,
)
from zehn.reading.names.termhood import is_general
from zehn.reading.outline import path_parts, path_subject, tables
from zehn.reading.scripts import HAN_SPAN_COMPAT
from zehn.reading.vocabulary import EntityKind

_CJK = HAN_SPAN_COMPAT

_TABLE_HEADER_KINDS = {
    "service": EntityKind.SERVICE, "services": EntityKind.SERVICE, "服务": EntityKind.SERVICE,
    "component": EntityKind.COMPONENT, "components": EntityKind.COMPONENT,
    "组件": EntityKind.COMPONENT, "节点": EntityKind.COMPONENT, "node": EntityKind.COMPONENT,
    "nodes": EntityKind.COMPONENT, "模块": EntityKind.COMPONENT, "module": EntityKind.COMPONENT,
    "database": EntityKind.DATASTORE, "databases": EntityKind.DATASTORE,
    "数据库": EntityKind.DATASTORE, "queue": EntityKind.TOPIC, "topic": EntityKind.TOPIC,
    "team": EntityKind.TEAM, "团队": EntityKind.TEAM,
}  # fmt: skip
_BOILERPLATE = frozenset("license licence notice copying copyright authors".split())
_CONTAINER_FOLDERS = frozenset(
    "src apps app components packages modules cmd services microservices servers".split()
)
_LINK_OR_CODE = re.compile(r"^\[([^\]]+)\]\([^)]*\)$|^`+\s*([^`]+?)\s*`+$|^\*+([^*]+)\*+$")
_PAREN = re.compile(r"^(?P<name>.+?)\s*[(（]\s*(?P<alias>[^()（）]+?)\s*[)）]$")


def is_boilerplate(document: SourceText) -> bool:
    """A license or notice file: legal text that names no component of the system."""
    subject = path_subject(document.doc_id)
    return subject is not None and subject[0] in _BOILERPLATE


def page_clues(document: SourceText) -> Iterator[Clue]:
    """The clues of ``document``'s title, path, tables and diagrams."""
    yield from _title_and_path(document)
    yield from _table_clues(document)
    yield from _diagram_clues(document)


def _title_and_path(document: SourceText) -> Iterator[Clue]:
    doc_id = document.doc_id
    subject = path_subject(doc_id)
    title = " ".join(document.title.split())
    stem = subject[0] if subject else ""
    parts = path_parts(doc_id)
    # a loader falls back to the file name for a title: that says nothing the path does not
    fallback_title = not title or (bool(parts) and title.lower().replace("_", "-") == parts[-1])
    if title and not fallback_title:
        yield from _title_clues(doc_id, title, stem)
    if subject is None:
        return
    folders = subject[1]
    folder = folders[-1] if folders else ""
    reason = "file path " + "/".join((*folders[-2:], stem))
    words = stem.split("-")
    head = head_of(words[-1])
    folder_head = head_of(folder)
    singular = head is not None and words[-1] == head.noun
    if head_of(stem) is not None and not (singular and head and head.part_of_name):
        return  # "services/_index": a page about services, not one
    if folder in _CONTAINER_FOLDERS or (folder_head is not None and folder_head.kind != "team"):
        kind = folder_head.kind if folder_head is not None else None
        name = f"{stem} {folder_head.noun}" if folder_head and folder_head.part_of_name else stem
        yield Clue(name, None, "path", reason, doc_id, default_kind=kind)
    elif head is not None and singular and all(not is_ordinary(w) for w in words[:-1]):
        name = stem if head.part_of_name else "-".join(words[:-1])
        yield Clue(name, head.kind, "path", reason, doc_id)
    elif (
        title
        and not fallback_title
        and name_key(_PAREN.sub(r"\g<name>", title)) == name_key(stem)
        and "-" not in stem
        and not is_ordinary(stem)
    ):
        yield Clue(stem, None, "path", f"{reason} (the page title agrees)", doc_id)


def _title_clues(doc_id: str, title: str, stem: str) -> Iterator[Clue]:
    match = _PAREN.match(title)
    name = match.group("name") if match else title
    why = f"page title {title!r}"
    named = _named_with_head(name)
    if named is not None:
        bare, kind = named
        yield Clue(bare, kind, "title", why, doc_id, written=name)
    elif stem and name_key(name) == name_key(stem):
        # one word, not English ("Kafka", "dubbo://"); "Docker deployment" is a topic
        alone = STRONG if len(name.split()) == 1 and not is_ordinary_phrase(name) else CORROBORATED
        yield Clue(name, None, "title", why, doc_id, alone)
    else:
        return
    if match and _single_name(match.group("alias")):
        owner = named[0] if named else name
        yield Clue(owner, named[1] if named else None, "title", why, doc_id,
                   written=match.group("alias"))  # fmt: skip


def _named_with_head(text: str) -> tuple[str, str] | None:
    """ "Cart Service" -> ("Cart", service); "OpAMP Server" -> ("OpAMP Server", component);
    "Redis 注册中心" -> ("Redis 注册中心", component); None without a head or a name."""
    for noun, cjk in CJK_HEADS.items():
        if text.endswith(noun) and text[: -len(noun)].strip():
            rest = text[: -len(noun)].strip()
            if re.fullmatch(r"[A-Za-z][\w.-]*", rest):
                return (text if cjk.part_of_name else rest), cjk.kind
            if re.fullmatch(rf"[{_CJK}]{{2,4}}", rest) and not is_general(rest, "zh"):
                return text, cjk.kind  # "结算服务": a Chinese name and its head, one word
            return None
    words = text.split()
    if len(words) < 2 or len(words) > 4:
        return None
    head = head_of(words[-1])
    if head is None or not all(w[:1].isupper() or not is_ordinary(w) for w in words[:-1]):
        return None
    if words[0] in GENERIC_CAPS or words[0].lower() in NOT_NAMES:
        return None
    ordinary = all(is_ordinary(w) for w in words[:-1])
    keeps_head = head.part_of_name or (ordinary and head.kind not in ("service", "team"))
    return (text if keeps_head else " ".join(words[:-1])), head.kind


def _single_name(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z][\w.+-]*", text.strip())) and not is_ordinary(text)


def _table_clues(document: SourceText) -> Iterator[Clue]:
    for table in tables(document.text):
        if not table.header:
            continue
        kind = _TABLE_HEADER_KINDS.get(_strip_markup(table.header[0].text).lower())
        if kind is None:
            continue
        for row in table.rows:
            if not row:
                continue
            name = _strip_markup(row[0].text)
            if not name or len(name.split()) > 4 or re.search(r"[.,;:!?。，；：]$", name):
                continue
            why = f"table row under {table.header[0].text!r}"
            yield Clue(name, kind, "table", why, document.doc_id)
            definition = _definition(row[-1].text) if len(row) > 1 else None
            if definition:
                yield Clue(name, kind, "table", f"{why}: defined as {definition!r}",
                           document.doc_id, written=definition)  # fmt: skip


def _definition(cell: str) -> str | None:
    """The noun a Chinese definition ends with ("服务注册与发现的注册中心" -> "注册中心"), or a
    short definition that is one compound noun itself ("服务运行容器")."""
    match = re.search(rf"的([{_CJK}]{{2,6}})$", cell.strip())
    if match is None and re.fullmatch(rf"[{_CJK}]{{4,6}}", cell.strip()):
        return cell.strip()
    return match.group(1) if match else None


def _strip_markup(cell: str) -> str:
    match = _LINK_OR_CODE.match(cell.strip())
    if match:
        return next(g for g in match.groups() if g).strip()
    return cell.strip()


# labels that name a role in a picture, not a component: "UI", "CLI", ".NET" (a legend)
_GENERIC_LABELS = frozenset("ui gui cli api sdk db os vm user users client clients".split())
# where a label stops naming and starts describing: "OTLP Receiver listening on …", "UI / …"
_LABEL_END = re.compile(r"\s+(?:listening|running|on|at|for|with|via|by)\s|\s*[/:<(]")
_SHAPE_KINDS = {"database": EntityKind.DATASTORE, "queue": EntityKind.TOPIC}


def _diagram_clues(document: SourceText) -> Iterator[Clue]:
    """Labelled nodes of diagrams-as-code: "cart(Cart)", "cache[(Cache (Valkey))]",
    "frontend-proxy(Frontend Proxy (Envoy))", "pr-tsdb[(Prometheus TSDB)]"."""
    for node in diagram_nodes(document.text):
        if " " in node.id:
            continue  # a subgraph's title ("Service Diagram")
        clue = _node_clue(document.doc_id, node.id, " ".join(node.label.split()), node.shape)
        if clue is not None:
            yield clue


def _node_clue(doc_id: str, node_id: str, label: str, shape: str) -> Clue | None:
    why = f"diagram node {node_id!r} labelled {label!r}"
    shape_kind = _SHAPE_KINDS.get(shape)
    paren = _PAREN.match(label)
    alias = ""
    if paren and _single_name(paren["alias"]):
        outer, inner = paren["name"], paren["alias"]
        outer_head = head_of(outer.split()[-1])
        if is_ordinary_phrase(outer) and (outer_head or len(outer.split()) == 1):
            # "Cache (Valkey)", "Database (PostgreSQL)": a kind, then the product that is it
            kind = outer_head.kind if outer_head else shape_kind
            return Clue(inner, kind, "diagram", why, doc_id, STRONG)
        label, alias = outer, inner  # "Frontend Proxy (Envoy)": a name, then what runs it
    label = _LABEL_END.split(label, maxsplit=1)[0].strip()
    words = label.split()
    if not words or label.strip(".").lower() in NOT_NAMES | _GENERIC_LABELS:
        return None
    named = _named_with_head(label)
    kind = named[1] if named else shape_kind
    if name_key(label) == name_key(node_id):  # "cart(Cart)": the id and the name agree
        return Clue(node_id, kind, "diagram", why, doc_id, STRONG, alias or label)
    if named is not None:
        return Clue(named[0], kind, "diagram", why, doc_id, STRONG, alias or label)
    if len(words) == 1 and head_of(label) is not None:
        return None  # "Microservice": a role in the picture
    if is_ordinary_phrase(label):
        return Clue(label, kind, "diagram", why, doc_id, CORROBORATED, alias,
                    default_kind=store_kind(label))  # fmt: skip
    title_case = all(w[:1].isupper() or not w.isalpha() for w in words)
    alone = STRONG if title_case else REPEATED  # "Prometheus TSDB", not "Fernet key"
    return Clue(label, kind, "diagram", why, doc_id, alone, alias, default_kind=store_kind(label))
