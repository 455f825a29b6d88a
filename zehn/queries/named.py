"""The whitelist. Every query is read-only and parameterised; policy predicates are passed
by the engine (``$reverse``, ``$forward``, ``$predicates``), never chosen by a model.

Impact is directional per predicate: with ``impact: reverse`` (A DEPENDS_ON B)
a change to B reaches A, so the walk goes against the edge; with ``forward``
(A FEEDS B) it goes along it. Upstream dependencies walk the opposite way.
"""

from __future__ import annotations

from zehn.corpus.dates import stated_at_cypher
from zehn.errors import UnknownQuery
from zehn.queries.name_index import NAME_INDEX_QUERIES
from zehn.queries.spec import NamedQuery, ParamSpec
from zehn.reading.vocabulary import PREDICATES, Predicate

ENTITY_ID = ParamSpec(
    "entity_id", "string", "entity id as returned by resolve_entity", max_length=200
)
DEPTH = ParamSpec("depth", "integer", "number of hops, 1 to 3", minimum=1, maximum=3)
MAX_PATH_ROWS = 2000
# A frontier walk sends at most this many frontier entities per query.
MAX_FRONTIER = 50_000
# When a sentence was stated: set at ingest (zehn.corpus.dates), e.g. a ticket comment by its
# own date; for graphs built before that, the document's date by the same rule.
STATED_AT = f"coalesce(s.stated_at, {stated_at_cypher('d')})"

# One hop of an impact walk from node x over edge r: against reverse edges, along forward ones.
_DOWN = "((r{i}.rel_type IN $reverse AND endNode(r{i}) = {x}) OR (r{i}.rel_type IN $forward AND startNode(r{i}) = {x}))"
_UP = "((r{i}.rel_type IN $reverse AND startNode(r{i}) = {x}) OR (r{i}.rel_type IN $forward AND endNode(r{i}) = {x}))"


def _walk(step: str, depth: int) -> str:
    nodes = ["s"] + [f"n{i}" for i in range(1, depth + 1)]
    pattern = "(s:Entity {id: $entity_id})" + "".join(
        f"-[r{i}:RELATES]-({nodes[i]}:Entity)" for i in range(1, depth + 1)
    )
    conditions = [step.format(i=i, x=nodes[i - 1]) for i in range(1, depth + 1)]
    conditions += [f"{a} <> {b}" for j, b in enumerate(nodes) for a in nodes[:j]]
    keys = ", ".join(f"r{i}.key" for i in range(1, depth + 1))
    ids = ", ".join(nodes)
    return (
        f"MATCH {pattern} WHERE {' AND '.join(conditions)} "
        f"RETURN [x IN [{ids}] | x.id] AS nodes, [{keys}] AS keys LIMIT {MAX_PATH_ROWS}"
    )


# The same hops as _DOWN and _UP, as the two directed patterns from node x over r to node n:
# (over a reverse-impact predicate, over a forward one). Two directed expansions with one
# predicate test each cost less than one undirected expansion testing both ends.
_DOWN_ARROWS = ("(x)<-[r:RELATES]-(n:Entity)", "(x)-[r:RELATES]->(n:Entity)")
_UP_ARROWS = ("(x)-[r:RELATES]->(n:Entity)", "(x)<-[r:RELATES]-(n:Entity)")


def _both(arrows: tuple[str, str], returns: str, union: str) -> str:
    frontier = "UNWIND $frontier AS fid MATCH (x:Entity) WHERE id(x) = fid MATCH "
    reverse, forward = arrows
    return (
        f"{frontier}{reverse} WHERE r.rel_type IN $reverse RETURN {returns} {union} "
        f"{frontier}{forward} WHERE r.rel_type IN $forward RETURN {returns}"
    )


def _layer(arrows: tuple[str, str]) -> str:
    """One layer of a frontier walk: every entity one hop from the frontier (its node id:
    the server's own, valid within one graph revision, which spares an index lookup per
    entity), grouped by kind: a row per kind and direction, so the walk counts kinds without
    a query of its own and without a string per entity (an entity reached both ways is in
    two rows). Never every path."""
    return _both(arrows, "n.kind AS kind, collect(DISTINCT id(n)) AS nodes", "UNION ALL")


def _parents(arrows: tuple[str, str]) -> str:
    """The edges a walk could reach the given entities (``x``) over, each with the entity
    at its other end (``n``, the parent where the walk found it one step nearer the start):
    asked only for the entities an answer shows, to rebuild their paths. Node ids and keys
    only: most rows lead to entities no nearer, whose names are never needed
    (``node_entities`` reads the names of the entities kept)."""
    return _both(arrows, "id(x) AS node, id(n) AS parent, r.key AS key", "UNION ALL")


