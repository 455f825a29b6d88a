"""Chinese and mixed Chinese–English text: binding, the rules strategy's cues, the grader."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence
from zehn.corpus.sample import SAMPLE_CATALOG
from zehn.evidence.grade import INFERRED, INSUFFICIENT, SUPPORTED, Evidence, Grader
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.relations.reader import sentence_edges

CATALOG = Catalog.load(SAMPLE_CATALOG)
BINDER = Binder(CATALOG.entities)
GRADER = Grader(CATALOG.entities)
Triple = tuple[str, str, str, str]  # subject, predicate, object, flags
REDWOOD = {"team:redwood-inference", "service:redwood-inference", "customer:redwood-inference"}


def bound(text: str) -> list[tuple[str, str | None]]:
    return [(m.surface, m.entity_id) for m in BINDER.bind(Sentence("doc/x", text, 0, len(text)))]


def extract(text: str) -> set[Triple]:
    sentence = Sentence("doc/x", text, 10, 10 + len(text))
    edges, _ = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    assert all(edge.fact == text for edge in edges)
    return {
        (
            e.subject.split(":")[1],
            e.rel_type,
            e.object.split(":")[1],
            ("negated " if e.negated else "") + ("hedged" if e.hedged else ""),
        )
        for e in edges
    }


# --- binding --------------------------------------------------------------------------


def test_english_names_bind_inside_chinese_text_with_exact_spans() -> None:
    text = "origin-mapper依赖indexer的v2索引，search API 也一样。"
    assert bound(text) == [
        ("origin-mapper", "service:origin-mapper"),
        ("indexer", "service:indexer"),
        ("search API", "service:search-api"),
    ]
    for mention in BINDER.bind(Sentence("doc/x", text, 7, 7 + len(text))):
        assert text[mention.start - 7 : mention.end - 7] == mention.surface


def test_chinese_aliases_bind_without_word_boundaries() -> None:
    assert bound("推荐团队负责推荐排序服务和用户画像库。") == [
        ("推荐团队", "team:recommendations-team"),
        ("推荐排序服务", "service:recs-ranker"),
        ("用户画像库", "datastore:user-profile-store"),
    ]


def test_a_chinese_catalog_name_is_its_own_entity() -> None:
    assert bound("蓝亭传媒和 Lanting Media 是同一个客户，蓝亭也这么说。") == [
        ("蓝亭传媒", "customer:蓝亭传媒"),
        ("Lanting Media", "customer:蓝亭传媒"),
        ("蓝亭", "customer:蓝亭传媒"),
    ]


def test_the_shared_chinese_alias_stays_ambiguous_across_kinds() -> None:
    (mention,) = BINDER.bind(Sentence("doc/x", "红木推理提出了新需求。", 0, 11))
    assert mention.ambiguous and set(mention.candidates) == REDWOOD
    assert mention.reason.startswith("ambiguous")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("红木推理团队负责特征库。", "team:redwood-inference"),
        ("红木推理服务很快。", "service:redwood-inference"),
        ("红木推理有限公司续约了。", "customer:redwood-inference"),
        ("我们的客户红木推理续约了。", "customer:redwood-inference"),
        ("Redwood Inference团队今天值班。", "team:redwood-inference"),
        ("redwood-inference 的延迟很低。", "service:redwood-inference"),
    ],
)
def test_a_kind_word_or_qualified_alias_decides_in_chinese(text: str, expected: str) -> None:
    assert bound(text)[0][1] == expected


def test_kinds_are_never_merged() -> None:
    ids = {entity.id for entity in CATALOG.entities if "红木推理" in entity.aliases}
    assert ids == REDWOOD  # three entities share the alias; each keeps its own id


# --- the rules strategy ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("feed-builder 依赖 search-api。", {("feed-builder", "DEPENDS_ON", "search-api", "")}),
        ("feed-builder 依赖于 search-api 的结果。", {("feed-builder", "DEPENDS_ON", "search-api", "")}),
        ("recs-ranker 调用红木推理服务给候选排序。", {("recs-ranker", "CALLS", "redwood-inference", "")}),
        (
            "search-api 被 web-frontend 和 feed-builder 调用。",
            {("web-frontend", "CALLS", "search-api", ""), ("feed-builder", "CALLS", "search-api", "")},
        ),
        ("origin-mapper 影响 indexer。", {("origin-mapper", "AFFECTS", "indexer", "")}),
        ("recs-ranker 受 click-events 积压影响。", {("click-events", "AFFECTS", "recs-ranker", "")}),
        ("click-events 供给 user-profile-store。", {("click-events", "FEEDS", "user-profile-store", "")}),
        ("user-profile-store 提供给 recs-ranker。", {("user-profile-store", "FEEDS", "recs-ranker", "")}),
        ("indexer 为 search-api 提供数据。", {("indexer", "FEEDS", "search-api", "")}),
        ("recs-ranker 使用特征库。", {("recs-ranker", "USES", "feature-store", "")}),
        (
            "recs-ranker 读取 user-profile-store 和特征库。",
            {("recs-ranker", "READS_FROM", "user-profile-store", ""), ("recs-ranker", "READS_FROM", "feature-store", "")},
        ),
        ("recs-ranker 从 user-profile-store 读取画像。", {("recs-ranker", "READS_FROM", "user-profile-store", "")}),
        ("feed-builder 写入 user-profile-store。", {("feed-builder", "WRITES_TO", "user-profile-store", "")}),
        ("web-frontend 把点击发布到 click-events。", {("web-frontend", "PUBLISHES_TO", "click-events", "")}),
        ("web-frontend 发布点击事件到 click-events。", {("web-frontend", "PUBLISHES_TO", "click-events", "")}),
        ("feed-builder 消费 index-events。", {("feed-builder", "CONSUMES_FROM", "index-events", "")}),
        ("feed-builder 从 index-events 消费消息。", {("feed-builder", "CONSUMES_FROM", "index-events", "")}),
        (
            "推荐团队负责 recs-ranker、feed-builder 和 user-profile-store。",
            {
                ("recommendations-team", "OWNS", "recs-ranker", ""),
                ("recommendations-team", "OWNS", "feed-builder", ""),
                ("recommendations-team", "OWNS", "user-profile-store", ""),
            },
        ),
        ("推荐团队拥有 user-profile-store。", {("recommendations-team", "OWNS", "user-profile-store", "")}),
        ("recs-ranker 由推荐团队负责。", {("recommendations-team", "OWNS", "recs-ranker", "")}),
        (
            "recs-ranker 读取 user-profile-store，并写入特征库。",
            {("recs-ranker", "READS_FROM", "user-profile-store", ""), ("recs-ranker", "WRITES_TO", "feature-store", "")},
        ),
    ],
)  # fmt: skip
def test_chinese_cues_for_every_predicate(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("feed-builder 不再依赖 search-api。", {("feed-builder", "DEPENDS_ON", "search-api", "negated ")}),
        ("recs-ranker 没有调用 search-api。", {("recs-ranker", "CALLS", "search-api", "negated ")}),
        ("feed-builder 不调用 query-planner。", {("feed-builder", "CALLS", "query-planner", "negated ")}),
        (
            "feed-builder 现在从 index-events 消费，而不是轮询 indexer。",
            {("feed-builder", "CONSUMES_FROM", "index-events", ""), ("feed-builder", "READS_FROM", "indexer", "negated ")},
        ),
        ("我们计划让 feed-builder 调用 query-planner。", {("feed-builder", "CALLS", "query-planner", "hedged")}),
        ("feed-builder 计划在 Q3 之前迁移到 search-api。", {("feed-builder", "DEPENDS_ON", "search-api", "hedged")}),
        ("feed-builder 将会读取特征库。", {("feed-builder", "READS_FROM", "feature-store", "hedged")}),
        ("recs-ranker 可能调用 auth-gateway。", {("recs-ranker", "CALLS", "auth-gateway", "hedged")}),
        ("如果 feed-builder 调用 search-api 超时，就返回缓存。", {("feed-builder", "CALLS", "search-api", "hedged")}),
        ("feed-builder 是否依赖 event-bus？", {("feed-builder", "DEPENDS_ON", "event-bus", "hedged")}),
        ("听说 recs-ranker 调用 query-planner。", {("recs-ranker", "CALLS", "query-planner", "hedged")}),
        ("billing 将发票写入 ledger-v2。", {("billing", "WRITES_TO", "ledger-v2", "")}),
        ("recs-ranker 会不会也写入 user-profile-store？", {("recs-ranker", "WRITES_TO", "user-profile-store", "hedged")}),
        ("李娜认为 recs-ranker 可能也会调用 auth-gateway。", {("recs-ranker", "CALLS", "auth-gateway", "hedged")}),
        (
            "feed-builder 从 index-events 消费分段就绪消息，而不是轮询 indexer。",
            {("feed-builder", "CONSUMES_FROM", "index-events", ""), ("feed-builder", "READS_FROM", "indexer", "negated ")},
        ),
    ],
)  # fmt: skip
def test_chinese_negation_and_hedging_are_recorded_not_dropped(
    text: str, expected: set[Triple]
) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "origin-mapper 的映射变更会让 indexer 很忙。",
        "indexer 和 search-api 的仪表盘一起评审了。",
        "click-events 的消费者包括很多团队，recs-ranker 的负责人是张伟。",
        "billing 将 ledger-v1 迁移到新集群。",
    ],
)
def test_chinese_co_mentions_without_a_stated_relation_make_no_edge(text: str) -> None:
    assert extract(text) == set()


def test_a_shared_chinese_alias_never_makes_an_edge() -> None:
    text = "红木推理依赖特征库。"
    sentence = Sentence("doc/x", text, 0, len(text))
    edges, skipped = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    assert edges == [] and skipped == 1


# --- the grader -----------------------------------------------------------------------


def evidence(source: str, rel: str, target: str, text: str) -> Evidence:
    return Evidence("k", source, rel, target, "doc/x#0-1", text, 0, "doc/x", date="2024-02-01")


@pytest.mark.parametrize(
    ("hop", "text", "label", "reason"),
    [
        (("service:feed-builder", "DEPENDS_ON", "service:search-api"), "feed-builder 依赖 search-api。", SUPPORTED, "states"),
        (("service:feed-builder", "DEPENDS_ON", "service:search-api"), "feed-builder 不再依赖 search-api。", INSUFFICIENT, "negates"),
        (("service:feed-builder", "DEPENDS_ON", "service:event-bus"), "feed-builder 是否依赖 event-bus？", INSUFFICIENT, "question"),
        (("service:feed-builder", "CALLS", "service:query-planner"), "feed-builder 和 query-planner 谁更慢？", INSUFFICIENT, "asks"),
        (("service:feed-builder", "CALLS", "service:query-planner"), "我们计划让 feed-builder 调用 query-planner。", INSUFFICIENT, "plan"),
        (("service:recs-ranker", "CALLS", "service:query-planner"), "recs-ranker 和 query-planner 可能都超时了。", INSUFFICIENT, "speculative"),
        (("service:indexer", "FEEDS", "service:search-api"), "indexer 和 search-api 的仪表盘一起评审了。", INFERRED, "does not state"),
        (("service:recs-ranker", "CALLS", "service:redwood-inference"), "recs-ranker 调用红木推理给候选排序。", INSUFFICIENT, "could be any of"),
        (("service:recs-ranker", "CALLS", "service:redwood-inference"), "recs-ranker 调用红木推理服务给候选排序。", SUPPORTED, "states"),
        (("service:search-api", "CALLS", "service:redwood-inference"), "红木推理公司使用 search-api。", INSUFFICIENT, "names the customer"),
    ],
)  # fmt: skip
def test_chinese_hops_are_graded_against_their_own_sentence(
    hop: tuple[str, str, str], text: str, label: str, reason: str
) -> None:
    grade = GRADER.grade(evidence(*hop, text))
    assert grade.label == label
    assert reason in grade.reason
