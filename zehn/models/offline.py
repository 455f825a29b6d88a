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

from zehn.models.base import CARRIED, DraftAnswer, Exchange, Question, ToolRequest, ToolSpec
from zehn.models.chinese import PHRASES, Phrases
from zehn.reading.asking import Intent, read_question
from zehn.reading.asking_zh import read_question_zh
from zehn.reading.cues import NEGATION
from zehn.reading.lang import EN, ZH, detect_language
from zehn.reading.vocabulary import GradeLabel

SUPPORTED = GradeLabel.SUPPORTED
MAX_CARRIED = 10
SEARCH_LIMIT = 10
HANDLED = PHRASES[EN].handled


@dataclass(frozen=True)
class _Plan:
    intent: str
    calls: tuple[ToolRequest, ...]
    focus: str | None = None
    other: str | None = None
    kinds: tuple[str, ...] = ()
    attribute: str | None = None
    language: str = EN
    namesakes: Mapping[str, str] = field(default_factory=dict)  # Question.namesakes
    predicates: tuple[str, ...] = ()  # the asked relation(s)
    passive: bool = False
    about: tuple[str, ...] = ()  # the entities a lookup is about (the focus, carried ones)

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
        """Which named queries answer the question: read by ``zehn.reading.asking``."""
        hinted = [e for e in question.hints.get("entities", []) if e.get("id")]
        entities = list(dict.fromkeys(str(e["id"]) for e in hinted))
        language = _language(question)
        if not entities:
            return _Plan("none", (), language=language)
        focus = entities[0]
        other = entities[1] if len(entities) > 1 else None
        if language == ZH:
            surface = str(hinted[0].get("surface") or "")
            asked = read_question_zh(question.text, surface, other is not None)
        else:
            asked = read_question(question.text, [str(e.get("surface") or "") for e in hinted])
        walk = {"entity_id": focus, "depth": self.max_hops}
        carried_ids: list[str] = []
        calls: tuple[ToolRequest, ...] = ()
        intent = asked.intent
        if intent == Intent.IMPACT:
            calls = (ToolRequest("downstream_impact", walk),)
        elif intent == Intent.UPSTREAM:
            calls = (ToolRequest("upstream_dependencies", walk),)
        elif intent == Intent.WHAT_IS:
            calls = (ToolRequest("mentions", {"entity_id": focus, "limit": 20}),)
        elif intent == Intent.ATTRIBUTE:
            calls = (ToolRequest("neighbours", {"entity_id": focus}),)
        elif intent == Intent.PATH and other is not None:
            calls = (ToolRequest("path_between", {**walk, "other_id": other}),)
        elif intent == Intent.PATH:  # "trace a change from X": where a change to X reaches
            intent = Intent.IMPACT
            calls = (ToolRequest("downstream_impact", walk),)
        elif intent == Intent.YES_NO and other is not None:
            direction = "in" if asked.passive else "out"
            calls = (_neighbours(focus, asked.predicates[0], direction),)
            calls += _search([focus, other], question.text, hinted)
        elif intent in (Intent.LOOKUP_OUT, Intent.LOOKUP_IN):
            direction = "out" if intent == Intent.LOOKUP_OUT else "in"
            # a part that refers back ("and who owns them?") asks about each entity carried
            carried = [e for e in entities if e != focus and _carried(hinted, e)][:MAX_CARRIED]
            carried_ids = carried
            calls = tuple(
                _neighbours(entity, p, direction)
                for entity in [focus, *carried]
                for p in asked.predicates
            )
            if not carried:  # a relation the build missed may still be stated: search for it
                calls += _search([focus], question.text, hinted)
        else:
            intent = Intent.UNKNOWN
        return _Plan(
            str(intent),
            calls,
            focus,
            other,
            asked.target_kinds,
            asked.attribute,
            language,
            predicates=tuple(asked.predicates),
            passive=asked.passive,
            about=(focus, *carried_ids),
        )

    # --- drafting --------------------------------------------------------------------------

    def _draft(self, plan: _Plan, results: list[Mapping[str, Any]]) -> DraftAnswer:
        say = plan.phrases
        if plan.intent == "none":
            return DraftAnswer(say.nothing_named)
        if plan.intent == "unknown":
            return DraftAnswer(say.unhandled.format(handled=say.handled))
        if plan.intent == "attribute":
            return DraftAnswer(say.not_modelled.format(attribute=plan.attribute or "attribute"))
        if plan.intent == "what_is":
            return self._what_is(plan, results)
        paths = [p for r in results for p in r.get("paths", [])]
        supported = [p for p in paths if p.get("label") == SUPPORTED]
        if plan.intent == "yes_no":
            ends = (plan.other, plan.focus) if plan.passive else (plan.focus, plan.other)
            hops = [
                h
                for p in supported
                for h in p["hops"]
                if (h["source"], h["target"]) == ends and h["rel_type"] in plan.predicates
            ]
            if not hops:
                return DraftAnswer(say.no_source)
            h = hops[0]
            return DraftAnswer(
                f"{say.yes}{_hop_text(h, _names(paths, plan), say)} [[{h['sentence_id']}]]",
                (h["sentence_id"],),
            )
        if plan.intent in ("lookup_out", "lookup_in"):
            side = "target" if plan.intent == "lookup_out" else "source"
            asked = "source" if plan.intent == "lookup_out" else "target"
            hops = [
                h
                for p in supported
                for h in p["hops"]
                if h["rel_type"] in plan.predicates and h[asked] in plan.about
            ]
            if plan.kinds:
                hops = [h for h in hops if str(h[side]).split(":")[0] in plan.kinds]
            names = _names(paths, plan)
            return _listing(
                hops, lambda h: f"{_hop_text(h, names, say)} [[{h['sentence_id']}]]", say
            )
        if plan.intent == "path":
            supported = [p for p in supported if p["nodes"][-1] == plan.other]
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


def _search(
    entity_ids: Sequence[str], text: str, hinted: Sequence[Mapping[str, Any]]
) -> tuple[ToolRequest, ...]:
    """A full-text search for the question's words among sentences naming its entities."""
    for entity in hinted:
        text = text.replace(str(entity.get("surface") or ""), " ")
    words = " ".join(re.findall(r"[A-Za-z][A-Za-z0-9_-]{2,}|[\u3400-\u9fff]+", text))[:300]
    if not words.strip():
        return ()
    arguments = {"entity_ids": list(entity_ids), "terms": words, "limit": SEARCH_LIMIT}
    return (ToolRequest("search_sentences", arguments),)


def _carried(hinted: Sequence[Mapping[str, Any]], entity_id: str) -> bool:
    return any(e.get("id") == entity_id and e.get("reason") == CARRIED for e in hinted)


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
    heads = {"impact": say.impact_head, "path": say.path_head}
    head = heads.get(plan.intent, say.upstream_head).format(
        focus=focus, other=names.get(plan.other or "", plan.other)
    )
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
