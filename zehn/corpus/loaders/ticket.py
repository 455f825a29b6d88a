"""Jira tickets from JSON exports (REST search results or one issue) and CSV exports.

Tickets carry status and resolution dates that answers must respect, so those
go into ``attrs``; comments stay in the text, each introduced by its author
and day so a cited sentence can be attributed.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from zehn.corpus.loaders.base import (
    as_str,
    collapse,
    compose,
    dig,
    join_paragraphs,
    json_head,
    parse_date,
    parse_json,
    read_bytes,
    read_text,
    relative_path,
)
from zehn.corpus.loaders.jira_text import jira_paragraphs, wiki_paragraphs
from zehn.corpus.model import Document, SourceType
from zehn.errors import EmptySource, MalformedSource

_KEY = re.compile(r"^[A-Za-z0-9._-]+$")
_BROWSE = re.compile(r"^(https?://[^/]+(?:/jira)?)/rest/api/")
_EPOCH = datetime.min.replace(tzinfo=UTC)
CSV_REQUIRED = ("Issue key", "Summary")


@dataclass
class Issue:
    """One ticket in a format-neutral shape, before it becomes a Document."""

    key: str
    summary: str
    description: list[str]
    comments: list[tuple[str, datetime | None, list[str]]] = field(default_factory=list)
    reporter: str = ""
    created: datetime | None = None
    updated: datetime | None = None
    uri: str = ""
    attrs: dict[str, str] = field(default_factory=dict)


def _is_issue(value: object) -> bool:
    return isinstance(value, dict) and isinstance(value.get("key"), str) and "fields" in value


def _issues(value: object) -> list[object] | None:
    """Issue objects of a Jira export: ``{"issues": [...]}``, a list, or one issue."""
    if _is_issue(value):
        return [value]
    items = dig(value, "issues") if isinstance(value, dict) else value
    if isinstance(items, list) and all(_is_issue(item) for item in items):
        return items if items or isinstance(value, dict) else None
    return None


def _name(value: object) -> str:
    """A Jira user or option object (displayName/name/value) or plain string."""
    if isinstance(value, dict):
        for key in ("displayName", "name", "value", "emailAddress"):
            if as_str(value.get(key)):
                return as_str(value.get(key))
        return ""
    return as_str(value)


def issue_from_json(item: object) -> Issue:
    """An issue object as returned by Jira's REST API (v2 wiki text or v3 ADF)."""
    fields = dig(item, "fields")
    comments = [
        (_name(dig(c, "author")), parse_date(dig(c, "created")), jira_paragraphs(dig(c, "body")))
        for c in _raw_comments(fields)
    ]
    self_url = _BROWSE.match(as_str(dig(item, "self")))
    key = as_str(dig(item, "key"))
    return Issue(
        key=key,
        summary=collapse(as_str(dig(fields, "summary"))),
        description=jira_paragraphs(dig(fields, "description")),
        comments=comments,
        reporter=_name(dig(fields, "reporter")),
        created=parse_date(dig(fields, "created")),
        updated=parse_date(dig(fields, "updated")),
        uri=f"{self_url[1]}/browse/{key}" if self_url else "",
        attrs={
            "status": _name(dig(fields, "status")),
            "resolution": _name(dig(fields, "resolution")),
            "resolved_at": _iso(parse_date(dig(fields, "resolutiondate"))),
            "issue_type": _name(dig(fields, "issuetype")),
            "priority": _name(dig(fields, "priority")),
        },
    )


def _raw_comments(fields: object) -> list[object]:
    """``fields.comment.comments`` (REST) or a bare ``fields.comment`` list."""
    comment = dig(fields, "comment")
    if isinstance(comment, dict):
        comment = comment.get("comments")
    return [c for c in comment if isinstance(c, dict)] if isinstance(comment, list) else []


