"""Relation forms of real documentation, on invented sentences (three forms each, both languages).

Every name here is made up: the forms are what is tested, never a corpus's sentence.
"""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.relations.reader import sentence_edges

ENTITIES = [
    Entity("quarn", "service", ("Quarn", "quarn service")),
    Entity("brisk", "service", ("Brisk", "brisk service")),
    Entity("tolvo", "service", ("Tolvo",)),
    Entity("mirelle store", "datastore", ("Mirelle",)),
    Entity("Zorbex", "service", ()),
    Entity("Pluvia", "service", ()),
    Entity("Kestrel", "datastore", ()),
    Entity("Drizzle", "topic", ()),
]
BINDER = Binder(ENTITIES)


def read(text: str) -> set[tuple[str, str, str]]:
    sentence = Sentence("doc/forms", text, 0, len(text))
    edges, _ = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    return {
        (e.subject.split(":")[1], e.rel_type, e.object.split(":")[1])
        for e in edges
        if not e.negated
    }


@pytest.mark.parametrize(
    "text",
    [
        "The Quarn servers make use of Zorbex for scheduling.",  # plural agreement
        "Quarn made use of\nZorbex until the last release.",  # past, across a line break
        "Quarn, making use of Zorbex, keeps its queue short.",  # a participle
    ],
)
def test_make_use_of_in_any_form_is_a_use(text: str) -> None:
    assert ("quarn", "USES", "zorbex") in read(text)


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Quarn: connects to Brisk and keeps a cache.", ("quarn", "CALLS", "brisk")),
        ("**Quarn**: reads from Mirelle on every start.", ("quarn", "READS_FROM", "mirelle-store")),
        (
            "* [Quarn](parts/quarn.md): pushes its metrics to Tolvo.",
            ("quarn", "FEEDS", "tolvo"),
        ),
    ],
)
def test_a_label_then_a_third_person_verb_states_what_the_label_does(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Quarn: consume events from Tolvo instead of polling Brisk",
        "quarn: read from Mirelle",
        "Quarn: call Brisk on start",
    ],
)
def test_a_label_then_an_imperative_is_a_change_title_and_states_nothing(text: str) -> None:
    assert read(text) == set()


