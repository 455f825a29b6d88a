"""Audit view: a reviewer labels sampled edges one at a time; statistics follow the labels.

Each edge shows its sentence with both mentions highlighted, the document,
subject → predicate → object with kinds, and the extractor's ``fact`` under
"extractor's wording (not a quote)": only the sentence is a quote. Labels are
saved in the workbench graph as they are given, so closing the notebook
loses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from widgets.hooks import Callbacks
from widgets.html import (
    AUDIT_COLOURS,
    CELL,
    chip,
    diagram_mark,
    error_box,
    escape,
    highlight,
    label_chip,
)
from widgets.session import Session
from zehn import AuditStore, ZehnError, audit_stats
from zehn.evidence.grade import INFERRED, INSUFFICIENT, SUPPORTED
from zehn.reading.diagrams.reader import is_diagram_edge
from zehn.review.audit import LABEL_TITLES, LABELS, AuditError, AuditItem, AuditLabel
from zehn.review.history import WORKBENCH_GRAPH
from zehn.review.stats import AuditStats, Share, StrategyStats, sample_edges


class AuditView(w.VBox):
    """The sample of ``session.graph``, one edge at a time, with label controls and statistics."""

    def __init__(
        self,
        session: Session,
        reviewer: str = "",
        n: int = 30,
        seed: int = 0,
        *,
        workbench: str = WORKBENCH_GRAPH,
    ) -> None:
        self.session = session
        self.workbench = workbench
        self._store: AuditStore | None = None
        self._on_label: Callbacks[Callable[[AuditLabel], None]] = Callbacks()
        self.items: list[AuditItem] = []
        self.position = 0
        self._labels: dict[str, AuditLabel] = {}
        self.header = w.HTML()
        self.card = w.HTML()
        self.message = w.HTML()
        self.choice = w.ToggleButtons(
            options=[(LABEL_TITLES[code], code) for code in LABELS], value="correct"
        )
        self.note = w.Text(description="Note", placeholder="optional")
        self.reviewer = w.Text(value=reviewer, description="Reviewer", placeholder="your name")
        self.save_button = w.Button(description="Save", icon="check", button_style="primary")
        self.previous_button = w.Button(description="Previous", icon="arrow-left")
        self.next_button = w.Button(description="Next", icon="arrow-right")
        self.size = w.BoundedIntText(value=n, min=1, max=100_000, description="Sample size")
        self.seed = w.IntText(value=seed, description="Seed")
        self.draw_button = w.Button(description="Draw sample", icon="random")
        self.stats_panel = w.HTML()
        self.stats_button = w.Button(description="Refresh statistics", icon="refresh")
        self.csv_path = w.Text(description="CSV file", placeholder="audit_labels.csv")
        self.export_button = w.Button(description="Export CSV", icon="download")
        self.import_button = w.Button(description="Import CSV", icon="upload")
        self.csv_message = w.HTML()
        self.save_button.on_click(lambda _: self._save())
        self.previous_button.on_click(lambda _: self.previous())
        self.next_button.on_click(lambda _: self.next())
        self.draw_button.on_click(lambda _: self.draw(int(self.size.value), int(self.seed.value)))
        self.stats_button.on_click(lambda _: self.stats())
        self.export_button.on_click(lambda _: self.export_csv(str(self.csv_path.value)))
        self.import_button.on_click(lambda _: self.import_csv(str(self.csv_path.value)))
        super().__init__(
            [
                w.HBox([self.size, self.seed, self.draw_button]),
                self.header,
                self.card,
                self.choice,
                w.HBox([self.note, self.reviewer]),
                w.HBox([self.previous_button, self.save_button, self.next_button]),
                self.message,
                w.HTML("<h4>Statistics</h4>"),
                self.stats_button,
                self.stats_panel,
                w.HBox([self.csv_path, self.export_button, self.import_button]),
                self.csv_message,
            ]
        )
        session.observe(self._graph_changed, names="graph")
        self.draw(n, seed)

    @property
    def store(self) -> AuditStore:
        client = self.session.client
        if self._store is None or self._store.client is not client:
            self._store = AuditStore(client, self.workbench)
        return self._store

    @property
    def current(self) -> AuditItem | None:
        """The edge on show (None when the sample is empty)."""
        return self.items[self.position] if self.items else None

    def draw(self, n: int, seed: int = 0) -> None:
        """Draw a new sample of ``session.graph`` and show its first edge."""
        self.size.value, self.seed.value = n, seed
        try:
            self.items = sample_edges(self.session.client, self.session.graph, n, seed)
            self._labels = {x.edge_key: x for x in self.store.labels(self.session.graph)}
        except ZehnError as e:
            self.items, self.position = [], 0
            self.message.value = error_box(e)
            self._show()
            return
        self.position = 0
        self.message.value = ""
        self._show()
        self.stats()

    def record(self, label: str, note: str = "") -> AuditLabel | None:
        """Save ``label`` for the current edge under the reviewer's name; errors are shown."""
        item = self.current
        if item is None:
            self.message.value = error_box(AuditError("no edge to label: the sample is empty"))
            return None
        try:
            saved = self.store.label(item, label=label, reviewer=self.reviewer.value, note=note)
        except ZehnError as e:
            self.message.value = error_box(e)
            return None
        self._labels[item.key] = saved
        self.message.value = (
            f'<p class="zehn-audit-saved">saved: {label_chip_audit(saved.label)} '
            f"by {escape(saved.reviewer)}</p>"
        )
        self._show()
        self.stats()
        self._on_label.fire(saved)
        return saved

    def on_label(self, callback: Callable[[AuditLabel], None], remove: bool = False) -> None:
        """Call ``callback(saved_label)`` after every saved label."""
        self._on_label.register(callback, remove)

    def next(self) -> None:
        if self.items:
            self.position = min(self.position + 1, len(self.items) - 1)
        self._show()

    def previous(self) -> None:
        if self.items:
            self.position = max(self.position - 1, 0)
        self._show()

    def stats(self) -> AuditStats | None:
        """Re-compute the statistics of ``session.graph`` and show them."""
        try:
            result = audit_stats(self.session.client, self.session.graph, self.store)
        except ZehnError as e:
            self.stats_panel.value = error_box(e)
            return None
        self.stats_panel.value = stats_html(result)
        return result

    def export_csv(self, path: str) -> None:
        try:
            rows = self.store.export_csv(path, self.session.graph)
        except ZehnError as e:
            self.csv_message.value = error_box(e)
            return
        self.csv_message.value = f"<p>exported {rows} label(s) to <code>{escape(path)}</code></p>"

    def import_csv(self, path: str) -> None:
        try:
            report = self.store.import_csv(path)
            self._labels = {x.edge_key: x for x in self.store.labels(self.session.graph)}
        except ZehnError as e:
            self.csv_message.value = error_box(e)
            return
        graphs = ", ".join(f"{escape(g)}: {c}" for g, c in sorted(report.graphs.items()))
        self.csv_message.value = (
            f"<p>imported {report.written} label(s) from <code>{escape(path)}</code>"
            f"{' (' + graphs + ')' if graphs else ''}</p>"
        )
        self._show()
        self.stats()

    def _save(self) -> None:
        if self.record(str(self.choice.value), str(self.note.value)) is not None:
            self.note.value = ""
            self.next()

    def _graph_changed(self, change: dict[str, Any]) -> None:
        self.draw(int(self.size.value), int(self.seed.value))

    def _show(self) -> None:
        item = self.current
        for button in (self.save_button, self.previous_button, self.next_button):
            button.disabled = item is None
        if item is None:
            self.header.value = f"<p><b>{escape(self.session.graph)}</b>: no edges to audit</p>"
            self.card.value = ""
            return
        done = sum(1 for x in self.items if x.key in self._labels)
        self.header.value = (
            f'<p class="zehn-audit-position"><b>{escape(item.graph)}</b> · edge '
            f"{self.position + 1} of {len(self.items)} · {done} labelled · seed "
            f"{int(self.seed.value)}, stratified by strategy × predicate</p>"
        )
        saved = self._labels.get(item.key)
        self.card.value = item_html(item, saved)
        if saved is not None:
            self.choice.value = saved.label


