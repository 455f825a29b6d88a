"""``OpenAIModel`` against the scripted fake endpoint: the wire shape out, strict parsing in.

The fake is a real HTTP server, so the openai client's own timeout, status
and body handling run exactly as they would against a real endpoint.
"""

from __future__ import annotations

import json
import socket
from typing import Any

import pytest

from tests.fakes.openai_server import Reply, fake_openai
from zehn.config import Settings
from zehn.errors import ModelEndpointError, ModelError, ModelOutputError
from zehn.models.base import DraftAnswer, Exchange, Question, ToolRequest, ToolSpec
from zehn.models.openai_model import FINAL_ANSWER, SYSTEM_PROMPT, OpenAIModel

MODEL = "fake-answerer-1"
QUESTION = Question("What breaks if search-api changes?")
RESOLVE = ToolSpec(
    "resolve_entity",
    "Find entities by name.",
    {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
)
IMPACT = ToolSpec(
    "downstream_impact",
    "What is at risk if an entity changes.",
    {
        "type": "object",
        "properties": {"entity_id": {"type": "string"}, "depth": {"type": "integer"}},
        "required": ["entity_id"],
    },
)
TOOLS = (RESOLVE, IMPACT)
SENTENCE = "confluence/indexer-design#812-901"


def make(base_url: str | None, *, timeout_s: float = 5.0, **changes: Any) -> OpenAIModel:
    settings = Settings(openai_base_url=base_url, openai_model=MODEL, **changes)
    return OpenAIModel(settings, timeout_s=timeout_s)


def step(script: list[str | Reply], history: tuple[Exchange, ...] = ()) -> Any:
    with fake_openai(script) as fake:
        return make(fake.base_url).next_step(QUESTION, TOOLS, history)


def final(answer: Any, citations: Any) -> Reply:
    args = {"answer": answer, "citations": citations}
    return Reply(tool_calls=[Reply.tool_call(FINAL_ANSWER, args)])


# --- what goes out -------------------------------------------------------------


def test_first_request_carries_rules_question_and_tools() -> None:
    with fake_openai([final("I don't know", [])]) as fake:
        model = make(fake.base_url)
        model.next_step(QUESTION, TOOLS, ())
    assert model.name == f"openai:{MODEL}"
    (request,) = fake.requests
    assert request["model"] == MODEL
    system, user = request["messages"]
    assert system == {"role": "system", "content": SYSTEM_PROMPT}
    assert user == {"role": "user", "content": QUESTION.text}
    for rule in ("only the tools", "exactly as the tools returned", "I don't know", "final_answer"):
        assert rule in SYSTEM_PROMPT
    names = [t["function"]["name"] for t in request["tools"]]
    assert names == ["resolve_entity", "downstream_impact", FINAL_ANSWER]
    assert all(t["type"] == "function" for t in request["tools"])
    assert request["tools"][1]["function"]["parameters"] == IMPACT.parameters
    assert request["tools"][1]["function"]["description"] == IMPACT.description
    answer_schema = request["tools"][2]["function"]["parameters"]
    assert answer_schema["properties"]["citations"] == {
        "type": "array",
        "items": {"type": "string"},
        "description": answer_schema["properties"]["citations"]["description"],
    }


def test_history_is_sent_as_assistant_tool_calls_and_tool_results() -> None:
    first = Exchange(
        ToolRequest("resolve_entity", {"name": "search-api"}, "call_abc"),
        result=json.dumps({"rows": [{"id": "service:search-api"}]}),
    )
    refused = Exchange(
        ToolRequest("run_cypher", {"query": "MATCH (n) DETACH DELETE n"}),  # no call id
        result="",
        error="query 'run_cypher' is not on the whitelist",
    )
    with fake_openai([final("I don't know", [])]) as fake:
        make(fake.base_url).next_step(QUESTION, TOOLS, (first, refused))
    messages = fake.requests[0]["messages"]
    assert [m["role"] for m in messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
    ]
    call = messages[2]["tool_calls"][0]
    assert call == {
        "id": "call_abc",
        "type": "function",
        "function": {"name": "resolve_entity", "arguments": '{"name": "search-api"}'},
    }
    assert messages[3] == {"role": "tool", "tool_call_id": "call_abc", "content": first.result}
    generated = messages[4]["tool_calls"][0]["id"]
    assert generated and generated != "call_abc"
    assert messages[5]["tool_call_id"] == generated
    assert json.loads(messages[5]["content"]) == {"error": refused.error}


def test_generated_call_ids_are_stable_across_steps() -> None:
    history = (Exchange(ToolRequest("resolve_entity", {"name": "x"}), result="[]"),)
    with fake_openai([final("a", []), final("a", [])]) as fake:
        model = make(fake.base_url)
        model.next_step(QUESTION, TOOLS, history)
        model.next_step(QUESTION, TOOLS, history)
    ids = [r["messages"][2]["tool_calls"][0]["id"] for r in fake.requests]
    assert ids[0] == ids[1]


def test_a_query_named_like_the_answer_tool_is_refused() -> None:
    clash = ToolSpec(FINAL_ANSWER, "shadowing", {"type": "object"})
    with fake_openai([]) as fake, pytest.raises(ModelError, match=FINAL_ANSWER):
        make(fake.base_url).next_step(QUESTION, (clash,), ())
    assert fake.requests == []


# --- what comes back -----------------------------------------------------------


def test_tool_call_becomes_tool_request_with_parsed_arguments() -> None:
    args = {"entity_id": "service:search-api", "depth": 2}
    reply = Reply(tool_calls=[Reply.tool_call("downstream_impact", args, "call_7")])
    assert step([reply]) == ToolRequest("downstream_impact", args, "call_7")


def test_tool_names_are_not_checked_against_the_whitelist_here() -> None:
    """The engine refuses unknown queries and must see them to say so."""
    args = {"query": "MATCH (n) DETACH DELETE n"}
    result = step([Reply(tool_calls=[Reply.tool_call("run_cypher", args)])])
    assert result == ToolRequest("run_cypher", args, "call_run_cypher")


def test_tool_call_without_id_gets_the_history_position_id() -> None:
    call = {"type": "function", "function": {"name": "resolve_entity", "arguments": "{}"}}
    result = step([Reply(tool_calls=[call])])
    assert isinstance(result, ToolRequest) and result.call_id and result.arguments == {}


def test_empty_arguments_mean_no_arguments() -> None:
    call = Reply.tool_call("resolve_entity", "")
    assert step([Reply(tool_calls=[call])]) == ToolRequest("resolve_entity", {}, call["id"])


def test_multiple_tool_calls_take_the_first_and_note_it() -> None:
    calls = [
        Reply.tool_call("resolve_entity", {"name": "a"}, "c1"),
        Reply.tool_call("resolve_entity", {"name": "b"}, "c2"),
    ]
    with fake_openai([Reply(tool_calls=calls)]) as fake:
        model = make(fake.base_url)
        result = model.next_step(QUESTION, TOOLS, ())
    assert result == ToolRequest("resolve_entity", {"name": "a"}, "c1")
    assert len(model.notes) == 1 and "2 tool calls" in model.notes[0]


def test_final_answer_becomes_draft_answer() -> None:
    assert step([final("search-api feeds ranking [1].", [SENTENCE])]) == DraftAnswer(
        "search-api feeds ranking [1].", (SENTENCE,)
    )


def test_final_answer_without_citations_is_an_uncited_draft() -> None:
    reply = Reply(tool_calls=[Reply.tool_call(FINAL_ANSWER, {"answer": "Everything."})])
    assert step([reply]) == DraftAnswer("Everything.", ())


@pytest.mark.parametrize(
    "content",
    [
        json.dumps({"answer": "It feeds ranking [1].", "citations": [SENTENCE]}),
        "```json\n"
        + json.dumps({"answer": "It feeds ranking [1].", "citations": [SENTENCE]})
        + "\n```",
    ],
)
def test_json_content_becomes_draft_answer(content: str) -> None:
    assert step([content]) == DraftAnswer("It feeds ranking [1].", (SENTENCE,))


@pytest.mark.parametrize("content", ["search-api feeds ranking.", '{"verdict": "yes"}', "[1, 2]"])
def test_free_text_becomes_an_uncited_draft(content: str) -> None:
    assert step([content]) == DraftAnswer(content, ())


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (
            Reply(tool_calls=[Reply.tool_call("resolve_entity", '{"name": "x"')]),
            "malformed tool-call JSON",
        ),
        (
            Reply(tool_calls=[Reply.tool_call("resolve_entity", "not json")]),
            "malformed tool-call JSON",
        ),
        (Reply(tool_calls=[Reply.tool_call("resolve_entity", '["x"]')]), "JSON object is required"),
        (Reply(tool_calls=[Reply.tool_call("resolve_entity", '"x"')]), "JSON object is required"),
        (final("a", SENTENCE), "not a list of strings"),
        (final("a", [SENTENCE, 7]), "not a list of strings"),
        (final(None, [SENTENCE]), "no answer text"),
        (json.dumps({"answer": "a", "citations": {"id": SENTENCE}}), "not a list of strings"),
        (Reply(content=None), "neither text nor a tool call"),
        (Reply(content="   "), "neither text nor a tool call"),
        (Reply(tool_calls=[{"id": "x", "type": "function"}]), "not a function call"),
        (
            Reply(tool_calls=[{"id": "x", "function": {"arguments": "{}"}}]),
            "without a function name",
        ),
    ],
)
def test_unusable_output_is_a_model_output_error(reply: str | Reply, problem: str) -> None:
    with pytest.raises(ModelOutputError, match=problem):
        step([reply])


