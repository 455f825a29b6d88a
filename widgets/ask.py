"""Ask view: a question in, the investigation streamed as it runs, the cited answer out.

What a person sees is the answer contract (docs/architecture.md): the status first,
then either the answer with numbered verbatim citations, or "I don't know" and
why, or the identities a name could mean. The log is fed by the engine's
listener, so each named-query call appears as it happens. An expected failure
(``ZehnError``: the server is down, the model endpoint failed) becomes an error
answer shown in an error box, never a traceback. A question asked in Chinese
is answered in Chinese ("我不知道" when withheld); every block carries a ``lang``
attribute so the browser picks a CJK font, and quotes keep their own language.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import ipywidgets as w
import traitlets

from widgets.answer_extras import beyond_html, found_by_mark, parts_html, related_html
from widgets.export import ExportBar
from widgets.graph_view import GraphView, question_entities
from widgets.html import (
    AMBER,
    GREEN,
    GREY,
    RED,
    STATUS_COLOURS,
    badge,
    diagram_mark,
    error_box,
    escape,
    evaluation_badge,
    highlight,
    label_chip,
)
from widgets.session import Session
from zehn import Citation, CitedAnswer, Policy, ZehnError
from zehn.engine.answer import ABSTAINED, AMBIGUOUS, ANSWERED, ERROR, I_DONT_KNOW
from zehn.engine.events import Event, ToolCallEvent, ToolResultEvent, VerdictEvent
from zehn.reading.lang import ZH, detect_language

_logger = logging.getLogger(__name__)
STATUS_TEXT: dict[str, str] = {
    ANSWERED: "Answered",
    ABSTAINED: "Abstained",
    AMBIGUOUS: "Ambiguous: which one do you mean?",
    ERROR: "Error",
}
_MARKER = re.compile(r"\[(\d+)\]")
_WHY = {ZH: "原因："}  # the label before an abstention's reason, per answer language
_PARAMS_MAX = 300


class AskView(w.VBox):
    """Ask one question at a time; the last answer is in ``answer``."""

    answer = traitlets.Instance(CitedAnswer, allow_none=True, default_value=None)

    def __init__(
        self, session: Session, on_answer: Callable[[CitedAnswer], None] | None = None
    ) -> None:
        self.session = session
        self._handlers = w.CallbackDispatcher()
        self._log: list[str] = []
        self.question = w.Textarea(
            placeholder="If I change origin-mapper, what breaks?",
            layout=w.Layout(width="100%", height="60px"),
        )
        self.button = w.Button(description="Ask", button_style="primary", icon="search")
        self.question.add_class("zehn-question")  # stable hooks for browser tests
        self.button.add_class("zehn-ask")
        self.policy_line = w.HTML()
        self.investigation = w.HTML()
        self.result = w.HTML()
        self.graph = GraphView()
        self.graph.layout.display = "none"
        self.exports = ExportBar(session.settings, self.graph)  # graph as HTML, answer as .md
        self.button.on_click(lambda _: self._clicked())
        session.on_policy_change(self._show_policy)
        self._following = True
        self._show_policy(session.policy)
        if on_answer is not None:
            self.on_answer(on_answer)
        super().__init__(
            [
                self.question,
                w.HBox([self.button, self.policy_line]),
                self.investigation,
                self.result,
                self.graph,
                self.exports,
            ]
        )

    def on_answer(self, callback: Callable[[CitedAnswer], None], remove: bool = False) -> None:
        """Call ``callback(answer)`` after every question, whatever its status."""
        self._handlers.register_callback(callback, remove=remove)

    def ask(self, question: str) -> CitedAnswer:
        """Run one investigation, streaming its log, and show the answer."""
        self.question.value = question
        self._log = []
        self.investigation.value = _log_html(["<li><i>investigating…</i></li>"])
        self.result.value = ""
        self.graph.layout.display = "none"
        self.exports.show(None)
        failure: BaseException | None = None
        try:
            answer = self.session.engine().ask(question, listener=self._on_event)
        except ZehnError as e:
            failure = e
            answer = self._failed(question, e)
            kind = escape(type(e).__name__)
            self._entry(f'<li class="zehn-log-error">✕ could not investigate: {kind}</li>')
        except Exception as e:
            self.result.value = error_box(e)
            raise
        self._show(answer, failure)
        self.exports.show(answer)
        self.answer = answer
        self._handlers(answer)
        return answer

    def close(self) -> None:
        """Stop following the session's policy, then close the widgets."""
        if self._following:  # Widget.__del__ closes again
            self._following = False
            self.session.on_policy_change(self._show_policy, remove=True)
        super().close()

    # --- streaming -------------------------------------------------------------------

    def _on_event(self, event: Event) -> None:
        if isinstance(event, ToolCallEvent):
            params = json.dumps(event.params, ensure_ascii=False, default=str)
            if len(params) > _PARAMS_MAX:
                params = params[:_PARAMS_MAX] + "…"
            self._entry(
                f'<li class="zehn-log-call" data-query="{escape(event.query)}" '
                f'data-by="{escape(event.by)}">→ <b>{escape(event.query)}</b> '
                f"<code>{escape(params)}</code> <small>called by {escape(event.by)}</small></li>"
            )
        elif isinstance(event, ToolResultEvent):
            failed = f' — <b style="color:{RED}">error</b>: {escape(event.error)}'
            self._entry(
                f'<li class="zehn-log-result" data-query="{escape(event.query)}" '
                f'data-returned="{event.returned}" data-ms="{event.ms:.1f}">'
                f"← {escape(event.query)}: {event.rows} results, {event.returned} evidence IDs "
                f"in {event.ms:.1f} ms"
                f"{failed if event.error else ''}</li>"
            )
        elif isinstance(event, VerdictEvent):
            reason = f": {escape(event.reason)}" if event.reason else ""
            self._entry(
                f'<li class="zehn-log-verdict" data-status="{escape(event.status)}">'
                f"verdict <b>{escape(event.status)}</b>{reason}</li>"
            )

    def _entry(self, item: str) -> None:
        self._log.append(item)
        self.investigation.value = _log_html(self._log)

    # --- the answer --------------------------------------------------------------------

    def _failed(self, question: str, error: ZehnError) -> CitedAnswer:
        """An error answer for a failure before the engine could answer at all."""
        policy = self.session.policy
        return CitedAnswer(
            question=question.strip(),
            status=ERROR,
            answer=I_DONT_KNOW,
            reason=f"{type(error).__name__}: {error}",
            graph=self.session.graph,
            policy=policy.to_dict(),
            model=self.session.model_name,
            limitations=(policy.badge,) if policy.badge else (),
        )

    def _show(self, answer: CitedAnswer, failure: BaseException | None) -> None:
        parts = [_status_html(answer), _evaluation_badge(answer)]
        if answer.status == ANSWERED:
            parts.append(_answered_html(answer))
        elif answer.status == AMBIGUOUS:
            parts.append(_ambiguous_html(answer))
        else:
            parts.append(_withheld_html(answer, failure))
        parts.append(beyond_html(answer))
        parts.append(related_html(answer, lambda c: _citation_html(c, [])))
        parts.append(_limitations_html(answer.limitations))
        self.result.value = (
            f'<div class="zehn-answer" lang="{_lang(answer.answer, answer.language)}">'
            f"{''.join(parts)}</div>"
        )
        if answer.paths:
            names = {i.id: i.name for i in answer.identities}
            self.graph.show_paths(answer.paths, names, focus=question_entities(answer))
            self.graph.layout.display = None
        else:
            self.graph.show_paths(())

    def _show_policy(self, policy: Policy) -> None:
        self.policy_line.value = badge(policy)

    def _clicked(self) -> None:
        question = self.question.value
        try:
            self.ask(question)
        except Exception:  # shown in the error box by ask(); the kernel log keeps the detail
            _logger.exception("asking %r failed", question)


