"""How the graph view draws entities: one colour and shape per kind (never the grade colours,
which belong to edges), a ring for the question's entity, a legend that shows both, and a
layout that settles and then stays still.

Readable at 30 nodes: labels are 16 px with a white outline (legible over edges), long names
are shortened on the canvas (the whole name is in the hover text), the drawing area grows
with the number of nodes, and a fixed random seed gives the same layout for the same paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from widgets.html import escape

# kind -> (colour, vis.js shape); every shape here draws its label below the node.
KIND_STYLES: dict[str, tuple[str, str]] = {
    "service": ("#0969da", "dot"),
    "team": ("#8250df", "square"),
    "customer": ("#bf3989", "star"),
    "datastore": ("#0a7480", "diamond"),
    "topic": ("#953800", "triangle"),
    "pipeline": ("#0550ae", "triangleDown"),
    "component": ("#57606a", "hexagon"),
    "entity": ("#8c959f", "dot"),  # an id without a known kind
}
FOCUS_BORDER = "#1f2328"  # the ring around the question's entity
NODE_SIZE, FOCUS_SIZE = 16, 26
LABEL_MAX = 28
SEED = 7
SETTLED_ATTRIBUTE = "data-zehn-settled"
# Physics runs only until the layout is stable, then is switched off: nodes stay where the
# reader found them. The timer is a fallback for a stabilization that never reports. (Script
# text only: the graph view puts it inside its own single script element.)
SETTLE_JS = (
    "(function () {\n  var done = false;\n  function settle() {\n"
    "    if (done) { return; }\n    done = true;\n"
    "    network.setOptions({physics: {enabled: false}});\n"
    f'    document.body.setAttribute("{SETTLED_ATTRIBUTE}", "true");\n  }}\n'
    '  network.once("stabilizationIterationsDone", settle);\n'
    '  network.once("stabilized", settle);\n'
    "  setTimeout(settle, 6000);\n})();\n"
)
# The legend's mark for each vis.js shape (plain characters: the views emit no SVG).
GLYPHS: dict[str, str] = {
    "dot": "●",
    "square": "■",
    "star": "★",
    "diamond": "◆",
    "triangle": "▲",
    "triangleDown": "▼",
    "hexagon": "⬢",
}


def network_options() -> dict[str, Any]:
    """vis.js options: outlined labels, smooth edges, physics that settles and stops."""
    outline = {"strokeWidth": 4, "strokeColor": "#ffffff"}
    return {
        "nodes": {"font": {"size": 16, "face": "sans-serif", **outline}, "borderWidth": 2},
        "edges": {
            "smooth": {"type": "dynamic"},
            "font": {"size": 12, "align": "middle", "strokeWidth": 3, "strokeColor": "#ffffff"},
            "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}},
        },
        "layout": {"randomSeed": SEED, "improvedLayout": True},
        "physics": {
            "solver": "barnesHut",
            "barnesHut": {
                "gravitationalConstant": -3500,
                "centralGravity": 0.4,
                "springLength": 95,
                "springConstant": 0.05,
                "avoidOverlap": 0.6,
            },
            "stabilization": {"enabled": True, "iterations": 600, "fit": True},
        },
        "interaction": {"hover": True, "tooltipDelay": 120},
    }


def node_style(kind: str, focused: bool) -> dict[str, Any]:
    """pyvis node attributes for a kind; the question's entity larger, with a dark ring."""
    colour, shape = KIND_STYLES.get(kind, KIND_STYLES["entity"])
    border = FOCUS_BORDER if focused else colour
    return {
        "shape": shape,
        "size": FOCUS_SIZE if focused else NODE_SIZE,
        "borderWidth": 5 if focused else 2,
        "color": {
            "background": colour,
            "border": border,
            "highlight": {"background": colour, "border": FOCUS_BORDER},
            "hover": {"background": colour, "border": FOCUS_BORDER},
        },
        "font": {"size": 18 if focused else 16, "color": "#1f2328"},
    }


def page_height(nodes: int) -> int:
    """Pixels for the drawing: more room as the graph grows, so 30 labels do not overlap."""
    if nodes <= 12:
        return 380
    if nodes <= 24:
        return 520
    return 660


def short_label(name: str) -> str:
    """The name on the canvas, shortened in the middle past ``LABEL_MAX`` so that names which
    differ only at the end stay apart (the hover text has it whole)."""
    name = " ".join(name.split())
    if len(name) <= LABEL_MAX:
        return name
    tail = LABEL_MAX // 3
    return name[: LABEL_MAX - tail - 1].rstrip() + "…" + name[-tail:].lstrip()


def glyph(kind: str, ring: bool = False) -> str:
    """The kind's shape in its colour, as the legend shows it; ``ring``: circled, as the
    question's entity is drawn."""
    colour, shape = KIND_STYLES.get(kind, KIND_STYLES["entity"])
    ringed = f"border:2px solid {FOCUS_BORDER};border-radius:50%;padding:0 3px;" if ring else ""
    return (
        f'<span class="zehn-legend-glyph" style="color:{colour};font-size:15px;{ringed}">'
        f"{GLYPHS[shape]}</span>"
    )


def kind_legend_html(kinds: Sequence[str], focus: Sequence[tuple[str, str, str]]) -> str:
    """The kinds drawn (colour and shape each) and the question's entities (ringed)."""
    if not kinds and not focus:
        return "<br>"
    items = "".join(
        f'<span class="zehn-legend-kind" data-kind="{escape(kind)}" '
        f'style="margin-right:12px">{glyph(kind)} {escape(kind)}</span>'
        for kind in kinds
    )
    asked = "".join(
        f'<span class="zehn-legend-focus" data-entity-id="{escape(entity)}" '
        f'style="margin-right:12px">{glyph(kind, ring=True)} asked about: '
        f"<b>{escape(name)}</b> ({escape(kind)})</span>"
        for entity, name, kind in focus
    )
    return f'<div class="zehn-legend-kinds" style="margin:3px 0">{items}{asked}</div>'