def test_cut_off_arguments_say_so() -> None:
    call = Reply.tool_call("resolve_entity", '{"name": "sea')
    with pytest.raises(ModelOutputError, match="cut off"):
        step([Reply(tool_calls=[call], finish_reason="length")])


# --- transport -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (Reply(status=500), "HTTP 500"),
        (Reply(status=429), "HTTP 429"),
        (Reply(status=401), "HTTP 401"),
        (Reply(raw="<html>bad gateway</html>"), "not JSON"),
        (Reply(raw='{"foo": 1}'), "without choices"),
        (Reply(raw='{"choices": []}'), "without choices"),
        (Reply(raw='{"choices": [{"message": "hi"}]}'), "without a message"),
        (Reply(raw="[1, 2]"), "not a chat completion"),
        (Reply(raw='{"error": {"message": "overloaded"}}'), "overloaded"),
    ],
)
def test_endpoint_failures_are_model_endpoint_errors(reply: Reply, problem: str) -> None:
    with pytest.raises(ModelEndpointError, match=problem) as info:
        step([reply])
    assert not type(info.value).__module__.startswith("openai")


def test_timeout_is_a_model_endpoint_error() -> None:
    with fake_openai([Reply(delay=1.0, content="late")]) as fake:
        model = make(fake.base_url, timeout_s=0.2)
        with pytest.raises(ModelEndpointError, match=r"timed out after 0\.2 s") as info:
            model.next_step(QUESTION, TOOLS, ())
    assert info.value.__cause__ is not None


