"""Graph view: the paths of an answer as a pyvis network, one edge style per grade.

The page is self-contained (vis.js inlined, no CDN links) and shown through an
``<iframe srcdoc>``, so it works in JupyterLab, Voila and exported HTML with no
network. Every string from a document, an entity name or a grader reason is
escaped in Python before it reaches the page; the evidence the click handler
shows is pre-rendered HTML, JSON-encoded with ``</`` escaped so a sentence
containing ``</script>`` cannot end the script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import ipywidgets as w
from pyvis.network import Network

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
from zehn.evidence.grade import (
    INFERRED,
    INSUFFICIENT,
    SUPPORTED,
    Grade,
    GradedHop,
    GradedPath,
    unique_hops,
)
from zehn.reading.diagrams import is_diagram_edge

# vis.js ``dashes`` per grade: the browser tests read these back from the DataSet.
DASHES: dict[str, bool | list[int]] = {SUPPORTED: False, INFERRED: True, INSUFFICIENT: [2, 6]}
MARKS: dict[str, str] = {SUPPORTED: "", INFERRED: "⚠ ", INSUFFICIENT: "✕ "}
IFRAME_HEIGHT = "520px"
_HINT = "<i>Click an edge to read its sentence, or an entity for its hops.</i>"
_REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref\s*=\s*[\"']?https?://[^>]*>", re.IGNORECASE)
_REMOTE_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*[\"']?https?://[^>]*>\s*</script\s*>", re.IGNORECASE
)
_OPTIONS = {
    "edges": {"smooth": {"type": "dynamic"}, "font": {"size": 11, "align": "middle"}},
    "nodes": {"shape": "dot", "size": 14, "font": {"size": 13}},
    "physics": {"stabilization": {"iterations": 150}},
    "interaction": {"hover": True},
}
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
</script>
"""


def legend_html() -> str:
    """What the three edge styles mean, shown above the graph."""
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
        "<br><small>Click an edge to read its sentence; click an entity for its hops.</small>"
        "</div>"
    )


class GraphView(w.VBox):
    """Entities as nodes, graded hops as edges; click an edge to read its evidence."""

    def __init__(self, paths: Sequence[GradedPath] = (), names: Mapping[str, str] | None = None):
        self.legend = w.HTML(legend_html())
        self.frame = w.HTML()
        self._paths: tuple[GradedPath, ...] = ()
        self._names: dict[str, str] = {}
        super().__init__([self.legend, self.frame])
        self.show_paths(paths, names)

    def show_paths(
        self, paths: Sequence[GradedPath], names: Mapping[str, str] | None = None
    ) -> None:
        """Draw these paths; ``names`` overrides the names the paths carry."""
        self._paths = tuple(paths)
        self._names = {k: v for p in self._paths for k, v in p.names.items()}
        self._names.update(names or {})
        if not self._paths:
            self.frame.value = '<div class="zehn-graph-empty"><i>No paths to draw.</i></div>'
            return
        self.frame.value = (
            f'<iframe class="zehn-graph" sandbox="allow-scripts" title="evidence graph" '
            f'style="width:100%;height:{IFRAME_HEIGHT};border:1px solid {BORDER}" '
            f'srcdoc="{escape(self.to_html())}"></iframe>'
        )

    def to_html(self) -> str:
        """The pyvis page for the current paths: self-contained, no remote resources."""
        network = Network(height="380px", width="100%", directed=True, cdn_resources="in_line")
        network.options = _OPTIONS
        hops = unique_hops(self._paths)
        ends = (n for h in hops for n in (h.source, h.target))
        for node in dict.fromkeys([*(n for p in self._paths for n in p.nodes), *ends]):
            network.add_node(
                node,
                label=escape(self._name(node)),
                title=escape(f"{_kind(node)} · {node}"),
                color="#54aeff",
            )
        edges: dict[str, str] = {}
        for i, hop in enumerate(hops):
            edge_id = f"e{i}"
            network.add_edge(
                hop.source,
                hop.target,
                id=edge_id,
                label=escape(f"{MARKS.get(hop.label, '')}{hop.rel_type}"),
                title=escape(
                    f"{LABEL_TEXT.get(hop.label, hop.label)}: {hop.best.reason}"
                    + (f" ({DIAGRAM_LINE})" if is_diagram_edge(hop.best.evidence.text) else "")
                ),
                color=LABEL_COLOURS.get(hop.label, GREY),
                dashes=DASHES.get(hop.label, [2, 6]),
                width=2,
                zehn_label=hop.label,
                zehn_sentence=escape(hop.best.evidence.sentence_id),
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
        script = _CLICK_SCRIPT % _script_json(evidence)
        return page.replace("</body>", f"{panel}{script}</body>", 1)

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


def _kind(node: str) -> str:
    kind, sep, _ = node.partition(":")
    return kind if sep else "entity"


def _offline(page: str) -> str:
    """Drop the CDN links pyvis's template always adds (bootstrap); vis.js is inlined."""
    return _REMOTE_SCRIPT.sub("", _REMOTE_LINK.sub("", page))


def _script_json(value: Any) -> str:
    """JSON safe inside <script>: no ``</`` or ``<!--`` can end or confuse the element."""
    return json.dumps(value).replace("</", "<\\/").replace("<!--", "<\\!--")
