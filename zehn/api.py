"""The front door's functions: connect, build a graph, open an engine, ask.

This is the composition root: the one place that wires layers which never import each other
(the engine and the review services). The CLI, the widgets and the notebooks go through it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from zehn.config import Settings
from zehn.engine import CitedAnswer, Engine
from zehn.engine.events import Listener
from zehn.evidence.policy import Policy, load_policy
from zehn.extract.ingest import ProgressFactory
from zehn.extract.pipeline import (
    DEFAULT_STRATEGY,
    BuildReport,
    StageCallback,
    build_graph,
    get_strategy,
    resolve_graph,
)
from zehn.models.base import Model
from zehn.models.factory import make_model
from zehn.review.stats import audit_summary
from zehn.store.client import GraphClient
from zehn.store.lock import WaitCallback


def connect(settings: Settings | None = None) -> GraphClient:
    """A client of the configured server (the managed local one unless ``FALKORDB_URL``)."""
    return GraphClient.connect(settings or Settings.from_env())


def open_engine(
    graph: str | None = None,
    *,
    policy: Policy | str | None = None,
    model: Model | str | None = None,
    settings: Settings | None = None,
    client: GraphClient | None = None,
    listener: Listener | None = None,
) -> Engine:
    """An engine over ``graph`` (a full name, or a corpus with one strategy graph).

    Every answer it gives states the graph's audited error rate (``audit`` limitation). Without
    ``client`` the engine makes its own and closes it on ``close()`` (or as a ``with`` block).
    """
    settings = settings or Settings.from_env()
    chosen = policy if isinstance(policy, Policy) else load_policy(policy or settings.policy)
    if model is None or isinstance(model, str):
        model = make_model(settings, model, max_hops=chosen.max_hops)
    owns = client is None
    client = client or GraphClient.connect(settings)
    try:
        resolved = resolve_graph(client, graph or settings.graph)
    except BaseException:
        if owns:
            client.close()
        raise
    return Engine(
        client, resolved, chosen, model, listener=listener, annotators={"audit": audit_summary},
        owns_client=owns,
    )  # fmt: skip


def ask(
    question: str,
    graph: str | None = None,
    *,
    policy: Policy | str | None = None,
    model: Model | str | None = None,
    settings: Settings | None = None,
) -> CitedAnswer:
    """Answer one question with verbatim citations, or say "I don't know" and why."""
    with open_engine(graph, policy=policy, model=model, settings=settings) as engine:
        return engine.ask(question)


def ingest(
    path: Path | str,
    corpus: str,
    *,
    strategy: str = DEFAULT_STRATEGY,
    catalog: Path | str | None = None,
    settings: Settings | None = None,
    progress: bool = False,
    wait_s: float | None = None,
    on_wait: WaitCallback | None = None,
    stage: StageCallback | None = None,
    files: ProgressFactory | None = None,
) -> BuildReport:
    """Ingest ``path`` and extract it with ``strategy`` into the graph ``<corpus>__<strategy>``.

    ``progress`` shows a tqdm bar (a widget in Jupyter, stderr in a terminal). One build per
    graph runs at a time: while another holds the graph, this one waits ``wait_s`` seconds
    (None: until it ends; 0: not at all), calling ``on_wait(holder)``, then raises
    ``BuildInProgress`` naming it. ``stage(name)`` hears each build stage begin; ``files``
    (instead of ``progress``) is called with the number of files and returns what counts them.
    """
    settings = settings or Settings.from_env()
    get_strategy(strategy)  # an unknown strategy, or the llm one without its SDK: said first
    factory = files
    if progress and factory is None:
        from tqdm.auto import tqdm

        def factory(total: int) -> Any:
            return tqdm(total=total, unit="file", desc=f"ingest → {corpus}", file=sys.stderr)

    with GraphClient.connect(settings) as client:
        return build_graph(
            client,
            corpus,
            Path(path),
            strategy,
            settings,
            catalog_path=Path(catalog) if catalog else None,
            progress=factory,
            stage=stage,
            lock_wait_s=wait_s,
            on_lock_wait=on_wait,
        )