FRONTIER = ParamSpec("frontier", "node_list", "node ids of the frontier", max_items=MAX_FRONTIER)

# Predicates whose data flows from the object to the subject (A READS_FROM S: S's data
# reaches A). A path may walk them against their edge, so that A WRITES_TO S and
# B READS_FROM S join into A -> S -> B through the shared store.
FLOW_AGAINST = (Predicate.READS_FROM.value, Predicate.CONSUMES_FROM.value)
_FLOW_AGAINST = "[" + ", ".join(f"'{p}'" for p in FLOW_AGAINST) + "]"
# One hop of a path from node x over edge r: along the edge, or against a flow-against edge;
# both only over the policy's traversable predicates.
_ALONG = (
    "(r{i}.rel_type IN $predicates AND (startNode(r{i}) = {x} OR "
    f"(r{{i}}.rel_type IN {_FLOW_AGAINST} AND endNode(r{{i}}) = {{x}})))"
)


def _between(depth: int) -> str:
    """Paths from $entity_id to $other_id along the stated direction of each edge, or as
    data flows: against READS_FROM / CONSUMES_FROM."""
    nodes = ["s"] + [f"n{i}" for i in range(1, depth)] + ["t"]
    pattern = "".join(
        f"{'(s:Entity {id: $entity_id})' if i == 1 else ''}-[r{i}:RELATES]-"
        f"({'t:Entity {id: $other_id}' if i == depth else f'n{i}:Entity'})"
        for i in range(1, depth + 1)
    )
    conditions = [_ALONG.format(i=i, x=nodes[i - 1]) for i in range(1, depth + 1)]
    conditions += [f"{a} <> {b}" for j, b in enumerate(nodes) for a in nodes[:j]]
    keys = ", ".join(f"r{i}.key" for i in range(1, depth + 1))
    return (
        f"MATCH {pattern} WHERE {' AND '.join(conditions)} "
        f"RETURN [x IN [{', '.join(nodes)}] | x.id] AS nodes, [{keys}] AS keys "
        f"LIMIT {MAX_PATH_ROWS}"
    )


