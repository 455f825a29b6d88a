"""A snake_case name in code marks right before the kind of store it names is that store: a
queue, a topic or a table by that name ("the `x_y` queue", "`x_y` 表"), even once; before any
other noun (a function, a setting) it is code, not a component. A code name before a Chinese
service head ("`x` 微服务") is that service, and binds as written."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.reading.names.binding import Binder
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


@pytest.mark.parametrize(
    "text",
    [
        "开启后需要部署 `quill` 微服务。\n\n`quill` 微服务负责分配时间戳。\n",
        "请求会转发到`quill`微服务。\n",
        "集群中的 `quill` 服务负责调度。\n",
    ],
)
def test_a_code_name_before_a_chinese_service_head_is_that_service(text: str) -> None:
    chunks, sentences = chunk_sentences("b.md", split_sentences("b.md", text))
    doc = SourceText("b.md", "说明", text, tuple(chunks), tuple(sentences))
    (entity,) = [e for e in discover_entities([doc]) if "quill" in e.name]
    assert entity.kind == EntityKind.SERVICE
    bound = Binder([entity]).bind(sentences[-1])
    assert [m.entity_id for m in bound] == [entity.id]


def test_a_bare_latin_name_before_a_service_head_is_a_service_built_with_it() -> None:
    assert "quill 服务" not in _kinds("我们用 Quill 服务 开发了订单系统。\n")
