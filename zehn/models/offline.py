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
from dataclasses import replace
from typing import Any

from zehn.models.admit import admitted, affects, closest, question_words, supported_ids, unvetoed
from zehn.models.base import CARRIED, DraftAnswer, Exchange, Question, ToolRequest, ToolSpec
from zehn.models.chinese import PHRASES, Phrases
from zehn.models.plan import MAX_CITED, MAX_FOCI, SUPPORTED, Plan
from zehn.models.senses import NARROWER, answering, between, to_a_server
from zehn.queries.terms import search_words
from zehn.reading.lang import EN, detect_language
from zehn.reading.modality import NEGATION
from zehn.reading.questions.asking import Intent
from zehn.reading.questions.asking_zh import read_asked
from zehn.reading.questions.telemetry import asks_telemetry, speaks_of_telemetry
from zehn.reading.vocabulary import EntityKind

MAX_CARRIED = 10
# kinds a walk's answer is filtered by; "services" is said of any running component
_SPECIFIC_KINDS = {EntityKind.DATASTORE, EntityKind.TEAM, EntityKind.CUSTOMER, EntityKind.TOPIC}
_JOINED = re.compile(r"\b(?:and|as\s+well\s+as|both)\b|[和与及、]", re.IGNORECASE)
CONTEXT_MENTIONS = 50
SEARCH_LIMIT = 10
HANDLED = PHRASES[EN].handled


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
        planned = results[: len(plan.calls)]
        more = _follow_ups(plan, planned)
        if not more and plan.parts and not self._draft(plan, planned).cited_ids:
            more = tuple(ToolRequest("neighbours", {"entity_id": e}) for e in plan.parts)
        done = len(history) - len(plan.calls)
        if done < len(more):
            return more[done]
        if done > 0 and plan.parts:  # the parts were looked at: they answer for the focus
            plan = replace(plan, about=(*plan.about, *plan.parts))
        return self._draft(plan, results)

    def plan(self, question: Question) -> Plan:
        """Which named queries answer the question: read by ``zehn.reading.questions.asking``."""
        hinted = [e for e in question.hints.get("entities", []) if e.get("id")]
        language = _language(question)
        if not hinted:
            return Plan("none", (), language=language)
        surfaces = [str(e.get("surface") or "") for e in hinted]
        asked = read_asked(question.text, surfaces, language)
        by_surface = {str(e.get("surface") or ""): str(e["id"]) for e in hinted}
        ordered = [by_surface[f] for f in asked.focus if f in by_surface]
        entities = list(dict.fromkeys([*ordered, *(str(e["id"]) for e in hinted)]))
        condition = tuple(by_surface[f] for f in asked.condition if f in by_surface)
        context = tuple(by_surface[f] for f in asked.context if f in by_surface)
        concerning = tuple(by_surface[f] for f in asked.concerning if f in by_surface)
        if condition or context:  # a condition or a setting is never the asked entity
            entities = [e for e in entities if e not in (*condition, *context)] or entities
        focus = entities[0]
        other = entities[1] if len(entities) > 1 else None
        walk = {"entity_id": focus, "depth": self.max_hops}
        # the kind of the asked relation's object: "which topic …", "… the orders queue"
        asked_kind = "topic" if EntityKind.TOPIC in asked.target_kinds else ""
        object_kind = {
            Intent.LOOKUP_IN: _kind(focus),
            Intent.LOOKUP_OUT: asked_kind,
            Intent.YES_NO: _kind(focus if asked.passive else other or ""),
        }.get(asked.intent, "")
        carried_ids: list[str] = []
        calls: tuple[ToolRequest, ...] = ()
        intent = asked.intent
        changed = [e for e in entities if e not in concerning][:MAX_FOCI]
        if intent == Intent.IMPACT and asked.behind:  # what the focus is built on, first
            calls = tuple(_neighbours(focus, p, "out") for p in asked.predicates)
        elif intent == Intent.IMPACT:
            calls = tuple(
                ToolRequest("downstream_impact", {"entity_id": e, "depth": self.max_hops})
                for e in changed
            )
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
            obj = focus if asked.passive else other
            calls = tuple(
                _neighbours(focus, predicate, direction)
                for predicate in dict.fromkeys(
                    (_sensed(asked.predicates[0], _kind(obj)), *to_a_server(asked.predicates, obj))
                )
            )
            calls += _search([focus, other], question.text, hinted)
        elif intent in (Intent.LOOKUP_OUT, Intent.LOOKUP_IN):
            direction = "out" if intent == Intent.LOOKUP_OUT else "in"
            # a part that refers back ("and who owns them?") asks about each entity carried
            carried = [e for e in entities if e != focus and _carried(hinted, e)][:MAX_CARRIED]
            carried_ids = carried
            calls = tuple(
                _neighbours(
                    entity,
                    _sensed(p, _kind(entity) if direction == "in" else asked_kind),
                    direction,
                )
                for entity in [focus, *carried]
                for p in dict.fromkeys(
                    q
                    for a in asked.predicates
                    for q in (
                        a,
                        *NARROWER.get(a, ()),
                        *(to_a_server((a,), entity) if direction == "in" else ()),
                    )
                )
            )
            if not carried:  # a relation the build missed may still be stated: search for it
                calls += _search([focus], question.text, hinted)
        else:
            intent = Intent.UNKNOWN
        if context and intent in (Intent.LOOKUP_OUT, Intent.LOOKUP_IN, Intent.YES_NO):
            # "In a Celery deployment, …": where the setting is written about
            calls += tuple(
                ToolRequest("mentions", {"entity_id": e, "limit": CONTEXT_MENTIONS})
                for e in context
            )
        return Plan(
            str(intent),
            calls,
            focus,
            other,
            asked.target_kinds,
            asked.attribute,
            language,
            predicates=tuple(
                dict.fromkeys(
                    [
                        *asked.predicates,
                        *(_sensed(p, object_kind) for p in asked.predicates),
                    ]
                )
            ),
            passive=asked.passive,
            about=(focus, *carried_ids),
            condition=condition,
            concerning=concerning,
            changed=tuple(changed) if intent == Intent.IMPACT else (focus,),
            context=context,
            protocol=asked.protocol,
            condition_names=tuple(asked.condition),
            behind=asked.behind and intent == Intent.IMPACT,
            also=tuple(e for e in entities[2:] if e not in (*condition, *context))[:MAX_FOCI]
            if intent == Intent.YES_NO and not asked.passive and _JOINED.search(question.text)
            else (),
            named=tuple(
                f
                for f in asked.focus[1:]
                if f in by_surface
                and f.lower() in question.text.lower()  # written, not carried from a part
                and by_surface[f] not in (focus, *condition, *context, *carried_ids)
            )
            if intent in (Intent.LOOKUP_OUT, Intent.LOOKUP_IN)
            else (),
            words=question_words(question.text, surfaces),
            names=tuple(surfaces),
            parts=tuple(
                str(p["id"]) for p in question.hints.get("parts", []) if p.get("of") == focus
            )[:MAX_FOCI]
            if intent in (Intent.LOOKUP_OUT, Intent.LOOKUP_IN)
            else (),
        )

    # --- drafting --------------------------------------------------------------------------

    def _draft(self, plan: Plan, results: list[Mapping[str, Any]]) -> DraftAnswer:
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
        supported = [closest(p, plan) for p in paths if p.get("label") == SUPPORTED]
        if plan.intent in ("yes_no", "lookup_out", "lookup_in"):
            supported = admitted(plan, supported, results)
        if plan.intent == "yes_no":
            return _yes_no(plan, supported, paths)
        if plan.intent in ("lookup_out", "lookup_in"):
            return _lookup(plan, supported, paths)
        if plan.intent == "path":
            supported = [p for p in supported if p["nodes"][-1] == plan.other]
        if plan.behind:
            return _behind(plan, results[: len(plan.calls)], results[len(plan.calls) :])
        others = len(paths) - len(supported)
        if plan.intent in ("impact", "upstream") and not asks_telemetry(plan.words):
            # sending traces or logs is no runtime dependency (``questions.telemetry``)
            supported = [p for p in supported if not _telemetry(p)]
        if plan.intent == "impact":
            supported = unvetoed(plan, supported, paths)
        if plan.intent == "upstream":
            return _upstream(plan, supported, paths)
        return _chains(plan, supported, paths, others)

    def _what_is(self, plan: Plan, results: list[Mapping[str, Any]]) -> DraftAnswer:
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
    words = search_words(text, (str(entity.get("surface") or "") for entity in hinted))
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


