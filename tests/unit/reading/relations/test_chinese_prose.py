"""Chinese documentation prose: the forms real manuals use (``zehn.reading.relations.cues_zh``),
subjects carried through lists and coordinated clauses, negation and hedging kept on the edge,
and 其 read as the entity its clause refers to. Every sentence here is invented."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.references.reader import read_corpus
from zehn.reading.relations.cues import CUES
from zehn.reading.relations.cues_zh import BY_OBJECT_KIND, ZH_PROSE_CUES, predicates_for
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import split_sentences
from zehn.reading.vocabulary import Predicate

CATALOG = Catalog.from_entries(
    [
        {"name": "order-service", "kind": "service", "aliases": ["订单服务"]},
        {"name": "stock-service", "kind": "service", "aliases": ["库存服务"]},
        {"name": "shipping", "kind": "service", "aliases": ["物流服务"]},
        {"name": "pay-gateway", "kind": "service", "aliases": ["支付网关"]},
        {"name": "directory", "kind": "component", "aliases": ["目录中心"]},
        {"name": "config-center", "kind": "component", "aliases": ["配置中心"]},
        {"name": "alarm-center", "kind": "component", "aliases": ["告警中心"]},
        {"name": "order-events", "kind": "topic", "aliases": ["订单事件流"]},
        {"name": "order-db", "kind": "datastore", "aliases": ["订单库"]},
        {"name": "cache-cluster", "kind": "datastore", "aliases": ["缓存集群"]},
        {"name": "trade-team", "kind": "team", "aliases": ["交易团队"]},
    ]
)
BINDER = Binder(CATALOG.entities)
Triple = tuple[str, str, str, str]  # subject, predicate, object, flags


def extract(text: str) -> set[Triple]:
    sentence = Sentence("doc/x", text, 5, 5 + len(text))
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


def test_the_prose_cues_are_part_of_the_lexicon() -> None:
    patterns = {cue.pattern.pattern for cue in CUES if cue.cjk}
    assert all(row.verb in patterns for row in ZH_PROSE_CUES)


def test_a_hand_over_verb_feeds_a_service_and_publishes_to_a_topic() -> None:
    assert predicates_for(BY_OBJECT_KIND, "发送", "component:alarm") == (Predicate.FEEDS,)
    assert predicates_for(BY_OBJECT_KIND, "发送", "topic:orders") == (Predicate.PUBLISHES_TO,)
    older = (Predicate.PUBLISHES_TO,)  # the first lexicon's 推送到 follows the same rule
    assert predicates_for(older, "推送到", "service:shipping") == (Predicate.FEEDS,)
    assert predicates_for(older, "发布到", "service:shipping") == older  # 发布 stays publishing
    assert predicates_for((Predicate.CALLS,), "调用", "topic:orders") == (Predicate.CALLS,)


# --- 1. the forms of real prose, one predicate each ------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 向 X 注册 / 注册到 X: registering writes an entry into X
        ("订单服务在启动时，向目录中心注册自身的接口。", {("order-service", "WRITES_TO", "directory", "")}),
        ("库存服务启动后向目录中心登记实例地址。", {("stock-service", "WRITES_TO", "directory", "")}),
        # the nearest verb completes 向: 注册, not the later 提供
        ("库存服务向目录中心注册其提供的接口。", {("stock-service", "WRITES_TO", "directory", "")}),
        ("订单服务把实例信息注册到目录中心。", {("order-service", "WRITES_TO", "directory", "")}),
        # 向 X 订阅: CONSUMES_FROM; 向 X 获取/查询: READS_FROM (another name in the data is not an end)
        ("物流服务向订单事件流订阅已支付的订单。", {("shipping", "CONSUMES_FROM", "order-events", "")}),
        ("订单服务向配置中心获取限流阈值。", {("order-service", "READS_FROM", "config-center", "")}),
        ("物流服务向目录中心查询库存服务的实例列表。", {("shipping", "READS_FROM", "directory", "")}),
        # 与 X 交互/通信: CALLS, after an adverbial phrase too
        ("支付网关通过专线与物流服务通信。", {("pay-gateway", "CALLS", "shipping", "")}),
        (
            "订单服务和库存服务都与配置中心保持长连接交互。",
            {("order-service", "CALLS", "config-center", ""), ("stock-service", "CALLS", "config-center", "")},
        ),
        # 连接 X / 直连 X / 访问 X: CALLS
        ("物流服务直连订单库。", {("shipping", "CALLS", "order-db", "")}),
        ("告警中心启动时连接到目录中心。", {("alarm-center", "CALLS", "directory", "")}),
        ("支付网关访问订单服务的查询接口。", {("pay-gateway", "CALLS", "order-service", "")}),
        # 通过 X 调用 Y: USES X, CALLS Y (the subject is found behind the instrument phrase)
        (
            "订单服务通过支付网关调用物流服务。",
            {("order-service", "USES", "pay-gateway", ""), ("order-service", "CALLS", "shipping", "")},
        ),
        # 将/把 … 写入/保存到/存入 X: WRITES_TO X, not the thing moved
        ("订单服务将对账结果写入订单库。", {("order-service", "WRITES_TO", "order-db", "")}),
        ("库存服务把扣减记录保存到缓存集群。", {("stock-service", "WRITES_TO", "cache-cluster", "")}),
        ("物流服务把订单事件流写入订单库。", {("shipping", "WRITES_TO", "order-db", "")}),
        ("订单服务将订单事件流中的消息保存到订单库。", {("order-service", "WRITES_TO", "order-db", "")}),
        ("库存服务存储快照在缓存集群中。", {("stock-service", "WRITES_TO", "cache-cluster", "")}),
        # 发送/汇报/上报 … 到 X: FEEDS a service or component, PUBLISHES_TO a topic
        ("订单服务每分钟汇报一次调用次数到告警中心。", {("order-service", "FEEDS", "alarm-center", "")}),
        ("订单服务上报支付结果到订单事件流。", {("order-service", "PUBLISHES_TO", "order-events", "")}),
        ("订单服务发送扣减请求到库存服务。", {("order-service", "CALLS", "stock-service", "")}),
        ("支付网关把请求转发给物流服务。", {("pay-gateway", "CALLS", "shipping", "")}),  # a request: a call
        ("订单服务集群定期连接到目录中心。", {("order-service", "CALLS", "directory", "")}),
        ("库存服务向告警中心发送心跳。", {("stock-service", "FEEDS", "alarm-center", "")}),
        # 推送/返回/通知 … 给 X: FEEDS X, not the name inside the data handed over
        ("目录中心返回库存服务的地址列表给订单服务。", {("directory", "FEEDS", "order-service", "")}),
        ("配置中心推送变更给库存服务。", {("config-center", "FEEDS", "stock-service", "")}),
        ("目录中心将立即推送事件通知物流服务。", {("directory", "FEEDS", "shipping", "")}),
        # 由 X 负责: OWNS; 基于 X 实现/构建: DEPENDS_ON (also as "基于 X 实现的 Y")
        ("订单库由交易团队负责。", {("trade-team", "OWNS", "order-db", "")}),
        ("告警中心基于缓存集群构建。", {("alarm-center", "DEPENDS_ON", "cache-cluster", "")}),
        ("基于缓存集群实现的目录中心很轻量。", {("directory", "DEPENDS_ON", "cache-cluster", "")}),
        # 使用/采用 X 的 …: USES X
        ("物流服务使用缓存集群的过期机制。", {("shipping", "USES", "cache-cluster", "")}),
        # 广播: PUBLISHES_TO what carries the broadcast
        ("订单服务向订单事件流广播库存变化。", {("order-service", "PUBLISHES_TO", "order-events", "")}),
        ("目录中心通过订单事件流广播配置。", {("directory", "PUBLISHES_TO", "order-events", "")}),
    ],
)  # fmt: skip
def test_chinese_prose_forms(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "目录中心返回订单服务的地址列表。",  # the address list is data; no one it is handed to
        "库存服务在本地缓存了订单服务的列表。",  # a cached list is not a write into the service
        "订单服务保存库存服务的快照。",
        "物流服务注册订单服务的回调。",  # 注册 X: X is what is registered
        "订单服务广播配置中心的地址。",
        "订单服务与库存服务之间通过消息通信。",  # mutual: no direction stated
        "在没有目录中心，直连订单服务的情况下，配置如下：",  # no subject anywhere
        "订单服务的长连接数和访问压力都很高，库存服务的也一样。",
        "订单服务的负责人向交易团队汇报。",  # the subject is a person, not the service
        "从订单事件流读取的库存服务事件很多。",  # a relative head of 读取 is what is read
        "订单服务与库存服务的交互很频繁。",  # 与 X 的交互: no direction
        "配置中心的变更会通知订单服务。",  # the subject is the change
    ],
)
def test_chinese_prose_without_a_stated_relation_makes_no_edge(text: str) -> None:
    assert extract(text) == set()


# --- 2. negation and hedging are recorded on the edge, never used to drop it ------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "目录中心和告警中心全部宕机，不影响已运行的订单服务和库存服务。",
            {
                ("directory", "AFFECTS", "order-service", "negated "),
                ("directory", "AFFECTS", "stock-service", "negated "),
                ("alarm-center", "AFFECTS", "order-service", "negated "),
                ("alarm-center", "AFFECTS", "stock-service", "negated "),
            },
        ),
        ("订单服务可以直连库存服务。", {("order-service", "CALLS", "stock-service", "hedged")}),
        ("物流服务并没有采用缓存集群。", {("shipping", "USES", "cache-cluster", "negated ")}),
        ("库存服务仍能通过配置中心获取阈值。", {("stock-service", "USES", "config-center", "hedged")}),
        ("订单服务不向目录中心注册。", {("order-service", "WRITES_TO", "directory", "negated ")}),
        (
            "目录中心启动后，如果有变更，推送变更给订单服务。",
            {("directory", "FEEDS", "order-service", "hedged")},
        ),
        ("订单服务上线后，可能会影响物流服务。", {("order-service", "AFFECTS", "shipping", "hedged")}),
    ],
)  # fmt: skip
def test_chinese_prose_negation_and_hedging_are_recorded(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


# --- 3. subjects carried through lists and coordinated clauses ---------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "订单服务向目录中心查询库存服务地址，并根据权重算法直接调用库存服务，同时汇报耗时到告警中心。",
            {
                ("order-service", "READS_FROM", "directory", ""),
                ("order-service", "CALLS", "stock-service", ""),
                ("order-service", "FEEDS", "alarm-center", ""),
            },
        ),
        (
            "订单服务和库存服务，在内存中累计请求次数，定时每分钟发送一次统计到告警中心。",
            {("order-service", "FEEDS", "alarm-center", ""), ("stock-service", "FEEDS", "alarm-center", "")},
        ),
        (
            "订单服务读取配置中心，然后写入订单库。",
            {("order-service", "READS_FROM", "config-center", ""), ("order-service", "WRITES_TO", "order-db", "")},
        ),
        (
            "库存服务先从订单事件流消费消息，再通过支付网关调用物流服务。",
            {
                ("stock-service", "CONSUMES_FROM", "order-events", ""),
                ("stock-service", "USES", "pay-gateway", ""),
                ("stock-service", "CALLS", "shipping", ""),
            },
        ),
        (
            "库存服务、订单服务与物流服务都依赖配置中心。",
            {
                ("stock-service", "DEPENDS_ON", "config-center", ""),
                ("order-service", "DEPENDS_ON", "config-center", ""),
                ("shipping", "DEPENDS_ON", "config-center", ""),
            },
        ),
        (
            "`订单服务`、`库存服务` 都依赖 `配置中心`。",
            {("order-service", "DEPENDS_ON", "config-center", ""), ("stock-service", "DEPENDS_ON", "config-center", "")},
        ),
        (
            "订单服务调用库存服务，物流服务写入订单库。",  # the second clause has its own subject
            {("order-service", "CALLS", "stock-service", ""), ("shipping", "WRITES_TO", "order-db", "")},
        ),
    ],
)  # fmt: skip
def test_chinese_subjects_carry_through_lists_and_clauses(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    ("text", "not_stated"),
    [
        # another (unnamed) subject opens the clause
        ("订单服务调用库存服务，配置变更写入订单库。", ("order-service", "WRITES_TO", "order-db")),
        ("订单服务的延迟很高，告警随后写入订单库。", ("order-service", "WRITES_TO", "order-db")),
        # a name inside a phrase is not the clause's topic
        ("在订单服务中，调用库存服务。", ("order-service", "CALLS", "stock-service")),
    ],
)
def test_a_subject_is_not_carried_into_a_clause_that_has_its_own(
    text: str, not_stated: tuple[str, str, str]
) -> None:
    assert not any(edge[:3] == not_stated for edge in extract(text))


# --- 4. 其 and demonstratives: the entity the clause refers to ------------------------


def read(text: str, title: str = "目录中心") -> list[tuple[str, str, str, str]]:
    """Edges of every sentence of a one-document corpus, with the reference reasons."""
    doc = SourceText("doc/zh", title, text, (), tuple(split_sentences("doc/zh", text)))
    _, bound = read_corpus([doc], CATALOG)
    out = []
    for sentence, mentions in bound:
        edges, _ = sentence_edges(sentence, mentions, "rules")
        for edge in edges:
            refs = {m.reason for m in mentions if m.reference and m.start == edge.subject_span[0]}
            out.append((edge.subject, edge.rel_type, edge.object, next(iter(refs), "")))
    return out


def test_its_in_a_later_clause_is_the_subject_of_the_clause_before() -> None:
    (edge,) = read("订单服务只供内部使用，其可用性依赖于配置中心。")
    assert edge[:3] == ("service:order-service", "DEPENDS_ON", "component:config-center")
    assert "the subject of the clause before it" in edge[3]


def test_its_after_a_demonstrative_clause_is_the_document_subject() -> None:
    (edge,) = read("此轻量实现只为测试环境提供，其可靠性依赖于缓存集群本身。")
    assert edge[:3] == ("component:directory", "DEPENDS_ON", "datastore:cache-cluster")
    assert "page title" in edge[3]


def test_a_numbered_chinese_item_opening_with_a_demonstrative_refers_to_the_title() -> None:
    (edge,) = read("1、该中心向订单事件流广播变更。")
    assert edge[:3] == ("component:directory", "PUBLISHES_TO", "topic:order-events")


@pytest.mark.parametrize(
    "text",
    [
        "它们都依赖缓存集群。",  # plural: not one entity
        "这些服务都依赖缓存集群。",
        "其中，有一部分依赖缓存集群。",  # 其中 is "among them", not "its"
        "该数据库依赖缓存集群。",  # the noun does not fit the title's kind (component)
    ],
)
def test_plural_and_mismatched_references_make_no_edge(text: str) -> None:
    assert read(text) == []


# --- 5. cue families of real manuals: places, outages, hosts, picks -------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # 向 X (下/中)，添加/写入: WRITES_TO X, also after a comma that closes the place
        ("订单服务启动时，向缓存集群中，添加当前实例的地址。", {("order-service", "WRITES_TO", "cache-cluster", "")}),
        ("库存服务向订单库添加一条对账记录。", {("stock-service", "WRITES_TO", "order-db", "")}),
        # an outage and what it leaves unusable: AFFECTS
        ("订单库全部宕掉后，订单服务将无法使用。", {("order-db", "AFFECTS", "order-service", "")}),
        ("缓存集群宕机时，物流服务不可用。", {("cache-cluster", "AFFECTS", "shipping", "")}),
        # a host starts, loads and runs what it hosts: USES
        ("目录中心负责启动，加载，运行库存服务。", {("directory", "USES", "stock-service", "")}),
        ("配置中心负责启动和加载物流服务。", {("config-center", "USES", "shipping", "")}),
        # picking one instance to call: CALLS, the topic carried past a place phrase
        (
            "订单服务，从目录中心的列表中，基于权重算法，选一台库存服务进行调用。",
            {("order-service", "CALLS", "stock-service", "")},
        ),
        ("支付网关对物流服务发起调用。", {("pay-gateway", "CALLS", "shipping", "")}),
        # an instrument written in code: "通过 `watch` 功能订阅 X"
        ("物流服务通过 `watch` 功能订阅订单事件流。", {("shipping", "CONSUMES_FROM", "order-events", "")}),
        # a code span between a preposition and its verb counts as one character
        (
            "物流服务启动时，从订单事件流的 `/very/long/path/to/a/partition/of/the/stream/events/all` 订阅变更。",
            {("shipping", "CONSUMES_FROM", "order-events", "")},
        ),
    ],
)  # fmt: skip
def test_chinese_manual_cue_families(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "订单库宕机后，订单服务仍可使用本地缓存。",  # still usable: nothing is affected
        "订单库宕机后，自动切换到另一台。",  # no second name
        "选一台库存服务作为备份。",  # picked, not called
        "交易团队负责维护订单库的备份策略，物流服务负责打包。",  # 负责 + no running verb
        "向缓存集群中，订单服务添加了数据。",  # the comma ends the 向 phrase's own clause
    ],
)
def test_chinese_manual_cue_families_negatives(text: str) -> None:
    assert not any(p in ("AFFECTS", "USES", "CALLS", "WRITES_TO") and s != "trade-team"
                   for s, p, _, _ in extract(text))  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # a connective, a negated clause, then 而是 and the subject's real action
            "但是订单服务没有直接写本地磁盘，而是把订单保存在订单库中。",
            {("order-service", "WRITES_TO", "order-db", "")},
        ),
        (  # a connective right before the topic, the verb after a time clause
            "所以库存服务启动以后，会向目录中心注册。",
            {("stock-service", "WRITES_TO", "directory", "hedged")},
        ),
        (  # a connective, a first clause naming no second entity, then the real action
            "此外物流服务没有选用本地文件，而是从订单事件流读取消息。",
            {("shipping", "READS_FROM", "order-events", "")},
        ),
    ],
)
def test_a_sentence_opening_connective_keeps_the_topic_for_later_clauses(
    text: str, expected: set[Triple]
) -> None:
    assert extract(text) == expected


def test_a_connective_does_not_make_a_preposition_object_the_topic() -> None:
    # the first clause's name is a place (在 X 中), not who acts: nothing to carry
    assert extract("但是在订单库中，数据保存在缓存集群里。") == set()


@pytest.mark.parametrize(
    "text",
    [
        "订单服务利用缓存集群来做数据复制。",
        "订单服务借助缓存集群实现高可用。",
        "订单服务选用了缓存集群作为存储引擎。",
        "订单服务选择了缓存集群。",
    ],
)
def test_the_means_as_the_verbs_object_is_a_use(text: str) -> None:
    assert ("order-service", "USES", "cache-cluster", "") in extract(text)


@pytest.mark.parametrize(
    "text",
    [
        "订单服务主要负责库存服务的容错。",
        "订单服务负责库存服务故障转移。",
        "订单服务负责库存服务的恢复。",
    ],
)
def test_responsible_for_an_activity_on_x_is_no_ownership_of_x(text: str) -> None:
    assert not {t for t in extract(text) if t[1] == "OWNS"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("订单服务定时扫描订单库。", ("order-service", "READS_FROM", "order-db", "")),
        ("订单服务会扫描订单库中的记录。", ("order-service", "READS_FROM", "order-db", "hedged")),
        (
            "订单服务不断从订单事件流中领取任务。",
            ("order-service", "CONSUMES_FROM", "order-events", ""),
        ),
        ("订单服务把任务交给物流服务处理。", ("order-service", "FEEDS", "shipping", "")),
        ("订单服务将任务抛给库存服务运行。", ("order-service", "FEEDS", "stock-service", "")),
        ("订单服务把结果提交给订单事件流。", ("order-service", "PUBLISHES_TO", "order-events", "")),
    ],
)
def test_scanning_taking_from_a_queue_and_handing_work_over(text: str, expected: Triple) -> None:
    assert expected in extract(text)


@pytest.mark.parametrize(
    "text",
    [
        "订单服务不断调用库存服务。",  # continuously
        "订单服务不停地调用库存服务。",  # without stopping
        "订单服务不时调用库存服务。",  # from time to time
    ],
)
def test_words_opening_with_bu_that_negate_nothing(text: str) -> None:
    assert ("order-service", "CALLS", "stock-service", "") in extract(text)


def test_bu_before_a_verb_still_negates() -> None:
    assert ("order-service", "CALLS", "stock-service", "negated ") in extract(
        "订单服务不调用库存服务。"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "订单服务使用开源时序数据库 [订单库](https://x.io) 作为存储方案。",
            ("order-service", "USES", "order-db", ""),
        ),
        (
            "订单服务依赖缓存组件 [缓存集群](https://x.io)。",
            ("order-service", "DEPENDS_ON", "cache-cluster", ""),
        ),
        (
            "订单服务读取数据库 **订单库** 中的记录。",
            ("order-service", "READS_FROM", "order-db", ""),
        ),
        ("订单服务调用下游组件「库存服务」。", ("order-service", "CALLS", "stock-service", "")),
    ],
)
def test_an_object_named_in_a_link_or_markup_after_its_kind_noun(
    text: str, expected: Triple
) -> None:
    assert expected in extract(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "通过单机的订单库，订单服务可以将数据存储在磁盘上。",
            ("order-service", "USES", "order-db", ""),
        ),
        (
            "通过实现缓存集群，订单服务变成了分布式存储。",
            ("order-service", "USES", "cache-cluster", ""),
        ),
        ("基于订单库，订单服务实现了高可用。", ("order-service", "DEPENDS_ON", "order-db", "")),
    ],
)
def test_a_means_put_before_the_topic(text: str, expected: Triple) -> None:
    assert expected in extract(text)