def _log_html(items: list[str]) -> str:
    return (
        '<details open><summary>Investigation log</summary><ol class="zehn-log" '
        f'style="font-size:90%;margin:2px 0">{"".join(items)}</ol></details>'
    )


def _status_html(answer: CitedAnswer) -> str:
    colour = STATUS_COLOURS.get(answer.status, GREY)
    text = STATUS_TEXT.get(answer.status, answer.status)
    return (
        f'<div class="zehn-status" data-status="{escape(answer.status)}" style="display:inline-'
        f"block;background:{colour};color:white;font-weight:bold;font-size:110%;padding:3px 10px;"
        f'border-radius:4px;margin:6px 0">{escape(text)}</div>'
    )


def _evaluation_badge(answer: CitedAnswer) -> str:
    text = answer.policy.get("badge")
    return f" {evaluation_badge(text)}" if text else ""


def _answered_html(answer: CitedAnswer) -> str:
    numbers = {c.n for c in answer.answer_citations}

    def marker(match: re.Match[str]) -> str:
        n = int(match[1])
        if n not in numbers:
            return match[0]
        return f'<sup class="zehn-marker" data-n="{n}">[{n}]</sup>'

    text = _MARKER.sub(marker, escape(answer.answer))
    if answer.parts:
        text = parts_html(answer, marker)
    spans = _mention_spans(answer)
    citations = "".join(_citation_html(c, spans.get(c.id, [])) for c in answer.answer_citations)
    return (
        f'<div class="zehn-answer-text" style="font-size:110%;margin:6px 0;'
        f'white-space:pre-wrap">{text}</div>'
        f'<ol class="zehn-citations" style="padding-left:22px">{citations}</ol>'
    )


