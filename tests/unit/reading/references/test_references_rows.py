"""Table rows on invented documents: a linked first cell, and a cell of several sentences."""

from __future__ import annotations

from zehn.corpus.model import SourceText
from zehn.reading.model import Entity
from zehn.reading.names.catalog import Catalog
from zehn.reading.references.reader import read_corpus, with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import split_sentences

LEDGER = Entity("ledger-core", "service")
VAULT = Entity("Vaultstore", "datastore")
CATALOG = Catalog((LEDGER, VAULT))


def _edges(text: str) -> list[tuple[str, str, str, str]]:
    doc = SourceText("doc/svc-md", "Services", text, (), tuple(split_sentences("doc/svc-md", text)))
    _, read = read_corpus([doc], CATALOG)
    out = []
    for sentence, mentions in read:
        found, _ = sentence_edges(sentence, mentions, "rules")
        out.extend(
            (e.subject, e.rel_type, e.object, e.subject_reference)
            for e in with_references(found, mentions)
        )
    return out


HEADER = "Services\n\n| Name | Lang | Description |\n| --- | --- | --- |\n"


def test_a_linked_first_cell_names_the_subject_once_by_its_link_text() -> None:
    """The link target repeats the name; it is an address, not a second mention."""
    (edge,) = _edges(
        HEADER + "| [ledger-core](ledger-core/) | Go | Stores postings in Vaultstore. |\n"
    )
    assert edge == (
        "service:ledger-core",
        "WRITES_TO",
        "datastore:vaultstore",
        "implicit subject = ledger-core, from the table row's first cell 'ledger-core'",
    )


def test_a_later_sentence_of_the_same_cell_keeps_the_row_subject() -> None:
    text = HEADER + "| ledger-core | Go | Sums postings. Reads snapshots from Vaultstore. |\n"
    (edge,) = _edges(text)
    assert edge[:3] == ("service:ledger-core", "READS_FROM", "datastore:vaultstore")
    assert edge[3].endswith("first cell 'ledger-core'; the cell goes on")


def test_a_sentence_after_the_table_gets_no_row_subject() -> None:
    text = HEADER + "| ledger-core | Go | Sums postings. |\n\nReads snapshots from Vaultstore.\n"
    assert _edges(text) == []