def _names(paths: Sequence[Mapping[str, Any]], plan: Plan) -> dict[str, str]:
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


def _cite(hop: Mapping[str, Any]) -> str:
    """Markers for every sentence that supports the hop (at most :data:`MAX_CITED`)."""
    return " ".join(f"[[{i}]]" for i in supported_ids(hop))


def _cited(hop: Mapping[str, Any]) -> tuple[str, ...]:
    return tuple(supported_ids(hop))


def _follow_ups(plan: Plan, results: list[Mapping[str, Any]]) -> tuple[ToolRequest, ...]:
    """A call made only when the planned walk found nothing: for "what does X depend on?"
    what X calls (one hop, a direct lookup: the policy does not walk CALLS)."""
    if plan.behind:
        return tuple(
            ToolRequest("downstream_impact", {"entity_id": e, "depth": 3})
            for e in _built_on(plan, results)
        )
    if plan.intent != "upstream" or not plan.focus:
        return ()
    if any(p.get("label") == SUPPORTED for r in results for p in r.get("paths", [])):
        return ()
    return (_neighbours(plan.focus, "CALLS", "out"),)


def _kind(entity_id: str) -> str:
    return entity_id.split(":", 1)[0]


def _sensed(predicate: str, kind: str) -> str:
    """The asked predicate as it is stated of an entity of ``kind``: a queue or topic is
    consumed from and published to, not read or written ("Who reads from the orders
    queue?")."""
    if kind == "topic":
        return {"READS_FROM": "CONSUMES_FROM", "WRITES_TO": "PUBLISHES_TO"}.get(
            predicate, predicate
        )
    return predicate


