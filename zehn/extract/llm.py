"""The ``llm`` strategy: graphrag-sdk's extraction step over any OpenAI-compatible endpoint.

Why not ``GraphRAG.ingest``: graphrag-sdk 1.x's ingest always writes its own
graph to FalkorDB, needs an ``Embedder`` it probes first, and logs and skips
chunks whose LLM call failed. ZEHN's pipeline owns the graph and needs a
complete result or an error, so we run the machinery one level down:
``CallableChunking`` over ZEHN's chunks (uids pinned to ZEHN chunk ids: chunk
provenance) into ``GraphExtraction.extract``, with an ``LLMInterface`` over
``openai.OpenAI`` that fails loudly. Step 1 (entity spotting) is a catalog
lookup, not GLiNER (torch); step 2 is the SDK's verify-and-relate prompt.
Relations are then mapped onto ZEHN predicates, entities and the one sentence
of the chunk that names the endpoints; the model's description is kept as
``fact``, never used as a quote.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter, defaultdict
from collections.abc import Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from typing import Any

import openai
from openai.types.chat import ChatCompletion

from zehn.extract.llm_extra import is_llm_module, missing_sdk_message

# graphrag-sdk is not a dependency (its own pull torch, see ``llm_extra``): importing this
# module without it says how to install it, naming the extra
try:
    import graphrag_sdk as gs
    from graphrag_sdk.core.models import ExtractedEntity, ExtractedRelation, LLMResponse
except ModuleNotFoundError as _missing:
    if not is_llm_module(_missing):
        raise
    raise ImportError(missing_sdk_message(_missing), name=_missing.name) from _missing

from zehn.config import Settings
from zehn.corpus.model import Chunk, Progress, Sentence, SourceText
from zehn.endpoint import endpoint_errors
from zehn.errors import ExtractionError, ModelEndpointError
from zehn.extract.base import Extraction
from zehn.reading.model import Edge, Entity, Mention
from zehn.reading.names.binding import find_name
from zehn.reading.names.catalog import Catalog
from zehn.reading.vocabulary import ENTITY_KINDS, PREDICATES, EntityKind, Predicate

DEFAULT_KIND = EntityKind.COMPONENT
DEFAULT_MAX_CONCURRENCY = 4
_PREDICATE_ALIASES: dict[str, str] = {
    "DEPENDS": Predicate.DEPENDS_ON, "CALL": Predicate.CALLS, "FEED": Predicate.FEEDS,
    "FEEDS_INTO": Predicate.FEEDS, "AFFECT": Predicate.AFFECTS, "USE": Predicate.USES,
    "READS": Predicate.READS_FROM, "WRITES": Predicate.WRITES_TO,
    "PUBLISHES": Predicate.PUBLISHES_TO, "CONSUMES": Predicate.CONSUMES_FROM,
    "OWN": Predicate.OWNS,
}  # fmt: skip
_FLAGS = [
    gs.Attribute(name="negated", type="BOOLEAN", description="the text says it does not hold"),
    gs.Attribute(name="hedged", type="BOOLEAN", description="only planned or hypothetical"),
]


class LLMStrategy:
    """Relations proposed by a language model, pinned to the sentences that mention them."""

    name = "llm"
    version = "1"

    def __init__(
        self, *, timeout_s: float | None = None, max_concurrency: int = DEFAULT_MAX_CONCURRENCY
    ) -> None:
        self.timeout_s = timeout_s
        self.max_concurrency = max_concurrency

    def extract(
        self,
        documents: Sequence[SourceText],
        catalog: Catalog | None,
        settings: Settings,
        progress: Progress | None = None,
    ) -> Extraction:
        """One model call per chunk; any endpoint failure fails the whole extraction."""
        needed = {"OPENAI_BASE_URL": settings.openai_base_url}
        needed["ZEHN_OPENAI_MODEL"] = settings.openai_model
        if missing := [variable for variable, value in needed.items() if not value]:
            raise ModelEndpointError(
                "the llm strategy needs an OpenAI-compatible endpoint: set OPENAI_BASE_URL "
                f"and ZEHN_OPENAI_MODEL (missing: {', '.join(missing)})"
            )
        timeout_s = self.timeout_s or settings.query_timeout_ms / 1000
        llm = _OpenAIChat(settings, timeout_s, self.max_concurrency)
        extractor = gs.GraphExtraction(
            llm, entity_extractor=_CatalogSpotter(catalog), max_concurrency=self.max_concurrency
        )
        mapper = _Mapper(catalog)
        try:
            _run(self._extract_all(extractor, documents, mapper, progress))
        except gs.GraphRAGError as e:
            raise ExtractionError(f"graphrag-sdk extraction failed: {e}") from e
        return mapper.result(self.name)

    async def _extract_all(
        self,
        extractor: gs.GraphExtraction,
        documents: Sequence[SourceText],
        mapper: _Mapper,
        progress: Progress | None,
    ) -> None:
        ontology = _ontology()
        for doc in documents:
            chunks = [c for c in doc.chunks if doc.text[c.start : c.end].strip()]
            ctx = gs.Context(metadata={"doc_id": doc.doc_id})
            texts = [doc.text[c.start : c.end] for c in chunks]
            chunker = gs.CallableChunking(lambda _, texts=texts: texts, strategy_name="zehn")
            produced = (await chunker.chunk(doc.text, ctx)).chunks
            # Pin each SDK chunk uid to the ZEHN chunk id: provenance comes back as ours.
            pinned = [
                p.model_copy(update={"uid": c.id}) for p, c in zip(produced, chunks, strict=True)
            ]
            if pinned:
                graph = await extractor.extract(gs.TextChunks(chunks=pinned), ontology, ctx)
                mapper.add(doc, chunks, graph)
            if progress is not None:
                progress(1)


class _OpenAIChat(gs.LLMInterface):
    """graphrag-sdk's LLM seam over ``openai.OpenAI``: one attempt, errors become ours."""

    def __init__(self, settings: Settings, timeout_s: float, max_concurrency: int) -> None:
        super().__init__(model_name=str(settings.openai_model), max_concurrency=max_concurrency)
        self.base_url = str(settings.openai_base_url)
        self.timeout_s = timeout_s
        # max_retries=0: a dead endpoint should fail in one timeout, not after backoff.
        key = settings.openai_api_key or "unused"  # local servers accept any key
        self._client = openai.OpenAI(
            base_url=self.base_url, api_key=key, timeout=timeout_s, max_retries=0
        )

    def invoke(self, prompt: str, **kwargs: Any) -> LLMResponse:
        where = f"model endpoint {self.base_url} ({self.model_name})"
        with endpoint_errors(where, self.timeout_s):
            response = self._client.chat.completions.create(
                model=self.model_name,
                messages=[{"role": "user", "content": prompt}],
                temperature=0,
            )
        if not isinstance(response, ChatCompletion):
            raise ModelEndpointError(f"{where} sent a body that is not an OpenAI chat completion")
        content = response.choices[0].message.content if response.choices else None
        if not isinstance(content, str) or not content.strip():
            raise ModelEndpointError(f"{where} answered without text content")
        _check_shape(content, where)
        return LLMResponse(content=content)

    async def ainvoke(self, prompt: str, **kwargs: Any) -> LLMResponse:
        """No retry loop: the SDK's would turn a refused connection into seconds of backoff."""
        return await asyncio.to_thread(self.invoke, prompt)

    async def abatch_invoke(
        self, prompts: list[str], *, max_concurrency: int | None = None, **kwargs: Any
    ) -> list[gs.LLMBatchItem]:
        """Raise the first failure: the SDK's version logs it and silently drops the chunk."""
        sem = asyncio.Semaphore(max_concurrency or self.max_concurrency)

        async def call(index: int, prompt: str) -> gs.LLMBatchItem:
            async with sem:
                return gs.LLMBatchItem(index=index, response=await self.ainvoke(prompt))

        return list(await asyncio.gather(*(call(i, p) for i, p in enumerate(prompts))))


