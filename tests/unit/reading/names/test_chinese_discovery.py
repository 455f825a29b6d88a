"""Chinese names without a catalog, on invented documents: the spellings of one role name
(``zehn.reading.names.clues_zh``), what a page title makes its plain words mean
(``zehn.reading.references.title_refs``), and names that are only part of an identifier."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence, SourceText
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.names.clues_zh import role_variants
from zehn.reading.names.discover import discover_entities
from zehn.reading.references.reader import read_corpus
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

ROLES = """# 总览

| 节点 | 角色说明 |
| --- | --- |
| `Sender` | 投递消息的消息发送方 |
| `Keeper` | 保存消息的存储中心 |

消息发送者在启动时，向存储中心登记自己的地址。
消息发送方随后把消息写入存储中心。
"""


def source(doc_id: str, text: str, title: str = "") -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, title or doc_id, text, tuple(chunks), tuple(sentences))


def by_name(*documents: SourceText) -> dict[str, Entity]:
    return {e.name: e for e in discover_entities(documents)}


# --- the spellings of one role name -----------------------------------------------------


@pytest.mark.parametrize(
    ("form", "variants"),
    [
        ("服务提供方", {"服务提供者", "提供方", "提供者"}),
        ("消费者", {"消费方", "服务消费者", "服务消费方"}),
        ("监控中心", {"服务监控中心"}),  # no agent suffix: only the optional prefix
        ("服务端", set()),  # the prefix never stands alone, nor a one-character rest
        ("Redis 注册中心", set()),  # not a Chinese word
        ("者方", set()),  # no verb before the suffix
        ("服务运行容器", {"服务容器", "运行容器"}),  # domain, modifier, head: the middle may go
    ],
)
def test_role_variants_follow_chinese_morphology(form: str, variants: set[str]) -> None:
    assert set(role_variants(form)) == variants


def test_a_table_role_gathers_the_spellings_the_corpus_uses() -> None:
    found = by_name(source("doc/roles-md", ROLES, "总览"))
    sender = found["Sender"]
    assert {"消息发送方", "消息发送者"} <= set(sender.aliases)
    assert "发送者" not in sender.aliases  # never written alone here: not added
    assert "发送方" not in sender.aliases  # 消息 is not the optional domain prefix
    reasons = dict(sender.evidence)
    assert "variant of '消息发送方'" in reasons["消息发送者"]


def test_a_short_compound_definition_names_its_row_and_its_contraction() -> None:
    text = "| 节点 | 角色说明 |\n| --- | --- |\n| `Box` | 服务运行容器 |\n\n服务容器负责启动订单服务。\n"
    box = by_name(source("doc/box-md", text, "总览"))["Box"]
    assert {"服务运行容器", "服务容器"} <= set(box.aliases)
    assert "运行容器" not in box.aliases  # only ever written inside 服务运行容器


def test_a_spelling_another_entity_owns_stays_with_it() -> None:
    text = ROLES + "\n| 节点 | 角色说明 |\n| --- | --- |\n| `Relay` | 转发消息的发送者 |\n"
    found = by_name(source("doc/roles-md", text, "总览"))
    assert "发送者" in found["Relay"].aliases
    assert "发送者" not in found["Sender"].aliases


def test_role_variants_bind_in_prose_and_make_edges() -> None:
    doc = source("doc/roles-md", ROLES, "总览")
    _, read = read_corpus([doc], None)
    edges = {
        (e.subject, e.rel_type, e.object)
        for sentence, mentions in read
        for e in sentence_edges(sentence, mentions, "rules")[0]
    }
    assert ("component:sender", "WRITES_TO", "component:keeper") in edges


# --- a name that is only part of an identifier ------------------------------------------


@pytest.mark.parametrize(
    ("text", "binds"),
    [
        ("shopd 缺省使用单播。", True),
        ("修改 shopd.properties 中的地址。", False),  # a file
        ("配置 <shopd:registry address='x' /> 即可。", False),  # an XML tag
        ('xmlns:shopd="http://example.org/schema"', False),  # a namespace
        ('<app group="shopd" />', False),  # an attribute value
        ("访问 shopd://127.0.0.1:9090 即可。", True),  # a URL scheme still names it
    ],
)
def test_a_name_inside_a_qualified_identifier_does_not_bind(text: str, binds: bool) -> None:
    binder = Binder(Catalog.from_entries([{"name": "shopd", "kind": "component"}]).entities)
    sentence = Sentence("doc/x", text, 0, len(text))
    assert bool(binder.bind(sentence)) is binds


# --- what a page title makes its plain words mean ---------------------------------------

CATALOG = Catalog.from_entries(
    [
        {"name": "Registry", "kind": "component", "aliases": ["配置中心"]},
        {"name": "Etcd", "kind": "datastore", "aliases": ["etcd"]},
        {"name": "Etcd 配置中心", "kind": "component"},
        {"name": "Mesh 配置中心", "kind": "component"},
        {"name": "order-service", "kind": "service", "aliases": ["订单服务"]},
    ]
)


def read(text: str, title: str, doc_id: str = "doc/etcd-md") -> set[tuple[str, str, str, str]]:
    """(subject, predicate, object, the reference reason of either end) per edge."""
    doc = source(doc_id, f"# {title}\n\n{text}", title)
    _, bound = read_corpus([doc], CATALOG)
    out = set()
    for sentence, mentions in bound:
        refs = {(m.start, m.end): m.reason for m in mentions if m.reference}
        for edge in sentence_edges(sentence, mentions, "rules")[0]:
            reason = refs.get(edge.subject_span or (-1, -1)) or refs.get(
                edge.object_span or (-1, -1)
            )
            out.add((edge.subject, edge.rel_type, edge.object, reason or ""))
    return out


def bound_ids(text: str, title: str) -> list[str | None]:
    doc = source("doc/etcd-md", f"# {title}\n\n{text}", title)
    _, bound = read_corpus([doc], CATALOG)
    return [m.entity_id for sentence, mentions in bound for m in mentions if sentence.text == text]


def test_a_bare_head_noun_on_a_titled_page_is_the_title_entity() -> None:
    ((subject, predicate, obj, why),) = read("基于 Etcd 实现的配置中心。", "Etcd 配置中心")
    assert (subject, predicate, obj) == ("component:etcd-配置中心", "DEPENDS_ON", "datastore:etcd")
    assert "the head noun of the page title 'Etcd 配置中心'" in why


def test_the_bare_head_noun_stays_generic_elsewhere_and_when_qualified() -> None:
    elsewhere = read("基于 Etcd 实现的配置中心。", "总览", doc_id="doc/overview-md")
    assert {e[0] for e in elsewhere} == {"component:registry"}
    qualified = bound_ids("订单服务调用 Consul 配置中心。", "Etcd 配置中心")
    assert qualified == ["service:order-service", "component:registry"]  # "Consul" qualifies it


def test_storage_addresses_on_a_datastore_backed_page_stand_for_the_datastore() -> None:
    edges = read("订单服务启动时，从 `Key:/shop/orders/config` 下读取限流配置。", "Etcd 配置中心")
    ((subject, predicate, obj, why),) = edges
    assert (subject, predicate, obj) == ("service:order-service", "READS_FROM", "datastore:etcd")
    assert "an address in the datastore the page title 'Etcd 配置中心' names" in why


def test_addresses_stand_for_nothing_when_the_title_names_no_datastore() -> None:
    assert (
        read("订单服务启动时，从 `Key:/shop/orders/config` 下读取限流配置。", "Mesh 配置中心")
        == set()
    )


def test_a_paragraph_opening_with_a_verb_has_the_page_entity_as_subject() -> None:
    ((subject, predicate, obj, why),) = read(
        "使用 Etcd 的 Watch 机制通知数据变更：", "Etcd 配置中心"
    )
    assert (subject, predicate, obj) == ("component:etcd-配置中心", "USES", "datastore:etcd")
    assert why == "implicit subject = Etcd 配置中心, from the page title 'Etcd 配置中心'"


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("使用 Etcd 的 Watch 机制通知数据变更：", "总览"),  # the title names no entity
        ("注意：使用 Etcd 的 Watch 机制通知数据变更。", "Etcd 配置中心"),  # not the opening verb
    ],
)
def test_no_implicit_page_subject_without_a_titled_entity_or_an_opening_verb(
    text: str, title: str
) -> None:
    assert not any(e[0] == "component:etcd-配置中心" for e in read(text, title))


def test_a_relative_clause_opening_a_paragraph_keeps_its_own_head() -> None:
    edges = read("基于 Etcd 实现的订单服务。", "Etcd 配置中心")
    assert {e[:3] for e in edges} == {("service:order-service", "DEPENDS_ON", "datastore:etcd")}


# --- agent nouns: 订阅者 is whoever just subscribed ---------------------------------------

AGENTS = Catalog.from_entries(
    [
        {"name": "order-service", "kind": "service", "aliases": ["订单服务"]},
        {"name": "stock-service", "kind": "service", "aliases": ["库存服务"]},
        {"name": "shipping", "kind": "service", "aliases": ["物流服务"]},
    ]
)


def agent_edges(text: str) -> set[tuple[str, str, str, str]]:
    doc = source("doc/agents-md", text, "总览")
    _, bound = read_corpus([doc], AGENTS)
    out = set()
    for sentence, mentions in bound:
        refs = {(m.start, m.end): m.reason for m in mentions if m.reference}
        for edge in sentence_edges(sentence, mentions, "rules")[0]:
            out.add(
                (edge.subject, edge.rel_type, edge.object, refs.get(edge.object_span or (0, 0), ""))
            )
    return out


def test_an_agent_noun_refers_to_whoever_did_its_verb_just_before() -> None:
    text = "1. 订单服务启动时广播订阅请求\n2. 库存服务收到订阅请求时，推送自己的地址给订阅者\n"
    ((subject, predicate, obj, why),) = agent_edges(text)
    assert (subject, predicate, obj) == ("service:stock-service", "FEEDS", "service:order-service")
    assert why == "'订阅者' = the '订单服务' who does '订阅' in '订单服务启动时广播订阅请求'"


@pytest.mark.parametrize(
    "text",
    [
        # the verb is done by no one named before: nothing to refer to
        "库存服务收到请求时，推送自己的地址给订阅者。",
        # two doers: not one entity
        "订单服务和物流服务启动时广播订阅请求。\n库存服务推送自己的地址给订阅者。",
        # the doer is too far back
        "订单服务启动时广播订阅请求。\n一。\n二。\n三。\n库存服务推送自己的地址给订阅者。",
    ],
)
def test_an_agent_noun_without_one_recent_doer_refers_to_nothing(text: str) -> None:
    assert agent_edges(text) == set()


# --- organisations that do things in house ---------------------------------------------

INHOUSE = """阿森内部并没有采用 Etcd 做为配置中心。
其他公司可能在阿森内部以外的环境使用它。
在服务内部缓存配置。
注：Etcd 是一个 KV 存储服务器。
"""


def test_an_organisation_named_in_house_twice_is_discovered_and_relates() -> None:
    docs = [source("doc/a-md", INHOUSE, "甲"), source("doc/b-md", INHOUSE, "乙")]
    found = {e.name: e for e in discover_entities(docs)}
    assert found["阿森"].kind == "team"
    assert "服务" not in found and "在服务" not in found  # the system's own nouns are not owners
    _, read = read_corpus(docs, None)
    edges = {
        (e.subject, e.rel_type, e.negated)
        for sentence, mentions in read
        for e in sentence_edges(sentence, mentions, "rules")[0]
    }
    assert ("team:阿森", "USES", True) in edges


def test_an_organisation_named_once_is_not_discovered() -> None:
    found = {e.name for e in discover_entities([source("doc/a-md", "阿森内部使用 Etcd。", "甲")])}
    assert "阿森" not in found


def test_the_grader_accepts_a_recorded_re_reading_of_a_head_noun_and_only_that() -> None:
    text = "这是基于 Etcd 实现的配置中心。"
    at = text.index("配置中心")
    grader = Grader(CATALOG.entities)

    def grade(source: str, why: str) -> str:
        evidence = Evidence(
            "k", source, "DEPENDS_ON", "datastore:etcd", "doc/etcd-md#0-1", text, 0,
            "doc/etcd-md", subject_ref=why, subject_span=(at, at + 4),
        )  # fmt: skip
        return grader.grade(evidence).label

    why = "'配置中心' = Etcd 配置中心, the head noun of the page title 'Etcd 配置中心'"
    assert grade("component:etcd-配置中心", why) == SUPPORTED
    assert grade("component:etcd-配置中心", "") != SUPPORTED  # no recorded reading: the name
