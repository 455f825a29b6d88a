"""A component's parts listed under a line that says so: one OWNS edge per item that opens
with a name, citing the item (invented pages, English and Chinese)."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.reading.model import Edge, Entity
from zehn.reading.names.binding import Binder
from zehn.reading.references.reader import read_document, with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

ENTITIES = (
    Entity("Quillomat", "service", origin="discovered"),
    Entity("Zorbex", "service", origin="discovered"),
    Entity("RowScanner", "service", origin="discovered"),
    Entity("TallyKeeper", "service", origin="discovered"),
    Entity("SlotWatcher", "service", origin="discovered"),
)
OWNED = {
    ("service:quillomat", "OWNS", "service:rowscanner"),
    ("service:quillomat", "OWNS", "service:tallykeeper"),
}


def _document(text: str) -> SourceText:
    doc_id = "doc/design-md"
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, "Design", text, tuple(chunks), tuple(sentences))


def _edges(text: str) -> list[Edge]:
    return [
        edge
        for sentence, mentions in read_document(_document(text), ENTITIES, Binder(ENTITIES))
        for edge in with_references(sentence_edges(sentence, mentions, "rules")[0], mentions)
    ]


def _owns(text: str) -> set[tuple[str, str, str]]:
    return {(e.subject, str(e.rel_type), e.object) for e in _edges(text) if e.rel_type == "OWNS"}


@pytest.mark.parametrize(
    "text",
    [
        # the line names the container
        "Quillomat consists of the following components:\n\n"
        "- **RowScanner** scans the table every minute.\n"
        "- **TallyKeeper** keeps the running totals.\n",
        # a demonstrative after the container's own paragraph, as a heading
        "* **Quillomat**\n\n  Quillomat answers queries about totals.\n\n  #### This service contains:\n\n"
        "  - **RowScanner** scans the table every minute.\n\n"
        "  - **TallyKeeper** keeps the running totals.\n\n"
        "* **Zorbex**\n\n  Zorbex prints reports.\n",
        # Chinese: 该服务内主要包含
        "* **Quillomat**\n\n  Quillomat负责汇总查询。\n\n  ##### 该服务内主要包含：\n\n"
        "  - **RowScanner**是一个扫描线程，每分钟扫描一次表；\n\n"
        "  - **TallyKeeper**主要负责维护汇总结果；\n\n"
        "* **Zorbex**\n\n  Zorbex负责打印报表。\n",
    ],
    ids=["named line", "demonstrative heading", "Chinese heading"],
)
def test_each_listed_part_is_owned_by_the_container(text: str) -> None:
    assert _owns(text) == OWNED  # Zorbex, after the list, is nobody's part


def test_a_list_under_another_line_names_no_parts() -> None:
    text = (
        "Quillomat runs the following steps:\n\n"
        "- **RowScanner** scans the table every minute.\n"
        "- **TallyKeeper** keeps the running totals.\n"
    )
    assert _owns(text) == set()


def test_an_item_that_does_not_open_with_a_name_is_no_part() -> None:
    text = (
        "Quillomat includes:\n\n"
        "- a cache in front of **RowScanner**.\n"
        "- **TallyKeeper** keeps the running totals.\n"
    )
    assert _owns(text) == {("service:quillomat", "OWNS", "service:tallykeeper")}


def test_the_grader_accepts_the_recorded_container() -> None:
    text = "Quillomat consists of the following components:\n\n- **RowScanner** scans rows.\n"
    edge = next(e for e in _edges(text) if e.rel_type == "OWNS")
    sentence = next(s for s in _document(text).sentences if "scans rows" in s.text)
    evidence = Evidence(
        "k", edge.subject, "OWNS", edge.object, sentence.id, sentence.text, sentence.start,
        sentence.doc_id, subject_ref=edge.subject_reference, subject_span=edge.subject_span,
    )  # fmt: skip
    grade = Grader(ENTITIES).grade(evidence)
    assert grade.label == SUPPORTED, grade.reason
    assert "consists of the following components" in edge.subject_reference


@pytest.mark.parametrize(
    "item",
    [
        "- **RowScanner**是一个扫描线程，定时读取 Zorbex 中的记录；",
        "- **RowScanner**是一个后台线程，周期性地调用 Zorbex；",
        "- RowScanner 是一个工作线程，然后向 Zorbex 写入结果；",
    ],
)
def test_a_listed_part_that_names_itself_is_its_own_clauses_topic(item: str) -> None:
    text = (
        "* **Quillomat**\n\n  Quillomat负责汇总查询。\n\n  ##### 该服务内主要包含：\n\n  "
        + item
        + "\n"
    )
    edges = {(e.subject, e.object) for e in _edges(text) if e.rel_type != "OWNS"}
    assert edges == {("service:rowscanner", "service:zorbex")}
