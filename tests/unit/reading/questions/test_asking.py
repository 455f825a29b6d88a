"""Question understanding from a lexicon (zehn.reading.questions.asking): invented questions about
invented components, in the many ways engineers word them."""

from __future__ import annotations

import pytest

from zehn.reading.questions.asking import Intent, read_question, split_parts
from zehn.reading.questions.asking_zh import (
    read_asked,
    read_question_zh,
    refers_back,
    split_question,
)
from zehn.reading.vocabulary import EntityKind, Predicate


@pytest.mark.parametrize(
    ("question", "names", "intent"),
    [
        ("If I change quill-router, what breaks?", ["quill-router"], Intent.IMPACT),
        ("What happens if the tern cache goes down?", ["tern cache"], Intent.IMPACT),
        (
            "Would renaming the sparrow-events topic break anything?",
            ["sparrow-events"],
            Intent.IMPACT,
        ),
        ("If heron-db is unavailable, which pages stop working?", ["heron-db"], Intent.IMPACT),
        ("What is affected when we upgrade wren-proxy?", ["wren-proxy"], Intent.IMPACT),
        ("What does quill-router depend on?", ["quill-router"], Intent.UPSTREAM),
        ("Which services does quill-router rely on?", ["quill-router"], Intent.UPSTREAM),
        ("Who calls the plover service?", ["plover service"], Intent.LOOKUP_IN),
        ("Who talks to plover-gw over gRPC?", ["plover-gw"], Intent.LOOKUP_IN),
        ("Which store does quill-router write receipts to?", ["quill-router"], Intent.LOOKUP_OUT),
        ("Does quill-router read from heron-db?", ["quill-router", "heron-db"], Intent.YES_NO),
        ("How does quill-router reach heron-db?", ["quill-router", "heron-db"], Intent.PATH),
        ("Trace an order from quill-router to heron-db", ["quill-router", "heron-db"], Intent.PATH),
        ("What port does quill-router listen on?", ["quill-router"], Intent.ATTRIBUTE),
        ("Which environment variables does heron-db need?", ["heron-db"], Intent.ATTRIBUTE),
        ("What is the timeout of quill-router?", ["quill-router"], Intent.ATTRIBUTE),
        ("What is quill-router?", ["quill-router"], Intent.WHAT_IS),
        ("Tell me a joke about quill-router", ["quill-router"], Intent.UNKNOWN),
    ],
)
def test_the_asked_relation_comes_from_the_words_not_a_template(
    question: str, names: list[str], intent: Intent
) -> None:
    assert read_question(question, names).intent == intent


def test_a_name_is_never_read_as_a_word() -> None:
    # "query-planner" asks nothing about queries, "release-train" nothing about versions
    assert read_question("What does query-planner call?", ["query-planner"]).predicates == (
        Predicate.CALLS,
    )
    asked = read_question("What does the release-train call?", ["release-train"])
    assert asked.intent == Intent.LOOKUP_OUT


def test_a_target_kind_filters_and_is_not_fooled_by_a_compound() -> None:
    which_db = read_question("Which database does quill-router write to?", ["quill-router"])
    assert which_db.target_kinds == (EntityKind.DATASTORE,)
    pages = read_question("If heron-db goes down, which customer-facing pages break?", ["heron-db"])
    assert pages.target_kinds == ()  # "customer-facing" names no customer


def test_the_relation_decides_between_namesakes_only_where_one_kind_fits() -> None:
    down = read_question("If Kite goes down, what breaks?", ["Kite"])
    assert [k for k in EntityKind if down.fits(k)] == [
        k for k in EntityKind if k not in (EntityKind.TEAM, EntityKind.CUSTOMER)
    ]
    change = read_question("If I change Kite, what breaks?", ["Kite"])
    assert all(change.fits(k) for k in EntityKind)  # a team can change too: still ambiguous
    owner = read_question("Who owns Kite?", ["Kite"])
    assert not owner.fits(EntityKind.TEAM) and owner.fits(EntityKind.SERVICE)


def test_a_passive_yes_no_question_runs_from_the_second_name() -> None:
    asked = read_question(
        "Is quill-router owned by the Ledger team?", ["quill-router", "Ledger team"]
    )
    assert asked.intent == Intent.YES_NO and asked.passive
    assert asked.predicates == (Predicate.OWNS,)


def test_multi_part_questions_split_at_a_second_question() -> None:
    assert split_parts("If heron-db goes down, which pages stop working, and who owns them?") == [
        "If heron-db goes down, which pages stop working?",
        "who owns them?",
    ]
    assert split_parts("What does quill-router call? Who owns it?") == [
        "What does quill-router call?",
        "Who owns it?",
    ]
    # "and" between names is not a second question
    assert split_parts("Does quill-router call heron-db and wren-proxy?") == [
        "Does quill-router call heron-db and wren-proxy?"
    ]
    assert refers_back("who owns them?") and not refers_back("who owns heron-db?")


@pytest.mark.parametrize(
    ("question", "focus", "intent"),
    [
        ("如果 鹭岛网关 宕机，哪些服务会受影响？", "鹭岛网关", Intent.IMPACT),
        ("鹭岛网关 依赖什么？", "鹭岛网关", Intent.UPSTREAM),
        ("哪些服务调用了 鹭岛网关？", "鹭岛网关", Intent.LOOKUP_IN),
        ("鹭岛网关 监听哪个端口？", "鹭岛网关", Intent.ATTRIBUTE),
        ("鹭岛网关 是什么？", "鹭岛网关", Intent.WHAT_IS),
    ],
)
def test_chinese_questions_read_into_the_same_intents(
    question: str, focus: str, intent: Intent
) -> None:
    assert read_question_zh(question, focus).intent == intent
    assert read_asked(question, [focus], "zh").intent == intent


def test_chinese_multi_part_questions_split() -> None:
    assert split_question("如果 鹭岛网关 宕机，哪些服务会受影响？由谁负责它们？", "zh") == [
        "如果 鹭岛网关 宕机，哪些服务会受影响？",
        "由谁负责它们？",
    ]
    assert split_question("鹭岛网关 依赖什么？", "zh") == ["鹭岛网关 依赖什么？"]
