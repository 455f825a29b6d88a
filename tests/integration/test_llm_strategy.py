"""The ``llm`` strategy against a scripted OpenAI-compatible endpoint (no FalkorDB needed).

The scripted model is realistic and partly wrong on purpose: it paraphrases,
binds "Redwood Inference" to the wrong kind, invents a predicate and a
relation between things the chunk never names. The strategy must keep what
the text supports, pin it to the real sentence, and count what it drops.
"""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.fakes.openai_server import FakeOpenAI, Reply, fake_openai
from zehn.config import Settings
from zehn.corpus.model import SourceText
from zehn.errors import ModelEndpointError
from zehn.extract.base import Extraction
from zehn.extract.llm import LLMStrategy
from zehn.reading.model import Edge
from zehn.reading.names.catalog import Catalog
from zehn.reading.split import chunk_sentences, split_sentences

CATALOG = Path(__file__).resolve().parents[2] / "data" / "sample" / "catalog.yaml"
MODEL = "fake-extractor-1"

SYNC = (
    "Tomasz walked through the v2 rollout. The indexer feeds search-api.\n\n"
    "Hannah said Redwood Inference asked for a heads-up before any ranking change goes live.\n\n"
    "search-api calls Redwood Inference for reranking. The flag is still off."
)
QBR = "Redwood Inference uses search-api for all of its customer-facing search."
# Chinese names inside Chinese text: no space or punctuation around either endpoint.
ZH_WEEKLY = "本周没有上线新功能。\n\n信息流构建服务调用推荐排序服务获取排序结果。"


def source(doc_id: str, text: str) -> SourceText:
    sentences = split_sentences(doc_id, text)
    chunks, stamped = chunk_sentences(doc_id, sentences, max_chars=150)
    return SourceText(doc_id, doc_id.split("/")[-1], text, tuple(chunks), tuple(stamped))


def answer(entities: list[tuple[str, str]], relationships: list[dict[str, Any]]) -> str:
    ents = [{"name": n, "type": t, "description": f"{n} ({t})"} for n, t in entities]
    return json.dumps({"entities": ents, "relationships": relationships})


def rel(source: str, type_: str, target: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"source": source, "target": target, "type": type_, "description": description, **extra}


CHUNK_REPLIES = {
    "The indexer feeds search-api.": answer(
        [("indexer", "service"), ("search-api", "service"), ("Search team", "team")],
        [
            rel(
                "indexer", "FEEDS", "search-api", "The indexer sends its fresh index to search-api."
            ),
            rel("search-api", "MAINTAINED_BY", "Search team", "Search maintains search-api."),
            rel("query-planner", "DEPENDS_ON", "auth-gateway", "Planner needs auth."),
        ],
    ),
    "search-api calls Redwood Inference": answer(
        # Wrong kind on purpose: in this sentence Redwood Inference is the service.
        [("search-api", "Service"), ("Redwood Inference", "Team")],
        [
            rel(
                "search-api",
                "calls",
                "Redwood Inference",
                "search-api relies on the Redwood team to rerank results.",
            ),
            rel(
                "Redwood Inference",
                "DEPENDS_ON",
                "search-api",
                "Redwood Inference would be affected by ranking changes.",
                attributes={"negated": False, "hedged": True},
            ),
        ],
    ),
    "The flag is still off.": answer([], []),
    "信息流构建服务调用": answer(
        [("信息流构建服务", "service"), ("推荐排序服务", "service")],
        [rel("信息流构建服务", "CALLS", "推荐排序服务", "信息流构建服务依赖推荐排序服务的排序。")],
    ),
    "customer-facing search": answer(
        [("search-api", "service")],  # no kind given for Redwood Inference
        [rel("Redwood Inference", "USES", "search-api", "The customer searches via search-api.")],
    ),
}


def by_chunk(body: dict[str, Any]) -> str | Reply:
    """Answer by the chunk text in the prompt, so concurrency cannot reorder the script."""
    prompt = body["messages"][-1]["content"]
    text = prompt.split("## Text\n", 1)[1].split("\n\n## Instructions", 1)[0]
    for needle, reply in CHUNK_REPLIES.items():
        if needle in text:
            return reply
    return answer([], [])


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with fake_openai(by_chunk) as fake:
        yield fake


