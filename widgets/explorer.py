"""Entity explorer: find entities by name, then see their direct edges and their mentions.

Every frame shown is also returned (``search``, ``neighbours``, ``mentions``) so a
notebook or a test works with exactly what the analyst saw. Retrieval goes only
through whitelisted named queries under the session's active policy; every cell is
escaped by ``DataFrame.to_html(escape=True)``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import ipywidgets as w
import pandas as pd
import traitlets

from widgets.hooks import Callbacks, quietly
from widgets.html import badge, error_box, escape
from widgets.session import Session
from zehn import Policy

SEARCH_COLUMNS = ["id", "name", "kind", "aliases"]
NEIGHBOUR_COLUMNS = ["source", "rel_type", "target", "label", "reason", "sentence_id", "sentence"]
MENTION_COLUMNS = ["sentence_id", "text", "document", "title", "source_type", "date"]
MENTION_LIMIT = 20
_NO_CHOICE = ("— search, then choose —", "")
SelectCallback = Callable[[str], None]


def _table(frame: pd.DataFrame, empty: str) -> str:
    if frame.empty:
        return f"<i>{escape(empty)}</i>"
    return frame.to_html(escape=True, index=False, classes="zehn-table", border=0)


class Explorer(w.VBox):
    """Search box, result table, entity picker, neighbours table and mentions table."""

    entity_id = traitlets.Unicode(None, allow_none=True, help="the selected entity, if any")

    def __init__(self, session: Session) -> None:
        self.session = session
        self._busy = False
        self._callbacks: Callbacks[SelectCallback] = Callbacks()
        self.query = w.Text(
            continuous_update=False, placeholder="text naming entities, e.g. Redwood Inference"
        )
        self.search_button = w.Button(description="Search", icon="search")
        self.picker = w.Dropdown(options=[_NO_CHOICE], description="Entity")
        self.policy_line = w.HTML()
        self.results = w.HTML()
        self.neighbour_view = w.HTML()
        self.mention_view = w.HTML()
        self.query.observe(lambda _: self._search_clicked(), names="value")
        self.search_button.on_click(lambda _: self._search_clicked())
        self.picker.observe(self._picked, names="value")
        session.on_policy_change(self._policy_changed)
        session.observe(self._graph_changed, names="graph")
        self._show_policy(session.policy)
        super().__init__(
            [
                self.policy_line,
                w.HBox([self.query, self.search_button]),
                self.results,
                self.picker,
                w.HTML("<h4>Neighbours</h4>"),
                self.neighbour_view,
                w.HTML("<h4>Mentions</h4>"),
                self.mention_view,
            ]
        )

    # --- public ---------------------------------------------------------------------

    def search(self, text: str) -> pd.DataFrame:
        """Entities named in ``text`` (``find_entities``) or resolving from it (``resolve_entity``).

        Displays and returns one row per entity: id, name, kind, aliases (comma-joined).
        Errors are displayed, then raised: an error must never look like "no match".
        """
        try:
            executor = self.session.tools()
            rows = list(executor.run("find_entities", {"text": text}).rows)
            if 0 < len(text.strip()) <= 200:
                rows += executor.run("resolve_entity", {"name": text.strip()}).rows
        except Exception as e:
            self.results.value = error_box(e)
            raise
        found: dict[str, dict[str, Any]] = {}
        for row in rows:
            entry = found.setdefault(
                str(row["id"]), {"id": str(row["id"]), "name": row["name"], "kind": row["kind"]}
            )
            entry.setdefault("aliases", ", ".join(str(a) for a in row.get("aliases") or ()))
        ordered = [found[i] for i in sorted(found)]
        frame = pd.DataFrame(ordered, columns=SEARCH_COLUMNS)
        self.results.value = _table(frame, f"No entity is named in {text!r}.")
        with quietly(self):
            self.picker.options = [
                _NO_CHOICE,
                *((f"{r.name} ({r.kind})", str(r.id)) for r in frame.itertuples()),
            ]
            self.picker.value = ""
        return frame

    def neighbours(self, entity_id: str) -> pd.DataFrame:
        """Direct edges of ``entity_id`` over the active policy's traversable predicates, graded."""
        policy = self.session.policy
        try:
            outcome = self.session.tools().run("neighbours", {"entity_id": entity_id})
        except Exception as e:
            self.neighbour_view.value = error_box(e)
            raise
        rows = [
            {
                "source": hop.source,
                "rel_type": hop.rel_type,
                "target": hop.target,
                "label": hop.label,
                "reason": hop.best.reason,
                "sentence_id": hop.best.evidence.sentence_id,
                "sentence": hop.best.evidence.text,
            }
            for path in outcome.paths
            for hop in path.hops
        ]
        frame = pd.DataFrame(rows, columns=NEIGHBOUR_COLUMNS)
        frame = frame.drop_duplicates(["source", "rel_type", "target"])
        frame = frame.sort_values(["rel_type", "source", "target"]).reset_index(drop=True)
        blocked = ", ".join(policy.blocked())
        note = (
            f"<small>Edges over the predicates policy <b>{escape(policy.name)}</b> walks"
            f"{f' (not walked: {escape(blocked)})' if blocked else ''}; "
            "⚠ inferred-assumption means the sentence names both but does not state the edge."
            "</small>"
        )
        self.neighbour_view.value = note + _table(
            frame, f"{entity_id} has no edges under policy {policy.name}."
        )
        return frame

    def mentions(self, entity_id: str, limit: int = MENTION_LIMIT) -> pd.DataFrame:
        """Sentences that mention ``entity_id`` unambiguously, with their documents."""
        try:
            outcome = self.session.tools().run("mentions", {"entity_id": entity_id, "limit": limit})
        except Exception as e:
            self.mention_view.value = error_box(e)
            raise
        frame = pd.DataFrame(
            [
                {**{c: row.get(c) for c in MENTION_COLUMNS}, "date": (row.get("date") or "")[:10]}
                for row in outcome.rows
            ],
            columns=MENTION_COLUMNS,
        )
        self.mention_view.value = _table(frame, f"No sentence mentions {entity_id}.")
        return frame

    def select(self, entity_id: str) -> None:
        """Show neighbours and mentions of ``entity_id``; errors are displayed, not raised."""
        with quietly(self):
            self.entity_id = entity_id
            if entity_id not in [v for _, v in self.picker.options]:
                self.picker.options = [*self.picker.options, (entity_id, entity_id)]
            self.picker.value = entity_id
        for show in (self.neighbours, self.mentions):
            with contextlib.suppress(Exception):  # already shown in the view
                show(entity_id)
        self._callbacks.fire(entity_id)

    def on_select(self, callback: SelectCallback, remove: bool = False) -> None:
        """Call ``callback(entity_id)`` whenever an entity is selected."""
        self._callbacks.register(callback, remove)

    def close(self) -> None:
        """Stop observing the session, then close the widget."""
        self.session.on_policy_change(self._policy_changed, remove=True)
        self.session.unobserve(self._graph_changed, names="graph")
        super().close()

    # --- internals ------------------------------------------------------------------

    def _search_clicked(self) -> None:
        if not self.query.value.strip():
            return
        with contextlib.suppress(Exception):  # already shown in the view
            self.search(self.query.value)

    def _picked(self, change: dict[str, Any]) -> None:
        if not self._busy and change["new"]:
            self.select(str(change["new"]))

    def _policy_changed(self, policy: Policy) -> None:
        self._show_policy(policy)
        if self.entity_id:
            with contextlib.suppress(Exception):  # already shown in the view
                self.neighbours(self.entity_id)

    def _graph_changed(self, change: dict[str, Any]) -> None:
        self.results.value = ""
        with quietly(self):
            self.picker.options = [_NO_CHOICE]
            self.picker.value = ""
        if self.entity_id:  # ids come from the catalog, so they usually carry over
            self.select(self.entity_id)

    def _show_policy(self, policy: Policy) -> None:
        self.policy_line.value = f'<div class="zehn-explorer-policy">{badge(policy)}</div>'
