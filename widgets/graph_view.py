"""Graph view: the paths of an answer as a pyvis network, one edge style per grade, one colour
and shape per entity kind, the question's entity ringed.

The page is self-contained (vis.js inlined, no CDN links) and shown through an
``<iframe srcdoc>``, so it works in JupyterLab, Voila and exported HTML with no
network. The layout settles (stabilization) and then stays still (physics off), so a
reader can find a node where it was. Node labels and hover texts are plain text: vis.js
draws labels on a canvas and sets hover titles with ``innerText``, and pyvis JSON-encodes
them (``<``, ``>``, ``&``, ``'`` as JSON unicode escapes), so no markup from a document reaches
the page. The evidence the click handler shows is pre-rendered HTML, escaped in Python and
JSON-encoded with ``</`` escaped so a sentence containing ``</script>`` cannot end the script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as w
from pyvis.network import Network

from widgets.graph_style import (
    KIND_STYLES,
    SETTLE_JS,
    kind_legend_html,
    network_options,
    node_style,
    page_height,
    short_label,
)
from widgets.html import (
    BORDER,
    DIAGRAM_LINE,
    GREY,
    LABEL_COLOURS,
    LABEL_TEXT,
    escape,
    highlight,
    label_chip,
)
from zehn.engine.answer import CitedAnswer
from zehn.evidence.grade import (
    INFERRED,
    INSUFFICIENT,
    SUPPORTED,
    Grade,
    GradedHop,
    GradedPath,
    unique_hops,
)
from zehn.reading.diagrams.reader import is_diagram_edge

# vis.js ``dashes`` per grade: the browser tests read these back from the DataSet.
DASHES: dict[str, bool | list[int]] = {SUPPORTED: False, INFERRED: True, INSUFFICIENT: [2, 6]}
MARKS: dict[str, str] = {SUPPORTED: "", INFERRED: "⚠ ", INSUFFICIENT: "✕ "}
_HINT = "<i>Click an edge to read its sentence, or an entity for its hops.</i>"
_REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?https?://[^>]*>", re.IGNORECASE)
_REMOTE_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*[\"']?https?://[^>]*>\s*</script\s*>", re.IGNORECASE
)
# Queries whose entity parameters name what the question is about.
_FOCUS_PARAMS = ("entity_id", "other_id")
_CLICK_SCRIPT = """<script>
(function () {
  var EVIDENCE = %s;
  var box = document.getElementById("zehn-evidence");
  network.on("click", function (params) {
    var html = null;
    if (params.edges.length && !params.nodes.length) { html = EVIDENCE.edges[params.edges[0]]; }
    if (params.nodes.length) { html = EVIDENCE.nodes[params.nodes[0]]; }
    box.innerHTML = html || EVIDENCE.hint;
  });
})();
%s</script>
"""


def legend_html(kinds: Sequence[str] = (), focus: Sequence[tuple[str, str, str]] = ()) -> str:
    """What the three edge styles mean, which colour and shape each entity kind has (the kinds
    drawn), and which entity the question asked about (``focus``: id, name, kind)."""
    samples = {
        SUPPORTED: "border-top:3px solid",
        INFERRED: "border-top:3px dashed",
        INSUFFICIENT: "border-top:3px dotted",
    }
    items = "".join(
        f'<span class="zehn-legend-item" data-label="{label}" style="margin-right:14px">'
        f'<span style="display:inline-block;width:36px;vertical-align:middle;'
        f'{style} {LABEL_COLOURS[label]}"></span> {escape(LABEL_TEXT[label])}</span>'
        for label, style in samples.items()
    )
    return (
        f'<div class="zehn-legend" style="font-size:90%;margin:4px 0">{items}'
        f"{kind_legend_html(kinds, focus)}"
        "<small>Click an edge to read its sentence; click an entity for its hops.</small>"
        "</div>"
    )


class GraphView(w.VBox):
    """Entities as nodes (coloured and shaped by kind), graded hops as edges; click an edge to
    read its evidence. ``focus`` names the entities the question asked about."""

    def __init__(
        self,
        paths: Sequence[GradedPath] = (),
        names: Mapping[str, str] | None = None,
        focus: Sequence[str] = (),
    ):
        self.legend = w.HTML(legend_html())
        self.frame = w.HTML()
        self._paths: tuple[GradedPath, ...] = ()
        self._names: dict[str, str] = {}
        self._focus: tuple[str, ...] = ()
        super().__init__([self.legend, self.frame])
        self.show_paths(paths, names, focus)

    def show_paths(
        self,
        paths: Sequence[GradedPath],
        names: Mapping[str, str] | None = None,
        focus: Sequence[str] = (),
    ) -> None:
        """Draw these paths; ``names`` overrides the names the paths carry; ``focus`` rings
        the question's entities (those not drawn are ignored)."""
        self._paths = tuple(paths)
        self._names = {k: v for p in self._paths for k, v in p.names.items()}
        self._names.update(names or {})
        nodes = self.nodes()
        self._focus = tuple(f for f in dict.fromkeys(focus) if f in nodes)
        self.legend.value = legend_html(
            list(dict.fromkeys(_kind(n) for n in nodes)),
            [(f, self._name(f), _kind(f)) for f in self._focus],
        )
        if not self._paths:
            self.frame.value = '<div class="zehn-graph-empty"><i>No paths to draw.</i></div>'
            return
        self.frame.value = (
            f'<iframe class="zehn-graph" sandbox="allow-scripts" title="evidence graph" '
            f'style="width:100%;height:{page_height(len(nodes)) + 150}px;'
            f'border:1px solid {BORDER}" srcdoc="{escape(self.to_html())}"></iframe>'
        )

    @property
    def focus(self) -> tuple[str, ...]:
        """The drawn entities the question asked about."""
        return self._focus

    def nodes(self) -> list[str]:
        """Every entity drawn, in path order."""
        hops = unique_hops(self._paths)
        ends = (n for h in hops for n in (h.source, h.target))
        return list(dict.fromkeys([*(n for p in self._paths for n in p.nodes), *ends]))

    def to_html(self, title: str | None = None) -> str:
        """The pyvis page for the current paths: self-contained, no remote resources. With a
        ``title`` it is a standalone document (heading and legend inside) for export."""
        nodes = self.nodes()
        height = page_height(len(nodes))
        network = Network(
            height=f"{height}px", width="100%", directed=True, cdn_resources="in_line"
        )
        network.options = network_options()
        hops = unique_hops(self._paths)
        for node in nodes:
            name, kind, focused = self._name(node), _kind(node), node in self._focus
            hover = f"{name}\n{kind} · {node}" + ("\nthe question asks about it" if focused else "")
            network.add_node(
                node,
                label=short_label(name),
                title=hover,
                zehn_kind=kind,
                zehn_focus=focused,
                **node_style(kind, focused),
            )
        edges: dict[str, str] = {}
        for i, hop in enumerate(hops):
            edge_id = f"e{i}"
            claim = f"{self._name(hop.source)} {hop.rel_type} {self._name(hop.target)}"
            diagram = f" ({DIAGRAM_LINE})" if is_diagram_edge(hop.best.evidence.text) else ""
            network.add_edge(
                hop.source,
                hop.target,
                id=edge_id,
                label=f"{MARKS.get(hop.label, '')}{hop.rel_type}",
                title=f"{hop.rel_type}: {claim}\n"
                f"{LABEL_TEXT.get(hop.label, hop.label)}: {hop.best.reason}{diagram}",
                color=LABEL_COLOURS.get(hop.label, GREY),
                dashes=DASHES.get(hop.label, [2, 6]),
                width=2,
                zehn_label=hop.label,
                zehn_predicate=hop.rel_type,
                zehn_sentence=hop.best.evidence.sentence_id,
            )
            edges[edge_id] = self._hop_html(hop)
        evidence = {
            "edges": edges,
            "nodes": {str(n): self._node_html(str(n), hops) for n in network.get_nodes()},
            "hint": _HINT,
        }
        page = _offline(network.generate_html())
        panel = (
            '<div id="zehn-evidence" class="zehn-evidence" style="clear:both;font:13px sans-serif;'
            f'padding:6px 8px;border-top:1px solid {BORDER}">{_HINT}</div>'
        )
        script = _CLICK_SCRIPT % (_script_json(evidence), SETTLE_JS)
        page = page.replace("</body>", f"{panel}{script}</body>", 1)
        if title is not None:
            head = (
                f'<div class="zehn-export-head" style="font:14px sans-serif;padding:6px 8px">'
                f"<h3 style='margin:2px 0'>{escape(title)}</h3>{self.legend.value}</div>"
            )
            page = page.replace("<body>", f"<body>{head}", 1)
            page = page.replace("<head>", f"<head><title>{escape(title)}</title>", 1)
        return page

    def _hop_html(self, hop: GradedHop) -> str:
        claim = (
            f"<b>{escape(self._name(hop.source))}</b> {escape(hop.rel_type)} "
            f"<b>{escape(self._name(hop.target))}</b>"
        )
        others = "".join(f"<li>{_grade_html(g)}</li>" for g in hop.alternatives)
        more = f"<details><summary>other sentences</summary><ul>{others}</ul></details>"
        return f"<div>{claim}: {_grade_html(hop.best)}{more if others else ''}</div>"

    def _node_html(self, node: str, hops: Sequence[GradedHop]) -> str:
        rows = "".join(
            f"<li>{escape(self._name(h.source))} {escape(h.rel_type)} "
            f"{escape(self._name(h.target))} — {label_chip(h.label)}</li>"
            for h in hops
            if node in (h.source, h.target)
        )
        return (
            f"<div><b>{escape(self._name(node))}</b> ({escape(_kind(node))}, "
            f"<code>{escape(node)}</code>)<ul>{rows}</ul></div>"
        )

    def _name(self, node: str) -> str:
        return self._names.get(node) or node.partition(":")[2] or node


