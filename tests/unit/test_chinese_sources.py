"""Chinese and mixed documents: loaders, readable IDs, exact spans, and the sample's Chinese part."""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

import pytest
import yaml

from zehn.corpus.loaders import iter_source_files, load_file
from zehn.corpus.model import Document, slugify
from zehn.corpus.sample import SAMPLE_GOLD, SAMPLE_SOURCES
from zehn.reading.lang import ZH, detect_language
from zehn.reading.model import entity_id
from zehn.reading.split import split_sentences

PAGE = """<html><head><title>推荐平台 : {title}</title></head><body>
<div class="page-metadata">{meta}</div>
<div id="main-content"><p>feed-builder 依赖 search-api。它很快。</p></div></body></html>"""


def chinese_documents() -> list[Document]:
    return [
        doc
        for path in iter_source_files(SAMPLE_SOURCES)
        for doc in load_file(path, SAMPLE_SOURCES)
        if detect_language(doc.text) == ZH
    ]


def test_chinese_titles_make_distinct_readable_ids() -> None:
    assert slugify("推荐平台概览") == "推荐平台概览"
    assert slugify("feed-builder 设计文档") == "feed-builder-设计文档"
    assert slugify("Indexer Design v2") == "indexer-design-v2"
    assert entity_id("customer", "蓝亭传媒") == "customer:蓝亭传媒"
    assert slugify("推荐平台概览") != slugify("用户画像库运维手册")


@pytest.mark.parametrize(
    ("meta", "author", "day", "modified"),
    [
        ("由 <span class='author'>张伟</span>创建, 最后修改于 三月 20, 2024", "张伟", date(2024, 3, 20), True),
        ("由 陈杰创建, 最后修改人 李娜, 于 2024年4月2日", "陈杰", date(2024, 4, 2), True),
        ("由 李娜 创建, 于 2024-05-06", "李娜", date(2024, 5, 6), False),
        ("Created by Priya Raman, last modified on Mar 02, 2024", "Priya Raman", date(2024, 3, 2), True),
    ],
)  # fmt: skip
def test_chinese_confluence_metadata_gives_author_and_date(
    tmp_path: Path, meta: str, author: str, day: date, modified: bool
) -> None:
    page = tmp_path / "page.html"
    page.write_text(PAGE.format(title="推荐平台概览", meta=meta), "utf-8")
    (doc,) = load_file(page, tmp_path)
    assert doc.id == "confluence/推荐平台概览" and doc.title == "推荐平台概览"
    assert doc.author == author
    stamp = doc.updated_at if modified else doc.created_at
    assert stamp is not None and stamp.date() == day


def test_the_sample_has_chinese_documents_of_every_source_type() -> None:
    docs = chinese_documents()
    kinds = Counter(str(doc.source_type) for doc in docs)
    assert len(docs) >= 12 and len(kinds) >= 3
    assert set(kinds) == {"confluence", "meeting", "ticket", "pull_request", "email"}
    for doc in docs:
        assert doc.author and doc.date is not None, doc.id
        for sentence in split_sentences(doc.id, doc.text):
            assert doc.text[sentence.start : sentence.end] == sentence.text


def test_the_chinese_gold_set() -> None:
    questions = yaml.safe_load((SAMPLE_GOLD / "questions.yaml").read_text("utf-8"))["questions"]
    chinese = [q for q in questions if detect_language(q["question"]) == ZH]
    statuses = Counter(q["status"] for q in chinese)
    assert len(chinese) >= 15 and statuses["abstained"] * 3 >= len(chinese)
    relations = yaml.safe_load((SAMPLE_GOLD / "relations.yaml").read_text("utf-8"))["relations"]
    zh_relations = [r for r in relations if detect_language(r["quote"]) == ZH]
    assert len(zh_relations) >= 40
    assert {r["predicate"] for r in zh_relations} >= {
        "DEPENDS_ON", "CALLS", "FEEDS", "AFFECTS", "USES", "READS_FROM", "WRITES_TO",
        "PUBLISHES_TO", "CONSUMES_FROM", "OWNS",
    }  # fmt: skip
