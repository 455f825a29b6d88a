"""A kind word beside proper names in Chinese text types them, as "a database, usually X or Y"
does in English: a kind word before a list ("数据库包括 X 以及 Y", "数据库：X") or after it
("X、Y 等存储"); not a kind word that opens a longer noun ("X 缓存文件" is a file)."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.reading.names.discover import discover_entities
from zehn.reading.split import chunk_sentences, split_sentences
from zehn.reading.vocabulary import EntityKind


def _doc(doc_id: str, text: str) -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, doc_id, text, tuple(chunks), tuple(sentences))


def _kinds(sentence: str) -> dict[str, EntityKind]:
    docs = [
        _doc("a.md", f"# 部署\n\n{sentence}\n"),
        _doc("b.md", "# 运维\n\n升级前先备份 Zorvane 和 Plimsoft 的数据。\n"),
    ]
    return {e.name: e.kind for e in discover_entities(docs)}


@pytest.mark.parametrize(
    "sentence",
    [
        "元数据保存在关系型数据库中，目前支持的数据库包括 Zorvane 以及 Plimsoft。",
        "元数据库可选两种。数据库：Zorvane、Plimsoft。",
        "元数据可以保存在 Zorvane 或 Plimsoft 等数据库中。",
    ],
)
def test_a_chinese_kind_word_beside_listed_proper_names_types_them(sentence: str) -> None:
    kinds = _kinds(sentence)
    assert kinds.get("Zorvane") == EntityKind.DATASTORE
    assert kinds.get("Plimsoft") == EntityKind.DATASTORE


def test_a_kind_word_opening_a_longer_noun_types_nothing() -> None:
    kinds = _kinds("重启时先读取 Zorvane 缓存文件，再连接 Plimsoft 缓存目录。")
    assert kinds.get("Zorvane") != EntityKind.DATASTORE
    assert kinds.get("Plimsoft") != EntityKind.DATASTORE
