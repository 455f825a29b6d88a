"""Observatory: an "API" panel and a "Graph" panel, each with its own failure state.

The panels are filled independently, so a dead FalkorDB turns only the graph
panel red while the API panel still reports its own facts.
"""

from __future__ import annotations

import ipywidgets as w

from widgets.html import AMBER, BORDER, GREEN, GREY, RED, error_box, escape
from widgets.session import Session
from zehn import GraphClient, ZehnError
from zehn.review.observatory import ApiHealth, GraphHealth, api_health, graph_health

OK, WARN, FAIL, NEUTRAL = GREEN, AMBER, RED, GREY


class Observatory(w.VBox):
    """Two health panels and a Refresh button; ``refresh()`` re-reads both."""

    def __init__(self, session: Session, *, api_timeout_s: float = 5) -> None:
        self.session = session
        self.api_timeout_s = api_timeout_s
        self.api_panel = w.HTML()
        self.graph_panel = w.HTML()
        self.refresh_button = w.Button(description="Refresh", icon="refresh")
        self.refresh_button.on_click(lambda _: self.refresh())
        panels = w.HBox([self.api_panel, self.graph_panel])
        super().__init__([self.refresh_button, panels])
        self.refresh()

    def refresh(self) -> None:
        """Check the API and the graph store, each on its own."""
        try:
            self.api_panel.value = api_panel(api_health(self.session.settings, self.api_timeout_s))
        except Exception as e:  # a bug in one panel must not blank the other
            self.api_panel.value = _panel("API", FAIL, error_box(e))
        try:
            health = graph_health(self.session.settings, self.session.graph, self._client())
            self.graph_panel.value = graph_panel(health)
        except Exception as e:
            self.graph_panel.value = _panel("Graph", FAIL, error_box(e))

    def _client(self) -> GraphClient | None:
        """The session's connection if it can be had; otherwise the check reports why not."""
        try:
            return self.session.client
        except ZehnError:
            return None


def _panel(title: str, colour: str, body: str, state: str = "") -> str:
    return (
        f'<div class="zehn-panel" data-panel="{escape(title.lower())}" '
        f'data-state="{escape(state)}" style="border:1px solid {BORDER};'
        f'border-top:4px solid {colour};padding:6px 12px;margin:4px;min-width:320px">'
        f"<h4 style='margin:4px 0'>{escape(title)}</h4>{body}</div>"
    )


def _line(label: str, value: object) -> str:
    return f"<div><small>{escape(label)}:</small> {escape(value)}</div>"


def _failure(text: str) -> str:
    return f'<div class="zehn-failure" style="color:{FAIL};font-weight:bold">{escape(text)}</div>'


def api_panel(health: ApiHealth) -> str:
    """The model endpoint's facts; its failure is red, "offline model in use" is not."""
    lines = [_line("model in use", health.model_in_use)]
    lines += [f"<div><b>{escape(note)}</b></div>" for note in health.notes]
    if not health.configured:
        lines.append(_line("endpoint", f"not configured (set {', '.join(health.missing)})"))
    else:
        lines.append(_line("endpoint", f"{health.base_url} · model {health.model}"))
    if health.reachable:
        latency = f"{health.latency_ms:.0f} ms" if health.latency_ms is not None else "?"
        lines.append(_line("reachable", f"yes · HTTP {health.status} · {latency}"))
        if health.models:
            lines.append(_line("models listed", ", ".join(health.models[:10])))
    elif health.reachable is False:
        lines.append(_line("reachable", "no"))
    if health.error:
        lines.append(_failure(health.error))
        colour, state = FAIL, "failed"
    elif not health.configured:
        colour, state = NEUTRAL, "not configured"
    else:
        colour, state = OK, "ok"
    return _panel("API", colour, "".join(lines), state)


def graph_panel(health: GraphHealth) -> str:
    """The store's facts and the chosen graph's evidence quality, or why they are missing."""
    lines = [_line("location", health.location)]
    if not health.reachable:
        lines.append(_failure(f"server unreachable: {health.error or 'no answer'}"))
        return _panel("Graph", FAIL, "".join(lines), "unreachable")
    versions = ", ".join(f"{k} {v}" for k, v in sorted(health.versions.items()))
    lines.append(_line("server", f"reachable · {versions or 'version unknown'}"))
    if health.error:
        lines.append(_failure(health.error))
    lines.append(_graphs_table(health))
    if health.graph is not None:
        lines.append(f"<div><b>graph {escape(health.graph)}</b></div>")
    if health.graph_error:
        lines.append(_failure(health.graph_error))
    elif health.relates_edges is not None:
        orphans = health.edges_without_sentence or 0
        share = health.supported_share
        orphan_line = _line("RELATES edges without a stored sentence", orphans)
        if orphans:
            orphan_line = _failure(f"{orphans} RELATES edges have no stored sentence")
        lines += [
            _line("RELATES edges", health.relates_edges),
            orphan_line,
            _line(
                "source-supported (graded against their own sentence)",
                f"{health.supported_edges} of {health.graded_edges}"
                + (f" ({share:.0%})" if share is not None else ""),
            ),
            _line("labels", ", ".join(f"{k} {v}" for k, v in health.labels.items()) or "none"),
        ]
    failed = bool(health.error or health.graph_error)
    warned = bool(health.edges_without_sentence)
    colour, state = (FAIL, "failed") if failed else (WARN, "warning") if warned else (OK, "ok")
    return _panel("Graph", colour, "".join(lines), state)


def _graphs_table(health: GraphHealth) -> str:
    if not health.graphs:
        return "<div><i>no graphs on this server</i></div>"
    cell = 'style="padding:1px 6px;text-align:right"'
    rows = "".join(
        f"<tr><td>{escape(g.name)}</td><td {cell}>{g.node_count}</td>"
        f"<td {cell}>{g.edge_count}</td></tr>"
        for g in health.graphs
    )
    return (
        '<table class="zehn-graphs"><tr><th>graph</th><th>nodes</th><th>edges</th></tr>'
        f"{rows}</table>"
    )
