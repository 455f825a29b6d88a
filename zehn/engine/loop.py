"""The investigation loop: the model proposes, the engine executes, records, verifies, decides.

1. The engine finds the entities the question names; a name with several
   identities that the question does not decide between stops here, status
   ``ambiguous``, with every identity and its evidence.
2. The model proposes named-query calls; the engine runs only whitelisted
   ones and records every sentence ID they return.
3. The model's draft is verified (cited IDs ⊆ returned IDs, none fabricated)
   and gated (every cited sentence backs a source-supported hop). Otherwise:
   "I don't know", with the reason and the paths that were found.
"""

from __future__ import annotations

import dataclasses
import json
import re
import time
from collections import ChainMap
from collections.abc import Mapping, Sequence
from typing import Any

from zehn.corpus.model import Sentence
from zehn.engine.answer import (
    ABSTAINED,
    AMBIGUOUS,
    ANSWERED,
    ERROR,
    I_DONT_KNOW,
    I_DONT_KNOW_ZH,
    Beyond,
    Citation,
    CitedAnswer,
    Identity,
    Related,
    ToolCallRecord,
    dont_know,
)
from zehn.engine.context import RelatedFinding, attribute_context
from zehn.engine.events import (
    AnswerEvent,
    Event,
    Listener,
    ToolCallEvent,
    ToolResultEvent,
    VerdictEvent,
)
from zehn.engine.frontier import WalkLimits, beyond_of, with_beyond
from zehn.engine.gate import decide, evidence_summary
from zehn.engine.limitations import Annotator, standing_limitations
from zehn.engine.parts import Carried, ask_in_parts
from zehn.engine.reasons import (
    MAX_SHOWN,
    Diagnosis,
    ReasonCode,
    looks_up,
    not_stated,
    not_walked,
    off_question_reason,
    uncited,
    unknown_component,
    walks_of,
)
from zehn.engine.relevance import off_question
from zehn.engine.spelling import named_parts, spelled
from zehn.engine.tools import ToolExecutor, ToolOutcome
from zehn.engine.verify import verify_citations
from zehn.engine.wording import ambiguous_text, printable, what_is_target
from zehn.errors import (
    InvalidParameters,
    ModelEndpointError,
    ModelError,
    RetrievalError,
    StoreError,
    UnknownPredicate,
    UnknownQuery,
    ZehnError,
)
from zehn.evidence.grade import GradedPath
from zehn.evidence.policy import Policy
from zehn.evidence.staleness import check_citations
from zehn.models.base import CARRIED, DraftAnswer, Exchange, Model, Question, ToolRequest, ToolSpec
from zehn.queries import get_query
from zehn.reading.diagrams.reader import is_diagram_edge
from zehn.reading.lang import ZH, detect_language
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder
from zehn.reading.questions.asking import Asked, Intent
from zehn.reading.questions.asking_zh import read_asked, refers_back, split_question
from zehn.reading.vocabulary import PREDICATES
from zehn.store.client import GraphClient

DEFAULT_MAX_STEPS = 8
# each query has its own server-side timeout; this bounds a whole investigation (model steps,
# grading) so that a slow model or a huge walk ends in an explicit error, never a hang
DEFAULT_DEADLINE_S = 120.0
ALL_STALE = "Note: every cited source has been superseded or is older than the policy allows."
ALL_STALE_ZH = "注意：所有引用的来源都已被后来的来源取代，或早于策略允许的时限。"
_MARKER = re.compile(r"\[\[([^\[\]]+)\]\]")


class _Stop(Exception):
    """Ends an investigation early with a final status."""

    def __init__(self, status: str, reason: str, code: ReasonCode | None = None) -> None:
        self.status = status
        self.reason = reason
        # an abstention without a code is diagnosed (``zehn.engine.reasons``) before it is said
        self.code = code or _CODES.get(status)
        super().__init__(reason)


_CODES: dict[str, ReasonCode] = {ERROR: ReasonCode.ERROR, AMBIGUOUS: ReasonCode.AMBIGUOUS}