def label_chip_audit(label: str) -> str:
    return chip("zehn-audit-label", "label", label, LABEL_TITLES.get(label, label), AUDIT_COLOURS)


def item_html(item: AuditItem, saved: AuditLabel | None = None) -> str:
    """One edge as the reviewer sees it; every value escaped."""
    sentence = (
        highlight(item.text, item.sentence_start, [item.subject_span, item.object_span])
        if item.text
        else "<i>(the sentence is not stored in this graph)</i>"
    )
    date = f", {escape(item.date[:10])}" if item.date else ""
    flags = [flag for flag, on in (("negated", item.negated), ("hedged", item.hedged)) if on]
    current = (
        f"{label_chip_audit(saved.label)} by {escape(saved.reviewer)}"
        f" ({escape(saved.labelled_at[:19])})"
        + (f" · note: {escape(saved.note)}" if saved.note else "")
        if saved
        else "<i>not labelled yet</i>"
    )
    return (
        f'<div class="zehn-audit-item" data-key="{escape(item.key)}">'
        f'<blockquote class="zehn-audit-sentence">{sentence}</blockquote>'
        f'<p class="zehn-audit-document"><small>{escape(item.title or item.doc_id)} '
        f"({escape(item.source_type)}{date}) · <code>{escape(item.sentence_id)}</code>"
        f"{diagram_mark(is_diagram_edge(item.text))}</small></p>"
        f'<p class="zehn-audit-edge"><b>{escape(item.subject_name)}</b> '
        f"<small>({escape(item.subject_kind)})</small> → <code>{escape(item.rel_type)}</code> → "
        f"<b>{escape(item.object_name)}</b> <small>({escape(item.object_kind)})</small>"
        f"{' · extractor flagged: ' + ', '.join(flags) if flags else ''}"
        f" · strategy {escape(item.strategy)}</p>"
        f"<h5 style='margin:4px 0'>extractor's wording (not a quote)</h5>"
        f'<p class="zehn-audit-fact" style="color:#57606a">'
        f"<i>{escape(item.fact or '(none)')}</i></p>"
        f'<p class="zehn-audit-current">current label: {current}</p></div>'
    )