def test_connection_refused_is_a_model_endpoint_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again before the call: nothing listens
    model = make(f"http://127.0.0.1:{port}/v1")
    with pytest.raises(ModelEndpointError, match="unreachable"):
        model.next_step(QUESTION, TOOLS, ())


@pytest.mark.parametrize(
    ("base_url", "model", "missing"),
    [
        (None, MODEL, "OPENAI_BASE_URL"),
        ("http://127.0.0.1:1/v1", None, "ZEHN_OPENAI_MODEL"),
        (None, None, "OPENAI_BASE_URL, ZEHN_OPENAI_MODEL"),
    ],
)
def test_missing_configuration_names_the_variables(
    base_url: str | None, model: str | None, missing: str
) -> None:
    settings = Settings(openai_base_url=base_url, openai_model=model)
    with pytest.raises(ModelEndpointError, match=f"missing: {missing}"):
        OpenAIModel(settings)


def test_timeout_defaults_to_the_query_timeout_and_key_to_a_placeholder() -> None:
    with fake_openai([final("a", [])]) as fake:
        settings = Settings(
            openai_base_url=fake.base_url, openai_model=MODEL, query_timeout_ms=1500
        )
        model = OpenAIModel(settings)
        model.next_step(QUESTION, TOOLS, ())
    assert model.timeout_s == 1.5
    assert "max_tokens" not in fake.requests[0]
