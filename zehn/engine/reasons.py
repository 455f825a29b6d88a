"""Why an investigation abstained, one class per cause, so that no abstention says a false reason.

"No source states it" is true only when no stored sentence states the asked relation. An
abstention can have other causes, each said as itself (``ReasonCode``, in text and JSON):

- the question names no component the graph knows (near names offered);
- the component is known but no stored sentence mentions it;
- sentences mention it (or state its other relations) but none states the asked relation:
  they are listed as related context;
- the model's answer claims something and cites nothing (a misbehaving model), or no
  relation was looked up (the question was not read as asking one);
- sentences state it, but only hedged, negated, superseded or by inference (the paths show
  each hop's grade);
- a path exists, but over a predicate the active policy does not walk: the predicate is
  named, with the policy that walks it and what it would add; the answer under production
  never claims that no source states it;
- the question asks an attribute the graph does not hold (a port, a timeout).

The checks run only after the gate has closed, with the same whitelisted, read-only named
queries as the investigation (recorded like its calls); a walk under another policy is one
of those queries bound to that policy's predicates, never an answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from zehn.engine.context import RelatedFinding
from zehn.engine.snapshot import GraphSnapshot
from zehn.evidence.grade import SUPPORTED, GradedPath
from zehn.evidence.policy import POLICY_DIR, Policy, list_policies
from zehn.queries import get_query
from zehn.reading.lexicon import is_ordinary
from zehn.reading.questions.asking import Asked, Intent

MAX_NEAR_NAMES = 3
NEAR_NAME_CUTOFF = 80.0
MAX_SHOWN = 5  # related findings per cause
_WALKS = ("impact", "predicates")  # policy bindings whose rows depend on the active policy


class ReasonCode(StrEnum):
    """The cause of a result that is not an answer; ``None`` on an answer."""

    UNKNOWN_COMPONENT = "unknown_component"
    NOT_MENTIONED = "not_mentioned"
    NO_STATED_RELATION = "no_stated_relation"
    NOT_SUPPORTED = "not_supported"  # found, but only hedged, negated, superseded or inferred
    UNCITED_ANSWER = "uncited_answer"  # sources state it; the model's answer cited nothing
    NOT_READ = "relation_not_read"  # no relation was looked up: the question was not read as one
    NOT_WALKED_BY_POLICY = "not_walked_by_policy"
    ATTRIBUTE_NOT_HELD = "attribute_not_held"
    UNSUPPORTED_CITATION = "unsupported_citation"  # a cited sentence backs no supported hop
    OFF_QUESTION = "off_question"  # real, supported citations that answer another question
    CITATION_REJECTED = "citation_rejected"  # an evidence ID no tool call returned
    NO_CONCLUSION = "no_conclusion"  # the model gave no answer within its steps
    AMBIGUOUS = "ambiguous"
    ERROR = "error"


@dataclass(frozen=True)
class Diagnosis:
    """One cause, its sentence for the reader, and the context that shows it."""

    code: ReasonCode
    text: str
    related: tuple[RelatedFinding, ...] = ()


Walk = Callable[[Policy, str, dict[str, Any]], Sequence[GradedPath]]
"""Runs one named walk query under a policy (recorded like any call of the investigation)."""
Mentions = Callable[[str], list[dict[str, Any]]]
"""The stored sentences that mention one entity (the ``mentions`` query), at most a few."""


@dataclass(frozen=True)
class Walked:
    """A walk the investigation made: its query and parameters."""

    query: str
    params: dict[str, Any]


def looks_up(query: str) -> bool:
    """A query that reads relations or the sentences that may state them."""
    named = get_query(query)
    return named.returns_paths or named.fulltext is not None


def walks_of(calls: Iterable[tuple[str, dict[str, Any]]]) -> list[Walked]:
    """The calls whose result the active policy decides (a walk or an undirected lookup);
    a lookup of one named predicate is not: the policy did not choose what it read."""
    found: dict[str, Walked] = {}
    for query, params in calls:
        binding = get_query(query).policy_binding
        if binding in _WALKS and not params.get("predicate"):
            found.setdefault(f"{query}{sorted(params.items())}", Walked(query, dict(params)))
    return list(found.values())


def unknown_component(question: str, snapshot: GraphSnapshot) -> Diagnosis:
    """The question binds no entity: say so, with the graph's names nearest its words."""
    near: dict[str, None] = {}
    for word in _name_like_words(question):
        near.update(dict.fromkeys(near_names(snapshot, word)))
    offered = list(near)[:MAX_NEAR_NAMES]
    text = "the question names no component this graph knows"
    if offered:
        text += "; near names: " + ", ".join(repr(n) for n in offered)
    return Diagnosis(ReasonCode.UNKNOWN_COMPONENT, text)


