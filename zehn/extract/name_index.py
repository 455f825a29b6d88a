"""Writing the graph's name index: the per-entity fields of ``zehn.reading.names.name_keys`` go with
each entity row (``write_extraction``); what needs every entity (which names another kind
shares, the longest name) is settled here on the server once the entities are written, and the
Meta node then says the index is complete, so that the engine may trust it."""

from __future__ import annotations

from zehn.reading.names.name_keys import NAME_INDEX_VERSION
from zehn.store.client import GraphClient

_CLEAR = "MATCH (e:Entity) WHERE e.namesake IS NOT NULL SET e.namesake = null"
_NAMESAKES = (
    "MATCH (e:Entity) WITH e.folded AS folded, collect(e) AS named, "
    "count(DISTINCT e.kind) AS kinds WHERE folded IS NOT NULL AND kinds > 1 "
    "UNWIND named AS e SET e.namesake = 1"
)
_META = (
    "MATCH (e:Entity) WITH count(e) AS entities, count(e.name_keys) AS indexed, "
    "max(e.name_tokens) AS longest "
    "MERGE (m:Meta {id: 'graph'}) "
    "SET m.longest_name = coalesce(longest, 0), "
    "m.name_index = CASE WHEN entities = indexed THEN $version ELSE null END"
)


def finish_name_index(client: GraphClient, graph: str) -> None:
    """Flag namesakes and mark the index complete (only when every entity carries its keys:
    an entity written by another tool leaves the graph to be read the old way)."""
    client.write(graph, _CLEAR)
    client.write(graph, _NAMESAKES)
    client.write(graph, _META, {"version": NAME_INDEX_VERSION})
