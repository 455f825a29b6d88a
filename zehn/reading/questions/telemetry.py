"""Telemetry: what a sentence sends about a component (traces, metrics, logs), not what the
component needs to run. A hop stated as sending telemetry to a collector or a backend is no
runtime impact ("what fails if X is down?" is not answered by "X exports traces to the
collector"), unless the question asks about telemetry. The words are data rows per language.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

TELEMETRY_WORDS: dict[str, tuple[str, ...]] = {
    "en": (
        "telemetry", "trace", "traces", "tracing", "span", "spans", "metrics", "logs", "log data",
        "otlp", "observability", "instrumentation", "exemplar", "exemplars",
    ),
    "zh": ("遥测", "链路追踪", "追踪数据", "指标数据", "监控指标", "日志数据", "监控数据"),
}  # fmt: skip
_WORDS = sorted((w for rows in TELEMETRY_WORDS.values() for w in rows), key=len, reverse=True)
_TELEMETRY = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join(re.escape(w) for w in _WORDS) + r")(?![A-Za-z])",
    re.IGNORECASE,
)


def speaks_of_telemetry(text: str) -> bool:
    """Whether ``text`` (a sentence or a question) speaks of telemetry."""
    return _TELEMETRY.search(text) is not None


def asks_telemetry(words: Iterable[str]) -> bool:
    """Whether a question's words ask about telemetry."""
    return any(speaks_of_telemetry(w) for w in words)