def settings_for(base_url: str, **changes: Any) -> Settings:
    return Settings(openai_base_url=base_url, openai_model=MODEL, **changes)


@pytest.fixture
def docs() -> list[SourceText]:
    return [source("meeting/redwood-sync", SYNC), source("meeting/qbr-prep", QBR)]


@pytest.fixture
def extraction(server: FakeOpenAI, docs: list[SourceText]) -> Extraction:
    seen: list[int] = []
    result = LLMStrategy().extract(
        docs, Catalog.load(CATALOG), settings_for(server.base_url), seen.append
    )
    assert seen == [1, 1]
    return result


def edge(extraction: Extraction, subject: str, rel_type: str, obj: str) -> Edge:
    found = [
        e for e in extraction.edges if (e.subject, e.rel_type, e.object) == (subject, rel_type, obj)
    ]
    assert len(found) == 1, [(e.subject, e.rel_type, e.object) for e in extraction.edges]
    return found[0]


def sentence_text(docs: list[SourceText], e: Edge) -> str:
    doc = next(d for d in docs if d.doc_id == e.doc_id)
    sentence = next(s for s in doc.sentences if s.id == e.sentence_id)
    assert (sentence.start, sentence.end) == (e.start, e.end)
    return doc.text[e.start : e.end]


def test_paraphrased_fact_is_kept_but_the_edge_cites_the_real_sentence(
    extraction: Extraction, docs: list[SourceText]
) -> None:
    feeds = edge(extraction, "service:indexer", "FEEDS", "service:search-api")
    assert sentence_text(docs, feeds) == "The indexer feeds search-api."
    assert feeds.fact == "The indexer sends its fresh index to search-api."
    assert feeds.fact != sentence_text(docs, feeds)
    assert feeds.strategy == "llm" and not feeds.negated and not feeds.hedged
    assert feeds.subject_span is not None
    assert docs[0].text[slice(*feeds.subject_span)] == "The indexer"  # catalog alias


def test_wrong_kind_named_by_the_model_stays_bound_for_audits_to_catch(
    extraction: Extraction, docs: list[SourceText]
) -> None:
    calls = edge(extraction, "service:search-api", "CALLS", "team:redwood-inference")
    assert sentence_text(docs, calls) == "search-api calls Redwood Inference for reranking."
    assert calls.fact == "search-api relies on the Redwood team to rerank results."
    hedged = edge(extraction, "team:redwood-inference", "DEPENDS_ON", "service:search-api")
    assert hedged.hedged and not hedged.negated
    mentions = {(m.surface, m.entity_id, m.reason) for m in extraction.mentions}
    assert ("Redwood Inference", "team:redwood-inference", "llm: 'Redwood Inference'") in mentions
    assert ("search-api", "service:search-api", "llm: 'search-api'") in mentions


def test_drops_are_counted_in_notes(extraction: Extraction) -> None:
    notes = "\n".join(extraction.notes)
    assert "dropped 1 relation(s): predicate outside the vocabulary (MAINTAINED_BY)" in notes
    assert "dropped 1 relation(s): no sentence in chunk mentions 'query-planner'" in notes
    assert "dropped 1 relation(s): ambiguous entity ('Redwood Inference'" in notes
    assert not any(e.rel_type == "USES" for e in extraction.edges)
    assert len(extraction.edges) == 3


def test_entities_and_requests(extraction: Extraction, server: FakeOpenAI) -> None:
    assert {e.id for e in extraction.entities} == {
        "service:indexer",
        "service:search-api",
        "team:redwood-inference",
    }
    assert all(e.origin == "catalog" for e in extraction.entities)
    assert len(server.requests) == 4  # one per ZEHN chunk
    assert {r["model"] for r in server.requests} == {MODEL}
    assert any("The indexer feeds search-api." in p for p in server.prompts())


def test_without_catalog_entities_are_discovered_from_the_model(server: FakeOpenAI) -> None:
    doc = source("meeting/qbr-prep", QBR)
    result = LLMStrategy().extract([doc], None, settings_for(server.base_url))
    (uses,) = result.edges
    assert (uses.subject, uses.rel_type, uses.object) == (
        "component:redwood-inference",
        "USES",
        "service:search-api",
    )
    assert {e.origin for e in result.entities} == {"discovered"}
    assert sentence_text([doc], uses) == QBR


