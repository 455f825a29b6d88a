"""Arrows written in prose: a diagram's legend or caption ("[1] **Web server** --> **Workers**
- Fetches task execution logs") states an edge the way a diagram line does, with the names
themselves as its ends. :func:`read_line` reads a line either way for
``zehn.reading.diagrams.reader``.
"""

from __future__ import annotations

import re

from zehn.reading.diagrams.syntax import Link, NodeRef, Statement, clean_label, parse_line

__all__ = ["LEGEND", "read_line"]

LEGEND = "legend"
_LEGEND_ARROW = re.compile(r"\s(-{1,3}>|={1,2}>|[→⟶⇒])\s")
_LEGEND_MARKER = re.compile(r"\s*(?:\[\d{1,3}\]|\d{1,3}[.)]|[-*+•])?\s*")
_LEGEND_SEPARATOR = re.compile(r"\s+[-–—]\s+|\s*:\s+")
_LEGEND_NAME = re.compile(r"[*`_]*(?P<name>[^\W_](?:[\w'’ -]*[\w])?)[*`_]*")
MAX_LEGEND_NAME_WORDS = 6


def _legend(text: str) -> Statement | None:
    """An arrow written in prose, as diagram legends and captions do: "[1] **Web server** -->
    **Workers** - Fetches task execution logs". The words after the names are the arrow's
    label; the names themselves are named (no node ids to resolve)."""
    arrows = list(_LEGEND_ARROW.finditer(text))
    marker = _LEGEND_MARKER.match(text)
    if len(arrows) != 1 or marker is None:
        return None
    arrow = arrows[0]
    rest = text[arrow.end() :]
    separator = _LEGEND_SEPARATOR.search(rest)
    b_end = arrow.end() + (separator.start() if separator else len(rest.rstrip().rstrip(".")))
    ends = []
    for start, end in ((marker.end(), arrow.start()), (arrow.end(), b_end)):
        name = _LEGEND_NAME.fullmatch(text, start, end)
        if name is None or len(name["name"].split()) > MAX_LEGEND_NAME_WORDS:
            return None
        ends.append(NodeRef(name["name"], (start, end), name.span("name")))
    label = clean_label(rest[separator.end() :]) if separator else ""
    link = Link(ends[0], ends[1], arrow.group(1), label, True)
    return Statement(LEGEND, tuple(ends), (link,))


def read_line(text: str, language: str | None = None) -> Statement | None:
    """A diagram line (:func:`parse_line`), else a legend line's arrow, else None."""
    return parse_line(text, language) or _legend(text)
