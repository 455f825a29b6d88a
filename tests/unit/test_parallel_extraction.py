"""Reading a catalog corpus run by run, every other run in a second process, gives exactly
what one process reading it whole gives."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from zehn.config import Settings
from zehn.corpus.model import SourceText
from zehn.errors import ExtractionError
from zehn.extract import stream
from zehn.extract.rules import RulesStrategy
from zehn.reading.model import Entity
from zehn.reading.names.catalog import Catalog
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
    """The rules strategy noting which process read each sentence (the file is shared)."""

    log: Path
    die_in_child: int | None = None  # the parent's pid: a child reading a sentence dies

    def sentence_edges(self, sentence: Any, bound: Any) -> Any:
        if self.die_in_child is not None and os.getpid() != self.die_in_child:
            os._exit(3)  # killed, as by the out-of-memory killer
        with self.log.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return super().sentence_edges(sentence, bound)


@pytest.fixture
def tiny_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs of about 10 sentences, and a second process from any size."""
    monkeypatch.setattr(stream, "RUN_SENTENCES", 10)
    monkeypatch.setattr(stream, "PARALLEL_MIN_SENTENCES", 1)


def test_two_processes_extract_what_one_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    documents = _documents(25)
    one = RulesStrategy().extract(documents, CATALOG, Settings())
    monkeypatch.setattr(stream, "PARALLEL_MIN_SENTENCES", 10**9)
    assert RulesStrategy().extract(documents, CATALOG, Settings()) == one  # one process
    monkeypatch.setattr(stream, "RUN_SENTENCES", 10)
    monkeypatch.setattr(stream, "PARALLEL_MIN_SENTENCES", 1)
    strategy = _PidRules()
    strategy.log = tmp_path / "pids"
    seen: list[int] = []
    two = strategy.extract(documents, CATALOG, Settings(), progress=seen.append)
    assert len(set(strategy.log.read_text().split())) == 2  # every other run was forked
    assert sum(seen) == len(documents) and len(seen) > 4
    assert two == one
    assert len(one.edges) > 50 and one.ambiguous_mentions == 0


def test_runs_come_in_document_order_each_whole(tiny_runs: None) -> None:
    documents = _documents(5)
    runs = list(RulesStrategy().stream(documents, CATALOG, Settings()))
    assert sum(r.documents for r in runs) == len(documents) and len(runs) > 3
    sentence_docs = [m.sentence_id.partition("#")[0] for r in runs for m in r.mentions]
    assert sentence_docs == sorted(sentence_docs)  # document ids sort in document order here
    for run in runs:
        assert len({e.key for e in run.edges}) == len(run.edges)


def test_a_child_that_dies_leaves_its_runs_to_the_parent(tiny_runs: None, tmp_path: Path) -> None:
    documents = _documents(6)
    one = RulesStrategy().extract(documents, CATALOG, Settings())
    strategy = _PidRules()
    strategy.log = tmp_path / "pids"
    strategy.die_in_child = os.getpid()
    assert strategy.extract(documents, CATALOG, Settings()) == one
    assert set(strategy.log.read_text().split()) == {str(os.getpid())}


def test_one_process_reads_small_corpora_and_corpora_without_a_catalog(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    documents = _documents(2)
    monkeypatch.setattr(stream, "RUN_SENTENCES", 4)
    strategy = _PidRules()
    strategy.log = tmp_path / "pids"
    strategy.extract(documents, CATALOG, Settings())  # under PARALLEL_MIN_SENTENCES
    monkeypatch.setattr(stream, "PARALLEL_MIN_SENTENCES", 1)
    strategy.extract(documents, None, Settings())  # discovery reads the whole corpus: no fork
    assert set(strategy.log.read_text().split()) == {str(os.getpid())}


class _Refusing(RulesStrategy):
    """Refuses everything in the child, and one document here."""

    def __init__(self) -> None:
        self.parent = os.getpid()

    def sentence_edges(self, sentence: Any, bound: Any) -> Any:
        if os.getpid() != self.parent or sentence.doc_id == "doc/page-004-1":
            raise ExtractionError("this page cannot be read")
        return super().sentence_edges(sentence, bound)


def test_an_error_in_either_process_is_raised_here_and_the_child_prints_nothing(
    tiny_runs: None, capfd: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ExtractionError, match="cannot be read"):
        _Refusing().extract(_documents(8), CATALOG, Settings())
    assert "Traceback" not in capfd.readouterr().err


def test_the_corpus_is_frozen_for_the_collector_while_it_is_read_and_no_longer(
    tiny_runs: None,
) -> None:
    import gc

    assert gc.get_freeze_count() == 0
    read = RulesStrategy().stream(_documents(3), CATALOG, Settings())
    assert gc.get_freeze_count() > 0  # the documents and binder: skipped by full passes
    list(read)
    assert gc.get_freeze_count() == 0
    unread = RulesStrategy().stream(_documents(3), CATALOG, Settings())
    unread.close()  # a build that failed before reading
    assert gc.get_freeze_count() == 0 and unread._child is None
    gc.freeze()  # someone else froze: left frozen
    try:
        list(RulesStrategy().stream(_documents(3), CATALOG, Settings()))
        assert gc.get_freeze_count() > 0  # not unfrozen by the stream
    finally:
        gc.unfreeze()