def test_chinese_names_in_chinese_text_are_pinned_to_their_sentence(server: FakeOpenAI) -> None:
    doc = source("meeting/推荐周会", ZH_WEEKLY)
    result = LLMStrategy().extract([doc], Catalog.load(CATALOG), settings_for(server.base_url))
    calls = edge(result, "service:feed-builder", "CALLS", "service:recs-ranker")
    assert sentence_text([doc], calls) == "信息流构建服务调用推荐排序服务获取排序结果。"
    assert calls.fact == "信息流构建服务依赖推荐排序服务的排序。"
    assert calls.subject_span is not None and calls.object_span is not None
    assert doc.text[slice(*calls.subject_span)] == "信息流构建服务"
    assert doc.text[slice(*calls.object_span)] == "推荐排序服务"
    mentions = {(m.surface, m.entity_id) for m in result.mentions}
    assert mentions == {
        ("信息流构建服务", "service:feed-builder"),
        ("推荐排序服务", "service:recs-ranker"),
    }
    assert not result.notes  # nothing dropped for want of a sentence
    # step 1 (the catalog spotter) found both names too: the prompt lists them for the model
    prompt = next(p for p in server.prompts() if "信息流构建服务调用" in p)
    assert "feed-builder" in prompt and "recs-ranker" in prompt


def test_runs_inside_a_running_event_loop(server: FakeOpenAI) -> None:
    """Jupyter kernels run a loop; extract() must not trip over it."""
    doc = source("meeting/qbr-prep", QBR)

    async def in_loop() -> Extraction:
        return LLMStrategy().extract([doc], None, settings_for(server.base_url))

    assert len(asyncio.run(in_loop()).edges) == 1


def test_no_endpoint_configured_fails_before_any_work(docs: list[SourceText]) -> None:
    with pytest.raises(ModelEndpointError, match="OPENAI_BASE_URL") as info:
        LLMStrategy().extract(docs, None, Settings())
    assert "ZEHN_OPENAI_MODEL" in str(info.value)
    with pytest.raises(ModelEndpointError, match="missing: ZEHN_OPENAI_MODEL"):
        LLMStrategy().extract(docs, None, Settings(openai_base_url="http://127.0.0.1:9/v1"))


def failing(reply: str | Reply) -> Callable[[dict[str, Any]], str | Reply]:
    """First chunk answers well, then the endpoint misbehaves: no partial result allowed."""
    calls: list[int] = []

    def script(body: dict[str, Any]) -> str | Reply:
        calls.append(1)
        return by_chunk(body) if len(calls) == 1 else reply

    return script


@pytest.mark.parametrize(
    ("reply", "message", "cause"),
    [
        (Reply(status=500), "HTTP 500", openai.InternalServerError),
        (Reply(status=429), "HTTP 429", openai.RateLimitError),
        ('{"entities": [{"name": "indexer", ', "malformed JSON", json.JSONDecodeError),
        ('{"triples": []}', "wrong shape", None),
        ('{"entities": [], "relationships": [{"source": "a"}]}', "wrong shape", None),
        (Reply(raw="<html>gateway</html>"), "not an OpenAI chat completion", None),
        (Reply(tool_calls=[Reply.tool_call("lookup", {"q": "x"})]), "without text", None),
    ],
)
def test_endpoint_misbehaviour_becomes_model_endpoint_error(
    docs: list[SourceText], reply: str | Reply, message: str, cause: type[Exception] | None
) -> None:
    with fake_openai(failing(reply)) as fake, pytest.raises(ModelEndpointError, match=message) as e:
        LLMStrategy(max_concurrency=1).extract(docs, None, settings_for(fake.base_url))
    if cause is not None:
        assert isinstance(e.value.__cause__, cause)


def test_timeout_becomes_model_endpoint_error(docs: list[SourceText]) -> None:
    with (
        fake_openai([Reply(delay=1.5, content=answer([], []))] * 4) as fake,
        pytest.raises(ModelEndpointError, match=r"timed out after 0\.2 s"),
    ):
        LLMStrategy().extract(docs, None, settings_for(fake.base_url, query_timeout_ms=200))


def test_connection_refused_becomes_model_endpoint_error(docs: list[SourceText]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ModelEndpointError, match="unreachable"):
        LLMStrategy().extract(docs, None, settings_for(f"http://127.0.0.1:{port}/v1"))
