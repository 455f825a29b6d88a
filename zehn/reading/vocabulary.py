"""The words a graph is made of: the predicates an edge may carry and the kinds of entity.

Every other module (cues, policies, queries, gold files, views) names these members; a
predicate or kind that is not here is refused where it is read.
"""

from __future__ import annotations

from enum import StrEnum


class Predicate(StrEnum):
    """The ``rel_type`` of a ``RELATES`` edge."""

    DEPENDS_ON = "DEPENDS_ON"
    CALLS = "CALLS"
    FEEDS = "FEEDS"
    AFFECTS = "AFFECTS"
    USES = "USES"
    READS_FROM = "READS_FROM"
    WRITES_TO = "WRITES_TO"
    PUBLISHES_TO = "PUBLISHES_TO"
    CONSUMES_FROM = "CONSUMES_FROM"
    OWNS = "OWNS"


class EntityKind(StrEnum):
    """What an entity is; the same name with another kind is another entity."""

    SERVICE = "service"
    TEAM = "team"
    CUSTOMER = "customer"
    DATASTORE = "datastore"
    TOPIC = "topic"
    PIPELINE = "pipeline"
    COMPONENT = "component"


PREDICATES: tuple[str, ...] = tuple(Predicate)
ENTITY_KINDS: tuple[str, ...] = tuple(EntityKind)