def _check_shape(content: str, where: str) -> None:
    """Reject what GraphExtraction would silently read as "nothing found"."""
    try:
        data = json.loads(re.sub(r"^```(?:json)?\s*|\s*```$", "", content.strip()))
    except json.JSONDecodeError as e:
        raise ModelEndpointError(
            f"{where} answered malformed JSON ({e.msg} at char {e.pos}): {content[:80]!r}"
        ) from e
    rels = data.get("relationships") if isinstance(data, dict) else None
    if (
        not isinstance(rels, list)
        or not isinstance(data.get("entities", []), list)
        or not all(isinstance(r, dict) and _strings(r, "source", "target", "type") for r in rels)
    ):
        raise ModelEndpointError(
            f"{where} answered JSON of the wrong shape; expected "
            '{"entities": [...], "relationships": [{"source", "target", "type", ...}]}'
        )


def _strings(item: dict[str, Any], *keys: str) -> bool:
    return all(isinstance(item.get(k), str) for k in keys)


class _CatalogSpotter(gs.EntityExtractor):
    """Step 1 without GLiNER: catalog entities named in the chunk, every kind of each name."""

    def __init__(self, catalog: Catalog | None) -> None:
        self.entities = catalog.entities if catalog else ()

    async def extract_entities(
        self, text: str, entity_types: list[str], source_chunk_id: str
    ) -> list[ExtractedEntity]:
        return [
            ExtractedEntity(name=e.name, type=e.kind, source_chunk_ids=[source_chunk_id])
            for e in self.entities
            if _find(text, _terms(e.name, e)) is not None
        ]


