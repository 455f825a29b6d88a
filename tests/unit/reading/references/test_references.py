"""Reference mentions on invented documents: coreference, implicit subjects, and the grader."""

from __future__ import annotations

from zehn.corpus.model import SourceText
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.reading.model import Entity
from zehn.reading.names.catalog import Catalog
from zehn.reading.references.reader import read_corpus, with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import split_sentences

LEDGER = Entity("ledger", "service", aliases=("Ledger Service", "ledger service"))
VAULT = Entity("Vaultstore", "datastore")
BUS = Entity("eventhub", "topic")
CATALOG = Catalog((LEDGER, VAULT, BUS))


def _doc(doc_id: str, title: str, text: str) -> SourceText:
    return SourceText(doc_id, title, text, (), tuple(split_sentences(doc_id, text)))


def _edges(doc: SourceText) -> list[tuple[str, str, str, str]]:
    _, read = read_corpus([doc], CATALOG)
    out = []
    for sentence, mentions in read:
        found, _ = sentence_edges(sentence, mentions, "rules")
        for edge in with_references(found, mentions):
            out.append((edge.subject, edge.rel_type, edge.object, edge.subject_reference))
    return out


def test_this_service_refers_to_the_page_title() -> None:
    doc = _doc(
        "doc/services/ledger-md",
        "Ledger Service",
        "# Ledger Service\n\nThis service writes every posting to Vaultstore.\n",
    )
    assert _edges(doc) == [
        (
            "service:ledger",
            "WRITES_TO",
            "datastore:vaultstore",
            "'This service' = ledger, from the heading 'Ledger Service'",
        )
    ]


def test_it_refers_to_the_subject_of_the_previous_sentence() -> None:
    doc = _doc(
        "doc/notes-md",
        "Notes",
        "Notes\n\nThe ledger service keeps balances. It reads snapshots from Vaultstore.\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("service:ledger", "READS_FROM", "datastore:vaultstore")
    assert edge[3].startswith("'It' = ledger, named in the previous sentence")


def test_a_noun_of_another_kind_does_not_refer() -> None:
    """'This database' cannot be the ledger service: no reference, no edge."""
    doc = _doc(
        "doc/services/ledger-md",
        "Ledger Service",
        "# Ledger Service\n\nThis database writes every posting to Vaultstore.\n",
    )
    assert _edges(doc) == []


def test_dummy_it_is_not_a_reference() -> None:
    doc = _doc(
        "doc/services/ledger-md",
        "Ledger Service",
        "# Ledger Service\n\nIt is recommended to read from Vaultstore.\n",
    )
    assert _edges(doc) == []


def test_the_file_path_names_the_subject_when_the_title_does_not() -> None:
    doc = _doc(
        "doc/src/ledger/readme-md",
        "Getting started",
        "Getting started\n\nThis service publishes postings to eventhub.\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("service:ledger", "PUBLISHES_TO", "topic:eventhub")
    assert "from the file path src/ledger" in edge[3]


def test_a_table_row_gives_its_first_cell_as_the_subject_of_later_cells() -> None:
    doc = _doc(
        "doc/services-md",
        "Services",
        "Services\n\n| Name | Description |\n| --- | --- |\n"
        "| ledger | Stores postings in Vaultstore. |\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("service:ledger", "WRITES_TO", "datastore:vaultstore")
    assert edge[3] == "implicit subject = ledger, from the table row's first cell 'ledger'"


def test_a_changelog_prefix_is_the_subject_of_its_line() -> None:
    doc = _doc(
        "doc/changelog-md",
        "Changelog",
        "Changelog\n\n* [ledger] Read balances from Vaultstore instead of memory\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("service:ledger", "READS_FROM", "datastore:vaultstore")
    assert "from the line's prefix '[ledger]'" in edge[3]


def test_a_list_item_under_a_heading_that_names_a_component() -> None:
    doc = _doc(
        "doc/design-md",
        "Design",
        "Design\n\nLedger Service\n\n- Publishes postings to eventhub\n- Runs nightly\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("service:ledger", "PUBLISHES_TO", "topic:eventhub")
    assert edge[3] == "implicit subject = ledger, from the heading 'Ledger Service'"


def test_a_list_under_a_heading_that_names_nothing_gets_no_subject() -> None:
    doc = _doc(
        "doc/design-md",
        "Design",
        "Design\n\nRequirements\n\n- Publishes postings to eventhub\n",
    )
    assert _edges(doc) == []


def test_chinese_coreference() -> None:
    doc = _doc(
        "doc/services/ledger-md",
        "Ledger Service",
        "# Ledger Service\n\n该服务从 Vaultstore 读取余额。\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("service:ledger", "READS_FROM", "datastore:vaultstore")
    assert edge[3].startswith("'该服务' = ledger")


def _evidence(text: str, ref: str, span: tuple[int, int]) -> Evidence:
    return Evidence(
        key="k",
        source="service:ledger",
        rel_type="WRITES_TO",
        target="datastore:vaultstore",
        sentence_id="doc/x#100-150",
        text=text,
        start=100,
        document="doc/x",
        subject_ref=ref,
        subject_span=span,
    )


def test_the_grader_accepts_a_recorded_reference_and_says_so() -> None:
    text = "This service writes every posting to Vaultstore."
    why = "'This service' = ledger, from the page title 'Ledger Service'"
    grade = Grader(CATALOG.entities).grade(_evidence(text, why, (100, 112)))
    assert grade.label == SUPPORTED
    assert grade.reason.endswith(why)


def test_the_grader_without_the_recorded_reference_does_not_bind_it() -> None:
    text = "This service writes every posting to Vaultstore."
    grade = Grader(CATALOG.entities).grade(_evidence(text, "", (100, 112)))
    assert grade.label != SUPPORTED
    assert "does not mention ledger" in grade.reason


def test_a_recorded_span_outside_the_sentence_is_ignored() -> None:
    text = "This service writes every posting to Vaultstore."
    grade = Grader(CATALOG.entities).grade(_evidence(text, "made up", (10, 22)))
    assert grade.label != SUPPORTED


def test_it_inside_a_list_item_refers_to_the_item_subject() -> None:
    """A later sentence of the same list item speaks of that item's subject, not the page's."""
    doc = _doc(
        "doc/services/ledger-md",
        "Ledger Service",
        "# Ledger Service\n\nThe ledger service keeps balances.\n\n"
        "- Vaultstore - Holds the postings. It is fed by nightly jobs. It reads from eventhub.\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("datastore:vaultstore", "READS_FROM", "topic:eventhub")
    assert "the list item's subject" in edge[3]


def test_it_after_the_list_ends_refers_to_the_page_focus_again() -> None:
    doc = _doc(
        "doc/services/ledger-md",
        "Ledger Service",
        "# Ledger Service\n\nThe ledger service keeps balances.\n\n"
        "- Vaultstore - Holds the postings.\n\nIt reads from eventhub.\n",
    )
    (edge,) = _edges(doc)
    assert edge[:3] == ("service:ledger", "READS_FROM", "topic:eventhub")
