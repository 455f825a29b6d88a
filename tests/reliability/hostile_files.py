"""Hostile source files: every loader's format, broken in each way an attacker or an accident can.

A *kind* is a place in a corpus (which decides the loader) plus a valid seed
file of that format; a *category* turns a seed into a hostile variant. The
same functions serve the property-based tests (parameters drawn by
hypothesis) and the fixed corpus (one file per kind and category).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import FIXTURES, REPO

SOURCES = FIXTURES / "sources"
STORAGE_XHTML = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<ac:layout><ac:layout-section><ac:layout-cell>'
    b"<h1>Storage page</h1><p>The storage page mentions the indexer. It also names "
    b'<ac:link><ri:page ri:content-title="search-api" /></ac:link>.</p>'
    b"</ac:layout-cell></ac:layout-section></ac:layout>\n"
)
RST = b"Runbook\n=======\n\nRestart the indexer first. Then check search-api.\n"
PLAIN = b"Plain notes.\n\nThe indexer reads from feature-store. Nobody owns the cron job.\n"


@dataclass(frozen=True)
class Kind:
    """Where a file sits in the corpus (decides its loader) and a valid seed of its format."""

    name: str
    path: str
    seed: bytes

    @property
    def markup(self) -> bool:
        return self.path.endswith((".html", ".xhtml"))

    @property
    def json(self) -> bool:
        return self.path.endswith(".json")


KINDS: tuple[Kind, ...] = (
    Kind("confluence html", "confluence/page.html", (SOURCES / "confluence/indexer-design.html").read_bytes()),
    Kind("confluence xhtml", "confluence/storage.xhtml", STORAGE_XHTML),
    Kind("confluence json", "confluence/rest.json", (SOURCES / "confluence/release-pipeline.json").read_bytes()),
    Kind("pull request json", "pull_requests/pr.json", (SOURCES / "pull_requests/search-412.json").read_bytes()),
    Kind("jira json", "tickets/export.json", (SOURCES / "tickets/jira-export.json").read_bytes()),
    Kind("jira csv", "tickets/export.csv", (SOURCES / "tickets/jira-export.csv").read_bytes()),
    Kind("email eml", "email/message.eml", (SOURCES / "email/reply.eml").read_bytes()),
    Kind("email html eml", "email/html.eml", (SOURCES / "email/html-only.eml").read_bytes()),
    Kind("email mbox", "email/archive.mbox", (SOURCES / "email/archive.mbox").read_bytes()),
    Kind("meeting markdown", "meetings/2024-01-18-sync.md",
         (REPO / "data/sample/sources/meetings/2024-01-18-search-sync.md").read_bytes()),
    Kind("markdown", "notes/page.md", (SOURCES / "notes/indexer-sync.md").read_bytes()),
    Kind("restructuredtext", "notes/page.rst", RST),
    Kind("plain text", "notes/plain.txt", PLAIN),
    Kind("extension-less text", "notes/README", PLAIN),
)  # fmt: skip
KIND_NAMES = tuple(k.name for k in KINDS)

# --- categories: seed -> hostile bytes ------------------------------------------------------


def truncated(kind: Kind, fraction: float) -> bytes:
    """Cut anywhere: mid-tag, mid-string, mid-multibyte character."""
    return kind.seed[: int(len(kind.seed) * fraction)]


def nested(kind: Kind, depth: int) -> bytes:
    """Markup or JSON nested ``depth`` deep around the seed (deeper than any stack allows)."""
    if kind.json:
        return b'{"a":' * depth + kind.seed + b"}" * depth
    if kind.markup:
        return b"<div><b>" * depth + kind.seed + b"</b></div>" * depth
    if kind.path.endswith(".md"):  # YAML front matter that nests, then the body
        return b"---\ntitle: " + b"[" * depth + b"]" * depth + b"\n---\n" + kind.seed
    if kind.path.endswith(".eml"):  # MIME parts inside MIME parts
        return _nested_mime(depth) + kind.seed
    return b"> " * depth + kind.seed


def _nested_mime(depth: int) -> bytes:
    head = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(depth)
    )
    return b"Subject: nested\nFrom: x@example.com\n" + head + b"Content-Type: text/plain\n\nHi.\n"


def huge_line(kind: Kind, size: int, at: float) -> bytes:
    """One line of ``size`` bytes, no newline, spliced in."""
    cut = int(len(kind.seed) * at)
    return kind.seed[:cut] + b"A" * size + kind.seed[cut:]


def with_nul(kind: Kind, at: float, count: int) -> bytes:
    cut = int(len(kind.seed) * at)
    return kind.seed[:cut] + b"\x00" * count + kind.seed[cut:]


MIXED_FRAGMENTS = (
    "café".encode("latin-1"),
    "naïve".encode("cp1252"),
    "Grüße".encode("utf-16"),
    b"\xff\xfe\x00\x00",
    b"\xed\xa0\x80",  # a surrogate, UTF-8-encoded: never valid UTF-8
    "résumé".encode() + "résumé".encode("latin-1"),
    b"\xef\xbb\xbf",
)


def mixed_encoding(kind: Kind, at: float, fragment: bytes) -> bytes:
    cut = int(len(kind.seed) * at)
    return kind.seed[:cut] + fragment + kind.seed[cut:]


def json_escapes(kind: Kind, which: int) -> bytes:
    """JSON that spells what cannot be stored: NUL or an unpaired surrogate, inside a string."""
    escape = (b"\\u0000", b"\\ud800", b"\\udfff", b"\\ud83d")[which % 4]
    if kind.json:
        return kind.seed.replace(b'": "', b'": "' + escape, 1 + which % 3)
    return mixed_encoding(kind, 0.5, escape)


def repeated(kind: Kind, times: int) -> bytes:
    """A small file that asks for a lot: the seed's content ``times`` over (zip-bomb-like)."""
    if kind.json:
        data = json.loads(kind.seed)
        items = data if isinstance(data, list) else [data]
        return json.dumps(items * times).encode()
    if kind.path.endswith(".csv"):
        header, _, rows = kind.seed.partition(b"\n")
        return header + b"\n" + rows * times
    if kind.path.endswith(".md"):  # YAML alias expansion: a billion laughs in front matter
        levels = [b'l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
        levels += [
            b"l%d: &l%d [%s]" % (i, i, b",".join([b"*l%d" % (i - 1)] * 9)) for i in range(1, 9)
        ]
        bomb = b"\n".join(levels)
        return b"---\n" + bomb + b"\ntitle: *l8\nattendees: *l8\n---\n" + kind.seed * times
    return kind.seed * times


EMPTY_VARIANTS = (b"", b" \n\t\r\n", b"\xef\xbb\xbf", b"\n" * 1000, b"{}", b"[]", b"<html></html>")


def empty(kind: Kind, variant: int) -> bytes:
    del kind
    return EMPTY_VARIANTS[variant % len(EMPTY_VARIANTS)]


def spliced(kind: Kind, at: float, noise: bytes) -> bytes:
    cut = int(len(kind.seed) * at)
    return kind.seed[:cut] + noise + kind.seed[cut:]


def random_bytes(kind: Kind, noise: bytes) -> bytes:
    del kind
    return noise


# One fixed, deterministic variant per category: the corpus test ingests all of them.
FIXED: dict[str, tuple[object, ...]] = {
    "random bytes": (random_bytes, bytes(range(256)) * 4),
    "truncated": (truncated, 0.61),
    "nested markup": (nested, 1100),  # past the interpreter's recursion limit (1000)
    "huge line": (huge_line, 200_000, 0.5),
    "NUL bytes": (with_nul, 0.4, 3),
    "mixed encodings": (mixed_encoding, 0.5, MIXED_FRAGMENTS[0]),
    "JSON escapes (surrogate, NUL)": (json_escapes, 1),
    "zip-bomb-like repetition": (repeated, 60),
    "empty": (empty, 0),
    "random splice": (spliced, 0.3, b"<\xff>\"'\\\x00]}"),
}
CATEGORIES = tuple(FIXED)


def fixed_variant(kind: Kind, category: str) -> bytes:
    function, *args = FIXED[category]
    return function(kind, *args)  # type: ignore[operator, no-any-return]


def write(root: Path, relative: str, data: bytes) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