def _share(share: Share) -> str:
    if not share.n:
        return f"{share.k} of 0"
    low, high = share.interval
    return f"{share.k} of {share.n} · {share.k / share.n:.0%} (95% CI {low:.0%}–{high:.0%})"


def _strategy_html(stats: StrategyStats) -> str:
    rows = "".join(
        f"<tr><td {CELL}>{label_chip_audit(label)}</td>"
        f"<td {CELL}>{escape(_share(stats.share(label)))}</td></tr>"
        for label in LABELS
    )
    grades = (SUPPORTED, INFERRED, INSUFFICIENT)
    head = "".join(f"<th {CELL}>{escape(LABEL_TITLES[x])}</th>" for x in LABELS)
    confusion = "".join(
        f"<tr><td {CELL}>{label_chip(g)}</td>"
        + "".join(f"<td {CELL}>{stats.confusion.get((g, x), 0)}</td>" for x in LABELS)
        + "</tr>"
        for g in grades
    )
    return (
        f'<div class="zehn-audit-stats" data-strategy="{escape(stats.strategy)}">'
        f"<h5>strategy {escape(stats.strategy)}: {stats.labelled} labelled, "
        f"{stats.judged} judged, {stats.unsure} unsure, {stats.stale} stale</h5>"
        f"<table>{rows}</table>"
        f"<p>wrong in any way: {escape(_share(stats.errors))}<br>"
        f"bound to the wrong entity: {escape(_share(stats.wrong_entity))}<br>"
        f"grader agrees with reviewers (supported ⇔ correct): "
        f'<span class="zehn-audit-agreement">{escape(_share(stats.agreement))}</span></p>'
        f"<details><summary>grader × reviewer</summary><table><tr><th {CELL}>grader</th>"
        f"{head}</tr>{confusion}</table></details></div>"
    )


def stats_html(stats: AuditStats) -> str:
    """Per strategy: counts, shares with Wilson intervals, grader agreement, stale labels."""
    if not stats.strategies:
        return f"<p><i>graph {escape(stats.graph)} is unaudited: no labels yet.</i></p>"
    parts = [_strategy_html(s) for s in stats.strategies.values()]
    if stats.stale_keys:
        parts.append(
            f'<p class="zehn-audit-stale">{len(stats.stale_keys)} stale label(s): their edges '
            "are no longer in the graph and are not counted.</p>"
        )
    return "".join(parts)
