"""Diagrams as code: Mermaid, PlantUML and DOT lines read as nodes, references and edges.

Every diagram here is invented.
"""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence
from zehn.reading.diagrams.reader import (
    arrow_edges,
    diagram_mentions,
    diagram_nodes,
    is_diagram_edge,
    is_diagram_line,
)
from zehn.reading.diagrams.syntax import clean_label, diagram_blocks, parse_line
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import split_sentences

ENTITIES = [
    Entity("billing-api", "service"),
    Entity("ledger", "service", aliases=("Ledger Service",)),
    Entity("Postgres", "datastore", aliases=("PostgreSQL",)),
    Entity("invoice-events", "topic"),
    Entity("Event Bus", "component"),
    Entity("Report Builder", "service"),
    Entity("Gateway", "service"),
    Entity("Redwood", "team"),
    Entity("Redwood", "customer"),
]
BINDER = Binder(ENTITIES)


def links(text: str) -> list[tuple[str, str, str, bool]]:
    statement = parse_line(text)
    assert statement is not None, text
    return [(ln.source.id, ln.target.id, ln.label, ln.directed) for ln in statement.links]


def labels(text: str) -> dict[str, str | None]:
    statement = parse_line(text)
    assert statement is not None, text
    return {n.id: n.label for n in statement.nodes}


# --- syntax ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("api -->|REST| ledger", [("api", "ledger", "REST", True)]),
        ('api --> |"v2 API"| ledger', [("api", "ledger", "v2 API", True)]),
        ("api -- posts to --> ledger", [("api", "ledger", "posts to", True)]),
        ("api -.->|async| ledger", [("api", "ledger", "async", True)]),
        ("api -. SQL .-> db", [("api", "db", "SQL", True)]),
        ("api ==> ledger", [("api", "ledger", "", True)]),
        ("api ----> ledger;", [("api", "ledger", "", True)]),
        ("api --- ledger", [("api", "ledger", "", False)]),
        ("api <--> ledger", [("api", "ledger", "", False)]),
        ("api ~~~ ledger", [("api", "ledger", "", False)]),
        (
            "a & b --> c --> d",
            [("a", "c", "", True), ("b", "c", "", True), ("c", "d", "", True)],
        ),
        ("A[Web App] -->|calls| B(Ledger Service)", [("A", "B", "calls", True)]),
    ],
)
def test_mermaid_links(line: str, expected: list[tuple[str, str, str, bool]]) -> None:
    assert links(line) == expected


def test_mermaid_node_shapes_and_labels() -> None:
    assert labels("db[(Ledger DB<br/>&#40Postgres&#41)]") == {"db": "Ledger DB (Postgres)"}
    assert parse_line("db[(Ledger DB)]").nodes[0].shape == "database"  # type: ignore[union-attr]
    assert labels("rb([Report Builder]):::py") == {"rb": "Report Builder"}
    assert labels('rx[/"Receiver<br/>port 9000"/]') == {"rx": "Receiver port 9000"}
    assert labels("q{{Queue #40;main#41;}}") == {"q": "Queue (main)"}
    assert labels("gw>Gateway]") == {"gw": "Gateway"}
    assert labels("subgraph pay[Payments Area]") == {"pay": "Payments Area"}
    assert labels('subgraph "Back Office"') == {"Back Office": "Back Office"}
    assert labels("subgraph Back Office") == {"Back Office": "Back Office"}


@pytest.mark.parametrize(
    "line",
    ["graph TD", "flowchart LR", "end", "%% a note", "classDef svc fill:#fff;", "direction TB"],
)
def test_mermaid_keywords_are_diagram_lines_without_links(line: str) -> None:
    statement = parse_line(line)
    assert statement is not None and not statement.links


