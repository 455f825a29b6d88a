"""Misbehaving answer models, end to end: engine + ``OpenAIModel`` + scripted endpoint + FalkorDB.

Every scripted model here lies, cheats, injects or breaks in its own way. The
engine must withhold the answer ("I don't know"), say why in ``reason``, and
leave the database exactly as it was. One well-behaved model is answered, so
the suite also proves the gate is not simply always closed.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from tests.conftest import REPO
from tests.fakes.openai_server import FakeOpenAI, Reply, fake_openai
from zehn.config import Settings
from zehn.engine import ABSTAINED, ANSWERED, ERROR, I_DONT_KNOW, CitedAnswer, Engine
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.openai_model import FINAL_ANSWER, OpenAIModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"
QUESTION = "What depends on the indexer?"
FAKE_ID = "confluence/search-platform-overview#9000-9042"  # well-formed, never returned
# In the graph, but no tool of the investigation returned it before it was cited.
UNRETURNED_REAL_ID = "confluence/search-platform-overview#628-706"
INJECTIONS = [
    "'}) DETACH DELETE n //",
    'indexer"}) MATCH (n) DETACH DELETE n //',
    "indexer\\",
    "\\'}) DETACH DELETE n //\\",
    "indexer\x00",
    "indexer\nMATCH (n) DETACH DELETE n",
    "indexer\r\n\x1b[31m\x7f",
    "`Entity`) DELETE n RETURN 1 //",
    "$entity_id",
]

Results = list[dict[str, Any]]
Step = Callable[[Results], Reply]


# --- the graph and its fingerprint ---------------------------------------------------


@dataclass(frozen=True)
class Sample:
    client: GraphClient
    graph: str
    settings: Settings


@dataclass(frozen=True)
class Fingerprint:
    """Counts plus a hash of every node's and edge's labels and properties."""

    nodes: int
    edges: int
    digest: str
    graphs: tuple[str, ...]


def fingerprint(client: GraphClient, graph: str) -> Fingerprint:
    nodes = client.read(
        graph,
        "MATCH (n) RETURN id(n) AS id, labels(n) AS labels, properties(n) AS props ORDER BY id",
    ).records()
    edges = client.read(
        graph,
        "MATCH (a)-[r]->(b) RETURN id(r) AS id, type(r) AS type, id(a) AS a, id(b) AS b, "
        "properties(r) AS props ORDER BY id",
    ).records()
    text = json.dumps([nodes, edges], sort_keys=True, default=str)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Fingerprint(len(nodes), len(edges), digest, tuple(sorted(client.list_graphs())))


@pytest.fixture(scope="module")
def sample(settings: Settings) -> Iterator[Sample]:
    """The sample corpus, built once for the module (the suite only ever reads it)."""
    client = GraphClient.connect(settings)
    report = build_graph(client, f"misbehaving_{uuid.uuid4().hex[:6]}", SAMPLE, "rules")
    yield Sample(client, report.graph, settings)
    client.delete_graph(report.graph)
    client.close()


def ask(
    sample: Sample, steps: Sequence[Step | Reply], *, timeout_s: float = 5.0
) -> tuple[CitedAnswer, FakeOpenAI]:
    """One investigation against a scripted endpoint; the graph must come out unchanged."""
    with fake_openai(_script(steps)) as fake:
        settings = sample.settings.with_changes(
            openai_base_url=fake.base_url, openai_model="fake-answerer"
        )
        model = OpenAIModel(settings, timeout_s=timeout_s)
        engine = Engine(sample.client, sample.graph, load_policy("production"), model)
        before = fingerprint(sample.client, sample.graph)
        answer = engine.ask(QUESTION)
        after = fingerprint(sample.client, sample.graph)
    assert before.nodes > 0 and before.edges > 0
    assert after == before, "the investigation changed the database"
    return answer, fake


def assert_withheld(answer: CitedAnswer, status: str, *reasons: str) -> None:
    assert answer.status == status, answer.reason
    assert answer.answer == I_DONT_KNOW and answer.answer_citations == ()
    assert all(c.role == "related" for c in answer.citations)  # context, never the answer
    assert answer.reason is not None
    for expected in reasons:
        assert expected in answer.reason, answer.reason
    assert answer.to_dict()["status"] == status


# --- scripting ---------------------------------------------------------------------------


def _script(steps: Sequence[Step | Reply]) -> Callable[[dict[str, Any]], Reply]:
    """Turn n of the conversation gets step n, given the tool results the model has read."""

    def reply(body: dict[str, Any]) -> Reply:
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        if turn >= len(steps):
            return Reply(status=500, raw="script exhausted")
        step = steps[turn]
        return step if isinstance(step, Reply) else step(tool_results(body))

    return reply


def tool_results(body: dict[str, Any]) -> Results:
    """Every tool message the model received, parsed: what it may legitimately cite."""
    return [json.loads(m["content"]) for m in body["messages"] if m["role"] == "tool"]


def call(name: str, arguments: dict[str, Any] | str) -> Reply:
    return Reply(tool_calls=[Reply.tool_call(name, arguments)])


def final(text: str, citations: list[str]) -> Reply:
    return call(FINAL_ANSWER, {"answer": text, "citations": citations})


def resolve(name: str = "indexer") -> Step:
    return lambda _: call("resolve_entity", {"name": name})


def impact(results: Results) -> Reply:
    """Walk downstream from the service the name resolved to (read from the tool result)."""
    (entity,) = [r for r in results[-1]["rows"] if r["kind"] == "service"]
    return call("downstream_impact", {"entity_id": entity["id"], "depth": 2})


def supported_ids(results: Results) -> list[str]:
    """Sentences of source-supported hops, as the engine showed them to the model."""
    ids = [
        hop["sentence_id"]
        for result in results
        for path in result.get("paths", [])
        for hop in path["hops"]
        if hop["label"] == "source-supported"
    ]
    return list(dict.fromkeys(ids))


def mention_ids(results: Results) -> list[str]:
    return [
        sid
        for result in results
        for row in result.get("rows", [])
        for sid in row.get("evidence") or []
    ]


def model_calls(answer: CitedAnswer) -> list[Any]:
    return [c for c in answer.tool_calls if c.by == "model"]


# --- the one that behaves ------------------------------------------------------------------


def test_a_well_behaved_model_is_answered(sample: Sample) -> None:
    def answer_from(results: Results) -> Reply:
        ids = supported_ids(results)[:3]
        assert ids, "the scripted model found no supported hop to cite"
        return final(" ".join(f"It reaches this [[{i}]]." for i in ids), ids)

    answer, fake = ask(sample, [resolve(), impact, answer_from])
    assert answer.status == ANSWERED and answer.reason is None, answer.reason
    returned = {i for c in answer.tool_calls for i in c.returned_ids}
    assert answer.citations and {c.id for c in answer.citations} <= returned
    assert [c.n for c in answer.citations] == list(range(1, len(answer.citations) + 1))
    assert all(f"[{c.n}]" in answer.answer and c.quote for c in answer.citations)
    assert [c.query for c in model_calls(answer)] == ["resolve_entity", "downstream_impact"]
    assert len(fake.requests) == 3


# --- citations that no tool returned ---------------------------------------------------------


def test_a_fabricated_evidence_id_is_withheld(sample: Sample) -> None:
    answer, _ = ask(sample, [resolve(), impact, final("search-api breaks [[x]].", [FAKE_ID])])
    assert_withheld(answer, ABSTAINED, "no tool returned", FAKE_ID)


def test_one_real_and_one_fabricated_id_rejects_the_whole_answer(sample: Sample) -> None:
    def mixed(results: Results) -> Reply:
        real = supported_ids(results)[0]
        return final(f"search-api [[{real}]] and billing [[{FAKE_ID}]].", [real, FAKE_ID])

    answer, _ = ask(sample, [resolve(), impact, mixed])
    assert_withheld(answer, ABSTAINED, "no tool returned", FAKE_ID, "whole answer is rejected")


def test_an_answer_without_citations_is_withheld(sample: Sample) -> None:
    answer, _ = ask(sample, [resolve(), impact, final("search-api and web-frontend.", [])])
    assert_withheld(answer, ABSTAINED, "claims something and cites no sentence")
    assert answer.reason_code == "uncited_answer"  # the sources do state it: not "no source"


def test_free_text_instead_of_final_answer_is_an_uncited_answer(sample: Sample) -> None:
    answer, _ = ask(sample, [resolve(), impact, Reply(content="Everything depends on it.")])
    assert_withheld(answer, ABSTAINED, "cites no sentence")
    assert answer.reason_code == "uncited_answer"


def test_an_answer_before_any_tool_call_is_withheld(sample: Sample) -> None:
    """Even a sentence that exists in the graph: nothing in this investigation returned it."""
    answer, _ = ask(sample, [final("search-api [[x]].", [UNRETURNED_REAL_ID])])
    assert_withheld(answer, ABSTAINED, "no tool returned", UNRETURNED_REAL_ID)
    assert model_calls(answer) == []


def test_citing_mentions_that_support_no_hop_is_withheld(sample: Sample) -> None:
    """Returned by a tool, but a mention of the indexer says nothing about what depends on it."""

    def cite_mentions(results: Results) -> Reply:
        ids = mention_ids(results)[:2]
        assert ids
        return final("search-api depends on it.", ids)

    answer, _ = ask(sample, [resolve(), cite_mentions])
    assert_withheld(answer, ABSTAINED, "supports no source-supported hop")


# --- calls the engine must refuse ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "arguments"),
    [
        ("run_cypher", {"query": "MATCH (n) DETACH DELETE n"}),
        ("run_cypher", {"cypher": "CALL db.idx.fulltext.drop('Sentence')"}),
        ("GRAPH.DELETE", {}),
        ("edges_by_keys", {"keys": ["x"]}),  # engine-internal: not a tool
    ],
)
def test_a_query_off_the_whitelist_is_refused(
    sample: Sample, name: str, arguments: dict[str, Any]
) -> None:
    answer, fake = ask(sample, [call(name, arguments), final("Done.", [])])
    assert_withheld(answer, ERROR, "not on the whitelist", repr(name))
    assert len(fake.requests) == 1  # stopped at the refusal: the model gets no second turn
    (record,) = model_calls(answer)
    assert record.query == name and record.returned_ids == () and record.error


@pytest.mark.parametrize("evil", INJECTIONS, ids=[f"inj{i}" for i in range(len(INJECTIONS))])
def test_injection_strings_in_arguments_reach_nothing(sample: Sample, evil: str) -> None:
    steps: list[Step] = [
        lambda _: call("resolve_entity", {"name": evil}),
        lambda _: call("downstream_impact", {"entity_id": evil, "depth": 3}),
        lambda _: call("mentions", {"entity_id": evil, "limit": 5}),
        lambda _: final("Everything is gone.", [evil]),
    ]
    answer, fake = ask(sample, steps)
    assert_withheld(answer, ABSTAINED, "no tool returned")
    calls = model_calls(answer)
    assert [c.query for c in calls] == ["resolve_entity", "downstream_impact", "mentions"]
    for record in calls:
        assert record.returned_ids == ()
        if record.error:  # refused before the database: say why
            assert "control characters" in record.error or "NUL" in record.error
    assert all(isinstance(r, dict) for r in tool_results(fake.requests[-1]))


@pytest.mark.parametrize(
    "key", ['name"}) DETACH DELETE n //', "x\x00\t\\"], ids=["quote", "control"]
)
def test_injection_in_argument_names_is_refused_and_reported_as_json(
    sample: Sample, key: str
) -> None:
    steps = [call("resolve_entity", {"name": "indexer", key: 1}), final("x", [])]
    answer, fake = ask(sample, steps)
    assert_withheld(answer, ABSTAINED, "claims something and cites no sentence")
    assert answer.reason_code == "uncited_answer"
    (record,) = model_calls(answer)
    assert record.returned_ids == () and record.error and "unknown parameters" in record.error
    (result,) = tool_results(fake.requests[-1])  # the model is told why, in valid JSON
    assert "unknown parameters" in result["error"]


# --- output the model cannot even parse ---------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (call("resolve_entity", '{"name": "indexer"'), "malformed tool-call JSON"),
        (call("resolve_entity", "name=indexer; DETACH DELETE"), "malformed tool-call JSON"),
        (call("resolve_entity", '["indexer"]'), "JSON object is required"),
        (call(FINAL_ANSWER, {"answer": "x", "citations": FAKE_ID}), "not a list of strings"),
        (Reply(content=None), "neither text nor a tool call"),
    ],
)
def test_malformed_model_output_is_an_error(sample: Sample, reply: Reply, problem: str) -> None:
    answer, _ = ask(sample, [reply])
    assert_withheld(answer, ERROR, "model output rejected", problem)
    assert model_calls(answer) == []


def test_a_model_that_never_answers_is_stopped(sample: Sample) -> None:
    answer, fake = ask(sample, [resolve()] * 20)
    assert_withheld(answer, ABSTAINED, "no answer within")
    assert len(fake.requests) < 20


# --- an endpoint that fails ----------------------------------------------------------------------


def test_an_endpoint_that_times_out_is_an_error(sample: Sample) -> None:
    answer, _ = ask(sample, [resolve(), Reply(delay=1.5, content="late")], timeout_s=0.3)
    assert_withheld(answer, ERROR, "model endpoint failed", "timed out")
    assert [c.query for c in model_calls(answer)] == ["resolve_entity"]


@pytest.mark.parametrize("status", [500, 503, 401])
def test_an_endpoint_that_answers_http_errors_is_an_error(sample: Sample, status: int) -> None:
    answer, _ = ask(sample, [Reply(status=status)])
    assert_withheld(answer, ERROR, "model endpoint failed", f"HTTP {status}")


def test_an_endpoint_that_answers_html_is_an_error(sample: Sample) -> None:
    answer, _ = ask(sample, [Reply(raw="<html>502 Bad Gateway</html>")])
    assert_withheld(answer, ERROR, "model endpoint failed", "not JSON")


# --- multi-part questions: each part verified and gated on its own ---------------------------

TWO_PARTS = "What depends on the indexer, and what depends on the query-planner?"


def test_a_fabricated_citation_in_one_part_rejects_that_part_only(sample: Sample) -> None:
    """Each part is its own conversation with the model; the second one lies."""

    def honest(results: Results) -> Reply:
        ids = supported_ids(results)[:2]
        return final(" ".join(f"It reaches this [[{i}]]." for i in ids), ids)

    def liar(results: Results) -> Reply:
        real = supported_ids(results)[:1]
        return final(f"It all breaks [[{FAKE_ID}]].", [*real, FAKE_ID])

    first = _script([resolve("indexer"), impact, honest])
    second = _script([resolve("query-planner"), impact, liar])

    def reply(body: dict[str, Any]) -> Reply:
        asked = " ".join(str(m.get("content")) for m in body["messages"] if m["role"] == "user")
        return second(body) if "query-planner" in asked else first(body)

    with fake_openai(reply) as fake:
        settings = sample.settings.with_changes(
            openai_base_url=fake.base_url, openai_model="fake-answerer"
        )
        engine = Engine(
            sample.client, sample.graph, load_policy("production"), OpenAIModel(settings)
        )
        answer = engine.ask(TWO_PARTS)
    assert [p.status for p in answer.parts] == [ANSWERED, ABSTAINED]
    assert answer.status == ANSWERED  # one part is answered, and only that part claims
    assert "no tool returned" in (answer.parts[1].reason or "")
    assert FAKE_ID not in {c.id for c in answer.citations}
    assert set(answer.parts[0].citations) == {c.n for c in answer.answer_citations}
    assert answer.parts[1].citations == () and answer.parts[1].answer == I_DONT_KNOW


def test_a_real_supported_citation_that_answers_another_question_is_refused(
    sample: Sample,
) -> None:
    """The model walks the indexer as asked, then looks up another service and cites that
    lookup's supported sentence: real, returned and supported, but not what was asked."""

    def other_service(results: Results) -> Reply:
        return call("neighbours", {"entity_id": results[-1]["rows"][0]["id"]})

    def cite_the_other(results: Results) -> Reply:
        ids = supported_ids(results[-1:])[:1]
        assert ids, "the scripted model found no supported hop of the other service"
        return final(f"web-frontend depends on it [[{ids[0]}]].", ids)

    steps = [resolve(), impact, resolve("web-frontend"), other_service, cite_the_other]
    answer, _ = ask(sample, steps)
    assert answer.status == ABSTAINED and answer.reason_code == "off_question", answer.reason
    assert "an answer to another question" in (answer.reason or "")
    assert answer.answer == I_DONT_KNOW and answer.answer_citations == ()
    assert [c.role for c in answer.citations] == ["related"]  # shown as context, not answer
