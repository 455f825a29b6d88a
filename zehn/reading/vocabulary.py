"""The words a graph is made of: predicates, kinds of entity, and the grades of a hop.

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


class GradeLabel(StrEnum):
    """How far a sentence carries a hop (and a path: its weakest hop), strongest first.

    The grader (``zehn.evidence.grade``) decides it; models and views read it back.
    """

    SUPPORTED = "source-supported"
    INFERRED = "inferred-assumption"
    INSUFFICIENT = "insufficient-evidence"

    @property
    def rank(self) -> int:
        """2 supported, 1 inferred, 0 insufficient: a path is as strong as its weakest hop."""
        return _GRADE_RANKS[self]


_GRADE_RANKS = {GradeLabel.SUPPORTED: 2, GradeLabel.INFERRED: 1, GradeLabel.INSUFFICIENT: 0}


PREDICATES: tuple[str, ...] = tuple(Predicate)
ENTITY_KINDS: tuple[str, ...] = tuple(EntityKind)