@pytest.mark.parametrize(
    "text",
    [
        "Quarn is a client of Brisk.",
        "Quarn acts as the gRPC client to Brisk.",
        "Quarn serves as a thin client for Brisk.",
    ],
)
def test_a_client_of_a_component_calls_it(text: str) -> None:
    assert ("quarn", "CALLS", "brisk") in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Quarn makes an HTTP request to Brisk.",
        "Quarn then issues requests to Brisk.",
        "Quarn made a second request to Brisk.",
    ],
)
def test_a_request_made_or_issued_to_a_component_is_a_call(text: str) -> None:
    assert ("quarn", "CALLS", "brisk") in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Quarn makes a second HTTP request to Brisk.",  # two words before the noun
        "Quarn performs a single gRPC call to Brisk.",  # a call, not a request
        "Quarn sends one more signed request to Brisk.",  # a request sent is a call
    ],
)
def test_a_request_or_call_described_at_length_is_still_a_call(text: str) -> None:
    assert read(text) == {("quarn", "CALLS", "brisk")}


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Quarn runs on top of Brisk.", ("quarn", "DEPENDS_ON", "brisk")),
        ("Quarn is embedded in Brisk.", ("quarn", "DEPENDS_ON", "brisk")),
        ("Quarn is primarily implemented in Brisk.", ("quarn", "USES", "brisk")),
        ("Quarn is written with Tolvo.", ("quarn", "USES", "tolvo")),
        ("Quarn is bundled into Tolvo.", ("quarn", "DEPENDS_ON", "tolvo")),
    ],
)
def test_what_a_component_is_made_on_or_with(text: str, edge: tuple[str, str, str]) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Quarn uses Brisk's API.", ("quarn", "USES", "brisk")),
        ("Quarn reads Tolvo's data.", ("quarn", "READS_FROM", "tolvo")),
        ("Quarn makes use of Brisk's reload endpoint.", ("quarn", "USES", "brisk")),
    ],
)
def test_what_a_component_exposes_stands_for_it_after_a_possessive(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert edge in read(text)


def test_a_possessed_thing_that_is_no_face_of_its_owner_is_not_its_owner() -> None:
    assert read("Quarn writes to Brisk's scratch notebook.") == set()


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Zorbex服务启动时向Pluvia注册临时节点。", ("zorbex", "WRITES_TO", "pluvia")),
        ("Zorbex 服务重启后向 Pluvia 注册自己。", ("zorbex", "WRITES_TO", "pluvia")),
        ("Zorbex服务上线时向Pluvia上报负载。", ("zorbex", "FEEDS", "pluvia")),
    ],
)
def test_zh_a_service_and_its_time_clause_before_the_preposition(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 分发任务给 Pluvia。",
        "Zorbex 将任务派发给 Pluvia 执行。",
        "Zorbex 分配任务至 Pluvia。",
    ],
)
def test_zh_work_handed_out_to_a_component_feeds_it(text: str) -> None:
    assert ("zorbex", "FEEDS", "pluvia") in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 通过 Pluvia 来进行集群管理。",
        "Zorbex 通过 Pluvia 实现高可用。",
        "Zorbex 借助 Pluvia 完成选主。",
    ],
)
def test_zh_the_means_of_an_action_is_used(text: str) -> None:
    assert ("zorbex", "USES", "pluvia") in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 内置于 Pluvia 中。",
        "Zorbex 集成在 Pluvia 里，无需独立部署。",
        "Zorbex 嵌入到 Pluvia 中运行。",
    ],
)
def test_zh_a_part_built_into_a_component_depends_on_it(text: str) -> None:
    assert ("zorbex", "DEPENDS_ON", "pluvia") in read(text)


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Zorbex 内置于 Pluvia 的 Kestrel 中。", ("zorbex", "DEPENDS_ON", "kestrel")),
        ("Zorbex 调用 Pluvia 的 Kestrel。", ("zorbex", "CALLS", "kestrel")),
        ("Zorbex 向 Pluvia 的 Kestrel 写入数据。", ("zorbex", "WRITES_TO", "kestrel")),
    ],
)
def test_zh_an_object_owned_by_another_is_the_object_not_its_owner(
    text: str, edge: tuple[str, str, str]
) -> None:
    found = read(text)
    assert edge in found
    assert not any(o == "pluvia" for _, _, o in found)


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Zorbex 将读取请求转发给底层的存储节点 Pluvia。", ("zorbex", "CALLS", "pluvia")),
        ("Zorbex 把数据写入存储引擎 Kestrel。", ("zorbex", "WRITES_TO", "kestrel")),
        ("Zorbex 下发调度命令给下游组件 Pluvia。", ("zorbex", "FEEDS", "pluvia")),
    ],
)
def test_zh_an_object_named_after_its_kind_noun(text: str, edge: tuple[str, str, str]) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 没有直接向磁盘写数据，而是把数据保存在 Kestrel 中。",
        "Zorbex 并不自己保存状态，而是写入 Kestrel。",
        "Zorbex 不在本地缓存，而是将结果存储到 Kestrel。",
    ],
)
def test_zh_a_clause_after_but_rather_keeps_the_subject_and_is_not_negated(text: str) -> None:
    sentence = Sentence("doc/forms", text, 0, len(text))
    edges, _ = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    writes = [e for e in edges if e.rel_type == "WRITES_TO" and e.object.endswith("kestrel")]
    assert writes and all(e.subject.endswith("zorbex") and not e.negated for e in writes)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 基于 Pluvia 进行事件监听。",
        "Zorbex 依托 Pluvia 进行选主。",
        "Zorbex 基于 Pluvia 实现分布式锁。",
    ],
)
def test_zh_what_an_action_is_based_on_is_a_dependency(text: str) -> None:
    assert ("zorbex", "DEPENDS_ON", "pluvia") in read(text)