def issues_from_csv(text: str, path: Path) -> list[Issue]:
    """Rows of a Jira CSV export; repeated ``Comment`` columns hold ``date;author;body``."""
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as e:
        raise MalformedSource(path, f"invalid CSV: {e}") from e
    header = [name.strip() for name in rows[0]] if rows else []
    missing = [name for name in CSV_REQUIRED if name not in header]
    if missing:
        raise MalformedSource(path, f"not a Jira CSV export: no {' or '.join(missing)} column")
    first = {name: header.index(name) for name in header}
    comment_columns = [index for index, name in enumerate(header) if name == "Comment"]
    issues: list[Issue] = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue

        def cell(name: str, row: list[str] = row) -> str:
            index = first.get(name)
            return row[index] if index is not None and index < len(row) else ""

        key = cell("Issue key").strip()
        if not key:
            raise MalformedSource(path, f"row {number} has no Issue key")
        cells = [row[i] for i in comment_columns if i < len(row) and row[i].strip()]
        comments = [_csv_comment(value) for value in cells]
        issues.append(
            Issue(
                key=key,
                summary=collapse(cell("Summary")),
                description=wiki_paragraphs(cell("Description")),
                comments=comments,
                reporter=cell("Reporter").strip(),
                created=parse_date(cell("Created")),
                updated=parse_date(cell("Updated")),
                attrs={
                    "status": cell("Status").strip(),
                    "resolution": cell("Resolution").strip(),
                    "resolved_at": _iso(parse_date(cell("Resolved"))) or cell("Resolved").strip(),
                    "issue_type": cell("Issue Type").strip(),
                    "priority": cell("Priority").strip(),
                },
            )
        )
    return issues


def _csv_comment(value: str) -> tuple[str, datetime | None, list[str]]:
    """``02/Oct/24 10:15 AM;jsmith;body`` (the body may itself contain ``;``)."""
    parts = value.split(";", 2)
    if len(parts) == 3 and parse_date(parts[0]) is not None:
        return parts[1].strip(), parse_date(parts[0]), wiki_paragraphs(parts[2])
    return "", None, wiki_paragraphs(value)


def _iso(value: datetime | None) -> str:
    return value.isoformat() if value else ""


def _comment_paragraphs(issue: Issue) -> list[str]:
    paragraphs: list[str] = []
    for author, when, body in sorted(issue.comments, key=lambda c: c[1] or _EPOCH):
        if not body:
            continue
        on = f" on {when:%Y-%m-%d}" if when else ""
        paragraphs.append(f"Comment by {author or 'unknown'}{on}:")
        paragraphs.extend(body)
    return paragraphs


class TicketLoader:
    """Jira JSON exports and Jira CSV exports."""

    source_type = SourceType.TICKET

    def accepts(self, path: Path, head: bytes) -> bool:
        """Every ``.csv`` (missing columns are reported), JSON shaped like Jira issues."""
        suffix = path.suffix.lower()
        return suffix == ".csv" or (suffix == ".json" and _issues(json_head(head)) is not None)

    def load(self, path: Path, root: Path) -> list[Document]:
        """One document per issue, in file order; duplicate keys keep the first."""
        if path.suffix.lower() == ".csv":
            issues = issues_from_csv(read_text(path), path)
        else:
            items = _issues(parse_json(read_bytes(path), path))
            if items is None:
                raise MalformedSource(path, "not a Jira issue export")
            issues = [issue_from_json(item) for item in items]
        documents: dict[str, Document] = {}
        for issue in issues:
            if issue.key not in documents:
                documents[issue.key] = self._document(path, root, issue)
        if not documents:
            raise EmptySource(path, "export holds no issues")
        return list(documents.values())

    def _document(self, path: Path, root: Path, issue: Issue) -> Document:
        if not _KEY.match(issue.key):
            raise MalformedSource(path, f"issue key {issue.key!r} is not a Jira key")
        if not issue.summary:
            raise MalformedSource(path, f"issue {issue.key} has no summary")
        body = join_paragraphs([*issue.description, *_comment_paragraphs(issue)])
        attrs = {"key": issue.key, **issue.attrs, "path": relative_path(path, root)}
        return Document(
            id=f"ticket/{issue.key}",
            source_type=self.source_type,
            title=issue.summary,
            text=compose(issue.summary, body),
            uri=issue.uri,
            author=issue.reporter,
            created_at=issue.created,
            updated_at=issue.updated,
            attrs={name: value for name, value in attrs.items() if value},
        )
