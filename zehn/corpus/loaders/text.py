"""Plain Markdown, reStructuredText and text files: the fallback loader.

Text is kept as written (line endings normalised, markup residue such as ``<style>``
blocks and ``style=`` attributes removed: ``residue``); a Hugo/YAML front
matter block is metadata, not prose, so it is cut from the text and its
``title`` used as the document title.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from zehn.corpus.loaders.base import (
    as_str,
    clean_lines,
    collapse,
    compose,
    decode_utf8,
    parse_date,
    read_bytes,
    relative_path,
    require_text,
)
from zehn.corpus.model import Document, SourceType, slugify

TEXT_SUFFIXES = frozenset({".md", ".markdown", ".txt", ".rst"})
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown"})
MAX_FRONT_MATTER_DEPTH = 64

_FRONT_MATTER = re.compile(r"\A(---|\+\+\+)[^\S\n]*\n(.*?)\n\1[^\S\n]*(?:\n|\Z)", re.DOTALL)
_HTML_TAG = re.compile(r"<[^>]+>")
_ATX_TITLE = re.compile(r"^#[^\S\n]+(.+?)[^\S\n]*#*[^\S\n]*$", re.MULTILINE)
_RST_TITLE = re.compile(
    r"\A(?:([=\-~*#^\"]{3,})\n)?([^\n]+)\n([=\-~*#^\"]{3,})[^\S\n]*$", re.MULTILINE
)


@dataclass(frozen=True)
class FrontMatter:
    """Metadata block at the top of a Markdown file and the body after it."""

    meta: dict[str, object] = field(default_factory=dict)
    body: str = ""


def split_front_matter(text: str) -> FrontMatter:
    """Separate a leading ``---`` YAML (or ``+++`` TOML) block from the body.

    A block that does not parse is still removed (it is not prose), but yields
    no metadata.
    """
    match = _FRONT_MATTER.match(text)
    if match is None:
        return FrontMatter(body=text)
    body = text[match.end() :]
    meta: object
    if _nests_deeper(match.group(2), MAX_FRONT_MATTER_DEPTH):
        return FrontMatter(body=body)  # no real front matter nests this deep; parsing is slow
    try:
        if match.group(1) == "---":
            meta = yaml.safe_load(match.group(2))
        else:
            meta = tomllib.loads(match.group(2))
    except (yaml.YAMLError, tomllib.TOMLDecodeError, RecursionError):
        meta = None
    return FrontMatter(meta=meta if isinstance(meta, dict) else {}, body=body)


def _nests_deeper(block: str, limit: int) -> bool:
    """Whether brackets and braces open more than ``limit`` deep (quotes ignored: a bound)."""
    if block.count("[") + block.count("{") <= limit:
        return False
    depth = 0
    for char in block:
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth = max(0, depth - 1)
    return False


def markdown_title(body: str) -> str:
    """The first ``# `` heading outside fenced code, or ''."""
    in_fence = False
    for line in body.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        match = None if in_fence else _ATX_TITLE.match(line)
        if match:
            heading = collapse(match.group(1))
            return collapse(_HTML_TAG.sub("", heading)) or heading
    return ""


def is_text(data: bytes) -> bool:
    """Extension-less files count as text only if UTF-8 without NUL bytes."""
    if b"\x00" in data:
        return False
    try:
        data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def text_doc_id(path: Path, root: Path) -> str:
    """``doc/<slug of each path part under root>``."""
    parts = relative_path(path, root).split("/")
    return "doc/" + "/".join(slugify(part) for part in parts)


class TextLoader:
    """Markdown/text fallback; accepts known text suffixes and extension-less text."""

    source_type = SourceType.TEXT

    def accepts(self, path: Path, head: bytes) -> bool:
        """Known text suffixes always (so bad encodings are reported); bare names if text."""
        suffix = path.suffix.lower()
        return suffix in TEXT_SUFFIXES or (suffix == "" and is_text(head))

    def load(self, path: Path, root: Path) -> list[Document]:
        """One document per file; front matter cut, title from it or the first heading."""
        text = decode_utf8(read_bytes(path), path)
        front = (
            split_front_matter(text)
            if path.suffix.lower() in MARKDOWN_SUFFIXES
            else FrontMatter(body=text)
        )
        body = clean_lines(front.body)
        require_text(body, path, "file (after front matter)")
        title = collapse(as_str(front.meta.get("title"))) or self._title(path, body)
        return [
            Document(
                id=text_doc_id(path, root),
                source_type=self.source_type,
                title=title,
                text=compose(title, body),
                author=as_str(front.meta.get("author")),
                created_at=parse_date(front.meta.get("date")),
                updated_at=parse_date(front.meta.get("lastmod")),
                attrs={"path": relative_path(path, root)},
            )
        ]

    @staticmethod
    def _title(path: Path, body: str) -> str:
        suffix = path.suffix.lower()
        if suffix in MARKDOWN_SUFFIXES:
            return markdown_title(body) or path.stem
        if suffix == ".rst":
            match = _RST_TITLE.search(body)
            if match and len(match.group(3)) >= len(match.group(2).strip()):
                return collapse(match.group(2))
        return path.stem or path.name
