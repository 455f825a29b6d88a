"""Which names a question asks about, under which condition or setting, and which edges
answer it: invented questions about invented components (English and Chinese), with the
tempting ones that must stay unanswered."""

from __future__ import annotations

import json
from typing import Any

import pytest

from zehn.engine.parts import _means_the_subject
from zehn.engine.spelling import _one_word_apart
from zehn.models.base import DraftAnswer, Exchange, Question, ToolRequest
from zehn.models.offline import OfflineModel
from zehn.models.senses import answering, between
from zehn.reading.model import Entity
from zehn.reading.questions.asking import Intent, read_question
from zehn.reading.questions.asking_names import respelled
from zehn.reading.questions.asking_zh import read_asked
from zehn.reading.vocabulary import Predicate

MODEL = OfflineModel()
NEGATES = "the sentence negates {0} AFFECTS {1}"


# --- names written loosely -------------------------------------------------------------------


ENTITIES = [
    Entity("plover-gateway", "service"),
    Entity("heron-db", "datastore", ("Heron Database",)),
    Entity("Wren Inc.", "customer", ("Wren Incorporated",)),
    Entity("tern-cache", "datastore"),
    Entity("terncache", "service"),
]


@pytest.mark.parametrize(
    ("question", "spelled"),
    [
        ("Who calls the plover gateway?", "Who calls the plover-gateway?"),
        ("Who calls the Plover Gateway service?", "Who calls the plover-gateway service?"),
        ("What does heron db store?", "What does heron-db store?"),
        # already written as the graph writes it (an alias with its full stop): untouched
        ("What is Wren Inc.?", "What is Wren Inc.?"),
        # two entities share the letters: no guess
        ("What breaks if the tern cache goes down?", "What breaks if the tern cache goes down?"),
        # one word is never respelled, and words that only touch a name stay as they are
        ("Does the gateway call plover?", "Does the gateway call plover?"),
    ],
)
def test_loosely_written_names_are_respelled_only_when_unambiguous(
    question: str, spelled: str
) -> None:
    assert respelled(question, ENTITIES) == spelled


def test_names_one_word_apart_are_parts_of_one_thing() -> None:
    assert _one_word_apart("Kestrel", "Kestrel Server")
    assert _one_word_apart("鹭鸟 注册中心", "鹭鸟")
    assert not _one_word_apart("Kestrel", "Browser Kestrel UI")  # not named after it
    assert not _one_word_apart("Kestrel", "Kestrel Server Pool")  # two words more
    assert not _one_word_apart("Kestrel", "Kestrels")


# --- the names asked about -------------------------------------------------------------------


def test_the_subject_of_does_is_the_focus_and_a_setting_is_context() -> None:
    asked = read_question(
        "In a Heron deployment, what does the quill-router read from?", ["Heron", "quill-router"]
    )
    assert asked.intent == Intent.LOOKUP_OUT and asked.focus[0] == "quill-router"
    assert asked.context == ("Heron",)


def test_an_impact_is_on_what_goes_down_not_on_the_first_name() -> None:
    asked = read_question(
        "What happens to quill-router when plover-db is down?", ["quill-router", "plover-db"]
    )
    assert asked.intent == Intent.IMPACT
    assert asked.focus[0] == "plover-db" and asked.concerning == ("quill-router",)
    both = read_question(
        "If plover-db and tern-cache go down, what breaks?", ["plover-db", "tern-cache"]
    )
    assert set(both.focus) == {"plover-db", "tern-cache"} and both.concerning == ()
    renamed = read_question(
        "Would renaming the sparrow-events topic break anything?", ["sparrow-events"]
    )
    assert renamed.focus == ("sparrow-events",)


