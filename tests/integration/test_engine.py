"""The cited engine on the sample graph, with the offline model: answers, abstentions,
ambiguity, and failures that never look like an empty result."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from zehn.config import Settings
from zehn.engine import Engine
from zehn.engine.events import AnswerEvent, Event, ToolCallEvent, ToolResultEvent, VerdictEvent
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "engine_sample", SAMPLE, "rules")
    yield report.graph
    client.delete_graph(report.graph)


@pytest.fixture
def engine(client: GraphClient, sample_graph: str) -> Engine:
    return Engine(client, sample_graph, load_policy("production"), OfflineModel())


def _stored_text(client: GraphClient, graph: str, sentence_id: str) -> str:
    return str(
        client.read(
            graph, "MATCH (s:Sentence {id: $id}) RETURN s.text", {"id": sentence_id}
        ).scalar()
    )


def test_change_impact_is_answered_with_verbatim_verified_citations(
    engine: Engine, client: GraphClient, sample_graph: str
) -> None:
    answer = engine.ask("If I change origin-mapper, what breaks?")
    assert answer.status == "answered" and answer.reason is None
    returned = {i for call in answer.tool_calls for i in call.returned_ids}
    assert answer.citations and {c.id for c in answer.citations} <= returned
    for citation in answer.citations:
        assert citation.quote == _stored_text(client, sample_graph, citation.id)
        assert f"[{citation.n}]" in answer.answer
        assert citation.title and citation.source_type and citation.date
    for name in ("indexer", "search-api", "web-frontend"):
        assert name in answer.answer
    supported = {
        g.evidence.sentence_id
        for p in answer.paths
        for h in p.hops
        for g in (h.best, *h.alternatives)
        if g.label == "source-supported"
    }
    assert {c.id for c in answer.citations} <= supported
    contract = answer.to_dict()
    assert set(contract) >= {
        "status", "answer", "reason", "citations", "paths", "identities", "policy",
        "graph", "tool_calls", "limitations",
    }  # fmt: skip
    assert contract["policy"]["name"] == "production" and contract["policy"]["badge"] is None
    assert any("not traversed" in note for note in answer.limitations)
    assert any(note.startswith("corpus: ") for note in answer.limitations)


def test_a_name_with_three_identities_stops_as_ambiguous_with_evidence(engine: Engine) -> None:
    answer = engine.ask("What does Redwood Inference depend on?")
    assert answer.status == "ambiguous"
    assert {i.kind for i in answer.identities} == {"team", "service", "customer"}
    assert all(i.evidence for i in answer.identities)
    assert not answer.citations
    assert [c.query for c in answer.tool_calls] == ["find_entities", "resolve_entity"]


def test_a_kind_word_decides_between_identities(engine: Engine) -> None:
    answer = engine.ask("What does the redwood-inference service read from?")
    assert answer.status == "answered"
    assert "feature-store" in answer.answer


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("Does query-planner call the indexer directly?", "insufficient: no source states it"),
        ("If I change ledger-v1, what breaks?", "no source states it"),
        ("What breaks if I change the search-cache service?", "no path found"),
        ("What availability does the Kestrel Labs contract guarantee?", "and not their failure"),
    ],
)
def test_unsupported_questions_abstain_and_say_why(
    engine: Engine, question: str, reason: str
) -> None:
    answer = engine.ask(question)
    assert answer.status == "abstained"
    assert answer.answer == "I don't know"
    assert reason in (answer.reason or "")
    assert not answer.answer_citations  # context may be cited beside it, never as the answer
    assert all(c.role == "related" for c in answer.citations)


def test_superseded_support_is_listed_but_not_claimed(engine: Engine) -> None:
    answer = engine.ask("If I change ledger-v1, what breaks?")
    hops = [h for p in answer.paths for h in p.hops if h.target == "datastore:ledger-v1"]
    assert hops and all(h.label == "insufficient-evidence" for h in hops)
    reasons = [g.reason for h in hops for g in (h.best, *h.alternatives)]
    assert any(r.startswith("superseded") for r in reasons)  # the February support


def test_evaluation_policy_walks_calls_and_carries_the_badge(
    client: GraphClient, sample_graph: str
) -> None:
    production = Engine(client, sample_graph, load_policy("production"), OfflineModel())
    evaluation = Engine(client, sample_graph, load_policy("evaluation"), OfflineModel())
    question = "If I change auth-gateway, what breaks?"
    calls = lambda a: {h.rel_type for p in a.paths for h in p.hops}  # noqa: E731
    assert "CALLS" not in calls(production.ask(question))
    answer = evaluation.ask(question)
    assert "CALLS" in calls(answer)
    assert answer.policy["badge"] == "EVALUATION MODE · policy evaluation"
    assert "EVALUATION MODE · policy evaluation" in answer.limitations


def test_events_stream_calls_results_verdict_and_answer(engine: Engine) -> None:
    events: list[Event] = []
    answer = engine.ask("Who owns search-api?", listener=events.append)
    kinds = [type(e) for e in events]
    assert kinds[0] is ToolCallEvent and kinds[1] is ToolResultEvent
    assert kinds[-2:] == [VerdictEvent, AnswerEvent]
    assert isinstance(events[-1], AnswerEvent) and events[-1].answer is answer
    assert answer.status == "answered" and "Search team" in answer.answer


def test_nothing_depends_on_it_is_an_abstention_not_an_error(
    client: GraphClient, graph_name: str
) -> None:
    client.write(
        graph_name,
        "CREATE (:Entity {id: 'service:lonely', name: 'lonely', kind: 'service', aliases: []})",
    )
    answer = Engine(client, graph_name, load_policy("production"), OfflineModel()).ask(
        "If I change lonely, what breaks?"
    )
    assert answer.status == "abstained" and answer.reason_code == "not_mentioned"
    assert answer.reason == (
        "no path found: no stored sentence mentions lonely (it is known to the graph, not "
        "stated about)"
    )


def test_a_predicate_the_graph_lacks_is_read_from_the_sentences_or_abstained_naming_it(
    client: GraphClient, sample_graph: str
) -> None:
    graph = sample_graph
    client.copy_graph(graph, f"{graph}_noaffects")
    try:
        client.write(
            f"{graph}_noaffects", "MATCH ()-[r:RELATES {rel_type: 'AFFECTS'}]->() DELETE r"
        )
        engine = Engine(client, f"{graph}_noaffects", load_policy("production"), OfflineModel())
        # the build's edges are gone, the sentence is not: search finds it, the reading layer
        # reads it again, the grader grades it, and the citation says it was found by search
        found = engine.ask("What does origin-mapper affect?")
        assert found.status == "answered"
        assert found.answer_citations and all(
            c.found_by == "search" for c in found.answer_citations
        )
        assert "origin-mapper affects indexer" in found.answer_citations[0].quote
        # a fair question no sentence answers: "I don't know", not a failure, and the reason
        # says what the graph lacks (distinct from "nothing is affected")
        answer = engine.ask("What does auth-gateway affect?")
        assert answer.status == "abstained"
        assert "the graph has no AFFECTS edges" in (answer.reason or "")
        (record,) = [r for r in answer.tool_calls if r.query == "neighbours"]
        assert record.error is not None and "UnknownPredicate" in record.error
    finally:
        client.delete_graph(f"{graph}_noaffects")


def test_a_down_database_is_an_error_never_an_empty_answer(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    client = GraphClient.connect(settings)
    build_graph(client, "down", SAMPLE, "rules")
    engine = Engine(client, "down__rules", load_policy("production"), OfflineModel())
    assert engine.ask("Who owns search-api?").status == "answered"
    ManagedServer(tmp_path).stop()
    answer = engine.ask("Who owns search-api?")
    assert answer.status == "error" and answer.answer == "I don't know"
    assert "GraphUnavailable" in (answer.reason or "")


def test_a_slow_query_is_a_timeout_error(client: GraphClient, graph_name: str) -> None:
    client.write(
        graph_name,
        "CREATE (h:Entity {id: 'service:hub', name: 'hub', kind: 'service', aliases: []}) "
        "WITH h UNWIND range(1, 300) AS i "
        "CREATE (n:Entity {id: 'service:n' + toString(i), name: 'n' + toString(i), kind: 'service'}) "
        "CREATE (n)-[:RELATES {rel_type: 'DEPENDS_ON', key: 'k' + toString(i), sentence_id: 's', doc_id: 'd'}]->(h) "
        "CREATE (h)-[:RELATES {rel_type: 'DEPENDS_ON', key: 'j' + toString(i), sentence_id: 's', doc_id: 'd'}]->(n)",
    )
    slow = GraphClient.connect(client.settings.with_changes(query_timeout_ms=5))
    answer = Engine(slow, graph_name, load_policy("production"), OfflineModel()).ask(
        "If I change hub, what breaks?"
    )
    assert answer.status == "error" and "QueryTimeout" in (answer.reason or "")


def test_gold_questions(engine: Engine) -> None:
    """No unanswerable question is answered; statuses mostly agree with gold."""
    questions = yaml.safe_load((SAMPLE / "gold" / "questions.yaml").read_text("utf-8"))["questions"]
    outcomes = Counter()
    latencies = []
    for question in questions:
        answer = engine.ask(question["question"])
        latencies.append(answer.elapsed_ms)
        outcomes[(question["status"], answer.status)] += 1
        if question["status"] == "abstained":
            assert answer.status == "abstained", question["id"]
    agree = sum(n for (gold, got), n in outcomes.items() if gold == got)
    assert agree / len(questions) >= 0.9, outcomes
    assert statistics.median(latencies) < 2000


def test_limitations_state_the_audited_error_rate_or_that_there_is_none(
    client: GraphClient, sample_graph: str
) -> None:
    """The front door wires the audit into every answer; the engine itself imports no review code."""
    import zehn
    from zehn.review.audit import AuditStore

    engine = zehn.open_engine(sample_graph, policy="production", model="offline", client=client)
    question = "If I change origin-mapper, what breaks?"
    assert f"audit: graph {sample_graph} is unaudited" in engine.ask(question).limitations
    key = str(client.read(sample_graph, "MATCH ()-[r:RELATES]->() RETURN r.key LIMIT 1").scalar())
    AuditStore(client).label(key, sample_graph, "rules", "wrong_target", "tester")
    try:
        notes = engine.ask(question).limitations
    finally:
        client.write(
            "zehn__workbench", "MATCH (l:AuditLabel {graph: $g}) DELETE l", {"g": sample_graph}
        )
    assert any(n.startswith("audit: 1 of 1 sampled edges bound to the wrong entity") for n in notes)


def test_an_investigation_past_its_deadline_is_an_error_not_a_hang(
    client: GraphClient, sample_graph: str
) -> None:
    engine = Engine(client, sample_graph, load_policy("production"), OfflineModel(), deadline_s=0.0)
    answer = engine.ask("If I change origin-mapper, what breaks?")
    assert answer.status == "error" and not answer.citations
    assert "deadline of 0 s" in (answer.reason or "")


def test_a_question_with_a_control_character_is_an_error_answer(engine: Engine) -> None:
    answer = engine.ask("If I change origin-mapper\x08, what breaks?")
    assert answer.status == "error" and "control characters" in (answer.reason or "")


def test_an_annotator_that_fails_is_said_and_the_answer_stands(
    client: GraphClient, sample_graph: str
) -> None:
    from zehn.errors import GraphUnavailable

    def broken(_client: GraphClient, _graph: str) -> str:
        raise GraphUnavailable("workbench graph unreachable")

    engine = Engine(
        client,
        sample_graph,
        load_policy("production"),
        OfflineModel(),
        annotators={"audit": broken},
    )
    answer = engine.ask("If I change origin-mapper, what breaks?")
    assert answer.status == "answered"
    assert (
        "audit: could not be read (GraphUnavailable: workbench graph unreachable)"
        in answer.limitations
    )
