"""The model protocol: given the question, the tools and what happened so far, one next step.

A model only ever proposes: a call to a named query (``ToolRequest``) or a
draft answer with the evidence IDs it cites (``DraftAnswer``). The engine
executes calls, records the IDs they return, and decides what is shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

CARRIED = "refers to the previous part"
"""The reason of an entity hint the engine carried into a part that names nothing and refers
back ("…, and who owns them?"): the entities the previous part's answer reached."""


@dataclass(frozen=True)
class ToolSpec:
    """A named query as the model sees it: name, description, JSON-schema parameters."""

    name: str
    description: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True)
class ToolRequest:
    """The model asks the engine to run one named query."""

    name: str
    arguments: Mapping[str, Any]
    call_id: str = ""


@dataclass(frozen=True)
class DraftAnswer:
    """The model's proposed answer; ``cited_ids`` are sentence IDs it claims support it."""

    text: str
    cited_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exchange:
    """One executed (or refused) tool call, as fed back to the model."""

    request: ToolRequest
    result: str  # JSON text the model reads (rows, or the error)
    returned_ids: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class Question:
    """The question and what the engine already knows about it.

    ``namesakes`` maps the id of every entity of the graph whose name another entity shares
    (Redwood Inference is a team, a service and a customer) to its kind: an answer that names
    one of them says which, "Redwood Inference (service)", or it reads as any of them.
    """

    text: str
    language: str = "en"
    hints: Mapping[str, Any] = field(default_factory=dict)
    namesakes: Mapping[str, str] = field(default_factory=dict)


class Model(Protocol):
    """Offline deterministic, or any OpenAI-compatible endpoint; replaceable, never trusted."""

    name: str

    def next_step(
        self, question: Question, tools: Sequence[ToolSpec], history: Sequence[Exchange]
    ) -> ToolRequest | DraftAnswer:
        """The next call to make, or the draft answer.

        Raises ``ModelEndpointError`` (unreachable, timeout, HTTP error) or
        ``ModelOutputError`` (malformed tool call) — never a raw client error.
        """
        ...