def test_a_lookup_under_a_condition_takes_the_condition_away() -> None:
    asked = read_question(
        "If plover-db goes down, where does quill-router read from?", ["plover-db", "quill-router"]
    )
    assert asked.intent == Intent.LOOKUP_OUT and asked.predicates == (Predicate.READS_FROM,)
    assert asked.focus[0] == "quill-router" and asked.condition == ("plover-db",)
    # the main clause asks for the effect: an impact, not a lookup
    impact = read_question(
        "If plover-db goes down, is quill-router affected?", ["plover-db", "quill-router"]
    )
    assert impact.intent == Intent.IMPACT and impact.focus[0] == "plover-db"


def test_reporting_is_feeding_and_a_protocol_is_a_filter() -> None:
    asked = read_question("Who reports metrics to heron-collector?", ["heron-collector"])
    assert asked.intent == Intent.LOOKUP_IN and asked.predicates == (Predicate.FEEDS,)
    over = read_question("Who talks to quill-router over gRPC?", ["quill-router"])
    assert over.intent == Intent.LOOKUP_IN and over.protocol == "grpc"


@pytest.mark.parametrize(
    ("question", "names", "intent", "predicates"),
    [
        # a name with a verb inside it ("订单消费者") is never read for that verb
        ("订单消费者会向鹭鸟监控上报统计数据吗？", ["订单消费者", "鹭鸟监控"], Intent.YES_NO, (Predicate.FEEDS,)),
        # "调用时间" is a noun: the relation asked is the report
        ("鹭鸟网关会把调用时间汇报给鹭鸟监控吗？", ["鹭鸟网关", "鹭鸟监控"], Intent.YES_NO, (Predicate.FEEDS,)),
        ("哪些节点会向鹭鸟监控上报统计数据？", ["鹭鸟监控"], Intent.LOOKUP_IN, (Predicate.FEEDS,)),
        ("订单消费者从哪里拿到鹭鸟网关的地址列表？", ["订单消费者", "鹭鸟网关"], Intent.LOOKUP_OUT, (Predicate.READS_FROM,)),
        ("鹭鸟容器负责启动什么？", ["鹭鸟容器"], Intent.LOOKUP_OUT, (Predicate.USES,)),
        ("被它启动的服务又向谁注册？", [], Intent.LOOKUP_OUT, (Predicate.WRITES_TO,)),
        ("使用鹭鸟注册表时，谁会订阅变更事件？", ["鹭鸟注册表"], Intent.LOOKUP_IN, (Predicate.CONSUMES_FROM,)),
        ("鹭鸟网关的端口是多少？", ["鹭鸟网关"], Intent.ATTRIBUTE, ()),
    ],
)  # fmt: skip
def test_chinese_questions_read_with_their_names_masked(
    question: str, names: list[str], intent: Intent, predicates: tuple[Predicate, ...]
) -> None:
    asked = read_asked(question, names, "zh")
    assert asked.intent == intent and asked.predicates == predicates


def test_chinese_conditions_settings_and_paths() -> None:
    asked = read_asked(
        "鹭鸟注册表不可用时，订单消费者从哪里读取列表？", ["鹭鸟注册表", "订单消费者"], "zh"
    )
    assert asked.intent == Intent.LOOKUP_OUT and asked.condition == ("鹭鸟注册表",)
    assert asked.focus[0] == "订单消费者"
    impact = read_asked(
        "鹭鸟注册表和鹭鸟监控全部宕机后，哪些服务会停止工作？", ["鹭鸟注册表", "鹭鸟监控"], "zh"
    )
    assert impact.intent == Intent.IMPACT and set(impact.focus) == {"鹭鸟注册表", "鹭鸟监控"}
    path = read_asked(
        "从鹭鸟网关启动注册，到订单消费者拿到它的地址，中间经过哪些节点？",
        ["鹭鸟网关", "订单消费者"],
        "zh",
    )
    assert path.intent == Intent.PATH  # the address is on the way, not what is asked


def test_a_pronoun_means_the_subject_or_the_results() -> None:
    assert _means_the_subject("where does it write the parsed files?")
    assert not _means_the_subject("and who owns them?")
    assert _means_the_subject("它还调用什么？")
    assert not _means_the_subject("被它启动的服务又向谁注册？")  # what it started: the results


