"""Turn source files (Confluence, PRs, meetings, email, Jira, text) into Documents.

``iter_source_files`` decides what an ingest walks; ``load_file`` hands each file
to the first loader that accepts it. Every failure is a ``SourceError`` family
member naming the file, so one bad file can be reported and skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from zehn.corpus.loaders.base import Loader, parse_json, read_bytes
from zehn.corpus.loaders.confluence import ConfluenceLoader
from zehn.corpus.loaders.email import EmailLoader
from zehn.corpus.loaders.meeting import MeetingLoader
from zehn.corpus.loaders.pull_request import PullRequestLoader
from zehn.corpus.loaders.text import TextLoader
from zehn.corpus.loaders.ticket import TicketLoader
from zehn.corpus.model import Document
from zehn.errors import EmptySource, UnsupportedSource

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
        if loader.accepts(seen_from_root, data):
            return loader.load(path, root)
    if path.suffix.lower() == ".json":
        reason = "JSON of an unknown shape (not a Confluence page, GitHub pull or Jira export)"
    else:
        reason = f"no loader accepts {path.suffix or 'extension-less'} files of this content"
    raise UnsupportedSource(path, reason)
