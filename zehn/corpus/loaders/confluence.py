"""Confluence pages: HTML export, storage-format XHTML, or REST API JSON.

Design decisions live in Confluence, so its pages are the most cited source.
Exports carry a lot of chrome (breadcrumbs, metadata, attachments); only the
page body becomes text, while title, author and dates come from the metadata.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from bs4 import BeautifulSoup, Tag
from bs4.exceptions import ParserRejectedMarkup

from zehn.corpus.loaders.base import (
    as_str,
    collapse,
    compose,
    dig,
    flatten,
    html_to_paragraphs,
    join_paragraphs,
    json_head,
    parse_date,
    parse_html,
    parse_json,
    read_bytes,
    read_text,
    relative_path,
)
from zehn.corpus.model import Document, SourceType, slugify
from zehn.errors import EmptySource, MalformedSource

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
_SPACE_PREFIX = re.compile(r"^[^:]+ : ")
_METADATA = re.compile(
    r"Created by (?P<author>.+?)"
    r"(?P<modified>, last modified(?: by (?P<editor>.+?))?)?"
    r" on (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})"
)
# The same line from a Chinese-language Confluence: "由 张伟创建, 最后修改人 李娜, 于 三月 20, 2024"
_METADATA_ZH = re.compile(
    r"由\s*(?P<author>[^，,]+?)\s*创建"
    r"(?P<modified>[，,]\s*最后修改(?:人\s*(?P<editor>[^，,]+?))?)?"
    r"[，,]?\s*于\s*(?P<date>\d{4}\s*[年/-]\s*\d{1,2}\s*[月/-]\s*\d{1,2}\s*日?"
    r"|[一二三四五六七八九十]{1,3}月\s*\d{1,2}\s*[,，]\s*\d{4})"
)
_ZH_MONTHS = {m: i for i, m in enumerate("一 二 三 四 五 六 七 八 九 十 十一 十二".split(), 1)}
_CHROME = "#breadcrumb-section, #title-heading, .page-metadata, #footer, .pageSection"


@dataclass
class _Page:
    """What one page contributes before it becomes a Document."""

    title: str
    paragraphs: list[str]
    author: str = ""
    created_at: datetime | None = None
    updated_at: datetime | None = None
    uri: str = ""
    attrs: dict[str, str] = field(default_factory=dict)


def _is_content(value: object) -> bool:
    return isinstance(value, dict) and isinstance(dig(value, "body", "storage", "value"), str)


def _content_list(value: object) -> list[object] | None:
    """The page objects in a REST answer: one content object or ``{"results": [...]}``."""
    if _is_content(value):
        return [value]
    results = dig(value, "results")
    if isinstance(results, list) and results and all(_is_content(item) for item in results):
        return results
    return None


class ConfluenceLoader:
    """Confluence HTML exports, storage-format XHTML and REST content JSON."""

    source_type = SourceType.CONFLUENCE

    def accepts(self, path: Path, head: bytes) -> bool:
        """HTML/XHTML by suffix; JSON only when it holds ``body.storage.value``."""
        suffix = path.suffix.lower()
        if suffix in HTML_SUFFIXES:
            return True
        return suffix == ".json" and _content_list(json_head(head)) is not None

    def load(self, path: Path, root: Path) -> list[Document]:
        """One document per page; empty pages are refused."""
        rel = relative_path(path, root)
        if path.suffix.lower() == ".json":
            contents = _content_list(parse_json(read_bytes(path), path))
            if contents is None:
                raise MalformedSource(path, "no Confluence content with body.storage.value")
            pages = [self._from_rest(path, item) for item in contents]
        else:
            pages = [self._from_html(path, read_text(path))]
        documents = []
        for page in pages:
            if not page.paragraphs:
                raise EmptySource(path, f"page {page.title!r} has no body text")
            documents.append(
                Document(
                    id=f"confluence/{slugify(page.title)}",
                    source_type=self.source_type,
                    title=page.title,
                    text=compose(page.title, join_paragraphs(page.paragraphs)),
                    uri=page.uri,
                    author=page.author,
                    created_at=page.created_at,
                    updated_at=page.updated_at,
                    attrs={"path": rel, **page.attrs},
                )
            )
        return documents

    @staticmethod
    def _from_html(path: Path, text: str) -> _Page:
        """An HTML export page (or a bare storage-format fragment)."""
        try:
            soup = parse_html(text)
        except ParserRejectedMarkup as e:
            raise MalformedSource(path, f"unparseable HTML: {e}") from e
        page = _Page(title=_html_title(soup) or path.stem, paragraphs=[])
        metadata = soup.select_one(".page-metadata")
        if metadata is not None:
            _apply_metadata(page, collapse(metadata.get_text(" ")))
        body = soup.select_one("#main-content")
        if body is None:
            body = soup.body or soup
            for chrome in body.select(_CHROME):
                chrome.decompose()
        page.paragraphs = flatten(body)
        return page

    @staticmethod
    def _from_rest(path: Path, item: object) -> _Page:
        """A REST content object (``expand=body.storage,history,version,space``)."""
        title = collapse(as_str(dig(item, "title")))
        if not title:
            raise MalformedSource(path, "Confluence content has no title")
        try:
            paragraphs = html_to_paragraphs(as_str(dig(item, "body", "storage", "value")))
        except ParserRejectedMarkup as e:
            raise MalformedSource(path, f"unparseable storage format: {e}") from e
        webui = as_str(dig(item, "_links", "webui"))
        base = as_str(dig(item, "_links", "base"))
        attrs = {
            "page_id": as_str(dig(item, "id")),
            "space_key": as_str(dig(item, "space", "key")),
            "last_modified_by": as_str(dig(item, "version", "by", "displayName")),
        }
        return _Page(
            title=title,
            paragraphs=paragraphs,
            author=as_str(dig(item, "history", "createdBy", "displayName")),
            created_at=parse_date(dig(item, "history", "createdDate")),
            updated_at=parse_date(dig(item, "version", "when")),
            uri=base.rstrip("/") + webui if base and webui else webui,
            attrs={key: value for key, value in attrs.items() if value},
        )


def _html_title(soup: BeautifulSoup) -> str:
    """``#title-text``, else ``<title>``, else the first ``h1``; minus ``Space : ``."""
    for selector in ("#title-text", "title", "h1"):
        node = soup.select_one(selector)
        if isinstance(node, Tag):
            title = collapse(node.get_text(" "))
            if title and selector != "h1":
                return _SPACE_PREFIX.sub("", title, count=1) or title
            if title:
                return title
    return ""