# --- which edges answer ----------------------------------------------------------------------


def test_near_senses_and_inverses_answer_one_hop_only() -> None:
    consumes = {"source": "s:a", "rel_type": "CONSUMES_FROM", "target": "t:q"}
    fed = {"source": "t:q", "rel_type": "FEEDS", "target": "s:a"}
    calls = {"source": "s:a", "rel_type": "CALLS", "target": "t:q"}
    assert answering(consumes, ["READS_FROM"], ["t:q"], outward=False) == "s:a"
    assert answering(fed, ["READS_FROM"], ["s:a"], outward=True) == "t:q"
    assert answering(calls, ["READS_FROM"], ["t:q"], outward=False) is None
    assert between(fed, ["READS_FROM"], "s:a", "t:q") and not between(
        calls, ["READS_FROM"], "s:a", "t:q"
    )
    # subscribing is narrower than reading: a reader does not answer "who subscribes?"
    reads = {"source": "s:a", "rel_type": "READS_FROM", "target": "t:q"}
    assert answering(reads, ["CONSUMES_FROM"], ["t:q"], outward=False) is None


def _question(text: str, *surfaces: str, **hints: Any) -> Question:
    entities = [
        {"id": s if ":" in s else f"service:{s}", "surface": s.split(":")[-1], "reason": "name"}
        for s in surfaces
    ]
    return Question(text, hints={"entities": entities, **hints})


def _hop(
    source: str, rel: str, target: str, sid: str, quote: str = "", **more: Any
) -> dict[str, Any]:
    label = more.pop("label", "source-supported")
    hop = {"source": source, "rel_type": rel, "target": target, "label": label,
           "sentence_id": sid, "quote": quote, **more}  # fmt: skip
    if label == "source-supported":
        hop.setdefault("supported", [{"sentence_id": sid, "quote": quote}])
    return hop


def _path(nodes: list[str], *hops: dict[str, Any]) -> dict[str, Any]:
    labels = {h["label"] for h in hops}
    label = "source-supported" if labels == {"source-supported"} else "insufficient-evidence"
    return {"label": label, "nodes": nodes, "entities": [n.split(":")[1] for n in nodes],
            "hops": list(hops)}  # fmt: skip


def _run(question: Question, *payloads: dict[str, Any]) -> tuple[list[ToolRequest], DraftAnswer]:
    """Feed the model ``payloads`` in turn (empty results after them) until it drafts."""
    history: list[Exchange] = []
    asked: list[ToolRequest] = []
    for _ in range(12):
        step = MODEL.next_step(question, [], history)
        if isinstance(step, DraftAnswer):
            return asked, step
        asked.append(step)
        payload = (
            payloads[len(history)] if len(history) < len(payloads) else {"paths": [], "rows": []}
        )
        history.append(Exchange(step, json.dumps(payload), ()))
    raise AssertionError("no draft")


def test_an_outage_the_sources_say_does_not_affect_a_service_claims_nothing() -> None:
    q = _question("If heron-db goes down, what breaks?", "datastore:heron-db")
    spared = _path(
        ["datastore:heron-db", "service:quill"],
        _hop("datastore:heron-db", "AFFECTS", "service:quill", "d#1", label="insufficient-evidence",
             reason=NEGATES.format("heron-db", "quill")),
    )  # fmt: skip
    reads = _path(
        ["datastore:heron-db", "service:quill"],
        _hop("service:quill", "READS_FROM", "datastore:heron-db", "d#2"),
    )
    _, draft = _run(q, {"paths": [reads, spared]})
    assert draft.cited_ids == ()  # the source says quill is not affected: no risk claimed
    _, claimed = _run(q, {"paths": [reads]})
    assert claimed.cited_ids == ("d#2",)


