"""Loader API: file walking, dispatch, the text fallback, and errors that name the file."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from zehn.corpus import loaders
from zehn.corpus.loaders import iter_source_files, load_file
from zehn.corpus.model import SourceType
from zehn.errors import (
    EmptySource,
    EncodingError,
    MalformedSource,
    SourceError,
    UnsupportedSource,
)
from zehn.reading.split import split_sentences

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sources"
FIXTURE_FILES = sorted(p.relative_to(FIXTURES).as_posix() for p in iter_source_files(FIXTURES))


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def test_public_api_is_explicit() -> None:
    assert {"iter_source_files", "load_file"} <= set(loaders.__all__)


def test_fixture_set_is_complete() -> None:
    assert len(FIXTURE_FILES) == 9


@pytest.mark.parametrize("relative", FIXTURE_FILES)
def test_every_sentence_slices_its_document_text(relative: str) -> None:
    documents = load_file(FIXTURES / relative, FIXTURES)
    assert documents
    for doc in documents:
        assert doc.text.startswith(doc.title + "\n\n")
        assert "\r" not in doc.text and "\n\n\n" not in doc.text
        assert doc.created_at is None or doc.created_at.tzinfo is not None
        sentences = split_sentences(doc.id, doc.text)
        assert sentences
        for sentence in sentences:
            assert doc.text[sentence.start : sentence.end] == sentence.text


def test_iter_source_files_sorted_recursive_and_skips_hidden(tmp_path: Path) -> None:
    for name in ("b.md", "a/z.md", "a/b/c.txt", ".hidden.md", ".git/config", "a/.cache/x.md"):
        write(tmp_path / name, "text")
    found = [p.relative_to(tmp_path).as_posix() for p in iter_source_files(tmp_path)]
    assert found == ["a/b/c.txt", "a/z.md", "b.md"]
    single = tmp_path / "b.md"
    assert list(iter_source_files(single)) == [single]


def test_markdown_front_matter_is_stripped_and_gives_the_title(tmp_path: Path) -> None:
    path = write(
        tmp_path / "docs" / "Getting Started.md",
        "---\ntitle: Getting started\ndate: 2024-02-01\n---\n\nInstall the CLI.\r\nThen run it.\n",
    )
    [doc] = load_file(path, tmp_path)
    assert doc.id == "doc/docs/getting-started-md"
    assert doc.source_type is SourceType.TEXT
    assert doc.title == "Getting started"
    assert doc.created_at == datetime(2024, 2, 1, tzinfo=UTC)
    assert doc.text == "Getting started\n\nInstall the CLI.\nThen run it."


def test_markdown_heading_is_not_repeated_as_title(tmp_path: Path) -> None:
    path = write(tmp_path / "README.md", "\ufeff# Search Service\n\nIt indexes pages.\n")
    [doc] = load_file(path, tmp_path)
    assert doc.id == "doc/readme-md"
    assert doc.title == "Search Service"
    assert doc.text == "# Search Service\n\nIt indexes pages."


def test_extensionless_text_file_is_accepted_by_name(tmp_path: Path) -> None:
    path = write(tmp_path / "LICENSE", "Apache License\nVersion 2.0\n")
    [doc] = load_file(path, path)
    assert doc.id == "doc/license"
    assert doc.title == "LICENSE"
    assert doc.text == "LICENSE\n\nApache License\nVersion 2.0"


def test_extensionless_binary_file_is_unsupported(tmp_path: Path) -> None:
    path = write(tmp_path / "blob", b"ab\x00cd")
    with pytest.raises(UnsupportedSource, match=str(path)):
        load_file(path, tmp_path)


def test_meeting_recognised_by_directory_with_date_from_file_name(tmp_path: Path) -> None:
    path = write(tmp_path / "meetings" / "2024-01-18-search-sync.md", "# Search sync\n\nAgreed.\n")
    [doc] = load_file(path, tmp_path)
    assert doc.source_type is SourceType.MEETING
    assert doc.id == "meeting/2024-01-18-search-sync"
    assert doc.title == "Search sync"
    assert doc.created_at == datetime(2024, 1, 18, tzinfo=UTC)
    assert doc.text == "# Search sync\n\nAgreed."


def test_list_of_pull_requests_yields_one_document_each(tmp_path: Path) -> None:
    pulls = [
        {"number": n, "title": f"Fix {n}", "body": None, "user": {"login": "a"},
         "html_url": f"https://github.com/acme/web/pull/{n}"}
        for n in (1, 2)
    ]  # fmt: skip
    path = write(tmp_path / "prs.json", json.dumps(pulls))
    docs = load_file(path, tmp_path)
    assert [d.id for d in docs] == ["pr/web-1", "pr/web-2"]
    assert docs[0].text == "Fix 1"


def test_broken_xhtml_still_loads(tmp_path: Path) -> None:
    path = write(tmp_path / "page.xhtml", "<h1>Runbook</h1><p>Restart the <b>indexer<p>Then check")
    [doc] = load_file(path, tmp_path)
    assert doc.id == "confluence/runbook"
    assert doc.text == "Runbook\n\nRestart the indexer\n\nThen check"


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("bad.md", b"caf\xe9 au lait\n", EncodingError),
        ("empty.md", b"", EmptySource),
        ("blank.txt", b"  \n\t\n", EmptySource),
        ("front-only.md", b"---\ntitle: Nothing\n---\n", EmptySource),
        ("truncated.json", b'{"issues": [{"key": "A-1", ', MalformedSource),
        ("shape.json", b'{"hello": "world"}', UnsupportedSource),
        ("latin1.json", b'{"title": "caf\xe9"}', EncodingError),
        ("no-key.csv", b"Summary,Status\nBroken,Open\n", MalformedSource),
        ("no-body.eml", b"Subject: Hi\nMessage-ID: <x@y>\n\n\n", EmptySource),
        ("image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", UnsupportedSource),
        (
            "empty-page.html",
            b"<html><body><div id='main-content'> </div></body></html>",
            EmptySource,
        ),
        ("no-summary.json", b'{"key": "A-1", "fields": {"summary": ""}}', MalformedSource),
        ("bad-key.json", b'{"key": "A 1", "fields": {"summary": "x"}}', MalformedSource),
    ],
)
def test_unusable_files_raise_source_errors_naming_the_path(
    tmp_path: Path, name: str, content: bytes, error: type[SourceError]
) -> None:
    path = write(tmp_path / name, content)
    with pytest.raises(error) as caught:
        load_file(path, tmp_path)
    assert caught.value.path == str(path)
    assert str(path) in str(caught.value)


def test_email_with_unknown_charset_is_an_encoding_error(tmp_path: Path) -> None:
    raw = b"Subject: Hi\nContent-Type: text/plain; charset=x-klingon\n\nqapla'\n"
    path = write(tmp_path / "odd.eml", raw)
    with pytest.raises(EncodingError, match="x-klingon"):
        load_file(path, tmp_path)


def test_email_body_invalid_in_declared_charset_is_an_encoding_error(tmp_path: Path) -> None:
    raw = b"Subject: Hi\nContent-Type: text/plain; charset=utf-8\n\ncaf\xe9\n"
    path = write(tmp_path / "bad.eml", raw)
    with pytest.raises(EncodingError, match="utf-8"):
        load_file(path, tmp_path)


def test_oversized_file_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("zehn.corpus.loaders.base.MAX_SOURCE_BYTES", 10)
    path = write(tmp_path / "big.md", "x" * 11)
    with pytest.raises(SourceError, match="over the 10 limit"):
        load_file(path, tmp_path)


def test_missing_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot read"):
        load_file(tmp_path / "gone.md", tmp_path)


def test_storage_format_xhtml_file_with_xml_declaration(tmp_path: Path) -> None:
    path = write(
        tmp_path / "Deploy Notes.xhtml",
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<ac:structured-macro ac:name="code"><ac:plain-text-body><![CDATA[make deploy]]>'
        "</ac:plain-text-body></ac:structured-macro>\n"
        '<p>Ping <ac:link><ri:user ri:username="ops.bot"/></ac:link> after&nbsp;deploy.</p>\n'
        "<table><tr><td><p>a</p><table><tr><td>inner</td></tr></table></td><td>b</td></tr></table>",
    )
    [doc] = load_file(path, tmp_path)
    assert doc.id == "confluence/deploy-notes"
    assert doc.text == "Deploy Notes\n\nmake deploy\n\nPing ops.bot after deploy.\n\na inner | b"


def test_mbox_skips_bodyless_messages_and_dedupes_ids(tmp_path: Path) -> None:
    message = "From a@x Mon Mar  4 17:01:00 2024\nMessage-ID: <same@x>\nSubject: {s}\n\n{b}\n\n"
    mbox = "".join(
        message.format(s=s, b=b) for s, b in [("One", "Hi."), ("Two", ""), ("Three", "Yo.")]
    )
    docs = load_file(write(tmp_path / "box.mbox", mbox), tmp_path)
    assert [(d.id, d.title) for d in docs] == [("email/same", "One"), ("email/same-2", "Three")]


def test_a_meetings_directory_above_the_corpus_root_does_not_make_notes_meetings(
    tmp_path: Path,
) -> None:
    root = tmp_path / "meetings" / "wiki"
    root.mkdir(parents=True)
    (root / "design.md").write_text("# Design\n\nThe indexer feeds search-api.\n", "utf-8")
    (root / "meetings").mkdir()
    (root / "meetings" / "sync.md").write_text("# Sync\n\nWe met.\n", "utf-8")
    assert [d.source_type.value for d in load_file(root / "design.md", root)] == ["text"]
    assert [d.source_type.value for d in load_file(root / "meetings" / "sync.md", root)] == [
        "meeting"
    ]
