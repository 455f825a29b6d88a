"""Diagrams as code read as relations: node labels as names, arrows as calls and dependencies.

Architecture pages draw their dependencies instead of writing them down. A diagram line
such as ``checkout -->|gRPC| cart`` states a relation as plainly as a sentence does; the
splitter makes each diagram line its own sentence, so a relation read from an arrow cites
the verbatim line (``zehn.reading.diagrams.syntax`` reads the three languages).

- :func:`diagram_nodes`: labelled nodes, for entity discovery (a label names a component);
- :func:`diagram_mentions`: on each arrow line, a reference mention for each node id that
  names no entity itself, bound to the entity its label names ("diagram node 'cache' =
  'Cache (Valkey)' (node label, database shape, line 12)");
- :func:`arrow_edges`: what one arrow line states. It is read without context, so the
  grader, re-reading the line with the recorded reference mentions, reads it the same way.
  What the diagram is about (a data-flow title, subgraph, caption or heading, see
  ``zehn.reading.diagrams.context``) travels the same way: in those mentions' reasons.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from zehn.corpus.model import Sentence
from zehn.reading.diagrams.context import DATA_FLOW_NOTE
from zehn.reading.diagrams.legend import read_line
from zehn.reading.diagrams.syntax import (
    DOT,
    MERMAID,
    PLANTUML,
    Link,
    NodeRef,
    clean_label,
    diagram_blocks,
    is_diagram_line,
    label_parts,
    parse_line,
)
from zehn.reading.modality import EPISTEMIC, MODAL, NEGATION
from zehn.reading.model import Edge, Mention
from zehn.reading.names.binding import Binder
from zehn.reading.relations.cues import CJK, CUES, SUBJECT_GLUE, Cue
from zehn.reading.vocabulary import EntityKind, Predicate

__all__ = [
    "DiagramNode",
    "arrow_edges",
    "diagram_mentions",
    "diagram_nodes",
    "is_diagram_edge",
    "is_diagram_line",
]


_ARROWISH = re.compile(r"--|->|<-|-\.|\.-|==|\.\.|~~~|[→⟶⇒]")


def is_diagram_edge(text: str) -> bool:
    """A line that links nodes (directed or not), in a diagram or a legend: the arrow, not the
    cue lexicon, says what it states (:func:`arrow_edges`)."""
    if not _ARROWISH.search(text):
        return False  # most sentences: no arrow, no parse
    statement = read_line(text.strip())
    return statement is not None and bool(statement.links)


@dataclass(frozen=True)
class DiagramNode:
    """A labelled node: its label names a component (``span``: the label in the document)."""

    id: str
    label: str
    span: tuple[int, int]
    shape: str = ""  # "database" (a cylinder, PlantUML ``database``) or "queue"
    language: str = ""
    linked: bool = False  # an end of an arrow in its diagram (a legend's nodes are not)

    @property
    def kind_hint(self) -> str:
        """ "topic" or "datastore" when the label's last word or the shape says so, else ""
        ("queue (Kafka)" drawn as a cylinder is a queue)."""
        heads = _head_words([self.label])
        if heads & _QUEUE_WORDS or (self.shape == "queue" and not heads & _STORE_WORDS):
            return EntityKind.TOPIC
        if heads & _STORE_WORDS or self.shape == "database":
            return EntityKind.DATASTORE
        return ""


def _head_words(names: Iterable[str]) -> set[str]:
    """The last word of each name and of each of its asides: what the thing is ("Queue
    broker" is a broker, "Result backend" a backend, "Cache (Valkey)" a cache and a valkey)."""
    heads: set[str] = set()
    for name in filter(None, names):
        main, asides = label_parts(name)
        for part in (main, *asides):
            words = re.findall(r"[^\W_]+", part.lower())
            if words:
                heads.add(words[-1])
    return heads


@dataclass(frozen=True)
class _Definition:
    label: str
    span: tuple[int, int]  # the label in the document
    shape: str
    raw: str = ""  # the label as written: its line breaks part the name from its asides


def _definitions(lines: Sequence[tuple[int, str]], language: str | None) -> dict[str, _Definition]:
    """Node id → its first label in one diagram (inline labels on arrow lines count; a DOT
    subgraph takes the ``label=`` statement that follows its opening line)."""
    found: dict[str, _Definition] = {}
    pending: NodeRef | None = None
    for offset, text in lines:
        statement = parse_line(text, language)
        if statement is None:
            continue
        for node in statement.nodes:
            if node.label and node.label_span and node.id not in found:
                span = (offset + node.label_span[0], offset + node.label_span[1])
                raw = text[node.label_span[0] : node.label_span[1]]
                found[node.id] = _Definition(node.label, span, node.shape, raw)
        if statement.subgraph is not None:
            node = statement.subgraph
            if node.label and node.label_span:
                span = (offset + node.label_span[0], offset + node.label_span[1])
                found.setdefault(node.id, _Definition(node.label, span, ""))
            pending = None if node.label else node
        elif statement.label_attr is not None and pending is not None:
            label, (start, end) = statement.label_attr
            found.setdefault(pending.id, _Definition(label, (offset + start, offset + end), ""))
            pending = None
    return found


def diagram_nodes(text: str) -> list[DiagramNode]:
    """Every labelled node of every diagram in ``text``, in document order."""
    nodes: list[DiagramNode] = []
    for block in diagram_blocks(text):
        lines = [(start, text[start:end]) for start, end in block.lines]
        statements = [parse_line(line, block.language) for _, line in lines]
        linked = {
            end.id
            for statement in statements
            if statement is not None
            for link in statement.links
            for end in (link.source, link.target)
        }
        for node_id, d in _definitions(lines, block.language).items():
            nodes.append(
                DiagramNode(node_id, d.label, d.span, d.shape, block.language, node_id in linked)
            )
    return sorted(nodes, key=lambda n: n.span)


# --- references --------------------------------------------------------------------------

_FENCE_HEADER = re.compile(r"(?:`{3,}|~{3,})\s*\{?(?P<lang>[\w+-]*)")
_DIRECTIVE_HEADER = re.compile(r"\.\.\s+(?P<lang>mermaid|graphviz|digraph|graph|uml|plantuml)::")
_HEADER_LANGUAGES = {
    **dict.fromkeys(("mermaid", "mmd"), MERMAID),
    **dict.fromkeys(("plantuml", "puml", "uml"), PLANTUML),
    **dict.fromkeys(("dot", "graphviz", "gv", "digraph", "graph"), DOT),
}
_MERMAID_HEADER = re.compile(
    r"(?:graph|flowchart)(?:\s+(?:TB|TD|BT|RL|LR))?\s*;?|sequenceDiagram|classDiagram"
)
_DOT_HEADER = re.compile(r"(?:strict\s+)?(?:di)?graph\b[^{]*\{.*", re.IGNORECASE)


def _header(text: str) -> tuple[bool, str | None]:
    """Whether a sentence opens a diagram (a new scope of node ids), and its language."""
    text = text.strip()
    if match := _FENCE_HEADER.match(text) or _DIRECTIVE_HEADER.match(text):
        return True, _HEADER_LANGUAGES.get(match["lang"].lower())
    if text.startswith("@startuml"):
        return True, PLANTUML
    if _MERMAID_HEADER.fullmatch(text):
        return True, MERMAID
    return (True, DOT) if _DOT_HEADER.fullmatch(text) else (False, None)


def _regions(sentences: Sequence[Sentence]) -> Iterator[tuple[str | None, list[Sentence]]]:
    """Sentences cut where a diagram opens: node ids are scoped to one diagram."""
    language: str | None = None
    region: list[Sentence] = []
    headers_only = False  # the region so far is only a header ("```mermaid")
    for sentence in sentences:
        opens, announced = _header(sentence.text)
        if opens:
            if region:
                yield language, region
            # "```mermaid" then "graph TD": the fence's language holds, a new diagram's does not
            language = announced or (language if headers_only else None)
            region = []
        headers_only = opens and (headers_only or not region)
        region.append(sentence)
    if region:
        yield language, region


def _names(binder: Binder, doc_id: str, phrase: str) -> list[str]:
    """Entities a phrase names as a whole: a mention covering its last word or half of it.
    A phrase naming several ("Gateway and ledger") gives them all, so that none is taken.

    The phrase is bound after a space: a node name is not a capitalised word opening prose,
    which the binder distrusts ("Scheduler" as a node label is the scheduler).
    """
    probe = Sentence(doc_id, " " + phrase, 0, len(phrase) + 1)
    mentions = [m for m in binder.bind(probe) if m.entity_id]
    if len({m.entity_id for m in mentions}) > 1:
        return list(dict.fromkeys(m.entity_id or "" for m in mentions))
    return list(
        dict.fromkeys(
            m.entity_id or ""
            for m in mentions
            if (m.end - m.start) * 2 >= len(phrase) or m.end == probe.end
        )
    )


def _label_entity(binder: Binder, doc_id: str, label: str) -> str | None:
    """The one entity a label names: the whole label when it is one name ("Browser<br/>Jaeger
    UI"), else its name part ("Frontend Proxy" of "Frontend Proxy (Envoy)"), else its asides
    ("Valkey" of "Cache (Valkey)"); None when unsure."""
    whole = _names(binder, doc_id, clean_label(label))
    if len(whole) == 1:
        return whole[0]
    main, asides = label_parts(label)
    named = _names(binder, doc_id, main) if main else []
    if not named:
        named = list(dict.fromkeys(e for aside in asides for e in _names(binder, doc_id, aside)))
    return named[0] if len(named) == 1 else None


def _reason(node_id: str, label: str | None, how: str) -> str:
    shown = f" = {label!r}" if label else ""
    return f"diagram node {node_id!r}{shown} ({how})"


_REASON = re.compile(
    r"diagram node (?P<id>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
    r"(?: = (?P<label>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"))? \((?P<how>[^()]*)\)"
)


