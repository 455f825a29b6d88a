"""The on-question gate and telemetry (issue 28, item 3), and failure consequences (item 5): an
answer claims only what answers the question asked. The invented corpus below is written for
these tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from zehn.config import Settings
from zehn.engine import Engine
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.reading.questions.telemetry import asks_telemetry, speaks_of_telemetry
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

PAGES = {
    "cart.md": (
        "# cart\n\n"
        "The cart service writes to the basket-db database.\n\n"
        "The cart service exports traces to the trace-sink service.\n"
    ),
    "auth.md": (
        "# auth-db\n\n"
        "If the auth-db database is down, the login-api service cannot issue new sessions.\n"
    ),
}


@pytest.fixture(scope="module")
def engine(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    corpus = tmp_path_factory.mktemp("on-question")
    for name, text in PAGES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    client = GraphClient.connect(settings)
    report = build_graph(client, "on_question", corpus, "rules")
    yield Engine(client, report.graph, load_policy("production"), OfflineModel())
    client.delete_graph(report.graph)
    client.close()


def test_sending_telemetry_is_no_runtime_impact(engine: Engine) -> None:
    answer = engine.ask("What breaks if cart changes?")
    assert answer.status == "answered"
    assert "basket-db" in answer.answer and "trace-sink" not in answer.answer
    assert all("traces" not in c.quote for c in answer.answer_citations)


def test_a_question_about_telemetry_is_answered_with_it(engine: Engine) -> None:
    answer = engine.ask("Which tracing backends are affected if cart changes?")
    assert answer.status == "answered" and "trace-sink" in answer.answer


@pytest.mark.parametrize(
    ("text", "telemetry"),
    [
        ("X exports traces to the collector.", True),
        ("X 把链路追踪数据上报给 Y。", True),
        ("X sends OTLP metrics to Y.", True),
        ("X writes orders to the database.", False),
        ("X 调用 Y 的接口。", False),
    ],
)
def test_telemetry_words_in_both_languages(text: str, telemetry: bool) -> None:
    assert speaks_of_telemetry(text) is telemetry
    assert asks_telemetry([text]) is telemetry


def test_a_stated_failure_consequence_answers_what_breaks_when_it_goes_down(
    engine: Engine,
) -> None:
    """Documentation states consequences ("If X is down, Y cannot …"): read as X AFFECTS Y,
    graded supported, so the outage question has an evidence path."""
    answer = engine.ask("What breaks if auth-db goes down?")
    assert answer.status == "answered" and "login-api" in answer.answer
    assert [c.quote for c in answer.answer_citations] == [
        "If the auth-db database is down, the login-api service cannot issue new sessions."
    ]
    (hop,) = [h for p in answer.paths for h in p.hops if h.rel_type == "AFFECTS"]
    assert hop.label == "source-supported"