class Engine:
    """Answers questions over one graph under one policy with one (untrusted) model."""

    def __init__(
        self,
        client: GraphClient,
        graph: str,
        policy: Policy,
        model: Model,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        listener: Listener | None = None,
        deadline_s: float = DEFAULT_DEADLINE_S,
        annotators: Mapping[str, Annotator] | None = None,
        walk_limits: WalkLimits | None = None,
        owns_client: bool = False,
    ) -> None:
        self.client = client
        self.owns_client = owns_client  # ``close`` closes the client: ``open_engine`` made it
        self.walk_limits = walk_limits or WalkLimits()  # how much of a large walk is shown
        self.annotators = dict(annotators or {})
        self.graph = graph
        self.policy = policy
        self.model = model
        self.max_steps = max_steps
        self.deadline_s = deadline_s
        self.listener = listener

    def close(self) -> None:
        """Close the client when this engine made it (``zehn.open_engine``)."""
        if self.owns_client:
            self.client.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def ask(self, question: str, listener: Listener | None = None) -> CitedAnswer:
        """Answer ``question``; a multi-part question is answered part by part."""
        listener = listener or self.listener
        parts = split_question(question.strip(), detect_language(question))
        if len(parts) > 1:
            return ask_in_parts(
                question.strip(),
                parts,
                lambda text, carried: _Investigation(self, text, listener, carried).run(),
            )
        return _Investigation(self, question, listener).run()