class _Mapper:
    """Turns graphrag-sdk relations into ZEHN edges, counting what it has to drop."""

    def __init__(self, catalog: Catalog | None) -> None:
        self.catalog = catalog
        self.index: dict[str, list[Entity]] = defaultdict(list)
        for entity in catalog.entities if catalog else ():
            for term in {entity.name.lower(), *(a.lower() for a in entity.aliases)}:
                self.index[term].append(entity)
        self.entities: dict[str, Entity] = {}
        self.mentions: dict[tuple[str, int, int, str], Mention] = {}
        self.edges: list[Edge] = []
        self.dropped: Counter[str] = Counter()
        self.examples: dict[str, list[str]] = defaultdict(list)

    def add(self, doc: SourceText, chunks: Sequence[Chunk], graph: gs.GraphData) -> None:
        by_id = {c.id: c for c in chunks}
        for rel in graph.extracted_relations:
            predicate = _predicate(rel.type)
            label = f"{rel.source} -{rel.type}-> {rel.target}"
            if predicate is None:
                self._drop(f"predicate outside the vocabulary ({rel.type})", label)
                continue
            for chunk_id in rel.source_chunk_ids:
                chunk = by_id.get(chunk_id)
                if chunk is not None:
                    self._add_edge(doc, chunk, rel, predicate, graph.extracted_entities, label)

    def _add_edge(
        self,
        doc: SourceText,
        chunk: Chunk,
        rel: ExtractedRelation,
        predicate: str,
        extracted: Sequence[ExtractedEntity],
        label: str,
    ) -> None:
        subject = self._bind(rel.source, chunk.id, extracted)
        obj = self._bind(rel.target, chunk.id, extracted)
        for bound in (subject, obj):
            if isinstance(bound, str):
                self._drop(bound, label)
                return
        assert isinstance(subject, Entity) and isinstance(obj, Entity)
        sentences = [s for s in doc.sentences if chunk.start <= s.start and s.end <= chunk.end]
        s_terms, o_terms = _terms(rel.source, subject), _terms(rel.target, obj)
        picked = _pick(sentences, s_terms, o_terms, _hint(rel, chunk))
        if picked is None:
            self._drop(f"no sentence in chunk mentions {rel.source!r} or {rel.target!r}", label)
            return
        sentence, s_span, o_span = picked
        attrs = rel.attributes or {}
        self.edges.append(
            Edge.stated_by(
                sentence,
                subject.id,
                predicate,
                obj.id,
                fact=rel.description or f"({rel.source}, {rel.type}, {rel.target})",
                strategy=LLMStrategy.name,
                negated=attrs.get("negated") is True,
                hedged=attrs.get("hedged") is True,
                subject_span=s_span,
                object_span=o_span,
            )
        )
        for entity, span, said in ((subject, s_span, rel.source), (obj, o_span, rel.target)):
            self.entities.setdefault(entity.id, entity)
            if span is not None:
                key = (sentence.id, *span, entity.id)
                surface = doc.text[span[0] : span[1]]
                self.mentions.setdefault(
                    key,
                    Mention(sentence.id, *span, surface, (entity.id,), f"llm: '{said}'"),
                )

    def _bind(self, name: str, chunk_id: str, extracted: Sequence[ExtractedEntity]) -> Entity | str:
        """An entity, or the reason it cannot be bound (which becomes a note)."""
        said = [
            e
            for e in extracted
            if e.name.strip().lower() == name.strip().lower() and chunk_id in e.source_chunk_ids
        ]
        kinds = {e.type for e in said if e.type in ENTITY_KINDS}
        if self.catalog is None:
            if len(kinds) > 1:
                return f"ambiguous entity ({name!r} given as {', '.join(sorted(kinds))})"
            kind = next(iter(kinds), DEFAULT_KIND)
            description = next((e.description for e in said if e.type == kind), "")
            return Entity(name.strip(), kind, description=description, origin="discovered")
        candidates = self.index.get(name.strip().lower(), [])
        if not candidates:
            return f"not in the catalog ({name!r})"
        if len(candidates) == 1:
            return candidates[0]
        matching = [c for c in candidates if c.kind in kinds]
        if len(matching) == 1:
            return matching[0]
        return f"ambiguous entity ({name!r} is {', '.join(c.kind for c in candidates)})"

    def _drop(self, reason: str, label: str) -> None:
        self.dropped[reason] += 1
        if len(self.examples[reason]) < 3:
            self.examples[reason].append(label)

    def result(self, strategy: str) -> Extraction:
        notes = tuple(
            f"dropped {count} relation(s): {reason}; e.g. {'; '.join(self.examples[reason])}"
            for reason, count in sorted(self.dropped.items())
        )
        return Extraction.collect(
            strategy, self.entities.values(), self.mentions.values(), self.edges, notes
        )