def test_a_lookup_under_an_outage_cites_only_sentences_about_it() -> None:
    q = _question(
        "If heron-db goes down, where does quill read from?", "datastore:heron-db", "quill"
    )
    usual = _path(["service:quill", "datastore:heron-db"],
                  _hop("service:quill", "READS_FROM", "datastore:heron-db", "d#1", "quill reads from heron-db."))  # fmt: skip
    other = _path(["service:quill", "datastore:tern"],
                  _hop("service:quill", "READS_FROM", "datastore:tern", "d#2", "quill reads from tern."))  # fmt: skip
    _, draft = _run(q, {"paths": [usual, other]})
    assert draft.cited_ids == ()  # neither sentence says what happens when heron-db is down
    fallback = _path(
        ["service:quill", "datastore:tern"],
        _hop("service:quill", "READS_FROM", "datastore:tern", "d#3",
             "When heron-db is down, quill reads from tern."),
    )  # fmt: skip
    _, answered = _run(q, {"paths": [usual, fallback]})
    assert answered.cited_ids == ("d#3",)


def test_over_a_protocol_only_hops_stated_with_it_answer() -> None:
    q = _question("Who talks to quill over gRPC?", "quill")
    http = _path(["service:wren", "service:quill"],
                 _hop("service:wren", "CALLS", "service:quill", "d#1", "wren -->|HTTP| quill"))  # fmt: skip
    _, draft = _run(q, {"paths": [http]})
    assert draft.cited_ids == ()
    grpc = _path(["service:tern", "service:quill"],
                 _hop("service:tern", "CALLS", "service:quill", "d#2", "tern -->|gRPC| quill"))  # fmt: skip
    _, answered = _run(q, {"paths": [http, grpc]})
    assert answered.cited_ids == ("d#2",)


def test_a_queue_is_consumed_not_read() -> None:
    plan = MODEL.plan(_question("Which services read from the orders-queue?", "topic:orders-queue"))
    assert plan.calls[0].arguments["predicate"] == "CONSUMES_FROM"
    assert plan.calls[0].arguments["direction"] == "in"


def test_what_a_service_calls_is_looked_up_only_when_its_dependencies_are_not_stated() -> None:
    q = _question("What does quill depend on?", "quill")
    call = _path(["service:quill", "service:tern"],
                 _hop("service:quill", "CALLS", "service:tern", "d#1", "quill calls tern."))  # fmt: skip
    asked, draft = _run(q, {"paths": []}, {"paths": [call]})
    assert [a.arguments.get("predicate") for a in asked] == [None, "CALLS"]
    assert "direct one-hop lookup" in draft.text and draft.cited_ids == ("d#1",)
    walked = _path(["service:quill", "datastore:heron-db"],
                   _hop("service:quill", "DEPENDS_ON", "datastore:heron-db", "d#2"))  # fmt: skip
    asked, draft = _run(q, {"paths": [walked]})
    assert len(asked) == 1 and draft.cited_ids == ("d#2",)


def test_a_part_named_after_the_focus_is_looked_at_only_when_the_focus_answers_nothing() -> None:
    parts = [{"id": "component:kestrel-server", "name": "Kestrel Server", "of": "service:kestrel"}]
    q = _question("What does kestrel pull its data from?", "kestrel", parts=parts)
    fed = _path(["service:prom", "component:kestrel-server"],
                _hop("service:prom", "FEEDS", "component:kestrel-server", "d#1", "prom --> kestrel"))  # fmt: skip
    asked, draft = _run(q, {"paths": []}, {"rows": []}, {"paths": [fed]})
    assert asked[-1].arguments == {"entity_id": "component:kestrel-server"}
    assert draft.cited_ids == ("d#1",)
    # a question that names no such part never looks elsewhere
    asked, draft = _run(_question("What does kestrel pull its data from?", "kestrel"))
    assert draft.cited_ids == () and all(
        a.arguments.get("entity_id") != "component:kestrel-server" for a in asked
    )


