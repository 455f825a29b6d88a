"""Reading a catalog corpus in two processes gives exactly what one process gives."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from zehn.config import Settings
from zehn.corpus.model import SourceText
from zehn.extract import base
from zehn.extract.rules import RulesStrategy
from zehn.reading.catalog import Catalog
from zehn.reading.model import Entity
from zehn.reading.split import chunk_sentences, split_sentences

pytestmark = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)

CATALOG = Catalog(
    (
        Entity("quill-ledger", "service"),
        Entity("blob-vault", "datastore"),
        Entity("ingest-queue", "topic"),
        Entity("Pixel Forge", "team"),
    )
)
PAGES = [
    "# Quill Ledger\n\nquill-ledger reads from blob-vault. It publishes to ingest-queue.",
    "# Vault\n\nblob-vault does not depend on quill-ledger. Pixel Forge owns blob-vault.",
    "# Queue\n\ningest-queue feeds quill-ledger. The service might call blob-vault.",
    "# Notes\n\nNothing here names a component. quill-ledger calls blob-vault.",
]


def _documents(copies: int) -> list[SourceText]:
    out = []
    for n in range(copies):
        for i, text in enumerate(PAGES):
            doc_id = f"doc/page-{n:03d}-{i}"
            chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
            title = text.splitlines()[0].lstrip("# ")
            out.append(SourceText(doc_id, title, text, tuple(chunks), tuple(sentences)))
    return out


class _PidRules(RulesStrategy):
    """The rules strategy noting which process read each half (the file is shared)."""

    log: Path

    def _read(self, *args: Any, **kwargs: Any) -> Any:
        with self.log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return super()._read(*args, **kwargs)


def test_two_processes_extract_what_one_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    documents = _documents(25)
    one = RulesStrategy().extract(documents, CATALOG, Settings())
    monkeypatch.setattr(base, "PARALLEL_MIN_SENTENCES", 1)
    assert base._halves(documents) is not None
    strategy = _PidRules()
    strategy.log = tmp_path / "pids"
    seen: list[int] = []
    two = strategy.extract(documents, CATALOG, Settings(), progress=seen.append)
    assert len(set(strategy.log.read_text().split())) == 2  # the second half was forked
    assert sum(seen) == len(documents)
    assert two == one
    assert len(one.edges) > 50 and one.ambiguous_mentions == 0


def test_one_process_reads_small_corpora_and_corpora_without_a_catalog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    documents = _documents(2)
    assert base._halves(documents) is None  # under PARALLEL_MIN_SENTENCES
    monkeypatch.setattr(base, "PARALLEL_MIN_SENTENCES", 1)
    halves = base._halves(documents)
    assert halves is not None and [len(h) for h in halves] == [4, 4]
    assert base._halves(documents[:1]) is None

    def refuse() -> None:
        raise AssertionError("no fork without a catalog: discovery reads the whole corpus")

    monkeypatch.setattr(base.SentenceStrategy, "_read_in_two", lambda *a: refuse())
    assert RulesStrategy().extract(documents, None, Settings()).strategy == "rules"