def _predicate(raw: str) -> str | None:
    """``"depends on"`` -> ``DEPENDS_ON``; None for anything outside the vocabulary."""
    norm = re.sub(r"[^A-Z]+", "_", raw.upper()).strip("_")
    norm = _PREDICATE_ALIASES.get(norm, norm)
    return norm if norm in PREDICATES else None


def _terms(said: str, entity: Entity) -> list[str]:
    """Every way the text may name ``entity``, longest first (so aliases beat prefixes)."""
    names = {said.strip(), entity.name, *entity.aliases}
    return sorted((n for n in names if n), key=len, reverse=True)


def _find(text: str, terms: Iterable[str], offset: int = 0) -> tuple[int, int] | None:
    """The first whole-name, case-insensitive occurrence of the longest term that occurs."""
    for term in terms:
        if span := find_name(text, term):
            return span[0] + offset, span[1] + offset
    return None


Span = tuple[int, int]


def _pick(
    sentences: Sequence[Sentence], s_terms: list[str], o_terms: list[str], hint: Span | None
) -> tuple[Sentence, Span | None, Span | None] | None:
    """The sentence naming both endpoints, else the most; the model's span breaks ties."""
    best: tuple[Sentence, Span | None, Span | None] | None = None
    best_score = (0, False)
    for sentence in sentences:
        s_span = _find(sentence.text, s_terms, sentence.start)
        o_span = _find(sentence.text, o_terms, sentence.start)
        overlaps = hint is not None and sentence.start < hint[1] and hint[0] < sentence.end
        score = ((s_span is not None) + (o_span is not None), overlaps)
        if score[0] and score > best_score:
            best, best_score = (sentence, s_span, o_span), score
    return best


def _hint(rel: ExtractedRelation, chunk: Chunk) -> Span | None:
    """The model's evidence span for this chunk, in document offsets (if it gave one)."""
    for span in (getattr(rel, "spans", None) or {}).get(chunk.id) or []:
        with suppress(KeyError, TypeError, ValueError):
            return chunk.start + int(span["start"]), chunk.start + int(span["end"])
    return None


def _ontology() -> gs.Ontology:
    """ZEHN's kinds and predicates as the SDK ontology, with negated/hedged flags per relation."""
    return gs.Ontology(
        entities=[gs.Entity(label=kind) for kind in ENTITY_KINDS],
        relations=[gs.Relation(label=p, properties=list(_FLAGS)) for p in PREDICATES],
    )


def _run(coro: Coroutine[Any, Any, None]) -> None:
    """``asyncio.run``, also from inside a running loop (Jupyter) via a worker thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
