"""Exports an analyst can hand on: the answer's graph as a standalone HTML page and the answer
as Markdown with its citations (quote, document, span), written under ``ZEHN_HOME/exports``.

The Markdown quotes sentences from documents nobody here wrote: every piece of it is escaped
for Markdown (a quote cannot become a link, a heading, a table or raw HTML), and the graph
page is the graph view's own self-contained page, escaped as the view escapes it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import ipywidgets as w

from widgets.graph_view import GraphView
from widgets.html import GREEN, error_box, escape
from zehn import CitedAnswer, Settings
from zehn.corpus.model import slugify
from zehn.engine.answer import ANSWERED

EXPORTS = "exports"  # under ZEHN_HOME
_INLINE = re.compile(r"([\\`*_\[\]|~])")  # emphasis, code, links, tables, strike-through
_LINE_START = re.compile(r"^(\s*)(?:([#>=+-])|(\d+)([.)]))")  # headings, quotes, rules, lists
_MARKER = re.compile(r"\\\[(\d+)\\\]")


def exports_dir(settings: Settings) -> Path:
    """``ZEHN_HOME/exports``, made on first use."""
    folder = Path(settings.home) / EXPORTS
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def md(text: object) -> str:
    """Text safe in Markdown, on one line: ``&``, ``<``, ``>`` as HTML entities (no raw HTML),
    inline punctuation backslash-escaped, and nothing at its start read as block syntax."""
    flat = html.escape(" ".join(str(text).split()), quote=False)
    return _LINE_START.sub(_escape_start, _INLINE.sub(r"\\\1", flat))


def _escape_start(match: re.Match[str]) -> str:
    space, symbol, number, dot = match.groups()
    return f"{space}\\{symbol}" if symbol else f"{space}{number}\\{dot}"


def answer_markdown(answer: CitedAnswer) -> str:
    """The answer as Markdown: question, status, the text with its [n] markers, each citation
    with its quote, document, source type, date and span, then the limitations."""
    lines = [
        f"# {md(answer.question)}",
        "",
        f"**Status:** {md(answer.status)} · graph `{_code(answer.graph)}` · "
        f"policy `{_code(answer.policy.get('name', ''))}` · model `{_code(answer.model)}`",
        "",
    ]
    body = [_body_line(line) for line in answer.answer.splitlines() if line.strip()] or ["—"]
    lines += [_MARKER.sub(r"[\1]", line) for line in body]  # keep [n] as plain markers
    if answer.status != ANSWERED and answer.reason:
        lines += ["", f"**Why:** {md(answer.reason)}"]
    if answer.citations:
        lines += ["", "## Citations", ""]
        for c in answer.citations:
            role = " (related context, not the answer)" if c.role == "related" else ""
            lines += [
                f"{c.n}. > {md(c.quote)}",
                "",
                f"   — {md(c.title or c.document)} · {md(c.source_type)} · "
                f"{md((c.date or 'undated')[:10])} · document `{_code(c.document)}` · "
                f"span {c.span[0]}–{c.span[1]} · sentence `{_code(c.id)}`{md(role)}",
                "",
            ]
    if answer.limitations:
        lines += ["## Limitations", ""] + [f"- {md(note)}" for note in answer.limitations]
    return "\n".join(lines).rstrip() + "\n"


def write_export(settings: Settings, stem: str, suffix: str, text: str) -> Path:
    """Write ``text`` to a new file under the exports folder; never overwrites one."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{slugify(stem, 48)}"
    folder = exports_dir(settings)
    path = folder / f"{base}{suffix}"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{base}-{n}{suffix}"
    path.write_text(text, encoding="utf-8")
    return path


class ExportBar(w.HBox):
    """Two buttons under an answer, each enabled only when there is something to export, and
    the path of the file the last one wrote."""

    def __init__(self, settings: Settings, graph: GraphView) -> None:
        self.settings = settings
        self.graph = graph
        self.answer: CitedAnswer | None = None
        self.graph_button = w.Button(
            description="Export graph (HTML)", icon="download", disabled=True
        )
        self.answer_button = w.Button(
            description="Export answer (Markdown)", icon="download", disabled=True
        )
        for button in (self.graph_button, self.answer_button):
            button.layout.width = "auto"
        self.path = w.HTML()
        self.graph_button.add_class("zehn-export-graph")
        self.answer_button.add_class("zehn-export-answer")
        self.path.add_class("zehn-export-path")
        self.graph_button.on_click(lambda _: self._guarded(self.export_graph))
        self.answer_button.on_click(lambda _: self._guarded(self.export_answer))
        super().__init__([self.graph_button, self.answer_button, self.path])
        self.layout.display = "none"  # until there is an answer

    def show(self, answer: CitedAnswer | None) -> None:
        """A new answer: the graph can be exported if it has paths, the answer always."""
        self.answer = answer
        self.path.value = ""
        self.layout.display = "none" if answer is None else None
        self.answer_button.disabled = answer is None
        self.graph_button.disabled = answer is None or not answer.paths

    def export_graph(self) -> Path:
        if self.answer is None or not self.answer.paths:
            raise ValueError("there is no graph to export")
        title = f"{self.answer.question} — {self.answer.graph}"
        path = write_export(self.settings, self.answer.question, ".html", self.graph.to_html(title))
        self._written(path)
        return path

    def export_answer(self) -> Path:
        if self.answer is None:
            raise ValueError("there is no answer to export")
        text = answer_markdown(self.answer)
        path = write_export(self.settings, self.answer.question, ".md", text)
        self._written(path)
        return path

    def _written(self, path: Path) -> None:
        self.path.value = (
            f'<span style="color:{GREEN}">written</span> '
            f'<code class="zehn-export-file">{escape(path)}</code>'
        )

    def _guarded(self, action: Callable[[], object]) -> None:
        """A file that cannot be written is shown in a red box, never a traceback."""
        try:
            action()
        except (OSError, ValueError) as e:
            self.path.value = error_box(e)


def _body_line(line: str) -> str:
    """A line of the answer text; the engine's own "- " list items stay list items."""
    if line.lstrip().startswith("- "):
        return "- " + md(line.lstrip()[2:])
    return md(line)


def _code(text: object) -> str:
    """Text inside a Markdown code span: no backticks, no line breaks."""
    return " ".join(str(text).replace("`", "'").split())