def near_names(snapshot: GraphSnapshot, word: str) -> list[str]:
    """The graph's names nearest ``word``: through the name index where the build wrote one
    (the closest code-like name), else by scoring every name."""
    index = snapshot.index
    if index is not None:
        found = index.closest_code_like(word)
        return [found[0]] if found else []
    names = list(dict.fromkeys(snapshot.names.values()))
    scored = process.extract(
        word, names, scorer=fuzz.ratio, limit=MAX_NEAR_NAMES, score_cutoff=NEAR_NAME_CUTOFF
    )
    return [name for name, _score, _ in scored]


def _name_like_words(question: str) -> list[str]:
    """Words of a question that may be a misspelt name: not ordinary English, 3+ letters."""
    words = [w.strip("?.,;:!\"'()`") for w in question.split()]
    return [w for w in words if len(w) >= 3 and not is_ordinary(w)]


def other_policies(active: Policy) -> list[Policy]:
    """The policies beside the active one (its own directory) that walk something it blocks."""
    directory = Path(active.source).parent if active.source else POLICY_DIR
    blocked = set(active.blocked())
    return [
        p
        for p in list_policies(directory)
        if p.name != active.name and blocked & set(p.traversable())
    ]


def not_walked(
    active: Policy, walks: Sequence[Walked], walk: Walk, names: Mapping[str, str]
) -> Diagnosis | None:
    """Paths the investigation's walks would find under another policy, over predicates the
    active one blocks: the predicate, the policy that walks it and what it would add."""
    blocked = active.blocked()
    for policy in other_policies(active):
        added: dict[str, RelatedFinding] = {}
        predicates: dict[str, None] = {}
        for walked in walks:
            for path in walk(policy, walked.query, walked.params):
                hops = [h for h in path.hops if h.rel_type in blocked]
                if not hops or path.label != SUPPORTED:
                    continue
                predicates.update(dict.fromkeys(h.rel_type for h in hops))
                finding = _finding(path, names)
                added.setdefault(finding.text, finding)
        if added:
            which = ", ".join(predicates)
            why = "; ".join(f"{p}: {blocked[p]}" for p in predicates)
            text = (
                f"a source states {len(added)} path{'s' if len(added) != 1 else ''} over "
                f"{which}, which policy {active.name} does not walk ({why}); policy "
                f"{policy.name} ({policy.mode}) walks {which} and would add "
                f"{_listed(list(added))} (ask with --policy {policy.name})"
            )
            return Diagnosis(
                ReasonCode.NOT_WALKED_BY_POLICY, text, tuple(list(added.values())[:MAX_SHOWN])
            )
    return None


def uncited(
    entity_ids: Sequence[str], names: Mapping[str, str], asked: Asked, claimed: bool, looked: bool
) -> Diagnosis | None:
    """Nothing was cited because the model claimed something without a citation, or because
    nothing was looked up: the cause is the answer or the question's reading, not the
    sources."""
    if claimed:
        return Diagnosis(
            ReasonCode.UNCITED_ANSWER,
            "the answer claims something and cites no sentence; every claim must cite its "
            "sentence, so it is withheld",
        )
    if not looked:
        named = ", ".join(names.get(i, i) for i in entity_ids)
        why = (
            "the question's relation was not recognised"
            if asked.intent == Intent.UNKNOWN
            else "the model gave up without looking one up"
        )
        return Diagnosis(
            ReasonCode.NOT_READ, f"no relation of {named} was read in this investigation: {why}"
        )
    return None


