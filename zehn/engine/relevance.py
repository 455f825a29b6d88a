"""Whether a path answers the question asked: the on-question gate.

A citation can be real, returned by this investigation and source-supported, and still answer
another question ("What does X read from?" answered with X's calls; "what fails if X is down?"
answered with the traces X exports). The gate admits a claim only from a path that answers
the question's intent, read by ``zehn.reading.questions``:

- an impact or dependency walk: the path starts at a component the question names; a hop
  that carries telemetry (traces, metrics, logs sent to a collector or backend) is no runtime
  impact unless the question asks about telemetry;
- a lookup ("what does X read from?", "who calls X?"), or a yes/no question: a hop over the
  asked relation (or one of its senses, ``zehn.models.senses``) with a named component at
  the asked end;
- a path question: the path joins the named components.

Questions whose intent is not read (``unknown``, "what is X?", an attribute) are not filtered:
the citation gate alone decides. Off-question facts are shown as related context, never as
the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.engine.gate import supported_sentences
from zehn.evidence.grade import GradedHop as Hop
from zehn.evidence.grade import GradedPath
from zehn.models.senses import senses
from zehn.reading.questions.asking import Asked, Intent
from zehn.reading.questions.telemetry import asks_telemetry, speaks_of_telemetry

_WALKS = (Intent.IMPACT, Intent.UPSTREAM)
_LOOKUPS = (Intent.LOOKUP_OUT, Intent.LOOKUP_IN, Intent.YES_NO)


def answers(path: GradedPath, asked: Asked, named: Sequence[str], question: str) -> bool:
    """Whether ``path`` answers the question; ``named`` are the names the question binds (a
    node answers for one when their loose spellings contain each other: "Grafana" and
    grafana-server, "Redis 注册中心" and Redis, as the planner widens them)."""
    own = {n for n in path.nodes if _is_named(path.names.get(n, n), named)}
    if not own:
        return asked.intent not in (*_WALKS, *_LOOKUPS, Intent.PATH)
    if asked.intent in _WALKS:
        return asks_telemetry([question]) or not any(_telemetry(h) for h in path.hops)
    if asked.intent in _LOOKUPS and asked.predicates:
        return any(_over_asked(h, asked, own, path.nodes) for h in path.hops)
    return True


def _loose(name: str) -> str:
    return re.sub(r"[\W_]+", "", name.lower())


def _is_named(name: str, named: Sequence[str]) -> bool:
    key = _loose(name)
    return any(
        k and (k == key or (min(len(k), len(key)) >= 3 and (k in key or key in k)))
        for k in (_loose(n) for n in named)
    )


def _telemetry(hop: Hop) -> bool:
    return speaks_of_telemetry(hop.best.evidence.text)


def _over_asked(hop: Hop, asked: Asked, own: set[str], nodes: Sequence[str]) -> bool:
    """The hop states the asked relation (a sense of it, or its inverse read the other way;
    a report to a server, by its receiver) with a named component at the asked end."""
    receivers = [""] + [n for n in nodes if n in own]
    found = {s for receiver in receivers for s in senses(asked.predicates, receiver)}
    for predicate, inverse in found:
        if hop.rel_type != predicate:
            continue
        source, target = (hop.target, hop.source) if inverse else (hop.source, hop.target)
        if asked.intent == Intent.LOOKUP_OUT and source in own:
            return True
        if asked.intent == Intent.LOOKUP_IN and target in own:
            return True
        if asked.intent == Intent.YES_NO and (source in own or target in own):
            return True
    return False


def off_question(
    cited: Sequence[str],
    paths: Sequence[GradedPath],
    asked: Asked,
    named: Sequence[str],
    question: str,
) -> list[str]:
    """The cited sentences that back a supported hop only on paths that do not answer the
    question (each already passed the citation gate: it backs some supported hop)."""
    on = [p for p in paths if answers(p, asked, named, question)]
    backing = supported_sentences(on)
    return [c for c in cited if c not in backing]