def test_which_topic_and_a_queue_object_choose_the_queue_sense() -> None:
    plan = MODEL.plan(_question("Which topic does quill write to?", "quill"))
    assert plan.calls[0].arguments["predicate"] == "PUBLISHES_TO"
    yes_no = MODEL.plan(
        _question("Does quill read from orders-queue?", "quill", "topic:orders-queue")
    )
    assert yes_no.calls[0].arguments["predicate"] == "CONSUMES_FROM"
    # a store is read, not consumed
    store = MODEL.plan(_question("Does quill read from heron-db?", "quill", "datastore:heron-db"))
    assert store.calls[0].arguments["predicate"] == "READS_FROM"


def test_a_lookup_that_names_what_is_read_cites_only_sentences_about_it() -> None:
    q = _question("Where does quill read ledgers from?", "quill", "datastore:ledgers")
    logs = _path(["service:quill", "service:tern"],
                 _hop("service:quill", "READS_FROM", "service:tern", "d#1", "quill reads logs from tern."))  # fmt: skip
    _, draft = _run(q, {"paths": [logs]})
    assert draft.cited_ids == ()  # a sentence about logs does not say where ledgers come from
    ledgers = _path(
        ["service:quill", "datastore:heron-db"],
        _hop("service:quill", "READS_FROM", "datastore:heron-db", "d#2",
             "quill reads ledgers from heron-db."),
    )  # fmt: skip
    _, answered = _run(q, {"paths": [logs, ledgers]})
    assert answered.cited_ids == ("d#2",)


def test_the_store_behind_a_service_is_found_first_and_its_impact_walked() -> None:
    asked = read_question("If the database behind quill goes down, what breaks?", ["quill"])
    assert asked.intent == Intent.IMPACT and asked.behind
    q = _question("If the database behind quill goes down, what breaks?", "quill")
    store = _path(["service:quill", "datastore:heron-db"],
                  _hop("service:quill", "WRITES_TO", "datastore:heron-db", "d#1"))  # fmt: skip
    risk = _path(["datastore:heron-db", "service:tern"],
                 _hop("service:tern", "READS_FROM", "datastore:heron-db", "d#2"))  # fmt: skip
    asked_calls, draft = _run(q, {"paths": []}, {"paths": []}, {"paths": []}, {"paths": [store]},
                              {"paths": [risk]})  # fmt: skip
    assert asked_calls[-1].name == "downstream_impact"
    assert asked_calls[-1].arguments["entity_id"] == "datastore:heron-db"
    assert draft.cited_ids == ("d#1", "d#2")
    # never the impact of quill itself, and nothing when no store behind it is stated
    asked_calls, draft = _run(q)
    assert all(c.name == "neighbours" for c in asked_calls) and draft.cited_ids == ()


def test_it_is_the_subject_asked_about_before() -> None:
    assert _means_the_subject("and which team owns it?")
    assert not _means_the_subject("and which teams own their callers?")


def test_a_yes_no_about_two_objects_needs_both_stated() -> None:
    q = _question("Does quill call tern and wren?", "quill", "tern", "wren")
    tern = _path(["service:quill", "service:tern"],
                 _hop("service:quill", "CALLS", "service:tern", "d#1", "quill calls tern."))  # fmt: skip
    _, draft = _run(q, {"paths": [tern]})
    assert draft.cited_ids == ()  # only tern is stated: not a yes
    wren = _path(["service:quill", "service:wren"],
                 _hop("service:quill", "CALLS", "service:wren", "d#2", "quill calls wren."))  # fmt: skip
    _, both = _run(q, {"paths": [tern, wren]})
    assert both.text.startswith("Yes.") and both.cited_ids == ("d#1", "d#2")


def test_a_lookup_under_an_outage_needs_a_sentence_about_the_outage() -> None:
    q = _question(
        "If heron-db is down, does quill call tern?", "datastore:heron-db", "quill", "tern"
    )
    plain = _path(["service:quill", "service:tern"],
                  _hop("service:quill", "CALLS", "service:tern", "d#1", "quill calls tern, not heron-db."))  # fmt: skip
    _, draft = _run(q, {"paths": [plain]})
    assert draft.cited_ids == ()  # names heron-db, says nothing of it being down


