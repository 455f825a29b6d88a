"""A graph's revision: a fresh random id that every zehn write changing content sets.

The engine keeps what it learned about a graph (its entities, the evidence and
grade of each edge) for one revision (``zehn.engine.snapshot``). A writer bumps
the revision before it starts, so no process goes on trusting knowledge of a
graph that is being changed, and again when it ends, so nothing learned in
between survives.
"""

from __future__ import annotations

import uuid

from zehn.store.client import GraphClient

_BUMP = "MERGE (m:Meta {id: 'graph'}) SET m.revision = $revision"


def new_revision() -> str:
    return uuid.uuid4().hex


def bump_revision(client: GraphClient, graph: str) -> str:
    revision = new_revision()
    client.write(graph, _BUMP, {"revision": revision})
    return revision
