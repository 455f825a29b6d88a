"""HTML, XHTML and Confluence storage format flattened into plain paragraphs.

One paragraph per block element, table row (cells joined with `` | ``) and
code line; inline markup is dropped and whitespace collapsed, words untouched.
"""

from __future__ import annotations

import html
import re
import warnings

from bs4 import BeautifulSoup, Tag, XMLParsedAsHTMLWarning
from bs4.element import NavigableString, PageElement

_CDATA = re.compile(r"<!\[CDATA\[(.*?)\]\]>", re.DOTALL)
_FULL_PAGE = re.compile(r"<(?:html|body)[\s>]", re.IGNORECASE)
_SPACES = re.compile(r"[^\S\n]+")
BLANK_LINES = re.compile(r"\n(?:[^\S\n]*\n)+")
_BLOCK_TAGS = frozenset(
    {
        *("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "blockquote", "hr"),
        *("div", "section", "article", "header", "footer", "main", "aside", "nav", "body"),
        *("ul", "ol", "dl", "table", "thead", "tbody", "tfoot", "caption", "figure"),
        *("figcaption", "address", "details", "summary", "form", "fieldset", "center"),
    }
)
_SKIP_TAGS = frozenset(
    {"script", "style", "head", "title", "noscript", "template", "iframe", "svg"}
)
_SKIP_MACRO_PARTS = frozenset(
    {"ac:parameter", "ac:image", "ac:emoticon", "ac:placeholder", "ri:attachment", "ri:url"}
)
_CODE_MACROS = frozenset({"code", "noformat"})
_INLINE_MACROS = {"jira": "key", "status": "title", "anchor": ""}
_INLINE_AC = frozenset({"ac:inline-comment-marker", "ac:link-body", "ac:plain-text-link-body"})


def normalize_newlines(text: str) -> str:
    """Normalise CRLF and lone CR so spans are stable across platforms."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def collapse(text: str) -> str:
    """Whitespace runs inside one paragraph become single spaces."""
    return " ".join(text.split())


def code_lines(text: str) -> list[str]:
    """Each non-blank line of a code block as its own paragraph."""
    return [line.strip() for line in normalize_newlines(text).split("\n") if line.strip()]


def html_to_paragraphs(markup: str, *, drop_quotes: bool = False) -> list[str]:
    """Flatten HTML, XHTML or Confluence storage format into paragraphs.

    A fragment is wrapped in a root element so storage-format snippets parse;
    ``drop_quotes`` removes quoted replies from HTML email.
    """
    soup = parse_html(markup if _FULL_PAGE.search(markup) else f"<div>{markup}</div>")
    if drop_quotes:
        for quote in soup.select("blockquote, .gmail_quote, #appendonsend, #divRplyFwdMsg"):
            quote.decompose()
    return flatten(soup.body or soup)


def parse_html(markup: str) -> BeautifulSoup:
    """Lenient lxml parse that keeps ``ac:``/``ri:`` tag names.

    CDATA sections (code macro bodies) are escaped first: lxml's HTML parser
    would otherwise turn them into comments and lose the code.
    """
    escaped = _CDATA.sub(lambda m: html.escape(m.group(1), quote=False), markup)
    with warnings.catch_warnings():
        # Storage format is XML-ish on purpose; an XML parser would choke on its entities.
        warnings.simplefilter("ignore", XMLParsedAsHTMLWarning)
        return BeautifulSoup(escaped, "lxml")


def flatten(node: Tag) -> list[str]:
    """Paragraphs of an already parsed element: one per block, table row or code line."""
    flattener = _Flattener()
    flattener.walk(node)
    flattener.flush()
    return flattener.paragraphs


class _Flattener:
    """Walks a parse tree, buffering inline text until a block boundary."""

    def __init__(self) -> None:
        self.paragraphs: list[str] = []
        self._buffer: list[str] = []

    def flush(self) -> None:
        text = "".join(self._buffer)
        self._buffer.clear()
        for group in BLANK_LINES.split(text):
            lines = [collapse(line) for line in group.split("\n")]
            para = "\n".join(line for line in lines if line)
            if para:
                self.paragraphs.append(para)

    def walk(self, root: PageElement) -> None:
        """Depth-first, with an explicit stack: nesting depth is the input's to choose."""
        stack: list[PageElement | None] = [root]  # None: the end of a block, flush there
        while stack:
            node = stack.pop()
            if node is None:
                self.flush()
                continue
            children = self._visit(node)
            stack.extend(reversed(children))

    def _visit(self, node: PageElement) -> list[PageElement | None]:
        """Handle one node; returns what to walk next, in order (``None``: flush)."""
        if isinstance(node, NavigableString):
            if type(node) is NavigableString:  # not comments, doctypes or scripts
                self._inline(str(node))
            return []
        if not isinstance(node, Tag):
            return []
        name = node.name.lower()
        if name in _SKIP_TAGS or name in _SKIP_MACRO_PARTS:
            return []
        if name == "br":
            self._buffer.append("\n")
        elif name == "pre":
            self._block_lines(node.get_text())
        elif name == "tr":
            self._table_row(node)
        elif name == "ac:structured-macro" and node.get("ac:name") in _CODE_MACROS:
            body = node.find("ac:plain-text-body")
            self._block_lines(body.get_text() if body else "")
        elif name == "ac:structured-macro" and node.get("ac:name") in _INLINE_MACROS:
            self._inline(_macro_parameter(node, _INLINE_MACROS[str(node["ac:name"])]))
        elif name in ("ri:user", "ri:page", "ri:space", "ri:blog-post"):
            self._inline(_resource_name(node))
        elif name == "ac:link":
            self._link(node)
        elif name == "time" and not node.get_text(strip=True):
            self._inline(str(node.get("datetime", "")))
        elif name in _BLOCK_TAGS or (name.startswith("ac:") and name not in _INLINE_AC):
            self.flush()
            return [*node.children, None]
        else:
            return list(node.children)
        return []

    def _inline(self, text: str) -> None:
        """Source line breaks inside a paragraph are just spaces (only ``<br>`` breaks)."""
        self._buffer.append(_SPACES.sub(" ", text.replace("\n", " ")))

    def _block_lines(self, text: str) -> None:
        self.flush()
        self.paragraphs.extend(code_lines(text))

    def _table_row(self, row: Tag) -> None:
        self.flush()
        cells = [
            collapse(" ".join(flatten(cell)))
            for cell in row.find_all(["td", "th"], recursive=False)
        ]
        line = " | ".join(cell for cell in cells if cell)
        if line:
            self.paragraphs.append(line)

    def _link(self, link: Tag) -> None:
        body = link.find(["ac:plain-text-link-body", "ac:link-body"])
        if body is not None and body.get_text(strip=True):
            self._inline(body.get_text())
            return
        resource = link.find(["ri:user", "ri:page", "ri:space", "ri:blog-post", "ri:attachment"])
        if resource is not None:
            self._inline(_resource_name(resource))


def _resource_name(node: Tag) -> str:
    """Readable name of a Confluence resource reference (user, page, space)."""
    for attr in (
        "ri:display-name",
        "ri:username",
        "ri:content-title",
        "ri:space-key",
        "ri:filename",
        "ri:userkey",
        "ri:account-id",
    ):
        value = node.get(attr)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _macro_parameter(macro: Tag, name: str) -> str:
    """The one parameter an inline macro shows as text (a Jira key, a status title)."""
    for param in macro.find_all("ac:parameter"):
        if name and param.get("ac:name") == name:
            return str(param.get_text())
    return ""