class _Investigation:
    def __init__(
        self, engine: Engine, question: str, listener: Listener | None, carried: Carried = ()
    ) -> None:
        self.engine = engine
        self.carried = carried  # what a referring part ("who owns them?") is about
        self.question = question.strip()
        self.spelled = self.question  # names respelled as the graph writes them (step 1)
        self.listener = listener
        self.tools = ToolExecutor(engine.client, engine.graph, engine.policy, engine.walk_limits)
        self.records: list[ToolCallRecord] = []
        self.history: list[Exchange] = []
        self.returned: set[str] = set()
        self.paths: dict[tuple[Any, ...], GradedPath] = {}
        self.mention_sentences: set[str] = set()
        self.sentence_rows: dict[str, dict[str, Any]] = {}
        self.identities: list[Identity] = []
        self.found_rows: list[dict[str, Any]] = []
        self.truncated: list[str] = []  # walks cut at the row limit: said in limitations
        self.beyond: list[Beyond] = []  # large walks: the nearest shown, the rest counted
        self.absent: list[str] = []  # asked predicates the graph has no edges of
        self.notes: list[str] = []  # said in limitations (a namesake chosen by fit, …)
        self.searched: set[str] = set()  # sentences whose hops were read at query time
        self.walked: set[str] = set()  # sentences of hops that are graph edges
        self.related: list[RelatedFinding] = []  # context beside the answer, never the answer
        self.asked = Asked(Intent.UNKNOWN)
        self.bound: list[str] = []  # the entity ids the question names (step 1)
        self.bound_names: list[str] = []
        self.claimed = False  # the model's draft claims something (it is no "I don't know")
        self.started = time.perf_counter()

    def run(self) -> CitedAnswer:
        self.language = detect_language(self.question)  # refined once names are bound
        try:
            if not self.question:
                raise _Stop(ERROR, "the question is empty")
            try:
                entities = self._entities_in_question()
            except InvalidParameters as e:  # e.g. a control character: an answer, not a crash
                raise _Stop(ERROR, f"the question cannot be searched: {e}") from e
            draft = self._converse(entities)
            answer = self._judge(draft)
        except _Stop as stop:
            reason, code = stop.reason, stop.code
            if code is None:  # "no source states it" is said only where it is true
                diagnosis = self._diagnose()
                found = evidence_summary(list(self.paths.values()))
                reason = f"{found}: {diagnosis.text}" if diagnosis.text else reason
                code = diagnosis.code
                self.related.extend(diagnosis.related)
            if stop.status == ABSTAINED and self.absent:
                reason = f"{reason}; {'; '.join(dict.fromkeys(self.absent))}"
            answer = self._withheld(stop.status, reason, code)
        self._emit(VerdictEvent(answer.status, answer.reason))
        self._emit(AnswerEvent(answer))
        return answer

    # --- step 1: entities and ambiguity (engine, not model) ---------------------------

    def _entities_in_question(self) -> list[Mention]:
        self.spelled = spelled(self.question, self.tools)
        outcome = self._call("find_entities", {"text": self.spelled[:500]}, by="engine")
        self.found_rows = outcome.rows
        entities = [
            Entity(str(r["name"]), str(r["kind"]), tuple(r.get("aliases") or ()))
            for r in outcome.rows
        ]
        sentence = Sentence("question/q", self.spelled, 0, len(self.spelled))
        mentions = Binder(entities).bind(sentence) if entities else []
        if not mentions and self.carried and refers_back(self.question):
            mentions = [
                Mention("question/q", 0, 0, name, (entity_id,), CARRIED)
                for entity_id, name in self.carried
            ]
        # Chinese outside the names: "What does 红木推理团队 own?" is still English
        self.language = detect_language(self.spelled, [(m.start, m.end) for m in mentions])
        self.asked = read_asked(self.spelled, [m.surface for m in mentions], self.language)
        for mention in [m for m in mentions if m.ambiguous]:
            resolved = self._call("resolve_entity", {"name": mention.surface}, by="engine")
            identities = [
                Identity(
                    str(r["id"]), str(r["name"]), str(r["kind"]), tuple(r.get("evidence") or ())
                )
                for r in resolved.rows
            ]
            fitting = [i for i in identities if self.asked.fits(i.kind)]
            if len(fitting) == 1:  # the asked relation fits one kind only: said, not merged
                chosen = fitting[0]
                self.notes.append(
                    f"{mention.surface!r} names {len(identities)} things; only the "
                    f"{chosen.kind} fits the question ({self.asked.why})"
                )
                mentions = [
                    dataclasses.replace(m, candidates=(chosen.id,), reason="kind fits the question")
                    if m is mention
                    else m
                    for m in mentions
                ]
                continue
            self.identities = identities
            kinds = ", ".join(f"a {i.kind}" for i in self.identities)
            raise _Stop(
                AMBIGUOUS,
                f"{mention.surface!r} names {len(self.identities)} different things ({kinds}) "
                "and the question does not say which one is meant",
            )
        found = [m for m in mentions if m.entity_id]
        self.bound = list(dict.fromkeys(str(m.entity_id) for m in found))
        rows = [str(r["name"]) for r in self.found_rows if str(r["id"]) in self.bound]
        self.bound_names = [*rows, *(m.surface for m in found)]  # carried parts: the surface
        if found and self.asked.intent == Intent.ATTRIBUTE:
            self._not_modelled(found)
        return found

    def _not_modelled(self, mentions: list[Mention]) -> None:
        """An attribute the graph does not model (a port, a URL …): abstain, by code, with
        what the sources do state about the entity beside the answer, never as it."""
        surfaces = [m.surface for m in mentions]
        ids = list(dict.fromkeys(str(m.entity_id) for m in mentions))
        found, reason = attribute_context(
            self._context_call, ids, surfaces, self.spelled, self.asked
        )
        self.related.extend(found)
        raise _Stop(ABSTAINED, reason, ReasonCode.ATTRIBUTE_NOT_HELD)

    def _context_call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome | None:
        """A context query: a failure is a limitation of the context, never of the answer."""
        try:
            return self._call(name, arguments, by="engine")
        except (_Stop, ZehnError) as e:
            self.notes.append(f"related context: {name} could not be read ({e})")
            return None

    def _diagnose(self) -> Diagnosis:
        """Why nothing was cited (``zehn.engine.reasons``): read-only checks, recorded."""
        try:
            snapshot = self.tools.snapshot()
            if not self.bound and not self.claimed:
                return unknown_component(self.spelled, snapshot)
            # live: the ends of the hops walked below are read into the snapshot's names
            names = ChainMap(
                {str(r["id"]): str(r["name"]) for r in self.found_rows}, snapshot.names
            )
            model = [r for r in self.records if r.by == "model"]
            looked = any(looks_up(r.query) for r in model)  # "no X edges" is a look too
            cause = uncited(self.bound, names, self.asked, self.claimed, looked)
            walks = walks_of((r.query, r.params) for r in model if not r.error)
            cause = cause or not_walked(self.engine.policy, walks, self._walk_under, names)
            paths = list(self.paths.values())
            return cause or not_stated(self.bound, names, paths, self._mentions, self.asked)
        except (_Stop, ZehnError) as e:  # the reason could not be checked: said as it is
            self.notes.append(f"the cause of the abstention could not be checked: {e}")
            return Diagnosis(ReasonCode.NO_STATED_RELATION, "")

    def _mentions(self, entity_id: str) -> list[dict[str, Any]]:
        arguments = {"entity_id": entity_id, "limit": MAX_SHOWN}
        return self._call("mentions", arguments, by="engine").rows

    def _walk_under(self, policy: Policy, query: str, params: dict[str, Any]) -> list[GradedPath]:
        """One of the investigation's walks under another policy, recorded with its name;
        its paths are context for the reason, never the answer's."""
        engine = self.engine
        tools = ToolExecutor(engine.client, engine.graph, policy, engine.walk_limits)
        outcome = tools.run(query, params)
        recorded = {**outcome.params, "policy": policy.name}
        ids = outcome.returned_ids
        self.records.append(ToolCallRecord(query, recorded, ids, outcome.ms, None, "engine"))
        self.returned.update(ids)
        return list(outcome.paths)

    # --- step 2: the model's calls ------------------------------------------------------

    def _converse(self, mentions: list[Mention]) -> DraftAnswer:
        hints = {
            "entities": [
                {"id": m.entity_id, "surface": m.surface, "reason": m.reason} for m in mentions
            ],
            "policy": self.engine.policy.name,
            # entities named after the question's ones ("Grafana Server" for "Grafana")
            "parts": named_parts([str(m.entity_id) for m in mentions], self.tools),
        }
        question = Question(self.spelled, hints=hints, namesakes=self._namesakes())
        specs = [
            ToolSpec(q.name, q.description, q.tool_schema()) for q in self.tools.tool_queries()
        ]
        steps = self.engine.max_steps + len(self.carried)  # one lookup per carried entity
        for _ in range(steps):
            if time.perf_counter() - self.started > self.engine.deadline_s:
                raise _Stop(
                    ERROR,
                    f"the investigation ran past its deadline of {self.engine.deadline_s:g} s; "
                    "nothing was concluded",
                )
            try:
                step = self.engine.model.next_step(question, specs, list(self.history))
            except ModelEndpointError as e:
                raise _Stop(ERROR, f"model endpoint failed: {e}") from e
            except ModelError as e:
                raise _Stop(ERROR, f"model output rejected: {e}") from e
            if isinstance(step, DraftAnswer):
                return step
            self._model_call(step)
        raise _Stop(
            ABSTAINED, f"the model gave no answer within {steps} steps", ReasonCode.NO_CONCLUSION
        )

    def _namesakes(self) -> Mapping[str, str]:
        """Question.namesakes: kept per graph revision, like the entities they come from."""
        try:
            found = self.tools.snapshot().namesakes()
        except (StoreError, RetrievalError) as e:  # the database failed: never a guess
            raise _Stop(ERROR, f"{type(e).__name__}: {e}") from e
        return found

    def _model_call(self, request: ToolRequest) -> None:
        try:
            outcome = self._call(request.name, dict(request.arguments), by="model")
        except UnknownQuery as e:
            raise _Stop(
                ERROR, f"the model asked for a query that is not on the whitelist: {e}"
            ) from e
        except InvalidParameters as e:
            self.history.append(Exchange(request, json.dumps({"error": str(e)}), (), str(e)))
            return
        self.history.append(Exchange(request, outcome.as_text(), outcome.returned_ids))

    def _call(self, name: str, arguments: dict[str, Any], *, by: str) -> ToolOutcome:
        self._emit(ToolCallEvent(name, arguments, by))
        started = time.perf_counter()
        try:
            outcome = self.tools.run(name, arguments)
        except (RetrievalError, StoreError) as e:
            ms = (time.perf_counter() - started) * 1000
            self.records.append(
                ToolCallRecord(name, printable(arguments), (), ms, f"{type(e).__name__}: {e}", by)
            )
            self._emit(ToolResultEvent(name, 0, ms, str(e)))
            if isinstance(e, UnknownQuery | InvalidParameters):
                raise  # the model's mistake: the caller decides
            if isinstance(e, UnknownPredicate) and e.predicate in PREDICATES:
                # a relation the vocabulary knows and no source was read as stating: the
                # question is fair and the answer is "I don't know", not a failure
                self.absent.append(f"the graph has no {e.predicate} edges")
                return ToolOutcome(name, dict(arguments), {"paths": [], "count": 0}, (), ms)
            # the database failed, or the graph has no such predicate: never an empty result
            raise _Stop(ERROR, f"{type(e).__name__}: {e}") from e
        self.records.append(
            ToolCallRecord(name, outcome.params, outcome.returned_ids, outcome.ms, None, by)
        )
        rows = len(outcome.paths) if outcome.paths else len(outcome.rows)
        self._emit(ToolResultEvent(name, len(outcome.returned_ids), outcome.ms, rows=rows))
        self._absorb(outcome)
        return outcome

    def _absorb(self, outcome: ToolOutcome) -> None:
        self.returned.update(outcome.returned_ids)
        if outcome.payload.get("unavailable"):
            self.notes.append(f"sentence search: {outcome.payload['unavailable']}")
        by_search = get_query(outcome.query).fulltext is not None
        (self.searched if by_search else self.walked).update(
            h.best.evidence.sentence_id for p in outcome.paths for h in p.hops
        )
        if outcome.payload.get("truncated"):
            self.truncated.append(f"{outcome.query}: {outcome.payload['truncated']}")
        if (beyond := beyond_of(outcome.query, outcome.params, outcome.payload)) is not None:
            self.beyond.append(beyond)
        for path in outcome.paths:
            key = (
                path.nodes,
                tuple(
                    (h.source, h.rel_type, h.target, h.best.evidence.sentence_id) for h in path.hops
                ),
            )
            self.paths.setdefault(key, path)
            for hop in path.hops:
                for grade in (hop.best, *hop.alternatives):
                    e = grade.evidence
                    self.sentence_rows.setdefault(
                        e.sentence_id,
                        {"sentence_id": e.sentence_id, "text": e.text, "start": e.start,
                         "end": e.start + len(e.text), "document": e.document, "title": e.title,
                         "source_type": e.source_type, "date": e.date},
                    )  # fmt: skip
        for row in outcome.rows:
            if row.get("sentence_id") and row.get("text") is not None:
                self.sentence_rows.setdefault(str(row["sentence_id"]), row)
        target = what_is_target(self.question, self.found_rows)
        if target is not None:
            mentions_of = get_query(outcome.query).mentions_of
            if mentions_of == "param" and outcome.params.get("entity_id") in target:
                self.mention_sentences.update(outcome.returned_ids)
            if mentions_of == "rows":
                for row in outcome.rows:
                    if row["id"] in target:
                        self.mention_sentences.update(str(s) for s in row.get("evidence") or ())

    # --- step 3: verify and gate (code) ------------------------------------------------

    def _judge(self, draft: DraftAnswer) -> CitedAnswer:
        cited = list(dict.fromkeys(draft.cited_ids))
        self.claimed = not draft.text.strip().startswith((I_DONT_KNOW, I_DONT_KNOW_ZH))
        paths = list(self.paths.values())
        verification = verify_citations(cited, self.returned)
        if not verification.ok and cited:
            raise _Stop(ABSTAINED, f"{verification.reason}", ReasonCode.CITATION_REJECTED)
        decision = decide(cited, paths, self.mention_sentences)
        if not decision.open:  # nothing cited: diagnosed; a citation backing nothing: said
            code = ReasonCode.UNSUPPORTED_CITATION if cited else None
            raise _Stop(ABSTAINED, decision.reason or "no supported citation", code)
        if self.mention_sentences.isdisjoint(cited) and (
            off := off_question(cited, paths, self.asked, self.bound_names, self.spelled)
        ):  # real and supported, but an answer to another question: context, never the answer
            self.related.append(
                RelatedFinding("what the answer cited instead", tuple(off), "graph")
            )
            raise _Stop(ABSTAINED, off_question_reason(self.asked, off), ReasonCode.OFF_QUESTION)
        citations = self._citations(cited)
        numbers = {c.id: c.n for c in citations}
        text = _MARKER.sub(lambda m: f"[{numbers[m[1]]}]" if m[1] in numbers else "", draft.text)
        text = with_beyond(text, self.beyond, self.language)  # counted, never listed
        if citations and all(c.stale for c in citations):  # the answer rests on stale evidence
            note = ALL_STALE_ZH if self.language == ZH else ALL_STALE
            answer = self._result(ANSWERED, f"{text.strip()}\n\n{note}", None, citations)
            return dataclasses.replace(
                answer,
                limitations=(*answer.limitations, f"staleness: {ALL_STALE.removeprefix('Note: ')}"),
            )
        return self._result(ANSWERED, text.strip(), None, citations)

    def _citations(self, cited: Sequence[str], first: int = 1) -> tuple[Citation, ...]:
        citations = []
        for n, sentence_id in enumerate(cited, start=first):
            row = self.sentence_rows.get(sentence_id)
            if row is None or "title" not in row:
                rows = self.tools.internal("sentence", {"sentence_id": sentence_id})
                row = rows[0] if rows else {"text": "", "start": 0, "end": 0, "document": ""}
            citations.append(
                Citation(
                    n=n,
                    id=sentence_id,
                    document=str(row.get("document") or ""),
                    source_type=str(row.get("source_type") or ""),
                    title=str(row.get("title") or ""),
                    quote=str(row.get("text") or ""),
                    span=(int(row.get("start") or 0), int(row.get("end") or 0)),
                    date=row.get("date"),
                    found_by="search"
                    if sentence_id in self.searched and sentence_id not in self.walked
                    else "graph",
                    diagram_line=is_diagram_edge(str(row.get("text") or "")),
                )
            )
        try:
            staleness = check_citations(self.tools, cited, self.engine.policy)
        except (StoreError, RetrievalError) as e:  # unchecked is not "not stale"
            raise _Stop(ERROR, f"staleness could not be checked: {type(e).__name__}: {e}") from e
        return tuple(
            dataclasses.replace(
                c,
                stale=True,
                superseded_by=s.superseding_sentence_id,
                superseded_quote=s.superseding_quote,
                stale_reason=s.reason,
            )
            if (s := staleness.get(c.id)) is not None and s.stale
            else c
            for c in citations
        )

    # --- results --------------------------------------------------------------------------

    def _withheld(self, status: str, reason: str, code: ReasonCode | None) -> CitedAnswer:
        text = (
            dont_know(self.language)
            if status != AMBIGUOUS
            else ambiguous_text(self.identities, self.language)
        )
        return dataclasses.replace(self._result(status, text, reason, ()), reason_code=code)

    def _result(
        self, status: str, text: str, reason: str | None, citations: tuple[Citation, ...]
    ) -> CitedAnswer:
        related: list[Related] = []
        if self.related:
            numbers = {c.id: c.n for c in citations}
            extra = [sid for f in self.related for sid in f.sentence_ids if sid not in numbers]
            found_by = {sid: f.found_by for f in self.related for sid in f.sentence_ids}
            try:
                context = self._citations(list(dict.fromkeys(extra)), first=len(citations) + 1)
            except _Stop as stop:  # context that cannot be checked is left out, and said
                self.notes.append(f"related context left out: {stop.reason}")
                context = ()
            context = tuple(
                dataclasses.replace(c, role="related", found_by=found_by.get(c.id, c.found_by))
                for c in context
            )
            numbers.update({c.id: c.n for c in context})
            citations = (*citations, *context)
            related = [
                Related(f.text, tuple(numbers[s] for s in f.sentence_ids if s in numbers))
                for f in self.related
            ]
        return CitedAnswer(
            question=self.question,
            status=status,
            answer=text,
            reason=reason,
            graph=self.engine.graph,
            policy=self.engine.policy.to_dict(),
            model=self.engine.model.name,
            citations=citations,
            paths=tuple(self.paths.values()),
            identities=tuple(self.identities),
            tool_calls=tuple(self.records),
            limitations=self._limitations(),
            elapsed_ms=(time.perf_counter() - self.started) * 1000,
            language=self.language,
            related=tuple(related),
            beyond=tuple(self.beyond),
        )

    def _limitations(self) -> tuple[str, ...]:
        engine = self.engine
        notes = standing_limitations(self.tools, engine.policy, engine.annotators)
        if self.paths:
            notes.append(f"evidence: {evidence_summary(list(self.paths.values()))}")
        notes.extend(f"truncated: {note}" for note in dict.fromkeys(self.truncated))
        notes.extend(dict.fromkeys(self.notes))
        return tuple(notes)

    def _emit(self, event: Event) -> None:
        if self.listener is not None:
            self.listener(event)
