"""Which edges answer an asked relation: its near senses and its inverse.

"Which services read from the Kafka queue?" is answered by a service that consumes from
it as well as by one that reads from it, and by the queue feeding the service; "Who reports
to X?" by what feeds, publishes or writes to X. Each asked predicate has the edges that state
the same thing about the same two entities, read in the asked direction (``same``) or the
other way (``inverse``). Nothing here joins two different relations into a walk: a lookup is
still one hop.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

SAME: dict[str, tuple[str, ...]] = {
    "READS_FROM": ("READS_FROM", "CONSUMES_FROM"),
    "CONSUMES_FROM": ("CONSUMES_FROM",),  # subscribing is narrower than reading
    "WRITES_TO": ("WRITES_TO", "PUBLISHES_TO"),
    "PUBLISHES_TO": ("PUBLISHES_TO", "WRITES_TO"),
    "FEEDS": ("FEEDS", "PUBLISHES_TO", "WRITES_TO"),
    "USES": ("USES", "DEPENDS_ON", "CALLS"),  # what calls X uses it (calling is narrower)
    "DEPENDS_ON": ("DEPENDS_ON", "USES"),
}
# Narrower relations a lookup also asks for: "who uses X?" is answered by what calls X.
NARROWER: dict[str, tuple[str, ...]] = {"USES": ("CALLS",)}
INVERSE: dict[str, tuple[str, ...]] = {
    "READS_FROM": ("FEEDS",),  # A reads from B: B feeds A
    "CONSUMES_FROM": ("FEEDS",),
    "FEEDS": ("READS_FROM", "CONSUMES_FROM"),
}


def senses(predicates: Iterable[str]) -> list[tuple[str, bool]]:
    """(predicate, inverse) pairs that answer the asked predicates, asked ones first."""
    found: list[tuple[str, bool]] = []
    for predicate in predicates:
        found.extend((p, False) for p in SAME.get(predicate, (predicate,)))
        found.extend((p, True) for p in INVERSE.get(predicate, ()))
    return list(dict.fromkeys(found))


def answering(
    hop: Mapping[str, Any], predicates: Iterable[str], about: Iterable[str], outward: bool
) -> str | None:
    """The entity ``hop`` gives as the answer about one of ``about`` (None if it answers
    nothing): ``outward`` asks for what the entity relates to (``X reads from ?``), else
    for what relates to it (``? reads from X``)."""
    about = set(about)
    for predicate, inverse in senses(predicates):
        if hop["rel_type"] != predicate:
            continue
        asked, answer = ("source", "target") if outward != inverse else ("target", "source")
        if hop[asked] in about:
            return str(hop[answer])
    return None


def between(hop: Mapping[str, Any], predicates: Iterable[str], a: str, b: str) -> bool:
    """Whether ``hop`` states the asked relation from ``a`` to ``b`` (yes/no questions)."""
    for predicate, inverse in senses(predicates):
        ends = (b, a) if inverse else (a, b)
        if hop["rel_type"] == predicate and (hop["source"], hop["target"]) == ends:
            return True
    return False
