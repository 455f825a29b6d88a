"""A diagram's context decides what its arrows mean: data moving, or calls.

Every diagram and sentence here is invented.
"""

from __future__ import annotations

from zehn.corpus.model import Sentence
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.reading.diagrams.context import DATA_FLOW_WORDS, flow_contexts
from zehn.reading.diagrams.reader import diagram_mentions
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder
from zehn.reading.references.reader import with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import split_sentences

ENTITIES = [
    Entity("Meter Agent", "component"),
    Entity("Ledger Sink", "component"),
    Entity("Ledger Store", "datastore"),
    Entity("Chart Board", "service"),
    Entity("billing-api", "service"),
]
BINDER = Binder(ENTITIES)


def triples(text: str, headings: list[tuple[int, str]] | None = None) -> set[tuple[str, ...]]:
    sentences = split_sentences("doc/flow", text)
    flows = flow_contexts(sentences, text, headings or [])
    refs = diagram_mentions(sentences, BINDER, text=text, flows=flows)
    found: set[tuple[str, ...]] = set()
    for sentence in sentences:
        edges, _ = sentence_edges(sentence, BINDER.bind(sentence) + refs.get(sentence.id, []), "t")
        found.update((e.subject, e.rel_type, e.object) for e in edges)
    return found


SUBGRAPHED = """Intro text.

```mermaid
graph LR
subgraph sf[Metrics Data Flow]
  ma[/"Meter Agent<br/>listening on<br/>port 9000"/]
  ls[Ledger Sink]
  st[(Ledger Store)]
  cb{{"Chart Board"}}
  ma -->|gRPC| ls
  ls --> st
  st --> cb
end
```
"""

PLAIN = SUBGRAPHED.replace("Metrics Data Flow", "Back office")


def test_arrows_inside_a_data_flow_subgraph_feed_and_write() -> None:
    assert triples(SUBGRAPHED) == {
        ("component:meter-agent", "FEEDS", "component:ledger-sink"),
        ("component:ledger-sink", "WRITES_TO", "datastore:ledger-store"),
        ("datastore:ledger-store", "FEEDS", "service:chart-board"),
    }


def test_the_same_arrows_without_data_flow_words_are_calls_and_dependencies() -> None:
    assert triples(PLAIN) == {
        ("component:meter-agent", "CALLS", "component:ledger-sink"),
        ("component:ledger-sink", "DEPENDS_ON", "datastore:ledger-store"),
        ("datastore:ledger-store", "FEEDS", "service:chart-board"),
    }


def test_a_caption_right_before_the_diagram_gives_the_context() -> None:
    text = (
        "The picture below shows the flow of metrics from agents to storage.\n\n"
        "```mermaid\ngraph LR\nma[Meter Agent] --> ls[Ledger Sink]\n```\n"
    )
    assert triples(text) == {("component:meter-agent", "FEEDS", "component:ledger-sink")}


def test_a_heading_gives_the_context_and_a_named_node_carries_it() -> None:
    text = "Ingestion pipeline\n\n```mermaid\ngraph LR\nbilling-api --> ls[Ledger Sink]\n```\n"
    sentences = split_sentences("doc/flow", text)
    flows = flow_contexts(sentences, text, [(0, "Ingestion pipeline")])
    line = next(s for s in sentences if s.text.startswith("billing-api"))
    assert flows[line.id] == "data-flow context: heading 'Ingestion pipeline'"
    refs = diagram_mentions(sentences, BINDER, text=text, flows=flows)[line.id]
    named = next(m for m in refs if m.surface == "billing-api")
    assert named.reason == (
        "diagram node 'billing-api' (named, data-flow context: heading 'Ingestion pipeline')"
    )
    edges, _ = sentence_edges(line, BINDER.bind(line) + refs, "t")
    assert [(e.subject, e.rel_type, e.object) for e in edges] == [
        ("service:billing-api", "FEEDS", "component:ledger-sink")
    ]


def test_a_distant_or_unrelated_caption_gives_nothing() -> None:
    text = (
        "Data flows are covered elsewhere.\n\nThe services call each other.\n\n"
        "```mermaid\ngraph LR\nma[Meter Agent] --> ls[Ledger Sink]\n```\n"
    )
    assert triples(text) == {("component:meter-agent", "CALLS", "component:ledger-sink")}


