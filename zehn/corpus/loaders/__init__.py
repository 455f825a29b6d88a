"""Turn source files (Confluence, PRs, meetings, email, Jira, text) into Documents.

``iter_source_files`` decides what an ingest walks; ``load_file`` hands each file
to the first loader that accepts it. Every failure is a ``SourceError`` family
member naming the file, so one bad file can be reported and skipped.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import TypeVar

from zehn.corpus.loaders.base import Loader, parse_json, read_bytes
from zehn.corpus.loaders.confluence import ConfluenceLoader
from zehn.corpus.loaders.email import EmailLoader
from zehn.corpus.loaders.meeting import MeetingLoader
from zehn.corpus.loaders.pull_request import PullRequestLoader
from zehn.corpus.loaders.text import TextLoader
from zehn.corpus.loaders.ticket import TicketLoader
from zehn.corpus.model import Document
from zehn.errors import (
    EmptySource,
    EncodingError,
    MalformedSource,
    SourceError,
    UnsupportedSource,
)

__all__ = [
    "LOADERS",
    "ConfluenceLoader",
    "EmailLoader",
    "Loader",
    "MeetingLoader",
    "PullRequestLoader",
    "TextLoader",
    "TicketLoader",
    "iter_source_files",
    "load_file",
]

T = TypeVar("T")

# Order matters: specific formats first, the plain-text fallback last.
LOADERS: tuple[Loader, ...] = (
    ConfluenceLoader(),
    PullRequestLoader(),
    TicketLoader(),
    EmailLoader(),
    MeetingLoader(),
    TextLoader(),
)


def iter_source_files(root: Path) -> Iterator[Path]:
    """Files under ``root`` in sorted order, skipping hidden files and directories."""
    if root.is_file():
        yield root
        return
    found: list[Path] = []
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        base = Path(directory)
        found.extend(base / name for name in filenames if not name.startswith("."))
    found.sort(key=lambda path: path.relative_to(root).parts)
    for path in found:
        if path.is_file():
            yield path


def load_file(path: Path, root: Path) -> list[Document]:
    """Documents from one file, via the first loader that accepts it.

    Raises a ``SourceError`` family member (path and reason) when the file is
    too large, undecodable, empty, malformed, or of a kind no loader takes.
    """
    data = read_bytes(path)
    if not data.strip():
        raise EmptySource(path, "file is empty")
    if path.suffix.lower() == ".json":
        parse_json(data, path)  # broken JSON is malformed, not merely unsupported
    # Loaders decide on the path as seen from the corpus root, so a directory
    # named "meetings" above the corpus does not make every note a meeting.
    seen_from_root = path.relative_to(root) if path.is_relative_to(root) else Path(path.name)
    for loader in LOADERS:
        if _guarded(path, loader, partial(loader.accepts, seen_from_root, data)):
            documents = _guarded(path, loader, partial(loader.load, path, root))
            ids: set[str] = set()
            for doc in documents:
                _check_sendable(path, doc)
                if doc.id in ids:  # the second would silently replace the first
                    raise MalformedSource(path, f"document id {doc.id!r} appears twice")
                ids.add(doc.id)
            return documents
    if path.suffix.lower() == ".json":
        reason = "JSON of an unknown shape (not a Confluence page, GitHub pull or Jira export)"
    else:
        reason = f"no loader accepts {path.suffix or 'extension-less'} files of this content"
    raise UnsupportedSource(path, reason)


def _guarded(path: Path, loader: Loader, step: Callable[[], T]) -> T:
    """Run one loader step; a parser's own exception becomes a typed ``SourceError``.

    Loaders raise ``SourceError`` for what they recognise; anything else a
    parser throws on hostile input (nesting deeper than the stack, numbers no
    date can hold, text no codec round-trips) is still this one file's
    problem, so it is reported with the file's path instead of ending an ingest.
    """
    name = type(loader).__name__
    try:
        return step()
    except SourceError:
        raise
    except RecursionError as e:
        raise MalformedSource(path, f"nested too deeply for {name} to read") from e
    except UnicodeError as e:
        raise EncodingError(path, f"{name}: text cannot be encoded: {e}") from e
    except (ValueError, TypeError, LookupError, AttributeError, ArithmeticError) as e:
        raise MalformedSource(path, f"{name} cannot read it: {type(e).__name__}: {e}") from e


def _check_sendable(path: Path, doc: Document) -> None:
    """Every stored string is valid UTF-8 without NUL, or the file is refused before writing.

    JSON can spell both (``"\\u0000"``, an unpaired ``"\\ud800"``), and neither can be
    stored: a document that carried one would fail mid-ingest instead of being reported.
    """
    fields = [("id", doc.id), ("title", doc.title), ("text", doc.text), ("uri", doc.uri)]
    fields.append(("author", doc.author))
    for key, value in doc.attrs.items():
        fields += [("an attribute name", key), (f"attribute {key!r}", value)]
    for name, value in fields:
        if "\x00" in value:
            raise MalformedSource(path, f"document {doc.id!r}: {name} contains NUL characters")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as e:
            reason = f"document {doc.id!r}: {name} holds an unpaired surrogate at {e.start}"
            raise EncodingError(path, reason) from e
