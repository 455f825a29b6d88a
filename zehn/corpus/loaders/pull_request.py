"""GitHub pull requests: the description plus the review discussion around it.

Review comments often record why a change was made, so they are kept in the
text, each introduced by who said it and on which file. Markdown bodies are
kept as written.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from zehn.corpus.loaders.base import (
    as_str,
    as_text,
    clean_lines,
    collapse,
    compose,
    dig,
    join_paragraphs,
    json_head,
    parse_date,
    parse_json,
    read_bytes,
    relative_path,
)
from zehn.corpus.model import Document, SourceType, slugify
from zehn.errors import MalformedSource

_PULL_URL = re.compile(r"github\.com/([^/]+)/([^/]+)/pull/\d+")
_EPOCH = datetime.min.replace(tzinfo=UTC)


def is_pull(value: object) -> bool:
    """A GitHub REST pull object: number, title and a base ref or a ``/pull/`` URL."""
    if not isinstance(value, dict) or "number" not in value or "title" not in value:
        return False
    return "base" in value or "/pull/" in as_str(value.get("html_url"))


def _pulls(value: object) -> list[object] | None:
    if is_pull(value):
        return [value]
    if isinstance(value, list) and value and all(is_pull(item) for item in value):
        return value
    return None


def _repo(pull: object) -> tuple[str, str]:
    """(full name, short name) from ``base.repo``, else from the pull's URL."""
    full = as_str(dig(pull, "base", "repo", "full_name"))
    name = as_str(dig(pull, "base", "repo", "name"))
    if not full:
        match = _PULL_URL.search(as_str(dig(pull, "html_url")))
        if match:
            full = f"{match[1]}/{match[2]}"
    return full, name or full.rsplit("/", 1)[-1]


def _discussion(items: object, heading: str) -> list[str]:
    """Comment paragraphs in ``created_at`` order, each after its attribution line."""
    if not isinstance(items, list):
        return []
    dicts = [item for item in items if isinstance(item, dict)]
    dicts.sort(key=lambda item: parse_date(item.get("created_at")) or _EPOCH)
    paragraphs: list[str] = []
    for item in dicts:
        body = clean_lines(as_text(item.get("body")))
        if not body:
            continue
        login = as_str(dig(item, "user", "login")) or "unknown"
        where = as_str(item.get("path"))
        paragraphs.append(heading.format(login=login, on=f" on {where}" if where else ""))
        paragraphs.append(body)
    return paragraphs


class PullRequestLoader:
    """GitHub pull JSON (one object or a list), with merged-in comment arrays."""

    source_type = SourceType.PULL_REQUEST

    def accepts(self, path: Path, head: bytes) -> bool:
        """JSON holding one pull object or a list of them."""
        return path.suffix.lower() == ".json" and _pulls(json_head(head)) is not None

    def load(self, path: Path, root: Path) -> list[Document]:
        """One document per pull request."""
        pulls = _pulls(parse_json(read_bytes(path), path))
        if pulls is None:
            raise MalformedSource(path, "not a GitHub pull request object or list")
        return [self._document(path, root, pull) for pull in pulls]

    def _document(self, path: Path, root: Path, pull: object) -> Document:
        number = as_str(dig(pull, "number"))
        title = collapse(as_str(dig(pull, "title")))
        full_name, name = _repo(pull)
        if not number or not title:
            raise MalformedSource(path, "pull request lacks a number or title")
        if not name:
            raise MalformedSource(path, f"pull request {number} has no base.repo or html_url")
        paragraphs = [
            clean_lines(as_text(dig(pull, "body"))),
            *_discussion(dig(pull, "review_comments"), "Review comment by {login}{on}:"),
            *_discussion(dig(pull, "comments"), "Comment by {login}:"),
        ]
        attrs = {
            "number": number,
            "repo": full_name,
            "state": as_str(dig(pull, "state")),
            "merged_at": as_str(dig(pull, "merged_at")),
            "path": relative_path(path, root),
        }
        return Document(
            id=f"pr/{slugify(name)}-{slugify(number)}",
            source_type=self.source_type,
            title=title,
            text=compose(title, join_paragraphs(paragraphs)),
            uri=as_str(dig(pull, "html_url")),
            author=as_str(dig(pull, "user", "login")),
            created_at=parse_date(dig(pull, "created_at")),
            updated_at=parse_date(dig(pull, "updated_at")),
            attrs={key: value for key, value in attrs.items() if value},
        )
