"""True reasons, one per class (issue 28): an abstention never says "no source states it"
where a source does. The invented corpus below is written for these tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from widgets.ask import AskView
from widgets.session import Session
from zehn.config import Settings
from zehn.engine import Engine
from zehn.engine.render import render_answer
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

PAGES = {
    "orders.md": (
        "# orders-api\n\n"
        "The orders-api service calls the billing-core service for every checkout.\n\n"
        "The orders-api service reads from the basket-store database.\n"
    ),
    "audit.md": (
        "# audit-log\n\n"
        "The audit-log service is deployed next to the billing-core service in every region.\n"
    ),
}

# ghost-svc: a component the catalog names and no sentence mentions
CATALOG = """entities:
  - {name: orders-api, kind: service, aliases: []}
  - {name: billing-core, kind: service, aliases: []}
  - {name: basket-store, kind: datastore, aliases: []}
  - {name: audit-log, kind: service, aliases: []}
  - {name: ghost-svc, kind: service, aliases: []}
"""


@pytest.fixture(scope="module")
def built(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    corpus = tmp_path_factory.mktemp("reasons")
    for name, text in PAGES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    catalog = corpus.parent / "reasons-catalog.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    client = GraphClient.connect(settings)
    report = build_graph(client, "reasons", corpus, "rules", catalog_path=catalog)
    yield report.graph
    client.delete_graph(report.graph)
    client.close()


def engine(settings: Settings, graph: str, policy: str = "production") -> Engine:
    return Engine(GraphClient.connect(settings), graph, load_policy(policy), OfflineModel())


def test_a_path_the_policy_does_not_walk_is_named_with_the_policy_that_would(
    settings: Settings, built: str
) -> None:
    question = "What breaks if billing-core changes?"
    production = engine(settings, built).ask(question)
    assert production.status == "abstained" and production.reason_code == "not_walked_by_policy"
    reason = production.reason or ""
    assert "no source states it" not in reason
    assert "over CALLS, which policy production does not walk" in reason
    assert "policy evaluation (evaluation) walks CALLS" in reason
    assert "orders-api CALLS billing-core" in reason and "--policy evaluation" in reason
    # what it would add is cited as context beside the abstention, never as the answer
    assert not production.answer_citations
    assert [c.quote for c in production.citations] == [
        "The orders-api service calls the billing-core service for every checkout."
    ]
    walked = [t for t in production.tool_calls if t.params.get("policy") == "evaluation"]
    assert walked and walked[0].by == "engine"  # the check is a recorded named query
    assert production.to_dict()["reason_code"] == "not_walked_by_policy"
    evaluation = engine(settings, built, "evaluation").ask(question)
    assert evaluation.status == "answered" and evaluation.reason_code is None
    assert evaluation.policy["badge"] == "EVALUATION MODE · policy evaluation"
    assert "orders-api" in evaluation.answer


def test_an_unknown_component_offers_the_nearest_names(settings: Settings, built: str) -> None:
    answer = engine(settings, built).ask("What breaks if billing-cor changes?")
    assert answer.status == "abstained" and answer.reason_code == "unknown_component"
    assert "names no component this graph knows" in (answer.reason or "")
    assert "near names: 'billing-core'" in (answer.reason or "")


def test_a_mentioned_component_with_no_stated_relation_shows_its_sentences(
    settings: Settings, built: str
) -> None:
    answer = engine(settings, built).ask("What breaks if audit-log changes?")
    assert answer.status == "abstained" and answer.reason_code == "no_stated_relation"
    assert "stored sentences mention audit-log; none states what is at risk" in (
        answer.reason or ""
    )
    assert not answer.answer_citations
    assert {c.role for c in answer.citations} == {"related"}
    assert any("deployed next to the billing-core" in c.quote for c in answer.citations)
    assert "related (context the sources state, not the answer)" in render_answer(answer)


def test_other_stated_relations_are_context_when_the_asked_one_is_not_stated(
    settings: Settings, built: str
) -> None:
    answer = engine(settings, built).ask("What does billing-core call?")
    assert answer.status == "abstained" and answer.reason_code == "no_stated_relation"
    assert "sources state relations of billing-core (orders-api CALLS billing-core)" in (
        answer.reason or ""
    )
    assert "the answer took none of them as a CALLS from it" in (answer.reason or "")


def test_a_component_no_sentence_mentions_is_said_so(settings: Settings, built: str) -> None:
    answer = engine(settings, built).ask("What breaks if ghost-svc changes?")
    assert answer.status == "abstained" and answer.reason_code == "not_mentioned"
    assert "no stored sentence mentions ghost-svc" in (answer.reason or "")


def test_an_attribute_the_graph_does_not_hold_has_its_own_class(
    settings: Settings, built: str
) -> None:
    answer = engine(settings, built).ask("What port does orders-api listen on?")
    assert answer.status == "abstained" and answer.reason_code == "attribute_not_held"


def test_an_answer_carries_no_reason_code(settings: Settings, built: str) -> None:
    answer = engine(settings, built).ask("What does orders-api read from?")
    assert answer.status == "answered" and answer.reason_code is None
    assert answer.to_dict()["reason_code"] is None


def test_the_workbench_shows_the_class_before_the_reason(settings: Settings, built: str) -> None:
    production = engine(settings, built)
    session = Session(settings, production.client, graph=built, policy=production.policy)
    view = AskView(session)
    view.ask("What breaks if billing-core changes?")
    html = view.result.value
    assert 'data-reason="not_walked_by_policy"' in html
    assert "not walked by policy</span>" in html and "--policy evaluation" in html
    assert "Traceback" not in html
