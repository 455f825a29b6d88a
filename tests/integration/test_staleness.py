"""Staleness on the sample graph (real FalkorDB): the superseded ledger-v1 statement, tickets,
age, and what the engine and the ask widget show."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from datetime import date

import pytest

from tests.conftest import REPO
from widgets.ask import _citation_html
from zehn.config import Settings
from zehn.engine import Engine
from zehn.engine.answer import Citation
from zehn.engine.loop import ALL_STALE
from zehn.evidence.policy import load_policy
from zehn.evidence.staleness import DEPRECATED, NEGATED, TOO_OLD, check_citations
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, f"stale_{uuid.uuid4().hex[:6]}", SAMPLE, "rules")
    yield report.graph
    client.delete_graph(report.graph)
    client.close()


def sentence_id(client: GraphClient, graph: str, document: str, text: str) -> str:
    rows = client.read(
        graph,
        "MATCH (s:Sentence {doc_id: $doc}) WHERE s.text = $text RETURN s.id",
        {"doc": document, "text": text},
    ).rows
    assert len(rows) == 1, (document, text, rows)
    return str(rows[0][0])


def test_the_february_ledger_v1_dependency_is_superseded_by_the_september_negation(
    client: GraphClient, sample_graph: str
) -> None:
    feb = sentence_id(
        client,
        sample_graph,
        "meeting/2024-02-22-payments-architecture-review",
        "Billing depends on ledger-v1 today.",
    )
    page = sentence_id(
        client,
        sample_graph,
        "confluence/billing-architecture",
        "Billing depends on ledger-v1 for all invoice reads and writes.",
    )
    negation = sentence_id(
        client,
        sample_graph,
        "email/ledger-v1-decommission-1",
        "billing no longer depends on ledger-v1; it was migrated to ledger-v2.",
    )
    result = check_citations(
        client, [feb, page, negation], load_policy("production"), graph=sample_graph
    )
    for cited in (feb, page):
        stale = result[cited]
        assert stale.stale and stale.kind == NEGATED, stale
        # the earliest later negation: the same words, in a PAY-231 comment of 2024-09-12
        # (dated by its own "Comment by … on 2024-09-12:" header) or that day's email
        assert stale.superseding_sentence_id in (negation, "ticket/PAY-231#494-563")
        assert stale.superseding_quote == (
            "billing no longer depends on ledger-v1; it was migrated to ledger-v2."
        )
        assert (stale.superseding_date or "").startswith("2024-09-12")
        assert "2024-09-12" in stale.reason
    assert (result[feb].date or "").startswith("2024-02-22")
    assert not result[negation].stale  # it states the supersession; nothing later undoes it


def test_current_statements_are_not_stale(client: GraphClient, sample_graph: str) -> None:
    ids = [
        str(r[0])
        for r in client.read(
            sample_graph,
            "MATCH ()-[r:RELATES]->() WHERE r.negated = false AND NOT r.sentence_id CONTAINS 'ledger' "
            "AND NOT r.sentence_id STARTS WITH 'ticket/PAY-231' RETURN DISTINCT r.sentence_id",
        ).rows
    ]
    result = check_citations(client, ids, load_policy("production"), graph=sample_graph)
    assert len(result) == len(ids) > 20
    stale = {
        sid: s.reason
        for sid, s in result.items()
        if s.stale and "ledger-v1" not in (s.superseding_quote or "")
    }
    # the other supersessions in the sample: hearsay that redwood-inference calls
    # auth-gateway, refuted later in a ticket; and the February ticket's "the indexer polls
    # the origin-mapper replica", replaced in April by consuming from event-bus; in Chinese,
    # March's "feed-builder 依赖 recs-ranker" negated in September (不再依赖), and March's plan
    # that feed-builder call query-planner, denied in April's design (不调用)
    assert set(stale) <= {
        "email/auth-gateway-maintenance-2#66-204",
        "ticket/SRCH-101#326-426",
        "confluence/推荐平台概览#325-361",
        "meeting/2024-03-14-推荐周会#76-119",
    }, stale


def test_ticket_descriptions_date_from_creation_and_later_comments_supersede_them(
    client: GraphClient, sample_graph: str
) -> None:
    description = sentence_id(
        client,
        sample_graph,
        "ticket/PAY-231",
        "Billing reads and writes invoices in ledger-v1, which runs on Postgres 11 and goes out "
        "of support in November 2024.",
    )
    result = check_citations(client, [description], None, graph=sample_graph)[description]
    assert result.stale and result.kind == NEGATED
    assert (result.superseding_sentence_id or "").startswith("ticket/PAY-231#")
    assert "same document" in result.reason
    assert (result.date or "").startswith("2024-02-23")  # written then; resolved 2024-10-01


def test_a_shut_down_datastore_makes_ownership_statements_stale(
    client: GraphClient, sample_graph: str
) -> None:
    owns = sentence_id(
        client,
        sample_graph,
        "confluence/billing-architecture",
        "The Payments team owns billing, ledger-v1 and ledger-v2.",
    )
    result = check_citations(client, [owns], None, graph=sample_graph)[owns]
    assert result.kind == DEPRECATED
    assert result.superseding_quote == "The ledger-v1 database was shut down this morning."


def test_age_counts_only_when_the_policy_sets_it(client: GraphClient, sample_graph: str) -> None:
    document = "confluence/search-platform-overview"
    page = sentence_id(
        client, sample_graph, document, _first_edge_sentence(client, sample_graph, document)
    )
    production = load_policy("production")
    strict = dataclasses.replace(production, max_age_days=365)
    today = date(2026, 1, 1)
    assert not check_citations(client, [page], production, today, graph=sample_graph)[page].stale
    old = check_citations(client, [page], strict, today, graph=sample_graph)[page]
    assert old.stale and old.kind == TOO_OLD and "365" in old.reason
    fresh = check_citations(client, [page], strict, date(2024, 12, 1), graph=sample_graph)[page]
    assert not fresh.stale


def _first_edge_sentence(client: GraphClient, graph: str, document: str) -> str:
    return str(
        client.read(
            graph,
            "MATCH ()-[r:RELATES {doc_id: $doc}]->() WHERE r.negated = false "
            "MATCH (s:Sentence {id: r.sentence_id}) RETURN s.text ORDER BY s.start LIMIT 1",
            {"doc": document},
        ).scalar()
    )


def test_the_engine_marks_stale_citations_and_says_when_all_are(
    client: GraphClient, sample_graph: str
) -> None:
    production = load_policy("production")
    fresh = Engine(client, sample_graph, production, OfflineModel()).ask(
        "If I change origin-mapper, what breaks?"
    )
    assert fresh.status == "answered" and fresh.citations
    assert not any(c.stale for c in fresh.citations) and ALL_STALE not in fresh.answer
    for item in fresh.to_dict()["citations"]:
        assert item["stale"] is False and item["superseded_by"] is None
        assert {"superseded_quote", "stale_reason"} <= set(item)

    aged = dataclasses.replace(production, max_age_days=1)  # the sample is from 2024
    answer = Engine(client, sample_graph, aged, OfflineModel()).ask(
        "If I change origin-mapper, what breaks?"
    )
    assert answer.status == "answered" and answer.citations
    assert all(c.stale for c in answer.citations)
    assert answer.answer.endswith(ALL_STALE)
    assert any("superseded or is older than the policy allows" in n for n in answer.limitations)
    as_json = answer.to_dict()["citations"][0]
    assert as_json["stale"] is True and "allows at most 1 days" in as_json["stale_reason"]


def test_the_ask_widget_shows_the_stale_tag_with_the_superseding_quote() -> None:
    citation = Citation(
        1,
        "meeting/x#1-2",
        "meeting/x",
        "meeting",
        "Payments review",
        "Billing depends on ledger-v1 today.",
        (1, 36),
        "2024-02-22",
        stale=True,
        superseded_by="email/y#51-120",
        superseded_quote="billing no longer depends on ledger-v1; it was migrated to ledger-v2.",
        stale_reason="a later source says the relation no longer holds",
    )
    html = _citation_html(citation, [])
    assert 'class="zehn-stale"' in html and ">stale<" in html
    assert "it was migrated to ledger-v2." in html and "email/y#51-120" in html
    assert "zehn-stale" not in _citation_html(dataclasses.replace(citation, stale=False), [])
