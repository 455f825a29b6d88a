"""The answer model over any OpenAI-compatible chat endpoint (tool calling).

The model only proposes: a call to one of the named queries the engine offers,
or a ``final_answer`` with the sentence IDs it cites. Nothing it says is
trusted here either: the tool name is passed through unchecked (the engine
refuses what is not on the whitelist and must be able to show that), and the
citations are passed through unverified (the engine checks them against the
IDs its own tool calls returned). This module's job is the wire: build the
conversation, parse the reply strictly, and turn every transport failure into
``ModelEndpointError`` and every unusable reply into ``ModelOutputError``.

The response body is parsed from raw JSON rather than through the client's
models, because the client builds those without validation: a body of the
wrong shape would surface later as ``AttributeError`` instead of a clear error.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

import openai

from zehn.config import Settings
from zehn.endpoint import endpoint_errors
from zehn.errors import ModelEndpointError, ModelError, ModelOutputError
from zehn.models.base import DraftAnswer, Exchange, Question, ToolRequest, ToolSpec

log = logging.getLogger(__name__)

FINAL_ANSWER = "final_answer"
NO_API_KEY = "not-needed"  # local OpenAI-compatible servers accept any key
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")

SYSTEM_PROMPT = """\
You answer questions about software systems, teams and their dependencies \
from a knowledge graph built from documents (design pages, pull requests, \
meeting notes, emails, tickets).

Rules:
1. Use only the tools provided. Each runs one fixed, named, read-only query; \
you cannot run anything else and you never write queries yourself.
2. Answer only from the sentences the tools returned. Do not use outside \
knowledge and do not guess.
3. Cite the sentence IDs exactly as the tools returned them (`sentence_id`, \
`evidence`). Never invent, shorten, merge or edit an ID. Mark each claim with \
the ID of the sentence that states it in double square brackets, e.g. \
"search-api depends on query-planner [[confluence/overview#628-706]]"; the \
markers become numbered citations.
4. If the returned sentences do not answer the question, answer \
"I don't know" and cite nothing.
5. When you are done, call `final_answer` with the answer text and the list \
of cited sentence IDs."""

FINAL_ANSWER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": FINAL_ANSWER,
        "description": (
            "Give the answer. Cite only sentence IDs that the tools returned, exactly "
            'as returned; answer "I don\'t know" with no citations if they do not answer it.'
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "answer": {
                    "type": "string",
                    "description": "the answer, each claim marked [[sentence id]]",
                },
                "citations": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "every sentence ID the answer relies on",
                },
            },
            "required": ["answer", "citations"],
            "additionalProperties": False,
        },
    },
}


class OpenAIModel:
    """One chat-completions call per step; one attempt, no retries, errors become ours."""

    def __init__(
        self,
        settings: Settings,
        *,
        timeout_s: float | None = None,
        max_tokens: int | None = None,
    ) -> None:
        needed = {
            "OPENAI_BASE_URL": settings.openai_base_url,
            "ZEHN_OPENAI_MODEL": settings.openai_model,
        }
        if missing := [variable for variable, value in needed.items() if not value]:
            raise ModelEndpointError(
                "the openai model needs an OpenAI-compatible endpoint: set OPENAI_BASE_URL "
                f"and ZEHN_OPENAI_MODEL (missing: {', '.join(missing)})"
            )
        self.model = str(settings.openai_model)
        self.base_url = str(settings.openai_base_url)
        self.name = f"openai:{self.model}"
        self.timeout_s = timeout_s if timeout_s is not None else settings.query_timeout_ms / 1000
        self.max_tokens = max_tokens
        self.notes: list[str] = []  # what the model did that we had to ignore (extra calls)
        # max_retries=0: a dead endpoint should fail in one timeout, not after backoff.
        self._client = openai.OpenAI(
            base_url=self.base_url,
            api_key=settings.openai_api_key or NO_API_KEY,
            timeout=self.timeout_s,
            max_retries=0,
        )

    @property
    def _where(self) -> str:
        return f"model endpoint {self.base_url} ({self.model})"

    def next_step(
        self, question: Question, tools: Sequence[ToolSpec], history: Sequence[Exchange]
    ) -> ToolRequest | DraftAnswer:
        """Send the whole conversation so far; parse the one step the model proposes."""
        body = self._complete(build_messages(question, history), build_tools(tools))
        return self._parse(body, len(history))

    # --- transport ------------------------------------------------------------

    def _complete(self, messages: list[Any], tools: list[Any]) -> dict[str, Any]:
        """The response body as JSON; any transport failure is a ``ModelEndpointError``."""
        extra: dict[str, Any] = {}
        if self.max_tokens is not None:
            extra["max_tokens"] = self.max_tokens
        with endpoint_errors(self._where, self.timeout_s):
            raw = self._client.chat.completions.with_raw_response.create(
                model=self.model, messages=messages, tools=tools, temperature=0, **extra
            )
            text = raw.text
        try:
            body = json.loads(text)
        except json.JSONDecodeError as e:
            raise ModelEndpointError(
                f"{self._where} sent a body that is not JSON ({e.msg}): {text[:80]!r}"
            ) from e
        if not isinstance(body, dict):
            raise ModelEndpointError(f"{self._where} sent JSON that is not a chat completion")
        return body

    # --- parsing --------------------------------------------------------------

    def _parse(self, body: dict[str, Any], turn: int) -> ToolRequest | DraftAnswer:
        message, finish = self._message(body)
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list):
            raise ModelOutputError(f"the model sent tool_calls that are not a list: {calls!r}")
        if calls:
            if len(calls) > 1:
                names = [_call_name(c) for c in calls]
                note = (
                    f"the model proposed {len(calls)} tool calls at once "
                    f"({', '.join(names)}); only the first was taken"
                )
                self.notes.append(note)
                log.info(note)
            return _tool_step(calls[0], turn, finish)
        content = message.get("content")
        if content is None:
            content = message.get("refusal")  # a refusal is an (uncited) answer
        if not isinstance(content, str) or not content.strip():
            raise ModelOutputError(
                f"the model answered with neither text nor a tool call (finish_reason {finish!r})"
            )
        return _text_step(content)

    def _message(self, body: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
        """The first choice's message; a body without one did not come from a chat model."""
        if isinstance(body.get("error"), dict | str):
            error = body["error"]
            detail = error.get("message", error) if isinstance(error, dict) else error
            raise ModelEndpointError(f"{self._where} answered with an error: {detail}")
        choices = body.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise ModelEndpointError(
                f"{self._where} sent a body without choices (not a chat completion)"
            )
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise ModelEndpointError(f"{self._where} sent a choice without a message")
        finish = choices[0].get("finish_reason")
        return message, finish if isinstance(finish, str) else None


