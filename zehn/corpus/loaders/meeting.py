"""Meeting notes: Markdown with attendees, a date and decisions worth citing.

Recognised by front matter (``type: meeting`` or an ``attendees`` key) or by
living under a ``meetings`` / ``meeting-notes`` directory. The body is kept as
written; the date matters for staleness, so it falls back to the file name.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

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
from zehn.corpus.loaders.text import MARKDOWN_SUFFIXES, markdown_title, split_front_matter
from zehn.corpus.model import Document, SourceType, slugify

MEETING_DIRS = frozenset({"meetings", "meeting-notes"})
_DATE_IN_NAME = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def _names(value: object) -> str:
    """A person or list of people from front matter, comma-joined."""
    if isinstance(value, list | tuple):
        return ", ".join(name for name in (as_str(item) for item in value) if name)
    return as_str(value)


def is_meeting_meta(meta: dict[str, object]) -> bool:
    """Front matter that marks a file as meeting notes."""
    return as_str(meta.get("type")).lower() == "meeting" or "attendees" in meta


class MeetingLoader:
    """Markdown meeting notes with front matter or under a meetings directory."""

    source_type = SourceType.MEETING

    def accepts(self, path: Path, head: bytes) -> bool:
        """Markdown in a meetings directory, or whose front matter says it is a meeting."""
        if path.suffix.lower() not in MARKDOWN_SUFFIXES:
            return False
        if any(part.lower() in MEETING_DIRS for part in path.parent.parts):
            return True
        try:
            text = head.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        except UnicodeDecodeError:
            return False  # the text loader reports the encoding error
        return is_meeting_meta(split_front_matter(text.replace("\r\n", "\n")).meta)

    def load(self, path: Path, root: Path) -> list[Document]:
        """One document; title, date, author and attendees from front matter first."""
        text = decode_utf8(read_bytes(path), path)
        front = split_front_matter(text)
        body = clean_lines(front.body)
        require_text(body, path, "meeting note (after front matter)")
        meta = front.meta
        title = collapse(as_str(meta.get("title"))) or markdown_title(body) or path.stem
        attrs = {"path": relative_path(path, root)}
        attendees = _names(meta.get("attendees"))
        if attendees:
            attrs["attendees"] = attendees
        return [
            Document(
                id=f"meeting/{slugify(path.stem)}",
                source_type=self.source_type,
                title=title,
                text=compose(title, body),
                author=_names(meta.get("author")),
                created_at=parse_date(meta.get("date")) or self._date_from_name(path),
                attrs=attrs,
            )
        ]

    @staticmethod
    def _date_from_name(path: Path) -> datetime | None:
        match = _DATE_IN_NAME.search(path.name)
        return parse_date(match.group(0)) if match else None
