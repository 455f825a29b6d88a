"""On its own page, a discovered ordinary-word name binds where a definite word or a
preposition marks it, in the build's reader as in ``zehn catalog suggest`` (invented pages)."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.references.reader import read_document
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

ENTITIES = (
    Entity("garden", "service", origin="discovered"),
    Entity("Quillomat", "datastore", origin="discovered"),
)
BINDER = Binder(ENTITIES)


def _edges(doc_id: str, title: str, text: str) -> set[tuple[str, str, str]]:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    document = SourceText(doc_id, title, text, tuple(chunks), tuple(sentences))
    return {
        (e.subject, str(e.rel_type), e.object)
        for sentence, mentions in read_document(document, ENTITIES, BINDER)
        for e in sentence_edges(sentence, mentions, "rules")[0]
    }


@pytest.mark.parametrize(
    "text",
    [
        "Blocks arrive all day.\n\nOptionally, the garden uploads blocks to Quillomat.\n",
        "Blocks arrive all day.\n\nAt night the garden writes its blocks to Quillomat.\n",
        "Blocks arrive all day.\n\nIn short, the garden stores every block in Quillomat.\n",
    ],
)
def test_the_pages_own_name_binds_after_a_definite_word(text: str) -> None:
    edges = _edges("doc/components/garden-md", "Garden", text)
    assert ("service:garden", "WRITES_TO", "datastore:quillomat") in edges


def test_on_another_page_the_plain_word_stays_a_word() -> None:
    text = "Blocks arrive all day.\n\nOptionally, the garden uploads blocks to Quillomat.\n"
    assert _edges("doc/components/other-md", "Other", text) == set()
