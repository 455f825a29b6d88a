"""Markup residue in Markdown-ish text: what a reader never sees is never text.

Pages exported by word processors carry ``<style>`` blocks, conditional comments and
``style="mso-…; font-weight: …"`` / ``class=`` / ``border=`` attributes into Markdown;
left in, CSS property names (``font-weight``, ``mso-bidi-font-size``) read like component
names. This strips them and keeps the visible text as written. Fenced code blocks and
inline code spans are left alone: there, markup is the subject of the text.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^[^\S\n]{0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)[^`]+?\1")
_HIDDEN = re.compile(
    r"<style\b[^>]*>.*?</style\s*>"  # a style sheet: never shown
    r"|<!--.*?-->"  # comments, Word's conditional ones (<!--[if gte mso 9]>…) included
    r"|<!\[(?:end)?if\b[^\]]*\]>",  # Word's downlevel-revealed markers; their content stays
    re.DOTALL | re.IGNORECASE,
)
_TAG = re.compile(
    r"<(?P<name>[A-Za-z][A-Za-z0-9]*(?::[A-Za-z][\w-]*)?)"
    r"(?P<attrs>(?:\s+[^\s\"'<>/=]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*)"
    r"\s*(?P<close>/?)>"
)
_ATTR = re.compile(r"([^\s\"'<>/=]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?")
_END_TAG = re.compile(r"</(?P<name>[A-Za-z][A-Za-z0-9]*(?::[A-Za-z][\w-]*)?)\s*>")
# HTML elements whose attributes are dropped (Spring's <bean id=…> and the like are not HTML)
_HTML = frozenset(
    {
        *("a", "abbr", "b", "big", "blockquote", "body", "br", "caption", "center", "cite"),
        *("code", "col", "colgroup", "dd", "del", "details", "div", "dl", "dt", "em", "font"),
        *("h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "html", "i", "img", "ins", "kbd"),
        *("li", "link", "mark", "meta", "ol", "p", "pre", "q", "s", "section", "small"),
        *("span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td"),
        *("tfoot", "th", "thead", "tr", "tt", "u", "ul", "video", "audio", "source"),
        *("article", "aside", "figure", "figcaption", "footer", "header", "nav", "main"),
    }
)
# wrappers that only style their content: the tag goes, the content stays
_WRAPPERS = frozenset({"span", "font"})
_OFFICE_PREFIXES = frozenset({"o", "v", "w", "x", "m", "st1"})  # <o:p>, <v:shape>, <w:Sdt> …
# presentational attributes; others (href, src, alt, title, a tab's label …) stay as written
_STYLING_ATTRS = frozenset(
    {
        *("style", "class", "id", "border", "width", "height", "align", "valign", "lang"),
        *("cellpadding", "cellspacing", "bgcolor", "background", "color", "face", "size"),
        *("dir", "nowrap", "frame", "rules", "colspan", "rowspan", "span", "clear"),
    }
)


def strip_residue(text: str) -> str:
    """``text`` without style sheets, comments and presentational attributes, outside code."""
    if "<" not in text:
        return text
    return "".join(part if fenced else _strip_prose(part) for fenced, part in _fenced_parts(text))


def _fenced_parts(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into runs of lines, each inside a fenced code block or not."""
    parts: list[tuple[bool, str]] = []
    fence = ""
    for line in text.splitlines(keepends=True):
        opening = _FENCE.match(line)
        inside = bool(fence) or opening is not None
        if fence and opening and opening.group(1).startswith(fence):
            fence = ""  # the closing fence still belongs to the block
        elif not fence and opening:
            fence = opening.group(1)
        if parts and parts[-1][0] == inside:
            parts[-1] = (inside, parts[-1][1] + line)
        else:
            parts.append((inside, line))
    return parts


def _strip_prose(text: str) -> str:
    """Residue removed between inline code spans, which are kept as written."""
    out: list[str] = []
    position = 0
    for span in _CODE_SPAN.finditer(text):
        out.append(_strip_markup(text[position : span.start()]))
        out.append(span.group())
        position = span.end()
    out.append(_strip_markup(text[position:]))
    return "".join(out)


def _strip_markup(text: str) -> str:
    if "<" not in text:
        return text
    text = _HIDDEN.sub("", text)
    text = _TAG.sub(_bare_tag, text)
    return _END_TAG.sub(lambda m: "" if _is_wrapper(m.group("name")) else m.group(), text)


def _bare_tag(match: re.Match[str]) -> str:
    """An HTML start tag without its styling attributes; a styling wrapper, gone."""
    name = match.group("name")
    if _is_wrapper(name):
        return ""
    if name.lower() not in _HTML or not match.group("attrs"):
        return match.group()
    kept = [
        attr.group()
        for attr in _ATTR.finditer(match.group("attrs"))
        if not _is_styling(attr.group(1).lower())
    ]
    return "<" + " ".join([name, *kept]) + ("/" if match.group("close") else "") + ">"


def _is_styling(attribute: str) -> bool:
    """``class``, ``border``, ``xml:lang``, ``v:shapes``, ``data-…``: never shown."""
    return attribute in _STYLING_ATTRS or ":" in attribute or attribute.startswith("data-")


def _is_wrapper(name: str) -> bool:
    prefix, colon, _ = name.lower().partition(":")
    return (prefix in _OFFICE_PREFIXES) if colon else prefix in _WRAPPERS
