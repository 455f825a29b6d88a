"""Impact radar: what is at risk if an entity changes, by hop distance, with every hop's evidence.

Retrieval goes only through whitelisted named queries (``ToolExecutor``) under the
session's active policy. Each impacted entity is listed with its best path, and every
hop is shown against its own sentence and grade, so an analyst sees why an entity is
at risk and how well the sources support it, not just that it is listed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w
import traitlets

from widgets.hooks import Callbacks, quietly
from widgets.html import BORDER, badge, error_box, escape, highlight, label_chip
from widgets.session import Session
from zehn import Policy
from zehn.engine.tools import ToolExecutor
from zehn.evidence.grade import (
    INFERRED,
    INSUFFICIENT,
    SUPPORTED,
    Evidence,
    Grade,
    GradedHop,
    GradedPath,
    unique_hops,
)

TAB_TITLES = ("source-supported", "inferred assumption", "insufficient evidence", "sources")
TAB_LABELS = (SUPPORTED, INFERRED, INSUFFICIENT)
WARN = "⚠"
MAX_DEPTH = 3  # the named query's own bound (DEPTH spec)
_NOTHING_HERE = "<div><i>nothing at this distance</i></div>"
_NO_CHOICE = ("— find an entity, then choose —", "")
ResultCallback = Callable[[str, tuple[GradedPath, ...]], None]


def entity_options(executor: ToolExecutor, text: str) -> list[tuple[str, str]]:
    """(``"name (kind)"``, id) for every entity named in ``text`` or resolving from it.

    The kind is in the label because names are not unique: three entities are
    called "Redwood Inference" (a team, a service and a customer).
    """
    rows = list(executor.run("find_entities", {"text": text}).rows)
    if 0 < len(text.strip()) <= 200:
        rows += executor.run("resolve_entity", {"name": text.strip()}).rows
    seen: dict[str, str] = {}
    for row in rows:
        seen.setdefault(str(row["id"]), f"{row['name']} ({row['kind']})")
    return sorted(((label, i) for i, label in seen.items()), key=lambda o: (o[0].lower(), o[1]))


class ImpactRadar(w.VBox):
    """Downstream impact of one entity, grouped by distance, with an evidence inspector."""

    entity_id = traitlets.Unicode(None, allow_none=True, help="the entity shown, if any")

    def __init__(self, session: Session) -> None:
        self.session = session
        self.paths: tuple[GradedPath, ...] = ()
        self.error: Exception | None = None
        self._busy = False
        self._callbacks: Callbacks[ResultCallback] = Callbacks()
        self.query = w.Text(
            continuous_update=False, placeholder="a name, e.g. origin-mapper", description="Find"
        )
        self.find_button = w.Button(description="Find", icon="search")
        self.picker = w.Dropdown(options=[_NO_CHOICE], description="Entity")
        top = min(MAX_DEPTH, session.policy.max_hops)
        self.depth_slider = w.IntSlider(value=top, min=1, max=top, description="Depth")
        self.policy_line = w.HTML()
        self.find_status = w.HTML()
        self.summary = w.HTML()
        self.tabs = w.Tab(children=[w.HTML() for _ in TAB_TITLES], titles=TAB_TITLES)
        self.query.observe(lambda _: self._find_clicked(), names="value")
        self.find_button.on_click(lambda _: self._find_clicked())
        self.picker.observe(self._picked, names="value")
        self.depth_slider.observe(self._depth_moved, names="value")
        session.on_policy_change(self._policy_changed)
        session.observe(self._graph_changed, names="graph")
        self._show_policy(session.policy)
        super().__init__(
            [
                self.policy_line,
                w.HBox([self.query, self.find_button]),
                self.find_status,
                w.HBox([self.picker, self.depth_slider]),
                self.summary,
                self.tabs,
            ]
        )

    # --- public ---------------------------------------------------------------------

    def find(self, text: str) -> list[tuple[str, str]]:
        """Fill the picker with the entities ``text`` names; returns (label, id) options."""
        try:
            options = entity_options(self.session.tools(), text)
        except Exception as e:  # shown, never a traceback
            self.find_status.value = error_box(e)
            return []
        self.find_status.value = (
            "" if options else f"<i>No entity is named in {escape(repr(text))}.</i>"
        )
        with quietly(self):
            self.picker.options = [_NO_CHOICE, *options]
            self.picker.value = ""
        return options

    def show(self, entity_id: str, depth: int = 3) -> tuple[GradedPath, ...]:
        """Run ``downstream_impact`` under the active policy and display it; returns the paths.

        Errors are displayed (and kept in ``self.error``), never raised: the radar
        also re-runs from policy and graph observers, which must not fail.
        """
        depth = max(1, min(int(depth), self.depth_slider.max))
        with quietly(self):
            self.entity_id = entity_id
            self.depth_slider.value = depth
            if entity_id not in [v for _, v in self.picker.options]:
                self.picker.options = [*self.picker.options, (entity_id, entity_id)]
            self.picker.value = entity_id
        return self.refresh()

    def refresh(self) -> tuple[GradedPath, ...]:
        """Re-run for the entity shown (after a policy, graph or depth change)."""
        if not self.entity_id:
            return ()
        entity_id, depth, policy = self.entity_id, self.depth_slider.value, self.session.policy
        try:
            outcome = self.session.tools().run(
                "downstream_impact", {"entity_id": entity_id, "depth": depth}
            )
        except Exception as e:  # shown, never a traceback
            self.error, self.paths = e, ()
            self.summary.value = error_box(e)
            self._fill_tabs([])
            return ()
        self.error, self.paths = None, outcome.paths
        names = {k: v for p in outcome.paths for k, v in p.names.items()}
        picked = {value: label for label, value in self.picker.options}
        names.setdefault(entity_id, picked.get(entity_id, entity_id))
        self.summary.value = _summary_html(entity_id, depth, policy, outcome.paths, names)
        self._fill_tabs(
            [
                *(_hops_html(unique_hops(outcome.paths), label, names) for label in TAB_LABELS),
                _sources_html(unique_hops(outcome.paths)),
            ]
        )
        self._callbacks.fire(entity_id, outcome.paths)
        return outcome.paths

    def on_result(self, callback: ResultCallback, remove: bool = False) -> None:
        """Call ``callback(entity_id, paths)`` after each successful run."""
        self._callbacks.register(callback, remove)

    def close(self) -> None:
        """Stop observing the session, then close the widget."""
        self.session.on_policy_change(self._policy_changed, remove=True)
        self.session.unobserve(self._graph_changed, names="graph")
        super().close()

    # --- internals ------------------------------------------------------------------

    def _find_clicked(self) -> None:
        if self.query.value.strip():
            self.find(self.query.value)

    def _picked(self, change: dict[str, Any]) -> None:
        if not self._busy and change["new"]:
            self.show(str(change["new"]), self.depth_slider.value)

    def _depth_moved(self, change: dict[str, Any]) -> None:
        if not self._busy and self.entity_id:
            self.refresh()

    def _policy_changed(self, policy: Policy) -> None:
        self._show_policy(policy)
        top = min(MAX_DEPTH, policy.max_hops)
        with quietly(self):
            self.depth_slider.max = top
            self.depth_slider.value = min(self.depth_slider.value, top)
        self.refresh()

    def _graph_changed(self, change: dict[str, Any]) -> None:
        with quietly(self):
            self.picker.options = [_NO_CHOICE]
            self.picker.value = ""
        self.refresh()

    def _show_policy(self, policy: Policy) -> None:
        self.policy_line.value = f'<div class="zehn-radar-policy">{badge(policy)}</div>'

    def _fill_tabs(self, pages: list[str]) -> None:
        for child, page in zip(self.tabs.children, pages or [""] * len(TAB_TITLES), strict=True):
            child.value = page


# --- rendering ---------------------------------------------------------------------------


def _name(names: dict[str, str], entity_id: str) -> str:
    return names.get(entity_id, entity_id)


def _mark(label: str) -> str:
    return f"{WARN} " if label == INFERRED else ""


def _hop_line(hop: GradedHop, names: dict[str, str]) -> str:
    return (
        f"{_mark(hop.label)}<b>{escape(_name(names, hop.source))}</b> "
        f"<code>{escape(hop.rel_type)}</code> <b>{escape(_name(names, hop.target))}</b>"
    )


def _summary_html(
    entity_id: str,
    depth: int,
    policy: Policy,
    paths: tuple[GradedPath, ...],
    names: dict[str, str],
) -> str:
    """Impacted entities by shortest distance; each with its best path (paths come ranked)."""
    name = _name(names, entity_id)
    title = (
        f"<h4>Impact of a change to <b>{escape(name)}</b> <small>({escape(entity_id)})</small>, "
        f"up to {depth} hop{'s' if depth > 1 else ''}</h4>"
    )
    if not paths:
        blocked = ", ".join(policy.blocked())
        return (
            f'{title}<div class="zehn-empty">Nothing in the graph depends on '
            f"<b>{escape(name)}</b> under policy <b>{escape(policy.name)}</b>"
            f"{f' (not walked: {escape(blocked)})' if blocked else ''}.</div>"
        )
    distance: dict[str, int] = {}
    best: dict[str, GradedPath] = {}
    count: dict[str, int] = {}
    for path in paths:
        target = path.nodes[-1]
        distance[target] = min(distance.get(target, len(path.hops)), len(path.hops))
        best.setdefault(target, path)
        count[target] = count.get(target, 0) + 1
    parts = [title]
    for hops in range(1, depth + 1):
        targets = sorted(
            (t for t in distance if distance[t] == hops), key=lambda t: names.get(t, t)
        )
        items = "".join(_impacted_html(t, best[t], count[t], names) for t in targets)
        parts.append(
            f'<div class="zehn-radar-distance" data-hops="{hops}">'
            f"<b>{hops} hop{'s' if hops > 1 else ''} away</b> ({len(targets)})"
            f"{f'<ul>{items}</ul>' if items else _NOTHING_HERE}</div>"
        )
    return "".join(parts)


def _impacted_html(target: str, path: GradedPath, n_paths: int, names: dict[str, str]) -> str:
    chain = " → ".join(escape(_name(names, n)) for n in path.nodes)
    hops = "; ".join(_hop_line(h, names) for h in path.hops)
    more = (
        f" <small>(+{n_paths - 1} other path{'s' if n_paths > 2 else ''})</small>"
        if n_paths > 1
        else ""
    )
    return (
        f'<li class="zehn-impacted" data-entity="{escape(target)}" '
        f'data-label="{escape(path.label)}">'
        f"{_mark(path.label)}<b>{escape(_name(names, target))}</b> "
        f"<small>({escape(target)})</small> {label_chip(path.label)}{more}"
        f"<br><small>best path: {chain} — {hops}</small></li>"
    )


def _grade_html(grade: Grade) -> str:
    e = grade.evidence
    return (
        f'<blockquote class="zehn-sentence">'
        f"{highlight(e.text, e.start, [grade.source_span, grade.target_span])}</blockquote>"
        f"<div>{label_chip(grade.label)} <i>{escape(grade.reason)}</i></div>"
        f"<small>{escape(e.title or e.document)} · {escape(e.source_type or 'unknown type')} · "
        f"{escape((e.date or 'undated')[:10])} · sentence <code>{escape(e.sentence_id)}</code>"
        f"</small>"
    )


def _hops_html(hops: list[GradedHop], label: str, names: dict[str, str]) -> str:
    """Every hop whose best grade is ``label``, with its sentence and the alternatives."""
    chosen = sorted(
        (h for h in hops if h.label == label),
        key=lambda h: (h.source, h.rel_type, h.target),
    )
    if not chosen:
        return f"<i>No hop on these paths is graded {escape(label.replace('-', ' '))}.</i>"
    blocks = []
    for hop in chosen:
        others = "".join(
            f'<div class="zehn-alternative" data-label="{escape(g.label)}">{_mark(g.label)}'
            f"{_grade_html(g)}</div>"
            for g in hop.alternatives
        )
        details = (
            f"<details><summary>{len(hop.alternatives)} other sentence"
            f"{'s' if len(hop.alternatives) > 1 else ''}</summary>{others}</details>"
            if others
            else ""
        )
        blocks.append(
            f'<div class="zehn-hop" data-label="{escape(hop.label)}" '
            f'data-sentence="{escape(hop.best.evidence.sentence_id)}" '
            f'style="border-left:3px solid {BORDER};padding:4px 10px;margin:6px 0">'
            f"<div>{_hop_line(hop, names)}</div>{_grade_html(hop.best)}{details}</div>"
        )
    return "".join(blocks)


def _sources_html(hops: list[GradedHop]) -> str:
    """The documents behind every sentence of every hop (best and alternatives)."""
    docs: dict[str, tuple[Evidence, set[str]]] = {}
    for hop in hops:
        for grade in (hop.best, *hop.alternatives):
            e = grade.evidence
            docs.setdefault(e.document, (e, set()))[1].add(e.sentence_id)
    if not docs:
        return "<i>No sources: no hop was found.</i>"
    rows = "".join(
        f'<tr class="zehn-source" data-document="{escape(doc)}"><td>{escape(e.title or doc)}</td>'
        f"<td>{escape(e.source_type)}</td><td>{escape((e.date or 'undated')[:10])}</td>"
        f"<td><code>{escape(doc)}</code></td><td>{len(sentences)}</td></tr>"
        for doc, (e, sentences) in sorted(docs.items(), key=lambda d: (d[1][0].date or "", d[0]))
    )
    return (
        "<table class='zehn-sources'><thead><tr><th>title</th><th>type</th><th>date</th>"
        f"<th>document</th><th>sentences</th></tr></thead><tbody>{rows}</tbody></table>"
    )
