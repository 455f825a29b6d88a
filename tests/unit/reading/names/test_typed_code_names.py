"""A snake_case name in code marks right before the kind of store it names is that store: a
queue, a topic or a table by that name ("the `x_y` queue", "`x_y` 表"), even once; before any
other noun (a function, a setting) it is code, not a component."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.reading.names.discover import discover_entities
from zehn.reading.split import chunk_sentences, split_sentences
from zehn.reading.vocabulary import EntityKind


def _kinds(text: str) -> dict[str, EntityKind]:
    chunks, sentences = chunk_sentences("a.md", split_sentences("a.md", text))
    doc = SourceText("a.md", "Notes", text, tuple(chunks), tuple(sentences))
    return {e.name: e.kind for e in discover_entities([doc])}


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "Events are placed in the `wake_pollers` RabbitMQ queue for delivery.\n",
            EntityKind.TOPIC,
        ),
        ("The scanner reads the `q_job_order` table every second.\n", EntityKind.DATASTORE),
        ("扫描线程定时扫描数据库中的`q_job_order`表。\n", EntityKind.DATASTORE),
        ("Workers drain the `wake_pollers` and `late_mail` queues.\n", EntityKind.TOPIC),
    ],
)
def test_a_code_name_before_its_store_noun_is_that_store(text: str, kind: EntityKind) -> None:
    kinds = _kinds(text)
    name = "wake_pollers" if "wake_pollers" in text else "q_job_order"
    assert kinds.get(name) == kind


@pytest.mark.parametrize(
    "text",
    [
        "Call the `wake_pollers` function to deliver events.\n",
        "Set the `wake_pollers` setting to true.\n",
        "Events go to `wake_pollers` first.\n",
    ],
)
def test_a_code_name_before_another_noun_is_no_component(text: str) -> None:
    assert "wake_pollers" not in _kinds(text)