def _read_reason(reason: str) -> tuple[str, str]:
    """The label and how-note a diagram reference's reason records ('' when not one)."""
    match = _REASON.fullmatch(reason)
    if match is None:
        return "", ""
    label = ast.literal_eval(match["label"]) if match["label"] else ""
    return str(label), match["how"]


def diagram_mentions(
    sentences: Sequence[Sentence],
    binder: Binder,
    *,
    text: str | None = None,
    bound: Mapping[str, Sequence[Mention]] | None = None,
    flows: Mapping[str, str] | None = None,
) -> dict[str, list[Mention]]:
    """Reference mentions per sentence id: on each arrow line, each node id that names no
    entity itself, bound to the entity its label names.

    ``sentences`` are one document's, in order. ``text`` (the document's) only puts line
    numbers into the reasons; ``bound`` (the binder's mentions per sentence id) saves
    binding the arrow lines again. An id the binder finds in the line needs no reference,
    except on a line of a data-flow diagram (``flows``: sentence id → note, from
    ``zehn.reading.diagrams.context``): there every node gets one, whose reason carries the
    note, so that the arrow is read as data moving wherever the line is read again.
    """
    found: dict[str, list[Mention]] = {}
    for language, region in _regions(sentences):
        if not any(_ARROWISH.search(s.text) for s in region):
            continue  # no arrow: no node to resolve (most of a document)
        definitions = _definitions([(s.start, s.text) for s in region], language)
        for sentence in region:
            line = sentence.text.strip()
            statement = parse_line(line, language) if _ARROWISH.search(line) else None
            if statement is None or not any(link.directed for link in statement.links):
                continue
            offset = sentence.start + sentence.text.index(line[:1])
            names = bound[sentence.id] if bound and sentence.id in bound else None
            ordinary = list(names) if names is not None else binder.bind(sentence)
            note = flows.get(sentence.id, "") if flows else ""
            refs = [
                ref
                for node in _endpoints(statement.links)
                if (ref := _reference(sentence, line, offset, node, ordinary, definitions,
                                      binder, text, note)) is not None
            ]  # fmt: skip
            if refs:
                found[sentence.id] = refs
    return found


