"""Namesakes are named with their kind: in the sample, "Redwood Inference" is a team, a
service and a customer, so an answer that names one says which ("Redwood Inference
(service)", in Chinese "Redwood Inference（服务）"); every other entity is named plainly."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from tests.conftest import REPO
from zehn.config import Settings
from zehn.engine import Engine
from zehn.engine.wording import namesakes
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.base import DraftAnswer, Exchange, Question, ToolRequest, ToolSpec
from zehn.models.offline import OfflineModel
from zehn.reading.model import Entity
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "namesakes_sample", SAMPLE, "rules")
    yield report.graph
    client.delete_graph(report.graph)


@pytest.fixture
def engine(client: GraphClient, sample_graph: str) -> Engine:
    return Engine(client, sample_graph, load_policy("production"), OfflineModel())


def test_namesakes_are_the_entities_whose_name_another_kind_has() -> None:
    entities = [
        Entity("Redwood Inference", "team"),
        Entity("redwood inference", "service"),  # the same name in another case
        Entity("search-api", "service"),
        Entity("Kestrel Labs", "customer"),
    ]
    assert namesakes(entities) == {
        "team:redwood-inference": "team",
        "service:redwood-inference": "service",
    }


def test_the_sample_graphs_namesakes_reach_the_model(engine: Engine) -> None:
    seen: list[dict[str, str]] = []

    class Recording(OfflineModel):
        def next_step(
            self, question: Question, tools: Sequence[ToolSpec], history: Sequence[Exchange]
        ) -> ToolRequest | DraftAnswer:
            seen.append(dict(question.namesakes))
            return super().next_step(question, tools, history)

    engine.model = Recording()
    assert engine.ask("Who owns search-api?").status == "answered"
    assert seen and all(s == seen[0] for s in seen)
    assert seen[0] == {
        "team:redwood-inference": "team",
        "service:redwood-inference": "service",
        "customer:redwood-inference": "customer",
    }


def test_a_lookup_names_the_redwood_inference_service_with_its_kind(engine: Engine) -> None:
    answer = engine.ask("What does the redwood-inference service read from?")
    assert answer.status == "answered"
    assert answer.answer == "- Redwood Inference (service) READS_FROM feature-store [1]"


def test_a_dependency_walk_names_it_in_the_heading_and_the_hops(engine: Engine) -> None:
    answer = engine.ask("What does the Redwood Inference service depend on?")
    assert answer.status == "answered"
    assert answer.answer.splitlines() == [
        "Redwood Inference (service) depends on (source-supported paths only):",
        "- feature-store: Redwood Inference (service) READS_FROM feature-store [1]",
    ]


def test_a_change_impact_tells_the_service_from_the_customer(engine: Engine) -> None:
    answer = engine.ask("If I change feature-store, what breaks?")
    assert answer.status == "answered"
    lines = answer.answer.splitlines()
    assert (
        "- Redwood Inference (service): Redwood Inference (service) READS_FROM feature-store [4]"
        in lines
    )
    customer = [line for line in lines if line.startswith("- Redwood Inference (customer)")]
    assert len(customer) == 1 and "Redwood Inference (customer) USES search-api" in customer[0]
    assert "Redwood Inference " not in answer.answer.replace("Redwood Inference (", "")


def test_entities_without_namesakes_are_named_plainly(engine: Engine) -> None:
    answer = engine.ask("If I change origin-mapper, what breaks?")
    assert answer.status == "answered"
    assert answer.answer.startswith("If origin-mapper changes, these are at risk")
    assert "- search-api (via indexer): origin-mapper AFFECTS indexer [2]; " in answer.answer
    # the one namesake reached is the customer; nothing else is named with a kind
    assert "Redwood Inference (customer) USES search-api" in answer.answer
    rest = answer.answer.replace("Redwood Inference (customer)", "")
    for kind in ("service", "team", "customer", "datastore", "topic", "pipeline"):
        assert f"({kind})" not in rest and f"（{kind}）" not in rest


def test_chinese_answers_name_the_kind_in_chinese(engine: Engine) -> None:
    answer = engine.ask("哪些服务调用了红木推理服务？")
    assert answer.status == "answered" and answer.language == "zh"
    assert answer.answer.splitlines() == [
        "- feed-builder 调用 Redwood Inference（服务） [1]",
        "- recs-ranker 调用 Redwood Inference（服务） [2]",
        "- search-api 调用 Redwood Inference（服务） [3]",
    ]
    upstream = engine.ask("红木推理服务依赖什么？")
    assert upstream.answer.splitlines()[0].startswith("Redwood Inference（服务） 依赖以下各项")
