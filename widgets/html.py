"""HTML building blocks shared by the views. Every string from a document is escaped here.

Nothing from a source document, a model or a user reaches the page without
``escape``; mention highlighting escapes each piece around the spans.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

from zehn import Policy, Status, ZehnError
from zehn.evidence.grade import INFERRED, INSUFFICIENT, SUPPORTED

# One colour per meaning in every view: good, doubtful, bad, neutral, "choose one", frames.
GREEN, AMBER, RED, GREY, PURPLE = "#1a7f37", "#bf8700", "#cf222e", "#6e7781", "#8250df"
BORDER = "#d0d7de"
LABEL_COLOURS: dict[str, str] = {SUPPORTED: GREEN, INFERRED: AMBER, INSUFFICIENT: RED}
LABEL_TEXT: dict[str, str] = {
    SUPPORTED: "source-supported",
    INFERRED: "⚠ inferred assumption",
    INSUFFICIENT: "✕ insufficient evidence",
}
STATUS_COLOURS: dict[str, str] = {
    Status.ANSWERED: GREEN,
    Status.ABSTAINED: GREY,
    Status.AMBIGUOUS: PURPLE,
    Status.ERROR: RED,
}
AUDIT_COLOURS: dict[str, str] = {
    "correct": GREEN,
    "wrong_target": RED,
    "wrong_source": RED,
    "wrong_predicate": RED,
    "not_asserted": AMBER,
    "unsure": GREY,
}
CELL = 'style="padding:2px 8px;text-align:left;vertical-align:top"'  # table cells of the views
DIAGRAM_LINE = "diagram line"


def diagram_mark(is_line: bool) -> str:
    """The mark on a citation that is a line of a diagram (Mermaid, PlantUML, DOT): the arrow,
    not a sentence, states the relation."""
    if not is_line:
        return ""
    return (
        ' · <span class="zehn-diagram-line" title="a line of a diagram: its arrow states the '
        f'relation" style="color:{PURPLE}">{DIAGRAM_LINE}</span>'
    )


def escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def badge(policy: Policy) -> str:
    """The active policy, always; an evaluation badge when it is not production."""
    name = f"policy: <b>{escape(policy.name)}</b> ({escape(policy.mode)})"
    if policy.badge is None:
        return f'<span class="zehn-policy">{name}</span>'
    return f'<span class="zehn-policy">{name}</span> {evaluation_badge(policy.badge)}'


def evaluation_badge(text: str) -> str:
    """White on amber: a non-production policy, on the policy line and on its answers."""
    return (
        f'<span class="zehn-badge" style="background:{AMBER};color:white;padding:2px 6px;'
        f'border-radius:4px;font-weight:bold">{escape(text)}</span>'
    )


def chip(css_class: str, kind: str, value: str, text: str, colours: Mapping[str, str]) -> str:
    """``text`` in bold in the colour of ``value`` (grey if it has none), tagged ``data-<kind>``."""
    return (
        f'<span class="{css_class}" data-{kind}="{escape(value)}" '
        f'style="color:{colours.get(value, GREY)};font-weight:bold">{escape(text)}</span>'
    )


def label_chip(label: str) -> str:
    """A grade label as every view shows it."""
    return chip("zehn-label", "label", label, LABEL_TEXT.get(label, label), LABEL_COLOURS)


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
    return error_html(kind, str(error))


def error_html(kind: str, text: str) -> str:
    """The error box for a failure known by its kind's name and its text (a child process's)."""
    return (
        f'<div class="zehn-error" style="border-left:4px solid {RED};padding:6px 10px;'
        f'background:#fff5f5"><b>{escape(kind)}</b>: {escape(text)}</div>'
    )
