"""What a free-form answer adds to the Ask view: its parts, its related context, and which
citations were found by sentence search rather than by a graph edge.

A multi-part answer lists each part with its own status, so "answered" never hides a part
that was not. Related context is set apart under its own heading — context the sources
state, never the answer — and search-found citations carry a visible mark.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from widgets.html import AMBER, GREY, STATUS_COLOURS, escape
from zehn import Citation, CitedAnswer
from zehn.engine.frontier import walk_text

_MARKER = re.compile(r"\[(\d+)\]")
CitationHtml = Callable[[Citation], str]


def found_by_mark(citation: Citation) -> str:
    """A mark on a citation found by full-text search and re-read at query time."""
    if citation.found_by != "search":
        return ""
    return (
        f' · <span class="zehn-found-by" data-found-by="search" style="color:{AMBER}" '
        'title="not a graph edge: found by sentence search and read again at query time">'
        "found by search</span>"
    )


def parts_html(answer: CitedAnswer, marker: Callable[[re.Match[str]], str]) -> str:
    """Each part of a multi-part answer: its status, question, answer and reason."""
    items = []
    for part in answer.parts:
        colour = STATUS_COLOURS.get(part.status, GREY)
        reason = (
            f'<div class="zehn-part-reason"><small>{escape(part.reason)}</small></div>'
            if part.reason
            else ""
        )
        items.append(
            f'<li class="zehn-part" data-status="{escape(part.status)}" style="margin:4px 0">'
            f'<span class="zehn-part-status" style="background:{colour};color:white;'
            f'padding:0 6px;border-radius:3px;font-size:85%">{escape(part.status)}</span> '
            f'<b class="zehn-part-question">{escape(part.question)}</b>'
            f'<div class="zehn-part-answer" style="white-space:pre-wrap">'
            f"{_MARKER.sub(marker, escape(part.answer))}</div>{reason}</li>"
        )
    return f'<ol class="zehn-parts" style="padding-left:22px">{"".join(items)}</ol>'


def related_html(answer: CitedAnswer, citation_html: CitationHtml) -> str:
    """The related context and its citations, under a heading that says it is not the answer."""
    if not answer.related:
        return ""
    by_number = {c.n: c for c in answer.citations if c.role == "related"}
    items = "".join(
        f'<li class="zehn-related-item">{escape(r.text)}'
        f"{''.join(f' [{n}]' for n in r.citations)}</li>"
        for r in answer.related
    )
    quotes = "".join(citation_html(by_number[n]) for n in sorted(by_number))
    return (
        '<details class="zehn-related" open><summary><b>Related</b> — context the sources '
        "state about the named entities, not the answer</summary>"
        f'<ul class="zehn-related-items" style="font-size:95%">{items}</ul>'
        f'<ol class="zehn-related-citations" style="padding-left:22px">{quotes}</ol></details>'
    )


def beyond_html(answer: CitedAnswer) -> str:
    """What a bounded walk counted and did not show ("reached 5,235 entities; the nearest 25
    shown and graded; and 5,210 more at distance 3 …"): counts of the walk, never rows. An
    answered text already ends with the counts, so there only the reach is added. A walk
    that stopped counting says so in every case: its reach is a floor, never a total."""
    if not answer.beyond:
        return ""
    names = {i.id: i.name for i in answer.identities}
    items = []
    for walk in answer.beyond:
        start = names.get(walk.entity_id, walk.entity_id)
        counted = "" if answer.status == "answered" else f"; {walk_text(walk)}"
        reach = f"reached {walk.reached:,} entities"
        if not walk.complete:
            reach = (
                f"reached at least {walk.reached:,} entities within distance "
                f"{walk.counted_depth} (not counted beyond: the walk stops counting at "
                f"{walk.count_limit:,} entities)"
            )
        items.append(
            f'<li class="zehn-beyond-item" data-reached="{walk.reached}" '
            f'data-shown="{walk.shown}" data-complete="{str(walk.complete).lower()}" '
            f'data-counted-depth="{walk.counted_depth}">{escape(walk.query)} from '
            f"<b>{escape(start)}</b> {reach}; the nearest {walk.shown:,} are shown and "
            f"graded{escape(counted)}</li>"
        )
    return (
        f'<div class="zehn-beyond" style="color:{GREY};font-size:95%">'
        f'<ul style="margin:4px 0;padding-left:20px">{"".join(items)}</ul></div>'
    )
