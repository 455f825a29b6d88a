"""ipywidgets views over the ``zehn`` package. This package imports ``zehn``; never the reverse.

``open_session()`` is what notebooks call first: it connects (starting the
local FalkorDB server if needed) and, on a fresh machine, builds the sample
graph so every view has something real to show.
"""

from __future__ import annotations

from widgets.session import Session
from zehn import SAMPLE_CORPUS, SAMPLE_DIR, AuditStore, GraphClient, Settings, build_graph
from zehn.corpus.sample import SAMPLE_AUDIT_LABELS, SAMPLE_GRAPH

__all__ = ["Session", "open_session"]


def open_session(settings: Settings | None = None, *, graph: str | None = None) -> Session:
    """A session on ``graph`` (default ``ZEHN_GRAPH``); builds the sample graph if it is missing."""
    settings = settings or Settings.from_env()
    wanted = graph or settings.graph
    client = GraphClient.connect(settings)
    if wanted == SAMPLE_GRAPH and not client.graph_exists(SAMPLE_GRAPH):
        from tqdm.auto import tqdm

        build_graph(
            client, SAMPLE_CORPUS, SAMPLE_DIR, "rules", settings,
            progress=lambda total: tqdm(total=total, unit="file", desc="building sample__rules"),
        )  # fmt: skip
    if wanted == SAMPLE_GRAPH and SAMPLE_AUDIT_LABELS.is_file():
        AuditStore(client).import_csv(SAMPLE_AUDIT_LABELS)  # idempotent: one label per edge
    return Session.from_settings(settings, graph=wanted)