def test_plantuml_lines() -> None:
    assert links("[Web App] --> [Ledger Service] : posts") == [
        ("Web App", "Ledger Service", "posts", True)
    ]
    assert links("api <- ledger") == [("ledger", "api", "", True)]
    assert links("api -> ledger : charge()") == [("api", "ledger", "charge()", True)]
    assert links("api -[#red]-> ledger") == [("api", "ledger", "", True)]
    assert links("api -up-> ledger") == [("api", "ledger", "", True)]
    assert links("api -- ledger") == [("api", "ledger", "", False)]
    assert links("Base <|-- Derived") == [("Base", "Derived", "", False)]  # inheritance
    dependency = parse_line("api ..> ledger")
    assert dependency is not None and dependency.links[0].dependency
    declared = parse_line('database "Ledger Store" as ls')
    assert declared is not None
    assert (declared.nodes[0].id, declared.nodes[0].label) == ("ls", "Ledger Store")
    assert declared.nodes[0].shape == "database"
    queue = parse_line('queue "Invoice Events" as ie')
    assert queue is not None and queue.nodes[0].shape == "queue"
    assert labels("[Report Builder] as rb") == {"rb": "Report Builder"}
    # ``A as B``: PlantUML names first, Mermaid's sequence diagrams put the label last
    assert labels("participant Gateway as gw") == {"gw": "Gateway"}
    mermaid = parse_line("participant gw as Gateway", "mermaid")
    assert mermaid is not None and (mermaid.nodes[0].id, mermaid.nodes[0].label) == (
        "gw",
        "Gateway",
    )


def test_dot_lines() -> None:
    assert links('api -> ledger [label="charges"]') == [("api", "ledger", "charges", True)]
    assert links("api->ledger") == [("api", "ledger", "", True)]
    assert links("api -> {ledger; db}") == [("api", "ledger", "", True), ("api", "db", "", True)]
    assert links('"Web App" -> "Ledger"') == [("Web App", "Ledger", "", True)]
    assert links("api -- ledger;") == [("api", "ledger", "", False)]
    assert labels('ledger [label="Ledger Service", shape=box]') == {"ledger": "Ledger Service"}
    db = parse_line("db [shape=cylinder label=<<b>Ledger</b> DB>]")
    assert db is not None and (db.nodes[0].label, db.nodes[0].shape) == ("Ledger DB", "database")
    opened = parse_line('subgraph cluster_pay { label="Payments";')
    assert opened is not None and opened.subgraph is not None
    assert opened.subgraph.label == "Payments"
    assert parse_line('rankdir="LR"') is not None
    assert parse_line("node [shape=box]") is not None
    assert parse_line("{rank = same; api; ledger}") is not None


@pytest.mark.parametrize(
    "prose",
    [
        "The ledger service persists invoices to Postgres.",
        "Overview",
        "Cart -- the checkout service -- calls billing.",
        "billing-api calls ledger, then ledger writes to Postgres",
        "See the diagram below:",
        "| api | ledger |",
    ],
)
def test_prose_is_no_diagram_line(prose: str) -> None:
    assert parse_line(prose) is None
    assert not is_diagram_line(prose)
    assert not is_diagram_edge(prose)


def test_diagram_lines_and_edges() -> None:
    assert is_diagram_line("ledger[(Ledger DB)]") and not is_diagram_edge("ledger[(Ledger DB)]")
    assert is_diagram_line("api -->|REST| ledger") and is_diagram_edge("api -->|REST| ledger")
    assert is_diagram_edge("api --- ledger")  # undirected: read as a diagram, states nothing
    legend = "1. **Gateway** --> **ledger** - forwards charges"
    assert is_diagram_edge(legend) and not is_diagram_line(legend)  # a legend is prose


def test_clean_label() -> None:
    assert clean_label('"Ledger<br/>&#40;v2&#41;"') == "Ledger (v2)"
    assert clean_label("A<br>B <i>c</i>") == "A B c"


# --- blocks and the splitter ---------------------------------------------------------------