def _apply_metadata(page: _Page, text: str) -> None:
    """Author and dates from "Created by X, last modified by Y on Mar 02, 2024" (or Chinese)."""
    match = _METADATA.search(text) or _METADATA_ZH.search(text)
    if match is None:
        return
    page.author = match["author"].strip()
    when = parse_date(match["date"]) or _chinese_date(match["date"])
    if match["modified"]:
        page.updated_at = when
        page.attrs["last_modified_by"] = (match["editor"] or page.author).strip()
    else:
        page.created_at = when


def _chinese_date(text: str) -> datetime | None:
    """ "2024年3月20日", "2024/3/20" or "三月 20, 2024" (Confluence's Chinese month names)."""
    numeric = re.fullmatch(r"(\d{4})\s*[年/-]\s*(\d{1,2})\s*[月/-]\s*(\d{1,2})\s*日?", text)
    named = re.fullmatch(r"([一二三四五六七八九十]{1,3})月\s*(\d{1,2})\s*[,，]\s*(\d{4})", text)
    try:
        if numeric:
            year, month, day = (int(g) for g in numeric.groups())
        elif named and named[1] in _ZH_MONTHS:
            year, month, day = int(named[3]), _ZH_MONTHS[named[1]], int(named[2])
        else:
            return None
        return parse_date(datetime(year, month, day))
    except ValueError:  # "2024年2月30日"
        return None
