"""Chinese and mixed Chinese–English end to end on the sample: extraction figures per
language, change impact asked in Chinese, abstention and ambiguity in Chinese, supersession
by a Chinese negation, and the JSON contract."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.conftest import REPO
from zehn.cli import EXIT_OK, main
from zehn.config import Settings
from zehn.engine import Engine
from zehn.evaluate.compare import compare_strategies
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "chinese_sample", SAMPLE, "rules")
    yield report.graph
    client.delete_graph(report.graph)


@pytest.fixture
def engine(client: GraphClient, sample_graph: str) -> Engine:
    return Engine(client, sample_graph, load_policy("production"), OfflineModel())


def _stored(client: GraphClient, graph: str, sentence_id: str) -> str:
    query = "MATCH (s:Sentence {id: $id}) RETURN s.text"
    return str(client.read(graph, query, {"id": sentence_id}).scalar())


def test_rules_figures_per_language(client: GraphClient, graph_name: str) -> None:
    """English as before the Chinese documents came; Chinese measured on its own gold."""
    (row,) = compare_strategies(client, SAMPLE, ["rules"], corpus=graph_name).to_dict("records")
    assert (row["en_edges"], row["en_gold_stated"]) == (109, 126)
    assert row["en_precision"] == pytest.approx(108 / 109)
    assert row["en_recall"] == pytest.approx(108 / 126)
    # 49 since coreference: "它也不再依赖 indexer …" → feed-builder (the previous sentence's subject)
    assert row["zh_gold_stated"] == 51 and row["zh_edges"] == 49
    assert row["zh_precision"] == 1.0
    assert row["zh_recall"] == pytest.approx(49 / 51)
    assert row["edges"] == row["en_edges"] + row["zh_edges"]


def test_change_impact_asked_in_chinese_is_answered_in_chinese(
    engine: Engine, client: GraphClient, sample_graph: str
) -> None:
    answer = engine.ask("如果我修改 indexer，哪些服务会受影响？")
    assert answer.status == "answered" and answer.language == "zh"
    assert answer.answer.startswith(
        "如果 indexer 发生变更，以下各项有风险（只列出有来源支持的路径）："
    )
    for line in (
        "- search-api：indexer 供给 search-api",
        "- 蓝亭传媒（经由 search-api、feed-builder）",
    ):
        assert line in answer.answer
    returned = {i for call in answer.tool_calls for i in call.returned_ids}
    assert {c.id for c in answer.citations} <= returned
    quotes = [c.quote for c in answer.citations]
    for citation in answer.citations:  # verbatim, in the language of the source
        assert citation.quote == _stored(client, sample_graph, citation.id)
        assert f"[{citation.n}]" in answer.answer
    assert "feed-builder 依赖 search-api 获取候选文档。" in quotes
    assert any(q.startswith("The ") for q in quotes)  # an English source, not translated
    assert answer.to_dict()["language"] == "zh"


def test_a_chinese_abstention_says_wo_bu_zhi_dao_with_the_reason(engine: Engine) -> None:
    answer = engine.ask("recs-ranker 是否调用 auth-gateway？")
    assert answer.status == "abstained" and answer.answer == "我不知道"
    assert answer.reason and "no source states it" in answer.reason
    assert answer.citations == ()


def test_a_later_chinese_negation_supersedes_an_earlier_chinese_statement(engine: Engine) -> None:
    answer = engine.ask("如果我修改 recs-ranker，哪些服务会受影响？")
    assert answer.status == "abstained" and answer.answer == "我不知道"
    grades = [
        g
        for p in answer.paths
        for h in p.hops
        if (h.source, h.rel_type) == ("service:feed-builder", "DEPENDS_ON")
        for g in (h.best, *h.alternatives)
    ]
    march = [
        g for g in grades if g.evidence.text == "feed-builder 依赖 recs-ranker 给出的排序结果。"
    ]
    assert march and all(g.label == "insufficient-evidence" for g in march)
    assert all(g.reason.startswith("superseded") and "不再依赖" in g.reason for g in march)


def test_a_shared_chinese_alias_is_ambiguous_and_asked_back_in_chinese(engine: Engine) -> None:
    answer = engine.ask("红木推理依赖什么？")
    assert answer.status == "ambiguous" and answer.language == "zh"
    assert {i.kind for i in answer.identities} == {"team", "service", "customer"}
    assert answer.answer.startswith("您指的是哪一个？")
    assert "（服务，service:redwood-inference）" in answer.answer


def test_a_qualified_chinese_alias_decides(engine: Engine) -> None:
    answer = engine.ask("哪些服务调用了红木推理服务？")
    assert answer.status == "answered"
    assert "recs-ranker 调用 Redwood Inference" in answer.answer


def test_an_english_question_naming_a_chinese_alias_is_answered_in_english(
    engine: Engine,
) -> None:
    answer = engine.ask("What does the 推荐团队 own?")
    assert answer.status == "answered" and answer.language == "en"
    assert "Recommendations team OWNS feed-builder" in answer.answer


def test_zehn_ask_prints_chinese_json_readably(
    settings: Settings,
    sample_graph: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ZEHN_HOME", str(settings.home))
    assert main(["ask", "recs-ranker 读取什么？", "--graph", sample_graph, "--json"]) == EXIT_OK
    out = capsys.readouterr().out
    contract = json.loads(out)
    assert contract["status"] == "answered" and contract["language"] == "zh"
    assert "recs-ranker 读取 user-profile-store" in out  # not \\u escapes
