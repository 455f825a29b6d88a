"""Jira rich text to paragraphs: wiki markup (API v2, CSV) and ADF JSON (API v3).

Only structural markers are removed (``h2.`` prefixes, ``{code}`` fences);
the words stay exactly as the reporter typed them.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from zehn.corpus.loaders.base import (
    as_str,
    code_lines,
    collapse,
    normalize_newlines,
    strip_residue,
)

_HEADING = re.compile(r"^\s*h[1-6]\.\s*")
_CODE_MARKER = re.compile(r"\{(?:code|noformat)(?::[^}]*)?\}")
_SKIPPED_BLOCKS = frozenset({"rule", "mediaSingle", "mediaGroup", "media", "mediaInline"})


def jira_paragraphs(value: object) -> list[str]:
    """Paragraphs from a Jira text field, whether wiki markup or an ADF document."""
    if isinstance(value, dict):
        return adf_paragraphs(value)
    if isinstance(value, str):
        return wiki_paragraphs(value)
    return []


def wiki_paragraphs(text: str) -> list[str]:
    """Wiki markup split on blank lines; headings and code lines stand alone."""
    paragraphs: list[str] = []
    current: list[str] = []
    in_code = False

    def flush() -> None:
        if current:
            paragraphs.append("\n".join(current))
            current.clear()

    for raw in strip_residue(normalize_newlines(text)).split("\n"):
        line = raw.rstrip()
        if _CODE_MARKER.fullmatch(line.strip()):
            flush()
            in_code = not in_code
            continue
        heading = _HEADING.match(line)
        if heading and not in_code:
            flush()
            paragraphs.append(line[heading.end() :].strip())
            continue
        line = _CODE_MARKER.sub("", line)
        if in_code:
            paragraphs.extend(code_lines(line))
        elif line.strip():
            current.append(line)
        else:
            flush()
    flush()
    return [paragraph for paragraph in paragraphs if paragraph.strip()]


def adf_paragraphs(node: dict[str, object]) -> list[str]:
    """Atlassian Document Format flattened like HTML: one paragraph per block."""
    out: list[str] = []
    _adf_block(node, out)
    return out


def _children(node: dict[str, object]) -> list[dict[str, object]]:
    content = node.get("content")
    if not isinstance(content, list):
        return []
    return [child for child in content if isinstance(child, dict)]


def _adf_block(node: dict[str, object], out: list[str]) -> None:
    kind = node.get("type")
    if kind in _SKIPPED_BLOCKS:
        return
    if kind in ("paragraph", "heading"):
        lines = (collapse(line) for line in _adf_inline(node).split("\n"))
        text = "\n".join(line for line in lines if line)
        if text:
            out.append(text)
    elif kind == "codeBlock":
        out.extend(code_lines(_adf_inline(node)))
    elif kind == "tableRow":
        cells = [collapse(" ".join(adf_paragraphs(cell))) for cell in _children(node)]
        row = " | ".join(cell for cell in cells if cell)
        if row:
            out.append(row)
    else:  # doc, lists, list items, blockquote, panel, expand, table
        for child in _children(node):
            _adf_block(child, out)


def _adf_inline(node: dict[str, object]) -> str:
    parts: list[str] = []
    for child in _children(node):
        kind = child.get("type")
        raw_attrs = child.get("attrs")
        attrs: dict[str, object] = raw_attrs if isinstance(raw_attrs, dict) else {}
        text = child.get("text")
        if kind == "text":
            parts.append(text if isinstance(text, str) else "")
        elif kind == "hardBreak":
            parts.append("\n")
        elif kind in ("mention", "status"):
            parts.append(as_str(attrs.get("text")))
        elif kind == "emoji":
            parts.append(as_str(attrs.get("text")) or as_str(attrs.get("shortName")))
        elif kind in ("inlineCard", "blockCard"):
            parts.append(as_str(attrs.get("url")))
        elif kind == "date":
            parts.append(_adf_date(attrs.get("timestamp")))
        else:
            parts.append(_adf_inline(child))
    return "".join(parts)


def _adf_date(timestamp: object) -> str:
    try:
        millis = int(str(timestamp))
    except ValueError:
        return ""
    return datetime.fromtimestamp(millis / 1000, UTC).strftime("%Y-%m-%d")
