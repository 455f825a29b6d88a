"""The offline model: deterministic, no network. It plans named-query calls from the
question's wording and drafts an answer only from source-supported hops.

It is a planner, not a judge: the engine verifies and gates its drafts exactly
as it does a remote model's. Questions it does not recognise get "I don't
know" and say which kinds of question it handles. A question asked in Chinese
is read by ``zehn.models.chinese`` and answered in Chinese; citations stay the
stored sentences, in their own language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from zehn.models.base import DraftAnswer, Exchange, Question, ToolRequest, ToolSpec
from zehn.models.chinese import PHRASES, Phrases, parse_chinese
from zehn.reading.cues import NEGATION
from zehn.reading.lang import EN, ZH, detect_language
from zehn.reading.questions import WHAT_IS as _WHAT_IS
from zehn.reading.vocabulary import GradeLabel

SUPPORTED = GradeLabel.SUPPORTED
HANDLED = PHRASES[EN].handled
_VERBS: dict[str, str] = {
    "read": "READS_FROM", "write": "WRITES_TO", "call": "CALLS", "consume": "CONSUMES_FROM",
    "publish": "PUBLISHES_TO", "use": "USES", "feed": "FEEDS", "affect": "AFFECTS",
    "own": "OWNS", "depend": "DEPENDS_ON",
}  # fmt: skip
_VERB = r"(read|write|call|consume|publish|use|feed|affect|own|depend)(?:s|es|ed|ing)?"
_IMPACT = re.compile(
    r"\bif (?:i|we|you|someone) (?:change|modify|update|touch|deprecate|remove|break|restart)\b"
    r"|\bif .+ (?:changes|breaks|goes down|is down)\b"
    r"|\bwhat (?:breaks|would break|could break|might break|is affected|gets affected|is impacted)"
    r"|\b(?:what|who) depends on\b|\bblast radius\b|\bimpact of\b",
    re.IGNORECASE,
)
_UPSTREAM = re.compile(r"\bwhat does .+ depend on\b|\bwhat is .+ dependent on\b", re.IGNORECASE)
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are)\b", re.IGNORECASE)
_SUBJECT_VERB = re.compile(rf"\b(?:what|where|which \w+) (?:does|do) .+? {_VERB}\b", re.IGNORECASE)
_OBJECT_VERB = re.compile(rf"^\s*(?:what|who|which \w+)\s+{_VERB}\b", re.IGNORECASE)
_KIND_WORDS = {"customer": "customer", "customers": "customer", "team": "team", "teams": "team"}


@dataclass(frozen=True)
class _Plan:
    intent: str
    calls: tuple[ToolRequest, ...]
    focus: str | None = None
    other: str | None = None
    kind: str | None = None
    language: str = EN
    namesakes: Mapping[str, str] = field(default_factory=dict)  # Question.namesakes

    @property
    def phrases(self) -> Phrases:
        return PHRASES[self.language]


class OfflineModel:
    """Deterministic planner and writer; the default model."""

    name = "offline"

    def __init__(self, max_hops: int = 3) -> None:
        self.max_hops = max_hops

    def next_step(
        self, question: Question, tools: Sequence[ToolSpec], history: Sequence[Exchange]
    ) -> ToolRequest | DraftAnswer:
        plan = replace(self.plan(question), namesakes=question.namesakes)
        if len(history) < len(plan.calls):
            return plan.calls[len(history)]
        results = [_payload(e) for e in history]
        return self._draft(plan, results)

    def plan(self, question: Question) -> _Plan:
        text = question.text
        entities = [str(e["id"]) for e in question.hints.get("entities", []) if e.get("id")]
        entities = list(dict.fromkeys(entities))
        if not entities:
            return _Plan("none", ())
        focus = entities[0]
        other = entities[1] if len(entities) > 1 else None
        kind = next((k for w, k in _KIND_WORDS.items() if re.search(rf"\b{w}\b", text, re.I)), None)
        if _language(question) == ZH:
            return self._plan_chinese(question, focus, other)
        if _YES_NO.match(text) and other is not None:
            verbs = [v for v in re.findall(_VERB, text, re.IGNORECASE)]
            if verbs:
                call = _neighbours(focus, _VERBS[verbs[0].lower()], "out")
                return _Plan("yes_no", (call,), focus, other)
        if _IMPACT.search(text):
            call = ToolRequest("downstream_impact", {"entity_id": focus, "depth": self.max_hops})
            return _Plan("impact", (call,), focus)
        if _UPSTREAM.search(text):
            call = ToolRequest(
                "upstream_dependencies", {"entity_id": focus, "depth": self.max_hops}
            )
            return _Plan("upstream", (call,), focus)
        if match := _SUBJECT_VERB.search(text):
            tail = text[match.start() :]
            found = dict.fromkeys(v.lower() for v in re.findall(_VERB, tail, re.IGNORECASE))
            calls = tuple(_neighbours(focus, _VERBS[v], "out") for v in found)
            return _Plan("lookup_out", calls, focus, kind=kind)
        if match := _OBJECT_VERB.search(text):
            call = _neighbours(focus, _VERBS[match.group(1).lower()], "in")
            return _Plan("lookup_in", (call,), focus, kind=kind)
        if _WHAT_IS.match(text):
            return _Plan(
                "what_is", (ToolRequest("mentions", {"entity_id": focus, "limit": 20}),), focus
            )
        return _Plan("unknown", (), focus)

    def _plan_chinese(self, question: Question, focus: str, other: str | None) -> _Plan:
        surface = str(question.hints["entities"][0].get("surface") or "")
        asked = parse_chinese(question.text, surface, other is not None)
        walk = {"entity_id": focus, "depth": self.max_hops}
        calls: tuple[ToolRequest, ...] = ()
        if asked.intent == "impact":
            calls = (ToolRequest("downstream_impact", walk),)
        elif asked.intent == "upstream":
            calls = (ToolRequest("upstream_dependencies", walk),)
        elif asked.intent == "what_is":
            calls = (ToolRequest("mentions", {"entity_id": focus, "limit": 20}),)
        elif asked.intent != "unknown":
            calls = tuple(_neighbours(focus, p, asked.direction) for p in asked.predicates)
        return _Plan(asked.intent, calls, focus, other, asked.kind, ZH)

    # --- drafting --------------------------------------------------------------------------

    def _draft(self, plan: _Plan, results: list[Mapping[str, Any]]) -> DraftAnswer:
        say = plan.phrases
        if plan.intent == "none":
            return DraftAnswer(say.nothing_named)
        if plan.intent == "unknown":
            return DraftAnswer(say.unhandled.format(handled=say.handled))
        if plan.intent == "what_is":
            return self._what_is(plan, results)
        paths = [p for r in results for p in r.get("paths", [])]
        supported = [p for p in paths if p.get("label") == SUPPORTED]
        if plan.intent == "yes_no":
            hops = [h for p in supported for h in p["hops"] if h["target"] == plan.other]
            if not hops:
                return DraftAnswer(say.no_source)
            h = hops[0]
            return DraftAnswer(
                f"{say.yes}{_hop_text(h, _names(paths, plan), say)} [[{h['sentence_id']}]]",
                (h["sentence_id"],),
            )
        if plan.intent in ("lookup_out", "lookup_in"):
            side = "target" if plan.intent == "lookup_out" else "source"
            hops = [h for p in supported for h in p["hops"]]
            if plan.kind:
                hops = [h for h in hops if str(h[side]).startswith(f"{plan.kind}:")]
            names = _names(paths, plan)
            return _listing(
                hops, lambda h: f"{_hop_text(h, names, say)} [[{h['sentence_id']}]]", say
            )
        return _chains(plan, supported, paths)

    def _what_is(self, plan: _Plan, results: list[Mapping[str, Any]]) -> DraftAnswer:
        rows = [row for r in results for row in r.get("rows", [])]

        def score(row: Mapping[str, Any]) -> tuple[int, int, int, int]:
            offset = int(row["start"]) - int(row.get("sentence_start") or 0)
            defines = 0 if offset <= 4 else 1
            preferred = 0 if row.get("source_type") == "confluence" else 1
            negates = 1 if NEGATION.search(str(row["text"])) else 0  # "X does not …" defines little
            return (defines, preferred, negates, -len(str(row["text"])))

        if not rows:
            return DraftAnswer(plan.phrases.no_sentence)
        best = sorted(rows, key=score)[0]
        return DraftAnswer(f"{best['text']} [[{best['sentence_id']}]]", (str(best["sentence_id"]),))


def _neighbours(entity_id: str, predicate: str, direction: str) -> ToolRequest:
    return ToolRequest(
        "neighbours", {"entity_id": entity_id, "predicate": predicate, "direction": direction}
    )


def _payload(exchange: Exchange) -> Mapping[str, Any]:
    try:
        data = json.loads(exchange.result)
    except ValueError:
        return {}
    return data if isinstance(data, Mapping) else {}


def _names(paths: Sequence[Mapping[str, Any]], plan: _Plan) -> dict[str, str]:
    """Entity id -> how the answer names it: its name, with its kind when another entity of
    the graph has the same name ("Redwood Inference (service)")."""
    names: dict[str, str] = {}
    for path in paths:
        names.update(zip(path.get("nodes", []), path.get("entities", []), strict=False))
    return {
        node: plan.phrases.named(name, plan.namesakes[node]) if node in plan.namesakes else name
        for node, name in names.items()
    }


def _language(question: Question) -> str:
    """The question's language, not counting its names ("What does 红木推理团队 own?": en)."""
    text = question.text
    surfaces = [str(e.get("surface") or "") for e in question.hints.get("entities", [])]
    spans = [(i, i + len(s)) for s in surfaces if s and (i := text.find(s)) >= 0]
    return detect_language(text, spans)