QUERIES: dict[str, NamedQuery] = {
    q.name: q
    for q in (
        NamedQuery(
            "find_entities",
            "Entities whose name or alias occurs in a piece of text (e.g. the question).",
            (ParamSpec("text", "string", "text to look for entity names in"),),
            "MATCH (e:Entity) WITH e, toLower($text) AS t "
            "WHERE t CONTAINS toLower(e.name) OR any(a IN coalesce(e.aliases, []) WHERE t CONTAINS toLower(a)) "
            "RETURN e.id AS id, e.name AS name, e.kind AS kind, coalesce(e.aliases, []) AS aliases "
            "ORDER BY id LIMIT 100",
            from_snapshot=True,
        ),
        NamedQuery(
            "resolve_entity",
            "All identities (entity id, kind) that a name or alias refers to, with sentences mentioning each.",
            (
                ParamSpec(
                    "name", "string", "a name as written, e.g. 'Redwood Inference'", max_length=200
                ),
            ),
            "MATCH (e:Entity) WHERE toLower(e.name) = toLower($name) "
            "OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($name)) "
            "OPTIONAL MATCH (e)-[m:MENTIONED_IN]->(s:Sentence) WHERE m.ambiguous = false "
            "WITH e, s ORDER BY s.id "
            "WITH e, collect(s.id)[0..3] AS evidence "
            "RETURN e.id AS id, e.name AS name, e.kind AS kind, e.owner AS owner, evidence AS evidence ORDER BY id",
            mentions_of="rows",
        ),
        NamedQuery(
            "downstream_impact",
            "What is at risk if the entity changes: entities reached by walking the active policy's "
            "traversable predicates in their impact direction, up to depth hops.",
            (ENTITY_ID, DEPTH),
            variants={d: _walk(_DOWN, d) for d in (1, 2, 3)},
            returns_paths=True,
            policy_binding="impact",
            frontier="impact",
        ),
        NamedQuery(
            "upstream_dependencies",
            "What the entity depends on: entities whose change would reach it, up to depth hops, "
            "over the active policy's traversable predicates.",
            (ENTITY_ID, DEPTH),
            variants={d: _walk(_UP, d) for d in (1, 2, 3)},
            returns_paths=True,
            policy_binding="impact",
            frontier="upstream",
        ),
        NamedQuery(
            "path_between",
            "How one entity reaches another: paths along the stated direction of the active "
            "policy's traversable predicates, up to depth hops.",
            (
                ENTITY_ID,
                ParamSpec("other_id", "string", "the entity to reach", max_length=200),
                DEPTH,
            ),
            variants={d: _between(d) for d in (1, 2, 3)},
            returns_paths=True,
            policy_binding="predicates",
        ),
        NamedQuery(
            "neighbours",
            "Direct edges of an entity. Without a predicate: the policy's traversable predicates; "
            "with one: that predicate only (a direct lookup, not a walk).",
            (
                ENTITY_ID,
                ParamSpec("predicate", "string", "one predicate", required=False, enum=PREDICATES),
                ParamSpec(
                    "direction",
                    "string",
                    "out: entity is the subject; in: the object",
                    required=False,
                    enum=("out", "in", "both"),
                    default="both",
                ),
            ),
            "MATCH (s:Entity {id: $entity_id})-[r:RELATES]-(n:Entity) "
            "WHERE r.rel_type IN $predicates AND ($direction = 'both' "
            "OR ($direction = 'out' AND startNode(r) = s) OR ($direction = 'in' AND endNode(r) = s)) "
            f"RETURN [startNode(r).id, endNode(r).id] AS nodes, [r.key] AS keys LIMIT {MAX_PATH_ROWS}",
            returns_paths=True,
            policy_binding="predicates",
        ),
        NamedQuery(
            "mentions",
            "Sentences that mention the entity (unambiguously), with their documents.",
            (
                ENTITY_ID,
                ParamSpec("limit", "integer", "at most this many", False, 1, 50, default=10),
            ),
            "MATCH (e:Entity {id: $entity_id})-[m:MENTIONED_IN]->(s:Sentence) WHERE m.ambiguous = false "
            "WITH m, s MATCH (d:Document {id: s.doc_id}) "
            "RETURN s.id AS sentence_id, s.text AS text, m.start AS start, m.end AS end, "
            "s.start AS sentence_start, d.id AS document, d.title AS title, d.source_type AS source_type, "
            f"{STATED_AT} AS date ORDER BY date, sentence_id LIMIT $limit",
            mentions_of="param",
        ),
        NamedQuery(
            "search_sentences",
            "Sentences that mention any of the given entities and contain any of the words "
            "(full-text search), best first: evidence beyond the graph's edges, re-read by the "
            "engine with the same rules as extraction.",
            (
                ParamSpec("entity_ids", "string_list", "entity ids", max_length=200),
                ParamSpec("terms", "string", "words to look for", max_length=300),
                ParamSpec("limit", "integer", "at most this many", False, 1, 50, default=10),
            ),
            "CALL db.idx.fulltext.queryNodes('Sentence', $query) YIELD node, score "
            "WITH node AS s, score MATCH (e:Entity)-[m:MENTIONED_IN]->(s) "
            "WHERE e.id IN $entity_ids AND m.ambiguous = false "
            "WITH s, score, collect(DISTINCT e.id) AS entities "
            "MATCH (d:Document {id: s.doc_id}) "
            "RETURN s.id AS sentence_id, s.text AS text, s.start AS start, s.end AS end, "
            "d.id AS document, d.title AS title, d.source_type AS source_type, "
            f"{STATED_AT} AS date, entities, score ORDER BY score DESC, sentence_id LIMIT $limit",
            fulltext="terms",
        ),
        NamedQuery(
            "edge_evidence",
            "One edge by its key: predicate, both entities, its sentence and document.",
            (ParamSpec("key", "string", "the edge key", max_length=64),),
            "MATCH ()-[r:RELATES {key: $key}]->() WITH r, startNode(r) AS a, endNode(r) AS b "
            "MATCH (s:Sentence {id: r.sentence_id}) WITH r, a, b, s MATCH (d:Document {id: s.doc_id}) "
            "RETURN a.id AS source, r.rel_type AS rel_type, b.id AS target, r.key AS key, "
            "s.id AS sentence_id, s.text AS text, d.id AS document, d.title AS title",
        ),
        NamedQuery(
            "sentence",
            "One sentence by id, with its document's title, type, date and URI.",
            (ParamSpec("sentence_id", "string", "a sentence id", max_length=400),),
            "MATCH (s:Sentence {id: $sentence_id}) WITH s MATCH (d:Document {id: s.doc_id}) "
            "RETURN s.id AS sentence_id, s.text AS text, s.start AS start, s.end AS end, "
            "d.id AS document, d.title AS title, d.source_type AS source_type, d.uri AS uri, "
            f"{STATED_AT} AS date",
        ),
        # --- run by the engine itself -------------------------------------------------
        NamedQuery(
            "edges_by_keys",
            "Evidence of edges: predicate, endpoints, flags, sentence, document.",
            (ParamSpec("keys", "string_list", "edge keys"),),
            "UNWIND $keys AS k MATCH ()-[r:RELATES {key: k}]->() "
            "WITH r, startNode(r) AS a, endNode(r) AS b "
            "MATCH (s:Sentence {id: r.sentence_id}) WITH r, a, b, s MATCH (d:Document {id: s.doc_id}) "
            "RETURN r.key AS key, a.id AS source, r.rel_type AS rel_type, b.id AS target, "
            "r.negated AS negated, r.hedged AS hedged, r.fact AS fact, "
            "r.subject_ref AS subject_ref, r.subject_start AS subject_start, "
            "r.subject_end AS subject_end, r.object_ref AS object_ref, "
            "r.object_start AS object_start, r.object_end AS object_end, "
            "s.id AS sentence_id, s.text AS text, s.start AS start, s.end AS end, "
            "d.id AS document, d.title AS title, d.source_type AS source_type, "
            f"{STATED_AT} AS date",
            internal=True,
        ),
        NamedQuery(
            "entity_node",
            "The node id of an entity (where a frontier walk starts).",
            (ENTITY_ID,),
            "MATCH (e:Entity {id: $entity_id}) RETURN id(e) AS node",
            internal=True,
        ),
        NamedQuery(
            "node_entities",
            "The entity ids of the given nodes (the entities on the paths a walk shows).",
            (FRONTIER,),
            "UNWIND $frontier AS fid MATCH (n:Entity) WHERE id(n) = fid "
            "RETURN id(n) AS node, n.id AS id",
            internal=True,
        ),
        NamedQuery(
            "impact_layer",
            "One layer of a downstream_impact frontier walk (each reached entity once).",
            (FRONTIER,),
            _layer(_DOWN_ARROWS),
            internal=True,
            policy_binding="impact",
        ),
        NamedQuery(
            "upstream_layer",
            "One layer of an upstream_dependencies frontier walk (each reached entity once).",
            (FRONTIER,),
            _layer(_UP_ARROWS),
            internal=True,
            policy_binding="impact",
        ),
        NamedQuery(
            "impact_parents",
            "The edges a downstream_impact walk reaches the given entities over.",
            (FRONTIER,),
            _parents(_UP_ARROWS),
            internal=True,
            policy_binding="impact",
        ),
        NamedQuery(
            "upstream_parents",
            "The edges an upstream_dependencies walk reaches the given entities over.",
            (FRONTIER,),
            _parents(_DOWN_ARROWS),
            internal=True,
            policy_binding="impact",
        ),
        NamedQuery(
            "all_entities",
            "Every entity of the graph (the grader's and the question binder's catalog), read "
            "once per graph revision.",
            (),
            "MATCH (e:Entity) "
            "RETURN e.id AS id, e.name AS name, e.kind AS kind, coalesce(e.aliases, []) AS aliases, "
            "coalesce(e.origin, 'catalog') AS origin",
            internal=True,
        ),
        NamedQuery(
            "graph_revision",
            "The revision a build or ingest wrote last (None for graphs written by other tools).",
            (),
            "MATCH (m:Meta {id: 'graph'}) RETURN m.revision AS revision",
            internal=True,
        ),
        NamedQuery(
            "negations",
            "Every statement between the given (subject, object) pairs, with its extractor flag: "
            "the grader re-reads each, since not every extractor flags a negation.",
            (
                ParamSpec(
                    "pairs", "string_list", "'<subject id> -> <object id>' pairs", max_length=420
                ),
            ),
            "UNWIND $pairs AS p WITH split(p, ' -> ') AS ab "
            "MATCH (a:Entity {id: ab[0]})-[r:RELATES]->(b:Entity {id: ab[1]}) "
            "WITH a, r, b MATCH (s:Sentence {id: r.sentence_id}) WITH a, r, b, s MATCH (d:Document {id: s.doc_id}) "
            "RETURN a.id AS source, r.rel_type AS rel_type, b.id AS target, s.id AS sentence_id, "
            "s.text AS text, s.start AS start, d.id AS document, r.negated AS negated, "
            f"r.key AS key, {STATED_AT} AS date",
            internal=True,
        ),
        NamedQuery(
            "coverage",
            "Documents per source type (what the corpus covers, for limitations).",
            (),
            "MATCH (d:Document) RETURN d.source_type AS source_type, count(d) AS documents ORDER BY source_type",
            internal=True,
        ),
        NamedQuery(
            "fulltext_indexes",
            "The labels and properties with a full-text index (is sentence search possible?).",
            (),
            "CALL db.indexes() YIELD label, properties, types RETURN label, properties, types",
            internal=True,
        ),
        NamedQuery(
            "graph_predicates",
            "The predicates present in the graph.",
            (),
            "MATCH ()-[r:RELATES]->() RETURN DISTINCT r.rel_type AS rel_type ORDER BY rel_type",
            internal=True,
        ),
        # --- staleness (zehn.evidence.staleness): cited sentences, their edges, later statements ------
        NamedQuery(
            "staleness_sentences",
            "Cited sentences with their document's dates, type and ticket status/resolution date.",
            (ParamSpec("ids", "string_list", "sentence ids", max_length=400),),
            "UNWIND $ids AS i MATCH (s:Sentence {id: i}) WITH s MATCH (d:Document {id: s.doc_id}) "
            "RETURN s.id AS sentence_id, s.text AS text, s.start AS start, d.id AS document, "
            "d.source_type AS source_type, d.created_at AS created_at, d.updated_at AS updated_at, "
            "d.attr_resolved_at AS resolved_at, d.attr_status AS status, s.stated_at AS stated_at",
            internal=True,
            per_item=("ids", "sentence_id"),
        ),
        NamedQuery(
            "staleness_edges",
            "The edges the given sentences back (subject, predicate, object, flags).",
            (ParamSpec("ids", "string_list", "sentence ids", max_length=400),),
            "UNWIND $ids AS i MATCH ()-[r:RELATES {sentence_id: i}]->() WITH r, startNode(r) AS a, endNode(r) AS b "
            "RETURN r.sentence_id AS sentence_id, a.id AS source, r.rel_type AS rel_type, "
            "b.id AS target, r.negated AS negated, r.hedged AS hedged",
            internal=True,
            per_item=("ids", "sentence_id"),
        ),
        NamedQuery(
            "staleness_negations",
            "Negated edges from the given subjects, with sentence and dates.",
            (ParamSpec("sources", "string_list", "subject entity ids"),),
            "UNWIND $sources AS i MATCH (a:Entity {id: i})-[r:RELATES]->(b:Entity) "
            "WHERE r.negated = true "
            "WITH a, r, b MATCH (s:Sentence {id: r.sentence_id}) WITH a, r, b, s MATCH (d:Document {id: s.doc_id}) "
            "RETURN a.id AS source, r.rel_type AS rel_type, b.id AS target, s.id AS sentence_id, "
            "s.text AS text, s.start AS start, d.id AS document, d.source_type AS source_type, "
            "d.created_at AS created_at, d.updated_at AS updated_at, "
            "d.attr_resolved_at AS resolved_at, s.stated_at AS stated_at",
            internal=True,
            per_item=("sources", "source"),
        ),
        NamedQuery(
            "staleness_statements",
            "Sentences unambiguously mentioning the given entities whose text contains a "
            "supersession cue (lower-case), one row per mention, with dates.",
            (
                ParamSpec("ids", "string_list", "entity ids"),
                ParamSpec("cues", "string_list", "lower-case cue substrings", max_length=40),
            ),
            "UNWIND $ids AS i MATCH (e:Entity {id: i})-[m:MENTIONED_IN]->(s:Sentence) "
            "WITH e, m, s, toLower(s.text) AS lowered WHERE m.ambiguous = false "
            "AND any(c IN $cues WHERE lowered CONTAINS c) "
            "WITH e, m, s MATCH (d:Document {id: s.doc_id}) "
            "RETURN s.id AS sentence_id, s.text AS text, s.start AS start, e.id AS entity_id, "
            "m.start AS mention_start, m.end AS mention_end, d.id AS document, "
            "d.source_type AS source_type, d.created_at AS created_at, "
            "d.updated_at AS updated_at, d.attr_resolved_at AS resolved_at, s.stated_at AS stated_at",
            internal=True,
            per_item=("ids", "entity_id"),
        ),
        *NAME_INDEX_QUERIES,
    )
}


def get_query(name: str) -> NamedQuery:
    if name not in QUERIES:
        raise UnknownQuery(name, tuple(q for q, spec in QUERIES.items() if not spec.internal))
    return QUERIES[name]