def _reference(
    sentence: Sentence,
    line: str,
    offset: int,
    node: NodeRef,
    ordinary: Sequence[Mention],
    definitions: Mapping[str, _Definition],
    binder: Binder,
    text: str | None,
    note: str = "",
) -> Mention | None:
    """The reference mention a node id on an arrow line stands for, if it needs one (with a
    data-flow ``note``, every node needs one: on the name the line gives, if it gives one)."""
    start, end = offset + node.id_span[0], offset + node.id_span[1]
    lo, hi = offset + node.span[0], offset + node.span[1]
    named = [
        m
        for m in ordinary
        if (m.start < end and start < m.end) or (m.entity_id and lo <= m.start and m.end <= hi)
    ]
    if named and not note:
        return None  # the line names it: the ordinary mention suffices
    if named:
        return _named_reference(sentence, node, named, note)
    definition = definitions.get(node.id)
    label = node.label or (definition.label if definition else None)
    if label == node.id:
        label = None
    shape = node.shape or (definition.shape if definition else "")
    where = definition.span[0] if definition and not node.label else start
    place = f"line {text.count(chr(10), 0, where) + 1}" if text else f"at character {where}"
    how = ", ".join(
        part
        for part in (
            "node label" if label else "node id as a name",
            f"{shape} shape" * bool(shape),
            place,
            note,
        )
        if part
    )
    if node.label and node.label_span:
        raw = line[node.label_span[0] : node.label_span[1]]
    else:
        raw = definition.raw if definition else ""
    if label:
        entity = _label_entity(binder, sentence.doc_id, raw or label)
    else:
        as_name = _names(binder, sentence.doc_id, node.id)
        entity = as_name[0] if len(as_name) == 1 else None
    if entity is None:
        return None
    surface = line[node.id_span[0] : node.id_span[1]]
    reason = _reason(node.id, label, how)
    return Mention(sentence.id, start, end, surface, (entity,), reason, reference=True)


