"""Questions as engineers write them (issue 15): multi-part answers, attributes the graph does
not model, path questions, namesakes decided by the asked relation, and a predicate the graph
has no edges of. The invented corpus below is written for these tests; the sample corpus is
a regression baseline."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import REPO
from widgets.ask import AskView
from widgets.session import Session
from zehn.config import Settings
from zehn.engine import Engine
from zehn.engine.render import render_answer
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"

CATALOG = """entities:
  - {name: quill-router, kind: service, aliases: []}
  - {name: heron-db, kind: datastore, aliases: []}
  - {name: wren-proxy, kind: component, aliases: []}
  - {name: Plover team, kind: team, aliases: []}
  - {name: plover-gw, kind: service, aliases: []}
"""
PAGES = {
    "quill-router.md": (
        "# quill-router\n\n"
        "The quill-router depends on heron-db for every receipt lookup.\n\n"
        "The quill-router listens on port 7443 behind the wren-proxy.\n\n"
        "The Plover team owns quill-router.\n"
    ),
    "wren-proxy.md": "# wren-proxy\n\nThe wren-proxy depends on quill-router for routing.\n",
    "gateway.md": (
        "# Gateway\n\nHow requests enter.\n\n```mermaid\nflowchart LR\n"
        "  plover-gw -->|HTTP| quill-router\n```\n"
    ),
}


@pytest.fixture(scope="module")
def invented(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    corpus = tmp_path_factory.mktemp("free-form")
    for name, text in PAGES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    catalog = corpus.parent / "free-form-catalog.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    client = GraphClient.connect(settings)
    report = build_graph(client, "free_form", corpus, "rules", catalog_path=catalog)
    yield Engine(client, report.graph, load_policy("production"), OfflineModel())
    client.delete_graph(report.graph)


@pytest.fixture(scope="module")
def sample(settings: Settings) -> Iterator[Engine]:
    client = GraphClient.connect(settings)
    report = build_graph(client, "free_form_sample", SAMPLE, "rules")
    yield Engine(client, report.graph, load_policy("production"), OfflineModel())
    client.delete_graph(report.graph)


def test_an_attribute_is_abstained_by_code_with_related_context(invented: Engine) -> None:
    answer = invented.ask("What port does quill-router listen on?")
    assert answer.status == "abstained" and answer.answer == "I don't know"
    assert "asks for the port of quill-router" in (answer.reason or "")
    assert not answer.answer_citations  # the port sentence is context, never the answer
    by_search = [c for c in answer.citations if c.found_by == "search"]
    assert [c.quote for c in by_search] == [
        "The quill-router listens on port 7443 behind the wren-proxy."
    ]
    assert all(c.role == "related" for c in answer.citations)
    numbers = {n for r in answer.related for n in r.citations}
    assert numbers == {c.n for c in answer.citations}
    assert any(r.text == "quill-router DEPENDS_ON heron-db" for r in answer.related)
    data = answer.to_dict()
    assert data["related"] and data["citations"][0]["role"] == "related"


def test_a_two_part_question_answers_each_part_and_carries_them(invented: Engine) -> None:
    answer = invented.ask("What does wren-proxy depend on, and who owns them?")
    assert answer.status == "answered"
    first, second = answer.parts
    assert (first.status, second.status) == ("answered", "answered")
    assert "quill-router" in first.answer and "Plover team OWNS quill-router" in second.answer
    quotes = {c.n: c.quote for c in answer.citations}
    assert quotes[second.citations[0]] == "The Plover team owns quill-router."
    assert answer.answer.startswith("1. What does wren-proxy depend on?")
    assert [p["status"] for p in answer.to_dict()["parts"]] == ["answered", "answered"]


def test_a_part_that_cannot_be_answered_says_so_and_the_rest_stands(invented: Engine) -> None:
    answer = invented.ask("What does wren-proxy depend on, and what port does heron-db use?")
    assert answer.status == "answered"  # at least one part is
    assert [p.status for p in answer.parts] == ["answered", "abstained"]
    assert "port of heron-db" in (answer.parts[1].reason or "")
    assert "(the question asks for the port" in answer.answer  # the text says which part


def test_a_path_question_cites_every_hop(invented: Engine) -> None:
    answer = invented.ask("How does wren-proxy reach heron-db?")
    assert answer.status == "answered"
    assert answer.answer.startswith("From wren-proxy to heron-db")
    assert len(answer.answer_citations) == 2
    nothing = invented.ask("How does heron-db reach wren-proxy?")
    assert nothing.status == "abstained"


def test_the_asked_relation_decides_between_namesakes_where_one_kind_fits(
    sample: Engine,
) -> None:
    down = sample.ask("If Redwood Inference goes down, what breaks?")
    assert down.status != "ambiguous"  # a team does not go down, a customer is not restarted
    assert any("only the service fits" in note for note in down.limitations)
    assert sample.ask("If I change Redwood Inference, what breaks?").status == "ambiguous"
    assert sample.ask("Who is responsible for Redwood Inference?").status == "ambiguous"


def test_a_chinese_two_part_question(sample: Engine) -> None:
    answer = sample.ask("如果 indexer 宕机，哪些服务会受影响？由谁负责它们？")
    assert answer.status == "answered" and len(answer.parts) == 2
    assert "Search team 负责 search-api" in answer.parts[1].answer


def test_a_diagram_line_citation_is_marked_on_every_surface(
    invented: Engine, settings: Settings
) -> None:
    answer = invented.ask("What does plover-gw call?")
    assert answer.status == "answered"
    (citation,) = answer.answer_citations
    assert citation.quote.strip() == "plover-gw -->|HTTP| quill-router"
    assert citation.diagram_line and citation.to_dict()["diagram_line"] is True
    assert "(diagram line)" in render_answer(answer)
    session = Session(settings, invented.client, graph=invented.graph, policy=invented.policy)
    view = AskView(session)
    view.ask("What does plover-gw call?")
    assert view.result.value.count('class="zehn-diagram-line"') == 1
    prose = invented.ask("What does quill-router depend on?")
    assert prose.answer_citations and not any(c.diagram_line for c in prose.answer_citations)


def test_a_graph_without_the_sentence_index_says_search_was_not_possible(
    invented: Engine,
) -> None:
    """A graph built before sentence search: "nothing found" must not look like an answer."""
    client, graph = invented.client, invented.graph
    client.copy_graph(graph, f"{graph}_old")
    try:
        client.write(f"{graph}_old", "CALL db.idx.fulltext.drop('Sentence')")
        old = Engine(client, f"{graph}_old", invented.policy, OfflineModel())
        answer = old.ask("Who owns quill-router?")
        assert answer.status == "answered"  # the graph's own edges still answer
        assert any(n.startswith("sentence search: the graph has no full-text index") for n in
                   answer.limitations)  # fmt: skip
        searched = invented.ask("Who owns quill-router?")
        assert not any(n.startswith("sentence search:") for n in searched.limitations)
    finally:
        client.delete_graph(f"{graph}_old")