def test_a_title_line_of_the_diagram_gives_the_context() -> None:
    text = "```mermaid\n---\ntitle: Event flow of the billing data flow\n---\nflowchart LR\nma[Meter Agent] --> ls[Ledger Sink]\n```\n"
    assert ("component:meter-agent", "FEEDS", "component:ledger-sink") in triples(text)


def test_a_re_read_with_the_recorded_references_reads_the_same() -> None:
    sentences = split_sentences("doc/flow", SUBGRAPHED)
    flows = flow_contexts(sentences, SUBGRAPHED)
    refs = diagram_mentions(sentences, BINDER, text=SUBGRAPHED, flows=flows)
    line = next(s for s in sentences if s.text.strip() == "ls --> st")
    rebuilt = [
        Mention(line.id, m.start, m.end, m.surface, m.candidates, m.reason, reference=True)
        for m in refs[line.id]
    ]
    edges, _ = sentence_edges(Sentence(line.doc_id, line.text, line.start, line.end), rebuilt, "g")
    assert [e.rel_type for e in edges] == ["WRITES_TO"]


def test_data_flow_words() -> None:
    for said in (
        "Telemetry Data Flow",
        "the flow of events",
        "log pipeline",
        "ETL jobs",
        "数据流向",
    ):
        assert DATA_FLOW_WORDS.search(said), said
    for said in ("Service Diagram", "the workflow of the team", "CI pipeline", "OpenTelemetry"):
        assert not DATA_FLOW_WORDS.search(said), said


def test_the_grader_reads_a_named_node_with_its_recorded_context() -> None:
    """The line names both ends; the recorded reference on the name adds the data-flow note,
    and the grader, keeping it beside the name, reads the arrow as extraction did."""
    text = "Ingestion pipeline\n\n```mermaid\ngraph LR\nbilling-api --> ls[Ledger Sink]\n```\n"
    sentences = split_sentences("doc/flow", text)
    flows = flow_contexts(sentences, text, [(0, "Ingestion pipeline")])
    line = next(s for s in sentences if s.text.startswith("billing-api"))
    refs = diagram_mentions(sentences, BINDER, text=text, flows=flows)[line.id]
    (edge,) = with_references(sentence_edges(line, BINDER.bind(line) + refs, "t")[0], refs)
    evidence = Evidence(
        "k", edge.subject, edge.rel_type, edge.object, line.id, line.text, line.start,
        line.doc_id, subject_ref=edge.subject_reference, subject_span=edge.subject_span,
        object_ref=edge.object_reference, object_span=edge.object_span,
    )  # fmt: skip
    assert edge.rel_type == "FEEDS"
    assert Grader(ENTITIES).grade(evidence).label == SUPPORTED


def test_a_dot_cluster_label_and_a_plantuml_package_give_the_context() -> None:
    dot = (
        '```dot\ndigraph G {\n  subgraph cluster_a {\n    label="Event data flow";\n'
        '    agent [label="Meter Agent"];\n    sink [label="Ledger Sink"];\n    agent -> sink;\n'
        "  }\n  sink -> board;\n}\n```\n"
    )
    sentences = split_sentences("doc/flow", dot)
    flows = flow_contexts(sentences, dot)
    noted = {s.text.strip(): flows.get(s.id, "") for s in sentences}
    assert noted["agent -> sink;"] == "data-flow context: subgraph 'cluster_a Event data flow'"
    assert noted["sink -> board;"] == ""  # outside the cluster
    puml = '@startuml\npackage "Log pipeline" {\n  [Meter Agent] --> [Ledger Sink]\n}\n@enduml\n'
    sentences = split_sentences("doc/flow", puml)
    flows = flow_contexts(sentences, puml)
    line = next(s for s in sentences if "-->" in s.text)
    assert flows[line.id] == "data-flow context: subgraph 'Log pipeline'"


def test_a_document_without_diagrams_has_no_flows_and_one_with_reads_its_headings() -> None:
    from zehn.corpus.model import SourceText
    from zehn.reading.diagrams.context import document_flows

    plain = "Data flow\n\nThe meter agent sends readings to the ledger sink.\n"
    doc = SourceText("doc/a-md", "Data flow", plain, (), tuple(split_sentences("doc/a-md", plain)))
    assert document_flows(doc) == {}
    text = "# Data flow\n\n```mermaid\ngraph LR\nma[Meter Agent] --> ls[Ledger Sink]\n```\n"
    doc = SourceText("doc/b-md", "Data flow", text, (), tuple(split_sentences("doc/b-md", text)))
    assert set(document_flows(doc).values()) == {"data-flow context: heading 'Data flow'"}
