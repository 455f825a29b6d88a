"""The OpenAI-compatible endpoint boundary: where ``openai`` errors become ``ModelEndpointError``.

Both clients of an endpoint — the answer model (``zehn.models.openai_model``) and the
``llm`` extraction strategy (``zehn.extract.llm``) — translate through this one table, so a
dead, slow or confused endpoint reads the same wherever it is met. It sits below both
layers (extraction may not import the models, nor the models extraction).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NamedTuple

import openai

from zehn.errors import ModelEndpointError


class _Rule(NamedTuple):
    """Errors of ``types`` become a ``ModelEndpointError`` with the message ``says`` writes
    (given the error, where the endpoint is, and the client's timeout in seconds)."""

    types: type[Exception] | tuple[type[Exception], ...]
    says: Callable[[Exception, str, float], str]


def _http_status(error: Exception, where: str, timeout_s: float) -> str:
    assert isinstance(error, openai.APIStatusError)
    return f"{where} answered HTTP {error.status_code}: {error.message}"


# In order (a timeout is also a connection error): the first row that matches translates;
# an error no row matches passes through untouched.
OPENAI_ERRORS: tuple[_Rule, ...] = (
    _Rule(openai.APITimeoutError, lambda e, where, s: f"{where} timed out after {s:g} s"),
    _Rule(openai.APIConnectionError, lambda e, where, s: f"{where} is unreachable: {e}"),
    _Rule(openai.APIStatusError, _http_status),
    _Rule(
        (openai.OpenAIError, ValueError),
        lambda e, where, s: f"{where} sent an unusable response: {e}",
    ),
)


def endpoint_error(error: Exception, where: str, timeout_s: float) -> ModelEndpointError | None:
    """What the first matching row of ``OPENAI_ERRORS`` makes of ``error``; None if none does."""
    for rule in OPENAI_ERRORS:
        if isinstance(error, rule.types):
            return ModelEndpointError(rule.says(error, where, timeout_s))
    return None


@contextmanager
def endpoint_errors(where: str, timeout_s: float) -> Iterator[None]:
    """Translate what the calls inside raise (``endpoint_error``), ``from`` the original."""
    try:
        yield
    except Exception as e:
        translated = endpoint_error(e, where, timeout_s)
        if translated is None:
            raise
        raise translated from e
