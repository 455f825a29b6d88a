"""Which supported hops a draft may cite for the question as asked: the sentence that speaks
to the question, the asked protocol, condition, setting and named object, and impacts the
sources do not contradict."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from zehn.models.plan import MAX_CITED, Plan
from zehn.models.senses import stating_what
from zehn.reading.scripts import HAN_SPAN

_OUTAGE = re.compile(
    r"\b(?:down|unavailable|outage|fail\w*|crash\w*|unreachable|offline|restart\w*)\b"
    r"|宕机|宕掉|挂了|挂掉|不可用|故障|失效|下线|断开",
    re.IGNORECASE,
)

_STOP_WORDS = frozenset(
    "the and does did what which who whom where when how with from into over its their this "
    "that for are was were will would can could has have any all".split()
)


def question_words(text: str, names: Sequence[str]) -> frozenset[str]:
    """Content words of a question (English words, Chinese character pairs), names removed:
    what a cited sentence is compared with."""
    for name in names:
        if name:
            text = text.replace(name, " ")
    found = {w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _STOP_WORDS}
    for run in re.findall(f"[{HAN_SPAN}]{{2,}}", text):
        found.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(found)


def closest(path: Mapping[str, Any], plan: Plan) -> Mapping[str, Any]:
    """``path`` with each hop cited by the supporting sentence that shares the most words
    with the question, then names the most of what it names as the question writes them
    ("scheduler", not "SchedulerProcess"), then the best-graded one: the sentence that speaks
    to it."""
    if not plan.words and not plan.names:
        return path
    hops = []
    for hop in path["hops"]:
        sentences = list(hop.get("supported") or ())
        if len(sentences) > 1:
            ranked = sorted(
                enumerate(sentences),
                key=lambda x: (
                    -len(question_words(str(x[1].get("quote") or ""), ()) & plan.words),
                    -_written(str(x[1].get("quote") or ""), plan.names),
                    x[0] > 0,  # the grader's best sentence first, then the others
                    str(x[1].get("sentence_id") or ""),  # by id, not the rows' order
                ),
            )
            sentences = [g for _, g in ranked]
            hop = {**hop, "supported": sentences, "sentence_id": sentences[0]["sentence_id"]}
        hops.append(hop)
    return {**path, "hops": hops}


def _written(quote: str, names: Sequence[str]) -> int:
    """How many of ``names`` the quote writes as whole words (any case)."""
    return sum(
        bool(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", quote, re.IGNORECASE))
        for n in names
        if n
    )


def affects(path: Mapping[str, Any], plan: Plan) -> int:
    return sum(h["rel_type"] == "AFFECTS" for h in path["hops"]) if plan.intent == "impact" else 0


def supported_ids(hop: Mapping[str, Any]) -> list[str]:
    """The sentence the hop is cited by; a hop marked ``corroborated`` (the whole answer is
    that one hop) is cited by every sentence that supports it, up to :data:`MAX_CITED`."""
    if not hop.get("corroborated"):
        return [str(hop["sentence_id"])]
    found = [str(g["sentence_id"]) for g in hop.get("supported") or ()]
    return list(dict.fromkeys(found or [str(hop["sentence_id"])]))[:MAX_CITED]


def admitted(
    plan: Plan, supported: list[Mapping[str, Any]], results: list[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """Paths whose every hop keeps a sentence that answers the question as asked: stated
    with the asked protocol ("over gRPC"), about the condition it is asked under ("when X
    is down, …": a sentence that does not mention X answers another question), naming what
    a lookup asks with ("where does X read Y from?"), and from a document that writes about
    the setting ("in a Celery deployment, …")."""
    documents: set[str] | None = None
    if plan.context:
        documents = {
            str(row.get("document") or "")
            for r in results
            for row in r.get("rows", [])
            if row.get("document") and "score" not in row
        }

    def keeps(sentence: Mapping[str, Any], hop: Mapping[str, Any]) -> bool:
        quote = str(sentence.get("quote") or "").lower()
        if stating_what(hop, plan.predicates) and not (question_words(quote, ()) & plan.words):
            return False  # "Do A report their state to B?": a use of B that says what flows
        if plan.protocol and not re.search(rf"(?<![a-z]){plan.protocol}(?![a-z])", quote):
            return False
        if plan.condition_names and not (
            any(n.lower() in quote for n in plan.condition_names) and _OUTAGE.search(quote)
        ):
            return False  # a sentence about the condition names it and its outage
        if plan.named and not any(n.lower() in quote for n in plan.named):
            return False  # "where does X read Y from?": a sentence about Y
        document = str(sentence.get("sentence_id") or "").split("#")[0]
        return documents is None or document in documents

    kept: list[Mapping[str, Any]] = []
    for path in supported:
        hops = []
        for hop in path["hops"]:
            sentences = [g for g in hop.get("supported") or [hop] if keeps(g, hop)]
            if not sentences:
                break
            hops.append({**hop, "supported": sentences, "sentence_id": sentences[0]["sentence_id"]})
        else:
            kept.append({**path, "hops": hops})
    return kept


def unvetoed(
    plan: Plan, supported: list[Mapping[str, Any]], paths: list[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """Impact paths the sources do not contradict: a path through an entity that a source
    says the change does not affect ("X going down does not affect Y") is no risk claimed."""
    spared = {
        h["target"]
        for p in paths
        for h in p["hops"]
        if str(h.get("reason", "")).startswith("the sentence negates")
        and h["rel_type"] == "AFFECTS"  # "X going down does not affect Y": no impact at all
        and h["source"] in plan.changed
    }
    kept = [p for p in supported if not spared.intersection(p["nodes"][1:])]
    if plan.concerning:  # "what happens to X when Y is down?": the impact on X only
        kept = [p for p in kept if p["nodes"][-1] in plan.concerning]
    return kept