@pytest.mark.parametrize(
    ("text", "edges"),
    [
        (
            "The clients of Brisk are: Quarn, Tolvo and Zorbex.",
            {
                ("quarn", "CALLS", "brisk"),
                ("tolvo", "CALLS", "brisk"),
                ("zorbex", "CALLS", "brisk"),
            },
        ),
        (
            "The only consumers of Tolvo are Quarn and Brisk.",
            {("quarn", "CONSUMES_FROM", "tolvo"), ("brisk", "CONSUMES_FROM", "tolvo")},
        ),
        (
            "The dependencies of Quarn include Brisk and Mirelle.",
            {("quarn", "DEPENDS_ON", "brisk"), ("quarn", "DEPENDS_ON", "mirelle-store")},
        ),
        (
            "Pluvia 的客户端有 Zorbex 和 Kestrel。",
            {("zorbex", "CALLS", "pluvia"), ("kestrel", "CALLS", "pluvia")},
        ),
        (
            "Pluvia 的订阅者包括 Zorbex、Kestrel。",
            {("zorbex", "CONSUMES_FROM", "pluvia"), ("kestrel", "CONSUMES_FROM", "pluvia")},
        ),
    ],
)
def test_a_role_list_gives_one_edge_per_member(text: str, edges: set[tuple[str, str, str]]) -> None:
    assert read(text) == edges


@pytest.mark.parametrize(
    "text",
    [
        "The users of Quarn are happy.",
        "The clients of Quarn wait for Brisk.",
        "Pluvia 的客户端很多。",
    ],
)
def test_a_role_noun_without_a_list_of_names_states_nothing(text: str) -> None:
    assert read(text) == set()


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Requests are sent to Brisk by Quarn.", ("quarn", "FEEDS", "brisk")),
        ("Metrics are periodically pushed to Tolvo by Quarn.", ("quarn", "FEEDS", "tolvo")),
        ("Spans were exported into Brisk by Tolvo.", ("tolvo", "FEEDS", "brisk")),
    ],
)
def test_something_sent_to_a_component_by_another_is_fed_by_the_agent(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert read(text) == {edge}


@pytest.mark.parametrize(
    "text",
    [
        "Quarn uploads blocks to Mirelle every hour.",
        "Quarn sends its events to Mirelle.",
        "Quarn regularly backs up snapshots into Mirelle.",
    ],
)
def test_what_is_handed_to_a_store_is_written_to_it(text: str) -> None:
    assert read(text) == {("quarn", "WRITES_TO", "mirelle-store")}


@pytest.mark.parametrize(
    "text",
    [
        "Quarn writes Brisk's data into Mirelle.",
        "Quarn stores Brisk's logs in Mirelle.",
        "Quarn saves Tolvo's metrics into a configured Mirelle.",
    ],
)
def test_the_place_after_an_owners_data_is_where_it_goes(text: str) -> None:
    assert ("quarn", "WRITES_TO", "mirelle-store") in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 将请求转发给 Pluvia。",
        "Zorbex 把请求发送到 Pluvia。",
        "Zorbex 将请求转发给底层的存储节点 Pluvia。",
    ],
)
def test_zh_a_request_taken_by_a_disposal_marker_is_stated_not_planned(text: str) -> None:
    sentence = Sentence("doc/forms", text, 0, len(text))
    edges, _ = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    calls = [e for e in edges if e.rel_type == "CALLS" and e.object.endswith("pluvia")]
    assert calls and not any(e.hedged for e in calls)


def test_zh_will_before_a_verb_is_still_a_plan() -> None:
    sentence = Sentence("doc/forms", "Zorbex 将调用 Pluvia。", 0, 17)
    edges, _ = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    assert edges and all(e.hedged for e in edges)


