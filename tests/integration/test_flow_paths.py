"""Paths as data flows (A writes to a store that B reads from) and "who uses X?" answered by
what calls X. The invented corpus below is written for these tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from zehn.config import Settings
from zehn.engine import Engine
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

CATALOG = """entities:
  - {name: lark-writer, kind: service, aliases: []}
  - {name: finch-store, kind: datastore, aliases: []}
  - {name: lark-reader, kind: service, aliases: []}
  - {name: stoat-gw, kind: service, aliases: []}
  - {name: heron-api, kind: service, aliases: []}
"""
PAGES = {
    "lark.md": (
        "# Ledgers\n\n"
        "The lark-writer writes every ledger to finch-store.\n\n"
        "The lark-reader reads ledgers from finch-store.\n"
    ),
    "gateway.md": "# Gateway\n\nThe stoat-gw calls heron-api for every quote.\n",
}


@pytest.fixture(scope="module")
def flows(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    corpus = tmp_path_factory.mktemp("flows")
    for name, text in PAGES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    catalog = corpus.parent / "flows-catalog.yaml"
    catalog.write_text(CATALOG, encoding="utf-8")
    client = GraphClient.connect(settings)
    report = build_graph(client, "flow_paths", corpus, "rules", catalog_path=catalog)
    yield Engine(client, report.graph, load_policy("production"), OfflineModel())
    client.delete_graph(report.graph)


def test_a_path_joins_a_writer_and_a_reader_through_the_shared_store(flows: Engine) -> None:
    answer = flows.ask("How does a ledger get from lark-writer to lark-reader?")
    assert answer.status == "answered"
    quotes = {c.quote for c in answer.answer_citations}
    assert quotes == {
        "The lark-writer writes every ledger to finch-store.",
        "The lark-reader reads ledgers from finch-store.",
    }


def test_data_does_not_flow_back_from_the_reader_to_the_writer(flows: Engine) -> None:
    answer = flows.ask("How does a ledger get from lark-reader to lark-writer?")
    assert answer.status == "abstained"


def test_who_uses_an_api_is_answered_by_what_calls_it(flows: Engine) -> None:
    answer = flows.ask("Who uses heron-api?")
    assert answer.status == "answered"
    assert "stoat-gw" in answer.answer
    assert [c.quote for c in answer.answer_citations] == [
        "The stoat-gw calls heron-api for every quote."
    ]


def test_who_uses_is_not_answered_by_what_it_calls(flows: Engine) -> None:
    assert flows.ask("Who uses stoat-gw?").status == "abstained"