def _citation_html(citation: Citation, spans: list[tuple[int, int] | None]) -> str:
    quote = highlight(citation.quote, citation.span[0], spans)
    stale = _stale_html(citation)
    return (
        f'<li class="zehn-citation" value="{citation.n}" data-n="{citation.n}" '
        f'data-sentence-id="{escape(citation.id)}" style="margin-bottom:6px">'
        f'<blockquote class="zehn-quote" lang="{_lang(citation.quote)}" '
        f'style="margin:2px 0;padding-left:8px;'
        f'border-left:3px solid {GREEN}">{quote}</blockquote>'
        f'<small><span class="zehn-title">{escape(citation.title or citation.document)}</span>'
        f' · <span class="zehn-source-type">{escape(citation.source_type)}</span>'
        f' · <span class="zehn-date">{escape((citation.date or "undated")[:10])}</span>'
        f' · <code class="zehn-sentence-id">{escape(citation.id)}</code>'
        f"{diagram_mark(citation.diagram_line)}{found_by_mark(citation)}{stale}</small></li>"
    )


def _stale_html(citation: Citation) -> str:
    """The "stale" tag, with the superseding sentence (or why it is too old)."""
    if not citation.stale:
        return ""
    if citation.superseded_quote:
        by = escape(citation.superseded_by or "")
        detail = (
            f'superseded by <q class="zehn-superseding-quote">{escape(citation.superseded_quote)}'
            f'</q> <code class="zehn-superseding-id">{by}</code>'
        )
    else:
        detail = escape(citation.stale_reason or "older than the policy allows")
    return (
        f' <span class="zehn-stale" data-superseded-by="{escape(citation.superseded_by or "")}"'
        f' title="{escape(citation.stale_reason or "")}"><b style="color:{AMBER}">stale</b>'
        f" — {detail}</span>"
    )


def _mention_spans(answer: CitedAnswer) -> dict[str, list[tuple[int, int] | None]]:
    """Entity mention spans per sentence, from the graded hops, to mark in the quotes."""
    spans: dict[str, list[tuple[int, int] | None]] = {}
    for path in answer.paths:
        for hop in path.hops:
            for grade in (hop.best, *hop.alternatives):
                found = spans.setdefault(grade.evidence.sentence_id, [])
                found.extend(s for s in (grade.source_span, grade.target_span) if s not in found)
    return spans


def _ambiguous_html(answer: CitedAnswer) -> str:
    items = "".join(
        f'<li class="zehn-identity" data-kind="{escape(i.kind)}" data-id="{escape(i.id)}">'
        f"<b>{escape(i.name)}</b> — {escape(i.kind)} <code>{escape(i.id)}</code>"
        f"<br><small>mentioned in: {_id_list(i.evidence)}</small></li>"
        for i in answer.identities
    )
    if not items:
        items = "<li><i>the engine returned no identities for this name</i></li>"
    return (
        f'<div class="zehn-reason">{escape(answer.reason or "")}</div>'
        f'<ul class="zehn-identities">{items}</ul>'
        "<small>Ask again naming the kind (team, service, customer) or an alias.</small>"
    )


def _reason_chip(code: str) -> str:
    """The abstention's class (``zehn.engine.reasons``), shown before its sentence."""
    if not code:
        return ""
    return (
        '<span class="zehn-reason-class" style="border:1px solid #999;border-radius:3px;'
        f'padding:0 4px;margin-right:4px">{escape(code.replace("_", " "))}</span>'
    )


def _withheld_html(answer: CitedAnswer, failure: BaseException | None) -> str:
    reason = answer.reason or "no reason was given"
    code = str(answer.reason_code or "")
    found = ""
    if answer.paths:
        labels = [p.label for p in answer.paths]
        counts = ", ".join(
            f"{labels.count(label)} {label_chip(label)}" for label in dict.fromkeys(labels)
        )
        found = f"<div><small>paths found: {counts} (drawn below)</small></div>"
    return (
        f'<div class="zehn-idk" style="font-size:130%;font-weight:bold;margin:4px 0">'
        f"{escape(answer.answer or I_DONT_KNOW)}</div>"
        + (error_box(failure) if failure is not None else "")
        + f'<div class="zehn-reason" data-reason="{escape(code)}">'
        f"<b>{_WHY.get(answer.language, 'Why:')}</b> {_reason_chip(code)}"
        f"{escape(reason)}</div>{found}"
        + (parts_html(answer, lambda m: m[0]) if answer.parts else "")
    )


def _lang(text: str, language: str | None = None) -> str:
    """The HTML ``lang`` of a text: Simplified Chinese (for CJK fonts) or English."""
    return "zh-Hans" if (language or detect_language(text)) == ZH else "en"


def _limitations_html(limitations: tuple[str, ...]) -> str:
    if not limitations:
        return ""
    items = "".join(f"<li>{escape(note)}</li>" for note in limitations)
    return (
        '<details class="zehn-limitations-box" open><summary>Limitations</summary>'
        f'<ul class="zehn-limitations" style="font-size:90%">{items}</ul></details>'
    )


def _id_list(ids: Any) -> str:
    listed = ", ".join(f"<code>{escape(i)}</code>" for i in ids)
    return listed or "<i>no sentence</i>"