@pytest.mark.parametrize(
    "text",
    [
        "Quarn forwards requests to Brisk (or Tolvo).",
        "Zorbex 将请求转发给 Pluvia（或 Kestrel）。",
        "Zorbex 将请求转发给 Pluvia（或者 Kestrel）。",
    ],
)
def test_an_alternative_in_parentheses_is_an_object_too(text: str) -> None:
    objects = {o for _, p, o in read(text) if p == "CALLS"}
    assert len(objects) == 2


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Zorbex 负责实时拉取 Pluvia 的变更信息。", ("zorbex", "READS_FROM", "pluvia")),
        ("Zorbex 负责定期写入 Kestrel。", ("zorbex", "WRITES_TO", "kestrel")),
        ("Zorbex 负责调用 Pluvia。", ("zorbex", "CALLS", "pluvia")),
    ],
)
def test_zh_what_a_component_is_responsible_for_doing_it_does(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Zorbex 实时拉取上游 Pluvia 的变更信息。", ("zorbex", "READS_FROM", "pluvia")),
        ("Zorbex 将结果写入下游 Kestrel。", ("zorbex", "WRITES_TO", "kestrel")),
        ("Zorbex 将请求转发给远端的 Pluvia。", ("zorbex", "CALLS", "pluvia")),
    ],
)
def test_zh_where_an_object_stands_does_not_hide_it(text: str, edge: tuple[str, str, str]) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 主要负责 Pluvia 的提交。",
        "Zorbex 主要负责 Pluvia 任务切分。",
        "Zorbex 负责 Kestrel 的清理和监控。",
    ],
)
def test_zh_responsible_for_an_activity_on_a_thing_is_no_ownership_of_it(text: str) -> None:
    assert not {e for e in read(text) if e[1] == "OWNS"}


@pytest.mark.parametrize("text", ["Zorbex 负责 Pluvia。", "Pluvia 由 Zorbex 负责维护。"])
def test_zh_responsible_for_a_thing_is_ownership(text: str) -> None:
    assert ("zorbex", "OWNS", "pluvia") in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Zorbex 监听 Pluvia 的变化。",
        "Zorbex 启动后持续监听 Pluvia。",
        "Zorbex 服务启动时向 Kestrel 注册临时节点，通过监听 Pluvia 临时节点变化来进行容错处理。",
    ],
)
def test_zh_listening_to_a_component_consumes_from_it(text: str) -> None:
    assert ("zorbex", "CONSUMES_FROM", "pluvia") in read(text)


def test_zh_a_listening_port_is_no_component() -> None:
    assert read("Zorbex 监听端口 8080，Pluvia 不监听。") == set()


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Through Kestrel, Quarn keeps its data safe.", ("quarn", "USES", "kestrel")),
        ("Using Zorbex, Quarn schedules its jobs every minute.", ("quarn", "USES", "zorbex")),
        ("Based on Pluvia, Quarn offers a second scheduler.", ("quarn", "DEPENDS_ON", "pluvia")),
    ],
)
def test_a_means_put_before_the_subject(text: str, edge: tuple[str, str, str]) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "With Zorbex, Quarn remains the foundation of the cluster.",  # beside, not by means of
        "Using Zorbex and Kestrel, Quarn schedules its jobs.",  # two means: which one?
        "Using the cache, the scheduler of Quarn runs faster.",  # no name opens the clause
    ],
)
def test_no_means_before_the_subject(text: str) -> None:
    assert not {e for e in read(text) if e[0] == "quarn"}


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        (
            "Quarn workers pull jobs out of Drizzle and handle them.",
            ("quarn", "CONSUMES_FROM", "drizzle"),
        ),
        (
            "When Quarn pulls an event off Drizzle, it delivers it.",
            ("quarn", "CONSUMES_FROM", "drizzle"),
        ),
        ("Quarn takes the next task off Kestrel.", ("quarn", "READS_FROM", "kestrel")),
        ("Quarn pulls Kestrel every minute.", ("quarn", "READS_FROM", "kestrel")),
    ],
)
def test_what_is_pulled_out_of_a_queue_is_consumed_from_it(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    "text",
    [
        "Quarn simply scans the Kestrel bucket.",
        "Kestrel is scanned by Quarn every hour.",
        "Quarn, scanning Kestrel, finds old blocks.",
    ],
)
def test_a_scan_is_a_read(text: str) -> None:
    assert ("quarn", "READS_FROM", "kestrel") in read(text)


def test_an_ambiguous_subject_after_a_means_makes_no_edge() -> None:
    twins = Binder([Entity("Vega", "service", ()), Entity("Vega", "team", ())])
    text = "Using Zorbex, Vega schedules its jobs."
    sentence = Sentence("doc/forms", text, 0, len(text))
    mentions = [*twins.bind(sentence), *BINDER.bind(sentence)]
    edges, _ = sentence_edges(sentence, mentions, "rules")
    assert all(e.subject for e in edges)
    assert not [e for e in edges if e.object.endswith("zorbex")]