# --- the conversation on the wire --------------------------------------------


def build_messages(question: Question, history: Sequence[Exchange]) -> list[dict[str, Any]]:
    """System rules, the question, then one assistant tool call + tool result per exchange."""
    user = question.text
    if question.hints:
        user += "\n\nKnown context (JSON): " + json.dumps(dict(question.hints), default=str)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM_PROMPT},
        {"role": "user", "content": user},
    ]
    for turn, exchange in enumerate(history):
        call_id = exchange.request.call_id or _call_id(turn)
        arguments = json.dumps(dict(exchange.request.arguments), default=str)
        function = {"name": exchange.request.name, "arguments": arguments}
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": call_id, "type": "function", "function": function}],
            }
        )
        result = exchange.result
        if not result and exchange.error:
            result = json.dumps({"error": exchange.error})
        messages.append({"role": "tool", "tool_call_id": call_id, "content": result})
    return messages


def build_tools(tools: Sequence[ToolSpec]) -> list[dict[str, Any]]:
    """The named queries as OpenAI function tools, plus ``final_answer``."""
    if any(spec.name == FINAL_ANSWER for spec in tools):
        raise ModelError(
            f"a named query may not be called {FINAL_ANSWER!r}: that is the answer tool"
        )
    specs = [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                # a JSON round trip: plain dicts and lists, whatever Mapping the spec holds
                "parameters": json.loads(json.dumps(spec.parameters)),
            },
        }
        for spec in tools
    ]
    return [*specs, FINAL_ANSWER_TOOL]


def _call_id(turn: int) -> str:
    """The ID of a call the endpoint sent without one: stable, from its place in history."""
    return f"zehn_call_{turn}"


def _call_name(call: Any) -> str:
    function = call.get("function") if isinstance(call, dict) else None
    name = function.get("name") if isinstance(function, dict) else None
    return name if isinstance(name, str) else "?"


def _tool_step(call: Any, turn: int, finish: str | None) -> ToolRequest | DraftAnswer:
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict):
        raise ModelOutputError(f"the model sent a tool call that is not a function call: {call!r}")
    name = function.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ModelOutputError(f"the model sent a tool call without a function name: {call!r}")
    arguments = _arguments(name, function.get("arguments"), finish)
    if name == FINAL_ANSWER:
        return _draft(arguments, f"{FINAL_ANSWER} call")
    raw_id = call.get("id")
    call_id = raw_id if isinstance(raw_id, str) and raw_id else _call_id(turn)
    return ToolRequest(name=name, arguments=arguments, call_id=call_id)


def _arguments(name: str, raw: Any, finish: str | None) -> dict[str, Any]:
    """The arguments object; empty means none, anything but a JSON object is malformed."""
    if isinstance(raw, dict):  # some servers send the object itself, not its JSON text
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    if not isinstance(raw, str):
        raise ModelOutputError(f"malformed arguments for tool call {name!r}: {raw!r}")
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as e:
        cut = " (the reply was cut off: finish_reason 'length')" if finish == "length" else ""
        raise ModelOutputError(
            f"malformed tool-call JSON for {name!r} ({e.msg} at char {e.pos}){cut}: {raw[:80]!r}"
        ) from e
    if not isinstance(parsed, dict):
        raise ModelOutputError(
            f"malformed arguments for tool call {name!r}: a JSON object is required, "
            f"got {type(parsed).__name__}: {raw[:80]!r}"
        )
    return parsed


def _text_step(content: str) -> DraftAnswer:
    """JSON ``{"answer", "citations"}`` if that is what the text is; else an uncited answer."""
    try:
        parsed = json.loads(_FENCE.sub("", content.strip()))
    except json.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict) and "answer" in parsed:
        return _draft(parsed, "JSON answer")
    return DraftAnswer(text=content.strip(), cited_ids=())


def _draft(data: Mapping[str, Any], what: str) -> DraftAnswer:
    answer = data.get("answer")
    if not isinstance(answer, str):
        raise ModelOutputError(f"the model's {what} has no answer text (got {answer!r})")
    citations = data.get("citations", [])
    if citations is None:
        citations = []
    if not isinstance(citations, list) or not all(isinstance(c, str) for c in citations):
        raise ModelOutputError(
            f"the model's {what} has citations that are not a list of strings: {citations!r}"
        )
    return DraftAnswer(text=answer, cited_ids=tuple(citations))
