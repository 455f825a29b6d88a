"""HTML of the curation view: where it reads and writes, a row's identity, the sentences behind a
row, and what a rebuild changed. Every name, alias and sentence is escaped here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from widgets.curation_model import CurationTable, EntityRow, GraphChanges, Triple
from widgets.html import BORDER, GREEN, GREY, RED, error_box, escape, highlight

CHANGES_SHOWN = 50  # per list; the counts are always complete


def header_html(corpus: Path | None, catalog: Path | None, graph: str, table: CurationTable) -> str:
    """Which corpus, which catalog file (and whether the table is still only a suggestion),
    and which graph Rebuild writes."""
    if corpus is None:
        body = "<i>Open a corpus folder to curate its entities.</i>"
    else:
        state = {
            "catalog": "read from the catalog",
            "suggested": "suggested by discovery (not saved yet)",
        }.get(table.origin, "")
        body = (
            f"corpus <code>{escape(corpus)}</code> · catalog <code>{escape(catalog)}</code> "
            f"({escape(state)}) · Rebuild writes graph <b>{escape(graph)}</b>"
        )
    return (
        '<h4 style="margin:4px 0">Curate entities</h4>'
        f'<div style="font-size:90%">{body}</div>'
        "<small>Rows are never merged: give an alias, split one off, or mark a row "
        "“not an entity” (kept in catalog.yaml, bound nowhere).</small>"
    )


def row_id_html(row: EntityRow) -> str:
    style = "text-decoration:line-through;color:#6e7781" if row.not_entity else ""
    return (
        f'<code class="zehn-curation-id" data-entity-id="{escape(row.entity_id)}" '
        f'title="{escape(row.entity_id)}" style="font-size:80%;{style}">'
        f"{escape(row.entity_id)}</code>"
    )


def evidence_html(
    row: EntityRow,
    entity_id: str,
    graph: str,
    mentions: Sequence[Mapping[str, Any]] | None,
    failure: BaseException | None,
    *,
    built: bool = True,
) -> str:
    """The row's mentions in the graph (or why they could not be read) and the suggestion's
    first sentence and reasons."""
    aliases = ", ".join(escape(a) for a in row.aliases) or "<i>none</i>"
    parts = [
        f'<div class="zehn-curation-evidence-head"><b>{escape(row.name)}</b> '
        f"({escape(row.kind)}) · aliases: {aliases}</div>"
    ]
    if failure is not None:
        parts.append(
            f"<div>Mentions in graph <b>{escape(graph)}</b> could not be read:</div>"
            + error_box(failure)
        )
    elif not built:
        parts.append(
            f'<div class="zehn-curation-not-built"><i>Graph <b>{escape(graph)}</b> is not built '
            "yet: Rebuild builds it from this corpus with the catalog.</i></div>"
        )
    elif not mentions:
        parts.append(
            f'<div class="zehn-curation-no-mentions"><i>Graph <b>{escape(graph)}</b> has no '
            f"unambiguous mention of <code>{escape(entity_id)}</code> (rebuild after saving to "
            "see the curated catalog's mentions).</i></div>"
        )
    else:
        items = "".join(_mention_html(m) for m in mentions)
        parts.append(
            f"<div>Mentions of <code>{escape(entity_id)}</code> in graph <b>{escape(graph)}</b> "
            f"(first {len(mentions)}):</div>"
            f'<ol class="zehn-curation-mentions">{items}</ol>'
        )
    parts.append(_suggestion_html(row.notes))
    return (
        f'<div class="zehn-curation-evidence-box" style="border:1px solid {BORDER};'
        f'padding:6px 10px;margin:6px 0">{"".join(parts)}</div>'
    )


def _mention_html(mention: Mapping[str, Any]) -> str:
    text = str(mention.get("text") or "")
    offset = int(mention.get("sentence_start") or 0)
    start, end = mention.get("start"), mention.get("end")
    span = (int(start), int(end)) if start is not None and end is not None else None
    source = ", ".join(escape(x) for x in (mention.get("title"), mention.get("source_type")) if x)
    sentence_id = escape(mention.get("sentence_id"))
    return (
        f'<li class="zehn-curation-mention" data-sentence-id="{sentence_id}">'
        f'<blockquote class="zehn-quote" style="margin:2px 0;padding-left:8px;'
        f'border-left:3px solid {BORDER}">{highlight(text, offset, [span])}</blockquote>'
        f"<small>{source} · <code>{sentence_id}</code></small></li>"
    )


def _suggestion_html(notes: Mapping[str, Any]) -> str:
    """What discovery recorded for the row: its first sentence and why it took each form."""
    first = notes.get("first_sentence")
    reasons = notes.get("reasons")
    parts: list[str] = []
    if isinstance(first, Mapping) and first.get("text"):
        parts.append(
            f'<div class="zehn-curation-first">first sentence: <q>{escape(first.get("text"))}</q>'
            f" <code>{escape(first.get('id') or '')}</code></div>"
        )
    if isinstance(reasons, list) and reasons:
        items = "".join(f"<li>{escape(r)}</li>" for r in reasons[:12])
        parts.append(
            f'<div>why discovery took it:</div><ul class="zehn-curation-reasons">{items}</ul>'
        )
    if notes.get("split_from"):
        parts.append(f"<div>split from <b>{escape(notes['split_from'])}</b></div>")
    return "".join(parts) or "<small><i>no suggestion notes for this row</i></small>"


def changes_html(changes: GraphChanges, graph: str) -> str:
    """Entities and edges gained and lost by the rebuild of ``graph``."""
    head = (
        f"<b>What changed in {escape(graph)}</b>: entities {changes.entities_before} → "
        f"{changes.entities_after}, distinct edges {changes.edges_before} → {changes.edges_after}"
    )
    if changes.unchanged:
        return _box(
            head + '<div class="zehn-curation-unchanged"><i>no entity or edge changed</i></div>'
        )
    gained, lost = GREEN, RED
    lists = [
        _list("entities gained", "entities-gained", gained, map(_entity, changes.entities_gained)),
        _list("entities lost", "entities-lost", lost, map(_entity, changes.entities_lost)),
        _list("edges gained", "edges-gained", gained, map(_edge, changes.edges_gained)),
        _list("edges lost", "edges-lost", lost, map(_edge, changes.edges_lost)),
    ]
    return _box(head + "".join(lists))


def _box(body: str) -> str:
    return (
        f'<div class="zehn-curation-changes-box" style="border:1px solid {BORDER};'
        f'padding:6px 10px;margin:6px 0">{body}</div>'
    )


def _list(title: str, css: str, colour: str, rendered: Iterable[str]) -> str:
    items = list(rendered)
    if not items:
        return (
            f'<div class="zehn-curation-{css}" data-count="0" style="color:{GREY}">'
            f"{title}: none</div>"
        )
    shown = "".join(f"<li>{item}</li>" for item in items[:CHANGES_SHOWN])
    more = (
        f"<li><i>… and {len(items) - CHANGES_SHOWN} more</i></li>"
        if len(items) > CHANGES_SHOWN
        else ""
    )
    return (
        f'<details class="zehn-curation-{css}" data-count="{len(items)}" open>'
        f'<summary style="color:{colour}"><b>{title}: {len(items)}</b></summary>'
        f'<ul style="margin:2px 0">{shown}{more}</ul></details>'
    )


def _entity(entity: tuple[str, str]) -> str:
    entity_id, name = entity
    return f"{escape(name)} <code>{escape(entity_id)}</code>"


def _edge(edge: Triple) -> str:
    subject, predicate, obj = edge
    return f"<code>{escape(subject)}</code> {escape(predicate)} <code>{escape(obj)}</code>"
