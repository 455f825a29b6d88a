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
# Reporting to something that runs: "Do workers report their state to the API server?" is
# answered by a sentence where workers use the API server *to send their state back* — the
# using sentence must also say what is reported (``stating_what``): "…only interact with it at
# start-up" does not. A call is not widened to a use: a container that runs a provider does
# not call it.
TO_A_SERVER: dict[str, tuple[str, ...]] = {"FEEDS": ("USES",)}
SAYS_WHAT = frozenset({"FEEDS"})
SERVER_KINDS = ("service", "component")
INVERSE: dict[str, tuple[str, ...]] = {
    "READS_FROM": ("FEEDS",),  # A reads from B: B feeds A
    "CONSUMES_FROM": ("FEEDS",),
    "FEEDS": ("READS_FROM", "CONSUMES_FROM"),
}


def senses(predicates: Iterable[str], receiver: str = "") -> list[tuple[str, bool]]:
    """(predicate, inverse) pairs that answer the asked predicates, asked ones first;
    ``receiver`` is the entity the relation runs to, when known (a report to a server)."""
    found: list[tuple[str, bool]] = []
    for predicate in predicates:
        found.extend((p, False) for p in SAME.get(predicate, (predicate,)))
        found.extend((p, True) for p in INVERSE.get(predicate, ()))
        found.extend((p, False) for p in to_a_server((predicate,), receiver))
    return list(dict.fromkeys(found))


def to_a_server(predicates: Iterable[str], receiver: str) -> tuple[str, ...]:
    """The relations that also answer a call or report to ``receiver`` (see TO_A_SERVER)."""
    if receiver.split(":", 1)[0] not in SERVER_KINDS:
        return ()
    return tuple(dict.fromkeys(q for p in predicates for q in TO_A_SERVER.get(p, ())))


def answering(
    hop: Mapping[str, Any], predicates: Iterable[str], about: Iterable[str], outward: bool
) -> str | None:
    """The entity ``hop`` gives as the answer about one of ``about`` (None if it answers
    nothing): ``outward`` asks for what the entity relates to (``X reads from ?``), else
    for what relates to it (``? reads from X``)."""
    about = set(about)
    for predicate, inverse in senses(predicates, str(hop["target"])):
        if hop["rel_type"] != predicate:
            continue
        asked, answer = ("source", "target") if outward != inverse else ("target", "source")
        if hop[asked] in about:
            return str(hop[answer])
    return None


def between(hop: Mapping[str, Any], predicates: Iterable[str], a: str, b: str) -> bool:
    """Whether ``hop`` states the asked relation from ``a`` to ``b`` (yes/no questions)."""
    for predicate, inverse in senses(predicates, b):
        ends = (b, a) if inverse else (a, b)
        if hop["rel_type"] == predicate and (hop["source"], hop["target"]) == ends:
            return True
    return False


def stating_what(hop: Mapping[str, Any], predicates: Iterable[str]) -> bool:
    """Whether ``hop`` answers the asked predicates only through a widening that needs its
    sentence to state what flows (a FEEDS question answered by a use of a server)."""
    asked = list(predicates)
    if any(hop["rel_type"] == p for p, _ in senses(asked)):
        return False  # the relation itself is asked (or a near sense of it)
    return any(hop["rel_type"] in TO_A_SERVER.get(p, ()) for p in asked if p in SAYS_WHAT)