def _named_reference(
    sentence: Sentence, node: NodeRef, named: Sequence[Mention], note: str
) -> Mention | None:
    """A reference on the name a data-flow line gives a node, carrying the diagram's note;
    none when the node's text names more than one entity or none unambiguously."""
    entities = {m.entity_id for m in named}
    if len(entities) != 1 or None in entities:
        return None
    name = min(named, key=lambda m: m.start)
    reason = _reason(node.id, None, f"named, {note}")
    return Mention(
        sentence.id, name.start, name.end, name.surface, name.candidates, reason, reference=True
    )


def _endpoints(links: Sequence[Link]) -> list[NodeRef]:
    seen: dict[tuple[int, int], NodeRef] = {}
    for link in links:
        if link.directed:
            seen.setdefault(link.source.id_span, link.source)
            seen.setdefault(link.target.id_span, link.target)
    return list(seen.values())


# --- arrows ------------------------------------------------------------------------------

# The last word of a name says what the thing is ("Queue broker", "queue (Kafka)", "Result
# backend"); a word elsewhere does not ("queue_result_backend" is a backend).
_QUEUE_WORDS = frozenset(
    "queue queues topic topics stream streams broker brokers bus exchange kafka rabbitmq "
    "activemq pulsar kinesis nats sqs sns pubsub eventbridge 队列 主题 消息队列".split()
)
_STORE_WORDS = frozenset(
    "database databases db store datastore storage cache bucket warehouse tsdb 数据库 缓存".split()
)
# An arrow labelled as an answer ("Bob --> Alice : response") states no call.
_REPLY = re.compile(
    r"\b(?:returns?|returned|responses?|repl(?:y|ies)|acks?|acknowledge\w*|results?)\b"
    r"|返回|响应|应答",
    re.IGNORECASE,
)
_LATIN_CUES = tuple(cue for cue in CUES if not cue.cjk)


@dataclass(frozen=True)
class _End:
    mention: Mention
    node: NodeRef

    @property
    def entity(self) -> str:
        return self.mention.entity_id or ""

    def _heads(self) -> set[str]:
        label, _how = _read_reason(self.mention.reason)
        slug = self.entity.split(":", 1)[-1]  # the entity's own name, as its id slugs it
        return _head_words([self.mention.surface, self.node.label or "", label, slug])

    def _shape(self) -> str:
        _label, how = _read_reason(self.mention.reason)
        return self.node.shape or next(
            (s for s in ("database", "queue") if f"{s} shape" in how), ""
        )

    @property
    def data_flow(self) -> bool:
        """Whether the node's reference says its diagram draws data moving."""
        _label, how = _read_reason(self.mention.reason)
        return DATA_FLOW_NOTE in how

    @property
    def queue_like(self) -> bool:
        kind = self.entity.split(":", 1)[0]
        return (
            kind == EntityKind.TOPIC
            or self._shape() == "queue"
            or bool(self._heads() & _QUEUE_WORDS)
        )

    @property
    def store_like(self) -> bool:
        kind = self.entity.split(":", 1)[0]
        return (
            kind == EntityKind.DATASTORE
            or self._shape() == "database"
            or bool(self._heads() & _STORE_WORDS)
        )


def _endpoint(node: NodeRef, offset: int, mentions: Sequence[Mention]) -> tuple[_End | None, bool]:
    """The mention a node stands for, and whether it was ambiguous; a node whose text holds
    two entities counts the one at its id."""
    lo, hi = offset + node.span[0], offset + node.span[1]
    inside = [m for m in mentions if m.end > m.start and lo <= m.start and m.end <= hi]
    bound = [m for m in inside if m.entity_id]
    if len({m.entity_id for m in bound}) > 1:
        start, end = offset + node.id_span[0], offset + node.id_span[1]
        bound = [m for m in bound if m.start < end and start < m.end]
    if len({m.entity_id for m in bound}) == 1:  # a reference first: its reason says more
        return _End(next((m for m in bound if m.reference), bound[0]), node), False
    return None, bool(inside)


@dataclass(frozen=True)
class _Reading:
    subject: _End
    predicate: str
    object: _End
    negated: bool = False
    hedged: bool = False