def _hop_text(hop: Mapping[str, Any], names: Mapping[str, str], say: Phrases) -> str:
    source, target = hop["source"], hop["target"]
    return say.hop(names.get(source, source), hop["rel_type"], names.get(target, target))


def _listing(hops: list[Mapping[str, Any]], line: Any, say: Phrases) -> DraftAnswer:
    if not hops:
        return DraftAnswer(say.no_source)
    unique = list({(h["source"], h["rel_type"], h["target"]): h for h in hops}.values())
    text = "\n".join(f"- {line(h)}" for h in unique)
    return DraftAnswer(text, tuple(dict.fromkeys(h["sentence_id"] for h in unique)))


def _chains(
    plan: _Plan, supported: list[Mapping[str, Any]], paths: list[Mapping[str, Any]]
) -> DraftAnswer:
    """One line per entity reached by a fully supported path (the shortest one)."""
    say = plan.phrases
    if not supported:
        return DraftAnswer(say.no_source)
    names = _names(paths, plan)
    best: dict[str, Mapping[str, Any]] = {}
    for path in sorted(supported, key=lambda p: len(p["hops"])):
        best.setdefault(path["nodes"][-1], path)
    focus = names.get(plan.focus or "", plan.focus)
    head = (say.impact_head if plan.intent == "impact" else say.upstream_head).format(focus=focus)
    lines: list[str] = [head]
    cited: list[str] = []
    for node, path in best.items():
        steps = say.step_sep.join(
            f"{_hop_text(h, names, say)} [[{h['sentence_id']}]]" for h in path["hops"]
        )
        via = (
            say.via.format(names=say.list_sep.join(names.get(n, n) for n in path["nodes"][1:-1]))
            if len(path["hops"]) > 1
            else ""
        )
        lines.append(say.line.format(node=names.get(node, node), via=via, steps=steps))
        cited.extend(h["sentence_id"] for h in path["hops"])
    others = len(paths) - len(supported)
    if others:
        lines.append(say.others.format(n=others))
    return DraftAnswer("\n".join(lines), tuple(dict.fromkeys(cited)))