DOC = """# Payments

The ledger keeps balances. It is old.

```mermaid
graph LR
  gw[Gateway] -->|REST| api
  api --> db[(Ledger DB. Primary)]
```

```bash
make run
```

.. graphviz::

   digraph G {
       api -> q
       q [label="Invoice events"]
   }

After the diagram.

@startuml
[Gateway] --> [ledger] : posts
@enduml
"""


def test_blocks_are_found_in_fences_directives_and_startuml() -> None:
    blocks = diagram_blocks(DOC)
    assert [b.language for b in blocks] == ["mermaid", "dot", "plantuml"]
    first = [DOC[s:e] for s, e in blocks[0].lines]
    assert first == ["graph LR", "gw[Gateway] -->|REST| api", "api --> db[(Ledger DB. Primary)]"]
    assert [DOC[s:e] for s, e in blocks[1].lines][1] == "api -> q"


def test_a_fence_without_language_is_a_diagram_when_its_first_line_says_so() -> None:
    text = "```\ndigraph {\n  a -> b\n}\n```\n\n```\nflowchart TD\n  a --> b\n```\n"
    assert [b.language for b in diagram_blocks(text)] == ["dot", "mermaid"]
    assert diagram_blocks("```\nprint('a -> b')\n```\n") == []


def test_each_diagram_line_is_one_sentence_and_prose_is_unchanged() -> None:
    texts = [s.text for s in split_sentences("doc/x", DOC)]
    assert "api --> db[(Ledger DB. Primary)]" in texts  # not cut at ". P"
    assert "api -> q" in texts and 'q [label="Invoice events"]' in texts  # RST body per line
    assert "[Gateway] --> [ledger] : posts" in texts
    assert "The ledger keeps balances." in texts and "It is old." in texts
    for sentence in split_sentences("doc/x", DOC):
        assert DOC[sentence.start : sentence.end] == sentence.text


def test_diagram_nodes_give_labels_with_their_spans() -> None:
    nodes = {(n.id, n.label, n.language) for n in diagram_nodes(DOC)}
    assert nodes == {
        ("gw", "Gateway", "mermaid"),
        ("db", "Ledger DB. Primary", "mermaid"),
        ("q", "Invoice events", "dot"),
        ("Gateway", "Gateway", "plantuml"),
        ("ledger", "ledger", "plantuml"),
    }
    for node in diagram_nodes(DOC):
        assert DOC[node.span[0] : node.span[1]] == node.label or node.label in clean_label(
            DOC[node.span[0] : node.span[1]]
        )


def test_a_dot_subgraph_takes_the_label_statement_after_it() -> None:
    text = '.. graphviz::\n\n   digraph {\n     subgraph cluster_a {\n       label="Back Office";\n     }\n   }\n'
    assert [(n.id, n.label) for n in diagram_nodes(text)] == [("cluster_a", "Back Office")]


# --- references and edges ------------------------------------------------------------------


def read(text: str) -> tuple[list[Sentence], dict[str, list[Mention]]]:
    sentences = split_sentences("doc/design", text)
    return sentences, diagram_mentions(sentences, BINDER, text=text)


def edges_of(text: str) -> set[tuple[str, str, str]]:
    sentences, refs = read(text)
    found: set[tuple[str, str, str]] = set()
    for sentence in sentences:
        edges, _ = sentence_edges(sentence, BINDER.bind(sentence) + refs.get(sentence.id, []), "t")
        found.update((e.subject, e.rel_type, e.object) for e in edges)
    return found


MERMAID = """Payments

```mermaid
flowchart LR
  gw(Gateway)
  api(Billing API<br/>&#40billing-api&#41)
  store[(Main DB<br/>&#40PostgreSQL&#41)]
  bus[[Event Bus]]
  rb([Report Builder])
  gw -->|REST| api
  api --> store
  api -->|emits| bus
  bus --> rb
  api --- rb
```
"""


