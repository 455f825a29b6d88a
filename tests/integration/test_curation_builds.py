"""Curation in every build (issue 29, item 3): each decision of the Curate tab — not an entity,
rename, kind, merge — is applied by discovery and binding on every rebuild, and survives a
re-ingest of a changed corpus. The invented corpus below is written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from widgets.curation_model import CurationTable
from zehn.extract.pipeline import build_graph
from zehn.reading.names.catalog import save_catalog
from zehn.reading.names.suggest import suggest_for_path
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

PAGES = {
    "orders.md": (
        "# orders-api\n\n"
        "The orders-api service calls the billing-core service.\n\n"
        "The orders-api service reads from the basket-db database.\n\n"
        "The orders-api service writes to the audit-sink service.\n\n"
        "The orders-api service publishes to the order-events topic.\n\n"
        "The orders-api service reads from the basket-store database.\n"
    ),
    "billing.md": "# billing-core\n\nThe billing-core service writes to the ledger-db database.\n",
}


def _corpus(root: Path) -> Path:
    corpus = root / "corpus"
    (corpus / "sources").mkdir(parents=True)
    for name, text in PAGES.items():
        (corpus / "sources" / name).write_text(text, encoding="utf-8")
    return corpus


def _entities(client: GraphClient, graph: str) -> dict[str, tuple[str, list[str]]]:
    rows = client.read(graph, "MATCH (e:Entity) RETURN e.name, e.kind, e.aliases").rows
    return {str(n): (str(k), list(a or [])) for n, k, a in rows}


def _mentioned(client: GraphClient, graph: str, surface: str) -> list[str]:
    rows = client.read(
        graph,
        "MATCH (e:Entity)-[m:MENTIONED_IN]->() WHERE m.surface = $s RETURN DISTINCT e.name",
        {"s": surface},
    ).rows
    return [str(r[0]) for r in rows]


def _curate(corpus: Path) -> Path:
    """The Curate tab's decisions on the suggestion, saved as it saves them."""
    table = CurationTable.from_suggestion(suggest_for_path(corpus / "sources"), "catalog.yaml")
    table.mark_not_entity("service:audit-sink")  # not an entity
    table.rename("service:billing-core", "Billing Core")  # rename (the old name an alias)
    table.set_kind("topic:order-events", "datastore")  # kind
    table.add_alias("datastore:basket-db", "basket-store")  # merge: basket-store is basket-db
    table.mark_not_entity("datastore:basket-store")
    path = corpus / "catalog.yaml"
    save_catalog(path, table.entries(), discover=True)
    return path


def test_every_decision_holds_on_rebuild_and_after_the_corpus_changes(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path)
    first = build_graph(client, graph_name, corpus, "rules")
    before = _entities(client, first.graph)
    assert {"audit-sink", "billing-core", "order-events", "basket-store"} <= set(before)
    _curate(corpus)
    for rebuild in (True, False):  # a full rebuild, then an incremental one
        graph = build_graph(client, graph_name, corpus, "rules", rebuild=rebuild).graph
        entities = _entities(client, graph)
        assert "audit-sink" not in entities and not _mentioned(client, graph, "audit-sink")
        assert "billing-core" not in entities and "Billing Core" in entities
        assert "billing-core" in entities["Billing Core"][1]
        assert _mentioned(client, graph, "billing-core") == ["Billing Core"]
        assert entities["order-events"][0] == "datastore"
        assert "basket-store" not in entities
        assert _mentioned(client, graph, "basket-store") == ["basket-db"]
    # the corpus grows: a new component is discovered, every decision still holds
    (corpus / "sources" / "fraud.md").write_text(
        "# fraud-check\n\nThe fraud-check service calls the billing-core service.\n"
        "The fraud-check service writes to the audit-sink service.\n",
        encoding="utf-8",
    )
    graph = build_graph(client, graph_name, corpus, "rules").graph
    entities = _entities(client, graph)
    assert "fraud-check" in entities
    assert "audit-sink" not in entities and not _mentioned(client, graph, "audit-sink")
    assert _mentioned(client, graph, "billing-core") == ["Billing Core"]
    calls = client.read(
        graph,
        "MATCH (a:Entity {name: 'fraud-check'})-[r:RELATES {rel_type: 'CALLS'}]->(b) RETURN b.name",
    ).rows
    assert [str(r[0]) for r in calls] == ["Billing Core"]