def _grade_html(grade: Grade) -> str:
    """The verbatim sentence (entity mentions marked), its label, reason and id."""
    e = grade.evidence
    sentence = highlight(e.text, e.start, (grade.source_span, grade.target_span))
    source = ", ".join(escape(x) for x in (e.title, e.source_type, (e.date or "")[:10]) if x)
    return (
        f'{label_chip(grade.label)}<blockquote class="zehn-quote" style="margin:4px 0 4px 8px;'
        f'padding-left:8px;border-left:3px solid {BORDER}">{sentence}</blockquote>'
        f"<small>{escape(grade.reason)}<br>{source} · <code>{escape(e.sentence_id)}</code>"
        "</small>"
    )


def question_entities(answer: CitedAnswer) -> tuple[str, ...]:
    """The entities the question asked about: those the investigation's walks started from
    or aimed at (``entity_id`` / ``other_id`` of calls that did not fail), in order."""
    found: list[str] = []
    for call in answer.tool_calls:
        if call.error:
            continue
        for name in _FOCUS_PARAMS:
            value = call.params.get(name)
            if isinstance(value, str) and value and value not in found:
                found.append(value)
    return tuple(found)


def _kind(node: str) -> str:
    kind, sep, _ = node.partition(":")
    return kind if sep and kind in KIND_STYLES else "entity"


def _offline(page: str) -> str:
    """Drop the CDN links pyvis's template always adds (bootstrap); vis.js is inlined."""
    return _REMOTE_SCRIPT.sub("", _REMOTE_LINK.sub("", page))


def _script_json(value: Any) -> str:
    """JSON safe inside <script>: no ``</`` or ``<!--`` can end or confuse the element."""
    return json.dumps(value).replace("</", "<\\/").replace("<!--", "<\\!--")