def test_node_ids_are_bound_through_their_labels() -> None:
    sentences, refs = read(MERMAID)
    line = next(s for s in sentences if s.text == "api --> store")
    by_surface = {m.surface: m for m in refs[line.id]}
    assert by_surface["api"].candidates == ("service:billing-api",)
    assert by_surface["store"].candidates == ("datastore:postgres",)
    assert by_surface["store"].reference
    assert by_surface["store"].reason == (
        "diagram node 'store' = 'Main DB (PostgreSQL)' (node label, database shape, line 7)"
    )
    span = (by_surface["store"].start, by_surface["store"].end)
    assert MERMAID[span[0] : span[1]] == "store"


def test_arrows_state_calls_publishing_consuming_and_dependencies() -> None:
    assert edges_of(MERMAID) == {
        ("service:gateway", "CALLS", "service:billing-api"),
        ("service:billing-api", "DEPENDS_ON", "datastore:postgres"),  # into a store
        ("service:billing-api", "PUBLISHES_TO", "component:event-bus"),  # label cue "emits"
        ("service:report-builder", "CONSUMES_FROM", "component:event-bus"),  # out of a bus
    }  # "api --- rb" is undirected: nothing


def test_an_id_that_is_a_name_needs_no_reference() -> None:
    text = "```mermaid\ngraph TD\n  ledger --> invoice-events\n```\n"
    _sentences, refs = read(text)
    assert refs == {}
    assert edges_of(text) == {("service:ledger", "PUBLISHES_TO", "topic:invoice-events")}


def test_ids_are_scoped_to_their_diagram() -> None:
    text = (
        "```mermaid\ngraph TD\n  a[Gateway] --> b[ledger]\n```\n\nText between.\n\n"
        "```mermaid\ngraph TD\n  a[Report Builder] --> b[Postgres]\n```\n"
    )
    assert edges_of(text) == {
        ("service:gateway", "CALLS", "service:ledger"),
        ("service:report-builder", "DEPENDS_ON", "datastore:postgres"),
    }


def test_a_label_naming_two_entities_or_a_part_of_one_binds_nothing() -> None:
    text = (
        "```mermaid\ngraph TD\n  x[Gateway and ledger]\n  y[ledger audit credentials]\n"
        "  r[Redwood]\n  x --> gw2\n  y --> Postgres\n  r --> Postgres\n```\n"
    )
    _sentences, refs = read(text)
    assert refs == {}
    assert edges_of(text) == set()


def test_plantuml_and_dot_diagrams() -> None:
    text = (
        "@startuml\n"
        'component "Ledger Service" as ls\n'
        'database "Ledger Store" as st\n'
        "[Gateway] --> ls : charge\n"
        "ls ..> st\n"
        "ls --> [Report Builder] : response\n"
        "@enduml\n\n"
        ".. graphviz::\n\n"
        "   digraph {\n"
        '      rb [label="Report Builder"]\n'
        '      pg [label="PostgreSQL", shape=cylinder]\n'
        '      rb -> pg [label="reads"]\n'
        "   }\n"
    )
    assert edges_of(text) == {
        ("service:gateway", "CALLS", "service:ledger"),
        ("service:report-builder", "READS_FROM", "datastore:postgres"),
    }  # "Ledger Store" names no entity; a "response" arrow states no call


def test_legend_lines_read_their_description() -> None:
    text = (
        "* [1] **Gateway** --> **ledger** - forwards charges\n"
        "* [2] **ledger** --> **Postgres** - stores balances\n"
        "* [3] **Report Builder** --> **Postgres** - reads balances\n"
    )
    assert edges_of(text) == {
        ("service:gateway", "CALLS", "service:ledger"),
        ("service:ledger", "WRITES_TO", "datastore:postgres"),
        ("service:report-builder", "READS_FROM", "datastore:postgres"),
    }


