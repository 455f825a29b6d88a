"""History view: past investigations, newest first, each reopened as it was answered.

Reopening shows the stored contract (status, answer, numbered verbatim
citations), not a re-run: today's graph may have changed since. An answer
that cannot be saved (the server is down) is kept in the view and saved, with
the time it was asked, as soon as a save or a refresh reaches the server again.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import ipywidgets as w

from widgets.html import CELL, RED, STATUS_COLOURS, chip, diagram_mark, error_box, escape
from widgets.session import Session
from zehn import CitedAnswer, ZehnError
from zehn.review.history import WORKBENCH_GRAPH, History, HistoryEntry


class HistoryView(w.VBox):
    """A table of investigations, a reopen control, and the reopened answer."""

    def __init__(self, session: Session, *, limit: int = 50, graph: str = WORKBENCH_GRAPH) -> None:
        self.session = session
        self.limit = limit
        self.graph = graph
        self._history: History | None = None
        self._pending: list[tuple[CitedAnswer, datetime]] = []
        self.note = w.HTML()
        self.table = w.HTML()
        self.choice = w.Dropdown(options=[], description="Investigation")
        self.reopen_button = w.Button(description="Reopen", icon="folder-open")
        self.refresh_button = w.Button(description="Refresh", icon="refresh")
        self.detail = w.HTML()
        self.reopen_button.on_click(lambda _: self._reopen_chosen())
        self.refresh_button.on_click(lambda _: self.refresh())
        controls = w.HBox([self.choice, self.reopen_button, self.refresh_button])
        super().__init__([self.note, self.table, controls, self.detail])
        self.refresh()

    @property
    def history(self) -> History:
        if self._history is None:
            self._history = History(self.session.client, self.graph)
        return self._history

    @property
    def pending(self) -> int:
        """Answers waiting to be saved (the server was unreachable when they were given)."""
        return len(self._pending)

    def record(self, answer: CitedAnswer) -> str | None:
        """Save one answer (wired to the ask view); a failed save is shown, never raised.

        The answer is not dropped: it waits in the view and is saved by the next
        save or refresh that reaches the server.
        """
        self._pending.append((answer, datetime.now(UTC)))
        saved = self._save_pending()
        if self._pending:
            return None
        self.refresh()
        if saved and saved[-1] in [value for _, value in self.choice.options]:
            self.choice.value = saved[-1]  # the answer just given is the one to reopen
        return saved[-1] if saved else None

    def _save_pending(self) -> list[str]:
        """Save waiting answers oldest first; stop (and say so) at the first failure."""
        saved: list[str] = []
        while self._pending:
            answer, asked_at = self._pending[0]
            try:
                saved.append(self.history.save(answer, asked_at=asked_at))
            except ZehnError as e:
                self.note.value = self._pending_note() + error_box(e) + self._where()
                break
            self._pending.pop(0)
        return saved

    def _pending_note(self) -> str:
        if not self._pending:
            return ""
        return (
            f'<p class="zehn-history-pending"><b>{len(self._pending)} answer(s) not saved '
            "yet</b>: kept here, saved when the server answers again.</p>"
        )

    def refresh(self) -> None:
        """Re-read the list from the graph (saving any answer still waiting first)."""
        if self._pending:
            self._save_pending()
        try:
            entries = self.history.list(self.limit)
        except ZehnError as e:
            self.note.value = self._pending_note() + error_box(e)
            self.table.value = ""
            self.choice.options = []
            return
        self.note.value = self._where()
        self.table.value = entries_table(entries)
        chosen = self.choice.value
        self.choice.options = [(_option(e), e.id) for e in entries]
        ids = [e.id for e in entries]
        # New options leave the value None while the page shows the first entry: Reopen
        # would then do nothing. Keep the reader's choice, else the newest investigation.
        self.choice.value = chosen if chosen in ids else (ids[0] if ids else None)
        self.reopen_button.disabled = not entries

    def reopen(self, investigation_id: str) -> None:
        """Show the stored answer of one investigation."""
        try:
            contract = self.history.load(investigation_id)
        except ZehnError as e:
            self.detail.value = error_box(e)
            return
        self.detail.value = answer_html(contract, investigation_id)

    def _reopen_chosen(self) -> None:
        if self.choice.value:
            self.reopen(str(self.choice.value))

    def _where(self) -> str:
        """Where the history lives, and only the durability the code actually provides."""
        try:
            client = self.session.client
        except ZehnError:
            return ""
        location = escape(client.location)
        graph = f"<code>{escape(self.graph)}</code>"
        if client.server is not None:
            durability = "they survive restarts of the server."
        else:
            durability = "whether they survive a restart depends on that server's persistence."
        return (
            f'<p class="zehn-history-note"><small>Investigations are stored in the graph '
            f"{graph} on {location}; {durability}</small></p>"
        )


def _option(entry: HistoryEntry) -> str:
    question = entry.question if len(entry.question) <= 60 else entry.question[:59] + "…"
    return f"{entry.asked_at[:19].replace('T', ' ')} · {entry.status} · {question}"


def _status(status: str) -> str:
    return chip("zehn-status", "status", status, status, STATUS_COLOURS)


def entries_table(entries: list[HistoryEntry]) -> str:
    """The history list as an HTML table (every value escaped)."""
    if not entries:
        return '<p class="zehn-history-empty"><i>No investigations saved yet.</i></p>'
    head = "".join(
        f"<th {CELL}>{h}</th>"
        for h in ("asked at (UTC)", "question", "status", "graph", "policy", "id")
    )
    rows = "".join(
        "<tr>"
        f"<td {CELL}>{escape(e.asked_at[:19].replace('T', ' '))}</td>"
        f"<td {CELL}>{escape(e.question)}</td>"
        f"<td {CELL}>{_status(e.status)}</td>"
        f"<td {CELL}>{escape(e.graph)}</td>"
        f"<td {CELL}>{escape(e.policy)}</td>"
        f"<td {CELL}><code>{escape(e.id)}</code></td>"
        "</tr>"
        for e in entries
    )
    return f'<table class="zehn-history"><tr>{head}</tr>{rows}</table>'


def answer_html(contract: dict[str, Any], investigation_id: str = "") -> str:
    """A stored answer contract: status, answer text, numbered verbatim citations."""
    policy = contract.get("policy") or {}
    policy_name = policy.get("name", "") if isinstance(policy, dict) else policy
    reason = contract.get("reason")
    parts = [
        f'<div class="zehn-reopened" data-id="{escape(investigation_id)}">',
        f"<p><b>{escape(contract.get('question', ''))}</b><br>",
        f"{_status(str(contract.get('status', '')))} · graph {escape(contract.get('graph', ''))}"
        f" · policy {escape(policy_name)} · model {escape(contract.get('model', ''))}</p>",
        '<div class="zehn-answer" style="white-space:pre-wrap">'
        f"{escape(contract.get('answer', ''))}</div>",
    ]
    if reason:
        parts.append(f'<p class="zehn-reason"><small>reason: {escape(reason)}</small></p>')
    citations = contract.get("citations") or []
    if citations:
        items = "".join(
            f'<li value="{int(c.get("n", i))}" data-id="{escape(c.get("id", ""))}">'
            f"<q>{escape(c.get('quote', ''))}</q><br><small>{escape(c.get('title', ''))}"
            f" ({escape(c.get('source_type', ''))}"
            f"{', ' + escape(str(c.get('date'))[:10]) if c.get('date') else ''})"
            f" · <code>{escape(c.get('id', ''))}</code>"
            f"{diagram_mark(bool(c.get('diagram_line')))}{_stale(c)}</small></li>"
            for i, c in enumerate(citations, start=1)
        )
        parts.append(f'<ol class="zehn-citations">{items}</ol>')
    limitations = contract.get("limitations") or []
    if limitations:
        notes = "".join(f"<li>{escape(x)}</li>" for x in limitations)
        parts.append(f"<details><summary>limitations</summary><ul>{notes}</ul></details>")
    parts.append("</div>")
    return "".join(parts)


def _stale(citation: dict[str, Any]) -> str:
    """The stale mark, with what superseded the sentence when we know it."""
    if not citation.get("stale"):
        return ""
    quote = citation.get("superseded_quote")
    because = (
        f"superseded by <q>{escape(quote)}</q>"
        if quote
        else escape(citation.get("stale_reason") or "")
    )
    return f' · <span class="zehn-stale" style="color:{RED}">stale: {because}</span>'