def _built_on_hops(plan: Plan, results: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Supported hops from the focus to what it is built on (of the named kind, if any)."""
    return [
        h
        for r in results
        for p in r.get("paths", [])
        if p.get("label") == SUPPORTED
        for h in p["hops"]
        if h["source"] == plan.focus
        and h["rel_type"] in plan.predicates
        and (not plan.kinds or _kind(h["target"]) in plan.kinds)
    ]


def _built_on(plan: Plan, results: list[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(str(h["target"]) for h in _built_on_hops(plan, results)))[:MAX_FOCI]


def _behind(
    plan: Plan, found: list[Mapping[str, Any]], walks: list[Mapping[str, Any]]
) -> DraftAnswer:
    """ "If the database behind X goes down, what breaks?": what X is built on (cited), then
    the impact of each of those; nothing when the sources name none."""
    hops = _built_on_hops(plan, found)
    if not hops:
        return DraftAnswer(plan.phrases.no_source)
    changed = tuple(_built_on(plan, found))
    names = _names([p for r in found for p in r.get("paths", [])], plan)
    say = plan.phrases
    built = _listing(hops, lambda h: f"{_hop_text(h, names, say)} {_cite(h)}", say)
    walk_plan = replace(plan, behind=False, changed=changed, focus=changed[0], kinds=())
    paths = [p for r in walks for p in r.get("paths", [])]
    supported = unvetoed(walk_plan, [p for p in paths if p.get("label") == SUPPORTED], paths)
    impact = _chains(walk_plan, supported, paths)
    if not impact.cited_ids:  # what breaks is not stated: the answer is not known
        return DraftAnswer(impact.text)
    cited = tuple(dict.fromkeys((*built.cited_ids, *impact.cited_ids)))
    return DraftAnswer(f"{built.text}\n{impact.text}", cited)


def _upstream(
    plan: Plan, supported: list[Mapping[str, Any]], paths: list[Mapping[str, Any]]
) -> DraftAnswer:
    """What the focus depends on: walked dependencies, then what it calls (one hop, a direct
    lookup: the policy does not walk CALLS)."""
    walked = [p for p in supported if any(h["rel_type"] != "CALLS" for h in p["hops"])]
    calls = [
        h
        for p in supported
        for h in p["hops"]
        if h["rel_type"] == "CALLS" and h["source"] == plan.focus and len(p["hops"]) == 1
    ]
    if not calls:
        return _chains(plan, walked, paths)
    say = plan.phrases
    names = _names(paths, plan)
    first = _chains(plan, walked, paths) if walked else None
    lines = [first.text] if first else []
    lines.append(say.calls_head.format(focus=names.get(plan.focus or "", plan.focus)))
    listing = _listing(calls, lambda h: f"{_hop_text(h, names, say)} {_cite(h)}", say)
    lines.append(listing.text)
    cited = (*(first.cited_ids if first else ()), *listing.cited_ids)
    return DraftAnswer("\n".join(lines), tuple(dict.fromkeys(cited)))


def _listing(hops: list[Mapping[str, Any]], line: Any, say: Phrases) -> DraftAnswer:
    if not hops:
        return DraftAnswer(say.no_source)
    unique = list({(h["source"], h["rel_type"], h["target"]): h for h in hops}.values())
    if len(unique) == 1:  # a one-claim answer shows every sentence that states it
        unique = [{**unique[0], "corroborated": True}]
    text = "\n".join(f"- {line(h)}" for h in unique)
    return DraftAnswer(text, tuple(dict.fromkeys(i for h in unique for i in _cited(h))))


def _yes_no(
    plan: Plan, supported: list[Mapping[str, Any]], paths: list[Mapping[str, Any]]
) -> DraftAnswer:
    """Yes, citing the hop that states the asked relation between the two names (and each
    further object asked about); else no source states it."""
    say = plan.phrases
    a, b = (plan.other, plan.focus) if plan.passive else (plan.focus, plan.other)
    hops = [
        h for p in supported for h in p["hops"] if a and b and between(h, plan.predicates, a, b)
    ]
    if not hops:
        return DraftAnswer(say.no_source)
    h = {**hops[0], "corroborated": True}
    also = []
    for more in plan.also:  # "does X call A and B?": yes only if each is stated
        found = [
            g for p in supported for g in p["hops"] if a and between(g, plan.predicates, a, more)
        ]
        if not found:
            return DraftAnswer(say.no_source)
        also.append(found[0])
    names = _names(paths, plan)
    text = say.step_sep.join(f"{_hop_text(g, names, say)} {_cite(g)}" for g in (h, *also))
    return DraftAnswer(
        f"{say.yes}{text}", tuple(dict.fromkeys(i for g in (h, *also) for i in _cited(g)))
    )


def _lookup(
    plan: Plan, supported: list[Mapping[str, Any]], paths: list[Mapping[str, Any]]
) -> DraftAnswer:
    """The entities at the asked end of the asked relation, of the asked kind, never the
    focus itself nor what the question's condition takes away."""
    say = plan.phrases
    outward = plan.intent == "lookup_out"
    found = [
        (h, answer)
        for p in supported
        for h in p["hops"]
        if (answer := answering(h, plan.predicates, plan.about, outward)) is not None
        and answer not in plan.condition
        and answer not in plan.about  # a part of the focus answers nothing about it
    ]
    if plan.kinds:
        found = [(h, e) for h, e in found if e.split(":")[0] in plan.kinds]
    names = _names(paths, plan)
    return _listing([h for h, _ in found], lambda h: f"{_hop_text(h, names, say)} {_cite(h)}", say)


def _path_order(path: Mapping[str, Any]) -> tuple[int, str, tuple[tuple[str, ...], ...]]:
    """Shortest first, then by the entity reached, then by what the hops state."""
    hops = tuple(
        (str(h["source"]), str(h["rel_type"]), str(h["target"]), str(h.get("sentence_id") or ""))
        for h in path["hops"]
    )
    return len(hops), str(path["nodes"][-1]), hops


def _telemetry(path: Mapping[str, Any]) -> bool:
    return any(speaks_of_telemetry(str(h.get("quote") or "")) for h in path["hops"])


def _chains(
    plan: Plan,
    supported: list[Mapping[str, Any]],
    paths: list[Mapping[str, Any]],
    others: int | None = None,
) -> DraftAnswer:
    """One line per entity reached by a fully supported path (its shortest ones, or for a
    path question every supported path, up to :data:`MAX_CITED`)."""
    say = plan.phrases
    others = len(paths) - len(supported) if others is None else others
    if set(plan.kinds) & _SPECIFIC_KINDS:  # "which databases does X depend on?"
        supported = [p for p in supported if _kind(p["nodes"][-1]) in plan.kinds]
    if not supported:
        return DraftAnswer(say.no_source)
    names = _names(paths, plan)
    best: dict[str, list[Mapping[str, Any]]] = {}
    # shortest first; an impact prefers the hops that state the effect ("A affects B")
    # shortest first, then by what the path states: the same graph answers the same way
    # whatever order its rows came in (a rebuild's node ids differ)
    for path in sorted(supported, key=_path_order):
        kept = best.setdefault(path["nodes"][-1], [])
        if not kept or (plan.intent == "path" and len(kept) < MAX_CITED):
            kept.append(path)
        elif len(path["hops"]) == len(kept[0]["hops"]) and affects(path, plan) > affects(
            kept[0], plan
        ):
            kept[0] = path
    focus = names.get(plan.focus or "", plan.focus)
    if plan.intent == "impact" and len(plan.changed) > 1:
        focus = say.list_sep.join(names.get(e, e) for e in plan.changed)
    heads = {"impact": say.impact_head, "path": say.path_head}
    head = heads.get(plan.intent, say.upstream_head).format(
        focus=focus, other=names.get(plan.other or "", plan.other)
    )
    lines: list[str] = [head]
    cited: list[str] = []
    for node, found in best.items():
        for path in found:
            steps = say.step_sep.join(
                f"{_hop_text(h, names, say)} {_cite(h)}" for h in path["hops"]
            )
            via = (
                say.via.format(
                    names=say.list_sep.join(names.get(n, n) for n in path["nodes"][1:-1])
                )
                if len(path["hops"]) > 1
                else ""
            )
            lines.append(say.line.format(node=names.get(node, node), via=via, steps=steps))
            cited.extend(i for h in path["hops"] for i in _cited(h))
    if others > 0:
        lines.append(say.others.format(n=others))
    return DraftAnswer("\n".join(lines), tuple(dict.fromkeys(cited)))
