"""Events an investigation emits as it goes, so a UI can stream it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ToolCallEvent:
    query: str
    params: dict[str, Any]
    by: str


@dataclass(frozen=True)
class ToolResultEvent:
    """``returned``: evidence (sentence) IDs recorded; ``rows``: everything the query gave back."""

    query: str
    returned: int
    ms: float
    error: str | None = None
    rows: int = 0


@dataclass(frozen=True)
class VerdictEvent:
    status: str
    reason: str | None


@dataclass(frozen=True)
class AnswerEvent:
    answer: Any  # CitedAnswer; typed loosely to keep this module free of imports


Event = ToolCallEvent | ToolResultEvent | VerdictEvent | AnswerEvent
Listener = Callable[[Event], None]
