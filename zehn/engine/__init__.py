"""The engine: runs named queries, records evidence, verifies citations, decides by code."""

from zehn.engine.answer import ABSTAINED, AMBIGUOUS, ANSWERED, ERROR, I_DONT_KNOW, CitedAnswer
from zehn.engine.loop import Engine

__all__ = ["ABSTAINED", "AMBIGUOUS", "ANSWERED", "ERROR", "I_DONT_KNOW", "CitedAnswer", "Engine"]
