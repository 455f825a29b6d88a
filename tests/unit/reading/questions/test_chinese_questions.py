"""Chinese questions: language detection, how the offline model reads them, what it writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zehn.evaluate.gold import GoldError, load_questions
from zehn.models.base import DraftAnswer, Exchange, Question, ToolRequest
from zehn.models.chinese import PHRASES
from zehn.models.offline import OfflineModel
from zehn.reading.lang import EN, ZH, detect_language

MODEL = OfflineModel()


def question(text: str, *surfaces: str) -> Question:
    entities = [{"id": f"x:{s}", "surface": s, "reason": "name"} for s in surfaces]
    return Question(text, hints={"entities": entities})


@pytest.mark.parametrize(
    ("text", "ignore", "language"),
    [
        ("如果我修改 indexer，哪些服务会受影响？", (), ZH),
        ("origin-mapper 依赖 indexer 的 v2 索引", (), ZH),
        ("If I change origin-mapper, what breaks?", (), EN),
        ("What does 红木推理团队 own?", ((10, 16),), EN),  # only a name is Chinese
        ("What does 红木推理团队 own?", (), ZH),
        ("", (), EN),
    ],
)
def test_language_is_chinese_outside_the_names(
    text: str, ignore: tuple[tuple[int, int], ...], language: str
) -> None:
    assert detect_language(text, ignore) == language


@pytest.mark.parametrize(
    ("text", "surfaces", "intent", "calls"),
    [
        ("如果我修改 indexer，哪些服务会受影响？", ["indexer"], "impact", [("downstream_impact", None, None)]),
        ("如果 origin-mapper 宕机，会影响什么？", ["origin-mapper"], "impact", [("downstream_impact", None, None)]),
        ("修改 click-events 会影响哪些服务？", ["click-events"], "impact", [("downstream_impact", None, None)]),
        ("哪些服务依赖 search-api？", ["search-api"], "impact", [("downstream_impact", None, None)]),
        ("feed-builder 依赖什么？", ["feed-builder"], "upstream", [("upstream_dependencies", None, None)]),
        ("recs-ranker 依赖哪些服务？", ["recs-ranker"], "upstream", [("upstream_dependencies", None, None)]),
        ("recs-ranker 从哪里读取数据？", ["recs-ranker"], "lookup_out", [("neighbours", "READS_FROM", "out")]),
        (
            "feed-builder 读取和写入哪些存储？", ["feed-builder"], "lookup_out",
            [("neighbours", "READS_FROM", "out"), ("neighbours", "WRITES_TO", "out")],
        ),
        ("web-frontend 发布到哪个主题？", ["web-frontend"], "lookup_out", [("neighbours", "PUBLISHES_TO", "out")]),
        ("谁负责 recs-ranker？", ["recs-ranker"], "lookup_in", [("neighbours", "OWNS", "in")]),
        ("recs-ranker 由谁负责？", ["recs-ranker"], "lookup_in", [("neighbours", "OWNS", "in")]),
        ("哪些服务调用了红木推理服务？", ["红木推理服务"], "lookup_in", [("neighbours", "CALLS", "in")]),
        ("哪些服务消费 click-events？", ["click-events"], "lookup_in", [("neighbours", "CONSUMES_FROM", "in")]),
        (
            "feed-builder 是否调用 query-planner？", ["feed-builder", "query-planner"], "yes_no",
            [("neighbours", "CALLS", "out")],
        ),
        (
            "recs-ranker 读取 user-profile-store 吗？", ["recs-ranker", "user-profile-store"], "yes_no",
            [("neighbours", "READS_FROM", "out")],
        ),
        ("feed-builder 是什么？", ["feed-builder"], "what_is", [("mentions", None, None)]),
        ("什么是 recs-ranker？", ["recs-ranker"], "what_is", [("mentions", None, None)]),
        ("recs-ranker 的 p99 延迟是多少？", ["recs-ranker"], "unknown", []),
    ],
)  # fmt: skip
def test_chinese_questions_become_the_same_plans_as_english_ones(
    text: str, surfaces: list[str], intent: str, calls: list[tuple[str, str | None, str | None]]
) -> None:
    plan = MODEL.plan(question(text, *surfaces))
    assert plan.intent == intent and plan.language == ZH
    walks = [c for c in plan.calls if c.name != "search_sentences"]
    assert [
        (c.name, c.arguments.get("predicate"), c.arguments.get("direction")) for c in walks
    ] == calls
    # a direct relation is also looked for in the sentences themselves (found by search)
    searched = [c for c in plan.calls if c.name == "search_sentences"]
    assert len(searched) == (1 if intent in ("lookup_out", "lookup_in", "yes_no") else 0)


def test_a_kind_word_filters_lookups_in_chinese() -> None:
    assert MODEL.plan(question("哪些客户使用 feed-builder？", "feed-builder")).kinds == (
        "customer",
    )
    assert MODEL.plan(question("哪个团队负责 indexer？", "indexer")).kinds == ("team",)


def test_a_question_that_only_names_a_chinese_alias_stays_english() -> None:
    plan = MODEL.plan(question("What does 红木推理团队 own?", "红木推理团队"))
    assert plan.language == EN and plan.intent == "lookup_out"


def _answer(plan_question: Question, payload: dict[str, object]) -> DraftAnswer:
    first, *rest = MODEL.plan(plan_question).calls
    history = [Exchange(first, json.dumps(payload, ensure_ascii=False), ())]
    history += [Exchange(r, json.dumps({"rows": [], "paths": []}), ()) for r in rest]
    step = MODEL.next_step(plan_question, [], history)
    assert isinstance(step, DraftAnswer)
    return step


def _path(*hops: tuple[str, str, str, str], nodes: list[str] | None = None) -> dict[str, object]:
    nodes = nodes or [hops[0][0], *(h[2] for h in hops)]
    return {
        "label": "source-supported",
        "nodes": nodes,
        "entities": [n.split(":")[1] for n in nodes],
        "hops": [
            {"source": s, "rel_type": r, "target": t, "label": "source-supported", "sentence_id": i}
            for s, r, t, i in hops
        ],
    }


def test_a_chinese_impact_question_is_answered_in_chinese_with_markers() -> None:
    asked = question("如果我修改 indexer，哪些服务会受影响？", "indexer")
    draft = _answer(
        asked,
        {
            "paths": [
                _path(("x:indexer", "FEEDS", "x:search-api", "doc/a#0-9")),
                _path(
                    ("x:indexer", "FEEDS", "x:search-api", "doc/a#0-9"),
                    ("x:feed-builder", "DEPENDS_ON", "x:search-api", "doc/b#3-30"),
                    nodes=["x:indexer", "x:search-api", "x:feed-builder"],
                ),
                {"label": "inferred-assumption", "nodes": [], "entities": [], "hops": []},
            ]
        },
    )
    assert draft.text.splitlines() == [
        "如果 indexer 发生变更，以下各项有风险（只列出有来源支持的路径）：",
        "- search-api：indexer 供给 search-api [[doc/a#0-9]]",
        "- feed-builder（经由 search-api）：indexer 供给 search-api [[doc/a#0-9]]；"
        "feed-builder 依赖 search-api [[doc/b#3-30]]",
        "另有 1 条路径只是推断或证据不足，不作结论。",
    ]
    assert draft.cited_ids == ("doc/a#0-9", "doc/b#3-30")


def test_chinese_yes_and_no_source() -> None:
    asked = question(
        "recs-ranker 是否读取 user-profile-store？", "recs-ranker", "user-profile-store"
    )
    hop = ("x:recs-ranker", "READS_FROM", "x:user-profile-store", "doc/c#1-20")
    assert _answer(asked, {"paths": [_path(hop)]}).text == (
        "是的，recs-ranker 读取 user-profile-store [[doc/c#1-20]]"
    )
    assert _answer(asked, {"paths": []}).text == PHRASES[ZH].no_source
    unknown = MODEL.next_step(question("recs-ranker 的 p99 延迟是多少？", "recs-ranker"), [], [])
    assert isinstance(unknown, DraftAnswer) and unknown.text.startswith("我不知道：我能回答")


def test_english_drafts_are_unchanged() -> None:
    asked = question(
        "Does recs-ranker read from user-profile-store?", "recs-ranker", "user-profile-store"
    )
    hop = ("x:recs-ranker", "READS_FROM", "x:user-profile-store", "doc/c#1-20")
    assert _answer(asked, {"paths": [_path(hop)]}).text == (
        "Yes. recs-ranker READS_FROM user-profile-store [[doc/c#1-20]]"
    )
    assert isinstance(MODEL.plan(asked).calls[0], ToolRequest)


def test_gold_questions_carry_a_language_given_or_detected(tmp_path: Path) -> None:
    path = tmp_path / "questions.yaml"
    path.write_text(
        "questions:\n"
        "- {id: a, question: 'What does indexer read from?', status: abstained}\n"
        "- {id: b, question: '如果我修改 indexer，哪些服务会受影响？', status: abstained}\n"
        "- {id: c, question: 'What does 推荐团队 own?', status: abstained, language: en}\n",
        "utf-8",
    )
    assert [q.language for q in load_questions(path)] == [EN, ZH, EN]
    path.write_text("questions:\n- {question: 'x', status: abstained, language: fr}\n", "utf-8")
    with pytest.raises(GoldError, match="language 'fr'"):
        load_questions(path)
