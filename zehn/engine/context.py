"""Related context for a question the graph cannot answer: what the sources do state about
the named entities, shown beside the abstention and never as the answer.

Two kinds, both cited: the entity's own source-supported relations (graph edges), and
sentences that mention the entity and the asked words (full-text search). A sentence about
a neighbouring setting or another component's port is context only: the engine has already
abstained when this is gathered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from zehn.queries.terms import search_words
from zehn.reading.questions.asking import Asked
from zehn.reading.vocabulary import GradeLabel

MAX_RELATIONS = 5
MAX_SENTENCES = 5


class _Outcome(Protocol):
    payload: dict[str, Any]
    rows: list[dict[str, Any]]


ContextCall = Callable[[str, dict[str, Any]], _Outcome | None]
"""Runs one named query for context (recorded like any call); None when it failed."""


@dataclass(frozen=True)
class RelatedFinding:
    """One line of context and the sentences behind it."""

    text: str
    sentence_ids: tuple[str, ...]
    found_by: str  # "graph" (a source-supported edge) or "search" (a full-text match)


def related_context(
    call: ContextCall, entity_ids: Sequence[str], question: str, asked: str
) -> list[RelatedFinding]:
    """The cited relations of ``entity_ids`` and the sentences that mention them with the
    question's words (``asked``: the attribute, named in each finding)."""
    found: list[RelatedFinding] = []
    for entity_id in entity_ids[:3]:
        outcome = call("neighbours", {"entity_id": entity_id})
        if outcome is None:
            continue
        for path in outcome.payload.get("paths", [])[: MAX_RELATIONS * 2]:
            if path.get("label") != GradeLabel.SUPPORTED:
                continue
            names = dict(zip(path["nodes"], path["entities"], strict=False))
            for hop in path["hops"]:
                text = f"{names.get(hop['source'])} {hop['rel_type']} {names.get(hop['target'])}"
                found.append(RelatedFinding(text, (str(hop["sentence_id"]),), "graph"))
    found = list({f.text: f for f in found}.values())[:MAX_RELATIONS]
    terms = search_words(question)
    if terms:
        outcome = call(
            "search_sentences",
            {"entity_ids": list(entity_ids), "terms": terms, "limit": MAX_SENTENCES},
        )
        for row in outcome.rows if outcome is not None else []:
            found.append(
                RelatedFinding(
                    f"a sentence that mentions it and the words of the question ({asked}?)",
                    (str(row["sentence_id"]),),
                    "search",
                )
            )
    return found


def attribute_context(
    call: ContextCall,
    entity_ids: Sequence[str],
    surfaces: Sequence[str],
    question: str,
    asked: Asked,
) -> tuple[list[RelatedFinding], str]:
    """For a question about an attribute the graph does not model (a port, a URL …): what the
    sources state about the named entities, and the abstention's reason."""
    attribute = asked.attribute or "attribute"
    words = search_words(question, list(surfaces))
    found = related_context(call, entity_ids, words, attribute)
    names = ", ".join(dict.fromkeys(surfaces))
    reason = (
        f"the question asks for the {attribute} of {names}; the graph holds relations between "
        f"components and not their {attribute}"
        + ("; related sentences are listed as context" if found else "")
    )
    return found, reason