def test_edge_fields_cue_spans_and_flags() -> None:
    text = "api -->|does not read| Postgres"
    sentence = Sentence("doc/d", text, 100, 100 + len(text))
    api = Mention(
        sentence.id,
        100,
        103,
        "api",
        ("service:billing-api",),
        "diagram node 'api' = 'Billing API' (node label, line 3)",
        reference=True,
    )
    edges, ambiguous = arrow_edges(sentence, [api, *BINDER.bind(sentence)], "rules")
    assert ambiguous == 0
    (edge,) = edges
    assert (edge.subject, edge.rel_type, edge.object) == (
        "service:billing-api",
        "READS_FROM",
        "datastore:postgres",
    )
    assert edge.cue == "-->|does not read|" and edge.negated and not edge.hedged
    assert edge.subject_span == (100, 103) and edge.fact == text
    assert (edge.start, edge.end) == (100, 100 + len(text))


def test_an_ambiguous_endpoint_is_counted_not_guessed() -> None:
    text = "Redwood --> Gateway"
    sentence = Sentence("doc/d", text, 0, len(text))
    edges, ambiguous = arrow_edges(sentence, BINDER.bind(sentence), "rules")
    assert edges == [] and ambiguous == 1


def test_the_grader_reads_a_line_again_from_the_recorded_reference() -> None:
    """What extraction read with the reference mention, a re-read with only that mention (as
    the grader rebuilds it from the edge) reads the same: the label travels in the reason."""
    sentences, refs = read(MERMAID)
    line = next(s for s in sentences if s.text == "bus --> rb")
    mentions = BINDER.bind(line) + refs.get(line.id, [])
    first, _ = sentence_edges(line, mentions, "rules")
    rebuilt = [
        Mention(line.id, m.start, m.end, m.surface, m.candidates, m.reason, reference=True)
        for m in refs[line.id]
    ]
    again, _ = sentence_edges(line, BINDER.bind(line) + rebuilt, "grader")
    assert [(e.subject, e.rel_type, e.object) for e in first] == [
        (e.subject, e.rel_type, e.object) for e in again
    ]


def test_a_queue_shaped_or_named_node_is_a_queue_without_a_topic_kind() -> None:
    text = '@startuml\nqueue "Billing Jobs" as jobs\nbilling-api --> jobs\n@enduml\n'
    binder = Binder([*ENTITIES, Entity("Billing Jobs", "component")])
    sentences = split_sentences("doc/q", text)
    refs = diagram_mentions(sentences, binder)
    line = next(s for s in sentences if s.text == "billing-api --> jobs")
    assert refs[line.id][0].reason == (
        "diagram node 'jobs' = 'Billing Jobs' (node label, queue shape, at character 17)"
    )
    edges, _ = sentence_edges(line, binder.bind(line) + refs[line.id], "rules")
    assert [(e.subject, e.rel_type, e.object) for e in edges] == [
        ("service:billing-api", "PUBLISHES_TO", "component:billing-jobs")
    ]


def test_a_label_with_its_own_subject_is_not_the_arrows_verb() -> None:
    """A sequence message that is a clause of its own does not say what the arrow does."""
    assert (
        edges_of("@startuml\nGateway -> ledger : Report Builder reads the totals\n@enduml\n")
        == set()
    )
    assert edges_of("@startuml\nGateway -> ledger : also reads the totals\n@enduml\n") == {
        ("service:gateway", "READS_FROM", "service:ledger")
    }


def test_diagram_nodes_hint_their_kind_and_whether_an_arrow_uses_them() -> None:
    text = (
        "```mermaid\ngraph TD\n  q[(jobs<br/>&#40Broker&#41)]\n  db[(Ledger)]\n"
        "  st[Session Cache]\n  gw[Gateway]\n  legend[Go]\n  gw --> q\n  gw --> db\n```\n"
    )
    nodes = {n.id: n for n in diagram_nodes(text)}
    assert nodes["q"].kind_hint == "topic"  # a cylinder whose name says broker is a queue
    assert nodes["db"].kind_hint == "datastore" and nodes["st"].kind_hint == "datastore"
    assert nodes["gw"].kind_hint == ""
    assert nodes["gw"].linked and not nodes["legend"].linked and not nodes["st"].linked