def _label_cues(label: str) -> list[tuple[re.Match[str], Cue]]:
    """Cues in an edge label, left to right, overlaps dropped (the longest wins)."""
    cues = CUES if CJK.search(label) else _LATIN_CUES
    hits = sorted(
        ((m, cue) for cue in cues for m in cue.pattern.finditer(label)),
        key=lambda h: (h[0].start(), -(h[0].end() - h[0].start())),
    )
    kept: list[tuple[re.Match[str], Cue]] = []
    for hit in hits:
        if not kept or hit[0].start() >= kept[-1][0].end():
            kept.append(hit)
    return kept


def _has_own_subject(before: str) -> bool:
    """Whether a label's words before its first verb are a subject of their own: two words
    or more ("Airflow scheduler reads …"), or one right before the verb ("Kafka reads …");
    not glue ("also reads", "does not read") nor a first verb ("gets and stores …")."""
    words = [w for w in re.findall(r"[\w'’]+|,", before.lower()) if w not in SUBJECT_GLUE]
    content = [w for w in words if w not in (",", "and", "or")]
    return len(content) >= 2 or (len(content) == 1 and words[-1] == content[0])


def _readings(link: Link, source: _End, target: _End) -> list[_Reading]:
    """What an arrow states. A label with a verb says it ("reads", "publishes to"); else the
    ends decide: into a queue or topic is publishing, out of one is consuming. Into a store
    is a dependency: the arrow does not say whether data is read, written or both, only that
    the source needs the store. Out of a store (into something else) the arrow draws data
    flowing from it: it feeds the target (a store calls nothing). A dotted PlantUML arrow is
    UML's dependency. Any other arrow is a call: a request from source to target. In a
    diagram whose context says data flows (an end's reason carries the note), an arrow is
    data moving: into a store it is a write, else it feeds the target."""
    hedged = bool(MODAL.search(link.label) or EPISTEMIC.search(link.label))
    readings: list[_Reading] = []
    cues = _label_cues(link.label)
    if cues and _has_own_subject(link.label[: cues[0][0].start()]):
        return []  # "scheduler reads the state from k8s": a clause, not the arrow's verb
    for match, cue in cues:
        negated = bool(NEGATION.search(link.label[: match.end()]))
        subject, obj = (target, source) if cue.passive else (source, target)
        readings.extend(_Reading(subject, p, obj, negated, hedged) for p in cue.predicates)
    if readings:
        return readings
    if _REPLY.search(link.label):
        return []
    if target.queue_like:
        return [_Reading(source, Predicate.PUBLISHES_TO, target)]
    if source.queue_like:
        return [_Reading(target, Predicate.CONSUMES_FROM, source)]
    flow = source.data_flow or target.data_flow
    if target.store_like:
        return [_Reading(source, Predicate.WRITES_TO if flow else Predicate.DEPENDS_ON, target)]
    if source.store_like:
        return [_Reading(source, Predicate.FEEDS, target)]
    if link.dependency:
        return [_Reading(source, Predicate.DEPENDS_ON, target)]
    return [_Reading(source, Predicate.FEEDS if flow else Predicate.CALLS, target)]


def arrow_edges(
    sentence: Sentence, mentions: Sequence[Mention], strategy: str
) -> tuple[list[Edge], int]:
    """Edges one diagram line states, and how many arrows were skipped as ambiguous.

    An undirected, bidirectional or structural line (``a --- b``, ``a <--> b``,
    ``A <|-- B``) states nothing. The cue is the verbatim arrow ("-->|gRPC|").
    """
    statement = read_line(sentence.text.strip())
    if statement is None:
        return [], 0
    offset = sentence.start + len(sentence.text) - len(sentence.text.lstrip())
    edges: list[Edge] = []
    ambiguous = 0
    for link in statement.links:
        if not link.directed:
            continue
        source, unsure_source = _endpoint(link.source, offset, mentions)
        target, unsure_target = _endpoint(link.target, offset, mentions)
        if source is None or target is None:
            unsure = (unsure_source and source is None) or (unsure_target and target is None)
            ambiguous += int(unsure)
            continue
        if source.entity == target.entity:
            continue
        for r in _readings(link, source, target):
            edges.append(
                Edge.stated_by(
                    sentence,
                    r.subject.entity,
                    r.predicate,
                    r.object.entity,
                    fact=sentence.text,
                    strategy=strategy,
                    negated=r.negated,
                    hedged=r.hedged,
                    cue=link.text,
                    subject_span=(r.subject.mention.start, r.subject.mention.end),
                    object_span=(r.object.mention.start, r.object.mention.end),
                )
            )
    return edges, ambiguous
