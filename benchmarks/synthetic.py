"""A deterministic synthetic corpus and graph: hubs, chains, names shared by several kinds.

Every relation is one sentence phrased with a cue the ``rules`` strategy knows
("svc-00042 depends on svc-00007."), so the same edges come out of a
``build_graph`` ingest and out of the raw bulk load in ``benchmarks.run``.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from zehn.reading.model import entity_id
from zehn.reading.vocabulary import EntityKind, Predicate

SIZES: dict[str, dict[str, int]] = {
    "tiny": {"entities": 200, "edges": 800, "sentences": 1000},
    "small": {"entities": 1_000, "edges": 4_000, "sentences": 5_000},
    "medium": {"entities": 10_000, "edges": 40_000, "sentences": 45_000},
    "large": {"entities": 50_000, "edges": 200_000, "sentences": 220_000},
    "xlarge": {"entities": 200_000, "edges": 1_000_000, "sentences": 1_100_000},
}

# kind -> name prefix (plain values: the catalog is written with yaml.safe_dump)
KINDS: dict[str, str] = {
    EntityKind.SERVICE.value: "svc",
    EntityKind.DATASTORE.value: "ds",
    EntityKind.TOPIC.value: "topic",
    EntityKind.PIPELINE.value: "pipe",
    EntityKind.COMPONENT.value: "comp",
}
# predicate -> active phrasing the rules strategy extracts as that predicate
PHRASES: dict[str, str] = {
    Predicate.DEPENDS_ON.value: "{a} depends on {b}.",
    Predicate.USES.value: "{a} uses {b}.",
    Predicate.READS_FROM.value: "{a} reads from {b}.",
    Predicate.WRITES_TO.value: "{a} writes to {b}.",
    Predicate.FEEDS.value: "{a} feeds {b}.",
    Predicate.PUBLISHES_TO.value: "{a} publishes to {b}.",
    Predicate.CONSUMES_FROM.value: "{a} consumes from {b}.",
    Predicate.AFFECTS.value: "{a} affects {b}.",
    Predicate.CALLS.value: "{a} calls {b}.",
}
PREDICATE_WEIGHTS = (40, 12, 8, 8, 10, 5, 5, 4, 8)
FILLER = (
    "The on-call rotation reviewed the dashboards this week.",
    "Latency stayed within the agreed budget during the last release.",
    "A postmortem was scheduled for Thursday afternoon.",
    "The runbook was updated after the incident review.",
    "Capacity planning for the next quarter is still open.",
    "Alert thresholds were tuned to reduce paging noise.",
)
SENTENCES_PER_DOC = 50


@dataclass(frozen=True, slots=True)
class SynEntity:
    id: str
    name: str
    kind: str


@dataclass(frozen=True, slots=True)
class SynEdge:
    key: str
    subject: str  # entity id
    rel_type: str
    object: str  # entity id
    sentence_id: str
    doc_id: str


@dataclass(frozen=True, slots=True)
class SynSentence:
    id: str
    doc_id: str
    text: str
    start: int
    end: int


@dataclass
class Synthetic:
    seed: int
    entities: list[SynEntity] = field(default_factory=list)
    edges: list[SynEdge] = field(default_factory=list)
    sentences: list[SynSentence] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    hubs: list[str] = field(default_factory=list)  # entity ids with many dependents
    chain_heads: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "entities": len(self.entities),
            "edges": len(self.edges),
            "sentences": len(self.sentences),
            "documents": len(self.documents),
            "shared_names": len(self.entities) - len({e.name for e in self.entities}),
        }

    def by_id(self) -> dict[str, SynEntity]:
        return {e.id: e for e in self.entities}

    def write_corpus(self, folder: Path, max_sentences: int | None = None) -> int:
        """``folder/sources/*.md`` (one paragraph per document) and ``folder/catalog.yaml``.

        With ``max_sentences`` only the first documents up to that many sentences are
        written (the catalog is always complete). Returns the sentences written.
        """
        sources = folder / "sources"
        sources.mkdir(parents=True, exist_ok=True)
        by_doc: dict[str, list[str]] = {}
        written = 0
        for s in self.sentences:
            if max_sentences is not None and written >= max_sentences and s.doc_id not in by_doc:
                break
            by_doc.setdefault(s.doc_id, []).append(s.text)
            written += 1
        for doc_id, texts in by_doc.items():
            (sources / f"{doc_id}.md").write_text(
                f"# {doc_id}\n\n" + "\n\n".join(texts) + "\n", encoding="utf-8"
            )
        catalog: dict[str, Any] = {
            "entities": [
                {"name": e.name, "kind": e.kind, "aliases": [], "owner": None}
                for e in self.entities
            ]
        }
        (folder / "catalog.yaml").write_text(
            yaml.safe_dump(catalog, sort_keys=False), encoding="utf-8"
        )
        return written


def generate(
    entities: int, edges: int, sentences: int | None = None, *, seed: int = 7
) -> Synthetic:
    """Exactly ``entities`` entities, ``edges`` relations, ``max(sentences, edges)`` sentences."""
    rng = random.Random(seed)
    syn = Synthetic(seed=seed)
    kinds = list(KINDS)
    # names: ~4% of names carry 2-3 kinds (``svc-00042`` as service and as component)
    seen: set[str] = set()
    i = 0
    while len(syn.entities) < entities:
        kind = kinds[0] if rng.random() < 0.55 else rng.choice(kinds)
        name = f"{KINDS[kind]}-{i:05d}"
        i += 1
        extra = []
        if rng.random() < 0.04:
            extra = rng.sample([k for k in kinds if k != kind], rng.choice((1, 2)))
        for k in [kind, *extra]:
            if len(syn.entities) >= entities:
                break
            eid = entity_id(k, name)
            if eid not in seen:
                seen.add(eid)
                syn.entities.append(SynEntity(eid, name, k))
    ids = [e.id for e in syn.entities]
    n_hubs = max(3, entities // 500)
    syn.hubs = rng.sample(ids, n_hubs)
    predicates = list(PHRASES)
    triples: list[tuple[str, str, str]] = []
    # chains: a -> b -> c -> ... of length 4-8 over DEPENDS_ON (the dependent is the subject)
    chain_budget = edges // 10
    while chain_budget > 0:
        length = min(rng.randint(4, 8), chain_budget + 1)
        chain = rng.sample(ids, length)
        syn.chain_heads.append(chain[-1])
        for a, b in itertools.pairwise(chain):
            triples.append((a, Predicate.DEPENDS_ON.value, b))
        chain_budget -= length - 1
    while len(triples) < edges:
        rel = rng.choices(predicates, PREDICATE_WEIGHTS)[0]
        a = rng.choice(ids)
        # hubs: a third of the relations point at one of a few hubs (heavy-tailed by index)
        if rng.random() < 0.33:
            b = syn.hubs[min(int(rng.expovariate(1 / max(1, n_hubs / 4))), n_hubs - 1)]
        else:
            b = rng.choice(ids)
        if a != b:
            triples.append((a, rel, b))
    triples = triples[:edges]
    names = {e.id: e.name for e in syn.entities}
    total = max(sentences or 0, len(triples))
    fillers = total - len(triples)
    # interleave filler sentences among relation sentences, deterministically
    filler_at = set(rng.sample(range(total), fillers)) if fillers else set()
    t = 0
    offsets: dict[str, int] = {}
    for n in range(total):
        doc_id = f"doc-{n // SENTENCES_PER_DOC:05d}"
        if not syn.documents or syn.documents[-1] != doc_id:
            syn.documents.append(doc_id)
        sid = f"{doc_id}#s{n % SENTENCES_PER_DOC}"
        if n in filler_at or t >= len(triples):
            text = FILLER[n % len(FILLER)]
        else:
            a, rel, b = triples[t]
            text = PHRASES[rel].format(a=names[a], b=names[b])
            syn.edges.append(SynEdge(f"e{t:07d}", a, rel, b, sid, doc_id))
            t += 1
        start = offsets.get(doc_id, 0)
        syn.sentences.append(SynSentence(sid, doc_id, text, start, start + len(text)))
        offsets[doc_id] = start + len(text) + 2
    return syn


def generate_size(size: str, seed: int = 7) -> Synthetic:
    spec = SIZES[size]
    return generate(spec["entities"], spec["edges"], spec["sentences"], seed=seed)