def test_which_databases_keeps_only_datastores_in_a_walk() -> None:
    q = _question("Which databases does quill depend on?", "quill")
    store = _path(["service:quill", "datastore:heron-db"],
                  _hop("service:quill", "DEPENDS_ON", "datastore:heron-db", "d#1"))  # fmt: skip
    service = _path(["service:quill", "service:tern"],
                    _hop("service:quill", "DEPENDS_ON", "service:tern", "d#2"))  # fmt: skip
    _, draft = _run(q, {"paths": [store, service]})
    assert draft.cited_ids == ("d#1",) and "other path" not in draft.text


def test_when_using_sets_the_scene_and_is_not_taken_away() -> None:
    asked = read_question(
        "When using the heron executor, what does quill read from?", ["heron executor", "quill"]
    )
    assert asked.intent == Intent.LOOKUP_OUT and asked.focus == ("quill",)
    assert asked.context == ("heron executor",) and asked.condition == ()


def test_a_negated_direct_dependency_does_not_hide_an_indirect_impact() -> None:
    q = _question("If heron-db changes, what breaks?", "datastore:heron-db")
    direct_no = _path(
        ["datastore:heron-db", "service:quill"],
        _hop("service:quill", "DEPENDS_ON", "datastore:heron-db", "d#1", label="insufficient-evidence",
             reason="the sentence negates quill DEPENDS_ON heron-db"),
    )  # fmt: skip
    via_tern = _path(
        ["datastore:heron-db", "service:tern", "service:quill"],
        _hop("service:tern", "READS_FROM", "datastore:heron-db", "d#2"),
        _hop("service:quill", "DEPENDS_ON", "service:tern", "d#3"),
    )
    _, draft = _run(q, {"paths": [via_tern, direct_no]})
    assert "d#3" in draft.cited_ids  # quill is still reached through tern


def test_a_report_to_a_server_is_a_use_that_says_what_is_reported() -> None:
    q = _question(
        "Does quill report its heartbeat to the plover-gateway?", "quill", "plover-gateway"
    )
    asked, _ = _run(q)
    assert [c.arguments.get("predicate") for c in asked if c.name == "neighbours"] == [
        "FEEDS",
        "USES",
    ]
    says_what = _path(
        ["service:quill", "service:plover-gateway"],
        _hop("service:quill", "USES", "service:plover-gateway", "d#1",
             "The plover-gateway is used by quill to send its heartbeat back."),
    )  # fmt: skip
    _, answered = _run(q, {"paths": [says_what]})
    assert answered.cited_ids == ("d#1",)
    # a use that does not say what flows answers no question about reporting
    only_uses = _path(
        ["service:quill", "service:plover-gateway"],
        _hop("service:quill", "USES", "service:plover-gateway", "d#2",
             "quill uses the plover-gateway at start-up."),
    )  # fmt: skip
    _, draft = _run(q, {"paths": [only_uses]})
    assert draft.cited_ids == ()
    # nor does the use of a store: a report goes to something that runs
    store = _question("Does quill report its heartbeat to heron-db?", "quill", "datastore:heron-db")
    stored = _path(
        ["service:quill", "datastore:heron-db"],
        _hop("service:quill", "USES", "datastore:heron-db", "d#3",
             "quill uses heron-db to keep its heartbeat."),
    )  # fmt: skip
    _, draft = _run(store, {"paths": [stored]})
    assert draft.cited_ids == ()
    # a call is not widened to a use: what runs a service does not call it
    runs = _path(["service:wren", "service:quill"],
                 _hop("service:wren", "USES", "service:quill", "d#4", "wren runs quill."))  # fmt: skip
    assert answering(runs["hops"][0], ["CALLS"], ["service:quill"], outward=False) is None