def not_stated(
    entity_ids: Sequence[str],
    names: Mapping[str, str],
    paths: Sequence[GradedPath],
    mentions: Mentions,
    asked: Asked,
) -> Diagnosis:
    """No walk found the asked relation supported: found only hedged, negated or inferred; or
    the entity's other stated relations and the sentences that mention it are context; with
    no sentence at all, the entity is not mentioned."""
    named = ", ".join(names.get(i, i) for i in entity_ids)
    on_question = [p for p in paths if _on_question(p, entity_ids, asked)]
    if on_question:
        return Diagnosis(  # the paths are listed with the answer, each hop with its grade
            ReasonCode.NOT_SUPPORTED,
            "no source states it as a fact: the sentences found state it hedged, negated, "
            "superseded or only by inference (see the paths and their grades)",
        )
    found: dict[str, RelatedFinding] = {}
    for path in paths:
        if path.label == SUPPORTED:
            finding = _finding(path, names)
            found.setdefault(finding.text, finding)
    if found:
        text = (
            f"sources state relations of {named} ({_listed(list(found))}); the answer took "
            f"none of them as {asked_relation(asked)}"
        )
        return Diagnosis(
            ReasonCode.NO_STATED_RELATION, text, tuple(list(found.values())[:MAX_SHOWN])
        )
    rows = [row for entity_id in entity_ids[:3] for row in mentions(entity_id)]
    if not rows:
        return Diagnosis(
            ReasonCode.NOT_MENTIONED,
            f"no stored sentence mentions {named} (it is known to the graph, not stated about)",
        )
    sentences = list(dict.fromkeys(str(r["sentence_id"]) for r in rows))
    finding = RelatedFinding(
        f"a sentence that mentions {named}", tuple(sentences[:MAX_SHOWN]), "graph"
    )
    text = (
        f"{len(sentences)} stored sentence{' mentions' if len(sentences) == 1 else 's mention'} "
        f"{named}; none states {asked_relation(asked)}"
    )
    return Diagnosis(ReasonCode.NO_STATED_RELATION, text, (finding,))


def asked_relation(asked: Asked) -> str:
    """What the question asked, in words, for the reason ("what depends on it")."""
    predicates = "/".join(asked.predicates)
    return {
        Intent.IMPACT: "what is at risk if it changes",
        Intent.UPSTREAM: "what it depends on",
        Intent.LOOKUP_OUT: f"a {predicates or 'relation'} from it",
        Intent.LOOKUP_IN: f"a {predicates or 'relation'} to it",
        Intent.PATH: "a path between the named components",
        Intent.YES_NO: f"the asked {predicates or 'relation'}",
    }.get(asked.intent, "the asked relation")


def off_question_reason(asked: Asked, sentences: Sequence[str]) -> str:
    """The reason for a withheld answer whose citations answer another question."""
    return (
        f"the answer cites {len(sentences)} sentence{'s' if len(sentences) != 1 else ''} that "
        f"state{'s' if len(sentences) == 1 else ''} something other than {asked_relation(asked)} "
        f"({sentences[0]!r}{', …' if len(sentences) > 1 else ''}): real and supported, but an "
        "answer to another question, so it is shown as related context and the answer is withheld"
    )


def _on_question(path: GradedPath, entity_ids: Sequence[str], asked: Asked) -> bool:
    """A path about what was asked: through every named entity; when the question names a
    predicate, over it, with the named entity at the asked end ("what does X call?": X the
    caller)."""
    if not all(i in path.nodes for i in entity_ids):
        return False
    if not asked.predicates:
        return True
    hops = [h for h in path.hops if h.rel_type in asked.predicates]
    if asked.intent == Intent.LOOKUP_OUT:
        return any(h.source in entity_ids for h in hops)
    if asked.intent == Intent.LOOKUP_IN:
        return any(h.target in entity_ids for h in hops)
    return bool(hops)


def _finding(path: GradedPath, names: Mapping[str, str]) -> RelatedFinding:
    text = " → ".join(
        f"{names.get(h.source, h.source)} {h.rel_type} {names.get(h.target, h.target)}"
        for h in path.hops
    )
    return RelatedFinding(text, tuple(h.best.evidence.sentence_id for h in path.hops), "graph")


def _listed(texts: list[str]) -> str:
    shown = "; ".join(texts[:MAX_SHOWN])
    return shown + (f"; and {len(texts) - MAX_SHOWN} more" if len(texts) > MAX_SHOWN else "")
