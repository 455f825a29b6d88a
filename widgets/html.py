"""HTML building blocks shared by the views. Every string from a document is escaped here.

Nothing from a source document, a model or a user reaches the page without
``escape``; mention highlighting escapes each piece around the spans.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from zehn.errors import ZehnError
from zehn.evidence.policy import Policy

LABEL_COLOURS = {
    "source-supported": "#1a7f37",
    "inferred-assumption": "#bf8700",
    "insufficient-evidence": "#cf222e",
}
LABEL_TEXT: dict[str, str] = {
    "source-supported": "source-supported",
    "inferred-assumption": "⚠ inferred assumption",
    "insufficient-evidence": "✕ insufficient evidence",
}
STATUS_COLOURS = {
    "answered": "#1a7f37",
    "abstained": "#6e7781",
    "ambiguous": "#8250df",
    "error": "#cf222e",
}


def escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def badge(policy: Policy) -> str:
    """The active policy, always; an evaluation badge when it is not production."""
    name = f"policy: <b>{escape(policy.name)}</b> ({escape(policy.mode)})"
    if policy.badge is None:
        return f'<span class="zehn-policy">{name}</span>'
    return (
        f'<span class="zehn-policy">{name}</span> '
        f'<span class="zehn-badge" style="background:#bf8700;color:white;padding:2px 6px;'
        f'border-radius:4px;font-weight:bold">{escape(policy.badge)}</span>'
    )


def label_chip(label: str) -> str:
    colour = LABEL_COLOURS.get(label, "#6e7781")
    return (
        f'<span class="zehn-label" data-label="{escape(label)}" style="color:{colour};'
        f'font-weight:bold">{escape(LABEL_TEXT.get(label, label))}</span>'
    )


def highlight(text: str, offset: int, spans: Iterable[tuple[int, int] | None]) -> str:
    """``text`` with the given document-offset spans wrapped in <mark>, everything escaped."""
    local = sorted(
        (max(0, s - offset), min(len(text), e - offset))
        for span in spans
        if span is not None
        for s, e in [span]
        if e - offset > 0 and s - offset < len(text)
    )
    out, position = [], 0
    for start, end in local:
        if start < position:
            continue
        out.append(escape(text[position:start]))
        out.append(f"<mark>{escape(text[start:end])}</mark>")
        position = end
    out.append(escape(text[position:]))
    return "".join(out)


def error_box(error: BaseException) -> str:
    """A clear message for an expected failure: its kind and text, never a traceback."""
    kind = type(error).__name__ if isinstance(error, ZehnError) else "Unexpected error"
    return (
        f'<div class="zehn-error" style="border-left:4px solid #cf222e;padding:6px 10px;'
        f'background:#fff5f5"><b>{escape(kind)}</b>: {escape(error)}</div>'
    )
