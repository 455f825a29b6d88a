"""The state every view shares: settings, one connection, the active graph and policy.

Views observe ``policy`` and ``graph`` (traitlets), so switching the policy in
the toggle re-labels every view; nothing is a global.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import traitlets

from zehn import Engine, GraphClient, Model, Policy, Settings, load_policy, open_engine
from zehn.engine.tools import ToolExecutor
from zehn.extract.pipeline import resolve_graph
from zehn.models.factory import make_model


@dataclass(frozen=True)
class CorpusSource:
    """What the active graph was last built from in this session (the Corpus view sets it),
    so another view can rebuild the same graph after a change, e.g. a curated catalog."""

    corpus: str
    path: Path
    strategy: str
    catalog: Path | None = None


class Session(traitlets.HasTraits):
    """One workbench session; build with :meth:`from_settings`."""

    graph = traitlets.Unicode()
    policy = traitlets.Instance(Policy)
    model_name = traitlets.Unicode("offline")
    source = traitlets.Instance(CorpusSource, allow_none=True, default_value=None)

    def __init__(
        self, settings: Settings, client: GraphClient | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.settings = settings
        self._client = client
        self._policy_handlers: dict[Callable[[Policy], None], Callable[[dict[str, Any]], None]] = {}

    @classmethod
    def from_settings(
        cls, settings: Settings | None = None, *, graph: str | None = None
    ) -> Session:
        """Connect (starting the local server if needed) and resolve the graph name."""
        settings = settings or Settings.from_env()
        client = GraphClient.connect(settings)
        return cls(
            settings,
            client,
            graph=resolve_graph(client, graph or settings.graph),
            policy=load_policy(settings.policy),
            model_name=settings.model,
        )

    @property
    def client(self) -> GraphClient:
        if self._client is None:
            self._client = GraphClient.connect(self.settings)
        return self._client

    @traitlets.validate("graph")
    def _valid_graph(self, proposal: dict[str, Any]) -> str:
        value = str(proposal["value"])
        if not value:
            raise traitlets.TraitError("graph must not be empty")
        return value

    def model(self) -> Model:
        return make_model(self.settings, self.model_name, max_hops=self.policy.max_hops)

    def tools(self) -> ToolExecutor:
        """The named-query executor for the active graph and policy: the views' only way in."""
        return ToolExecutor(self.client, self.graph, self.policy)

    def engine(self) -> Engine:
        """An engine over the active graph and policy; its answers state the audited error rate."""
        return open_engine(
            self.graph,
            policy=self.policy,
            model=self.model(),
            settings=self.settings,
            client=self.client,
        )

    def on_policy_change(self, callback: Callable[[Policy], None], remove: bool = False) -> None:
        """Call ``callback(new_policy)`` whenever the active policy changes (idempotent removal)."""
        if remove:
            handler = self._policy_handlers.pop(callback, None)
            if handler is not None:
                self.unobserve(handler, names="policy")
            return
        if callback not in self._policy_handlers:
            self._policy_handlers[callback] = lambda change: callback(change["new"])
            self.observe(self._policy_handlers[callback], names="policy")
