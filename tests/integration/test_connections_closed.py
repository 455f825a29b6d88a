"""Resources closed (issue 30, item 2): the front door, the CLI and health checks close every
connection they open; a hundred calls leave the server's connection count where it was."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import zehn
from zehn.cli import main
from zehn.config import Settings
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient
from zehn.store.health import check_health

pytestmark = pytest.mark.integration
CALLS = 100


def _connected(client: GraphClient) -> int:
    listing = client.server_command("CLIENT", "LIST")
    text = listing.decode() if isinstance(listing, bytes) else str(listing)
    return len([line for line in text.splitlines() if line.strip()])


def _after(client: GraphClient, call: Callable[[], object], times: int = CALLS) -> int:
    before = _connected(client)
    for _ in range(times):
        call()
    return _connected(client) - before


@pytest.fixture
def small_graph(client: GraphClient, graph_name: str, tmp_path: Path) -> str:
    (tmp_path / "a.md").write_text(
        "# a\n\nThe orders-api service reads from the basket-db database.\n", encoding="utf-8"
    )
    return build_graph(client, graph_name, tmp_path, "rules").graph


def test_asking_through_the_front_door_leaves_no_connection_open(
    client: GraphClient, settings: Settings, small_graph: str
) -> None:
    question = "What does orders-api read from?"
    grown = _after(client, lambda: zehn.ask(question, small_graph, settings=settings))
    assert grown <= 1  # not one per call
    with zehn.open_engine(small_graph, settings=settings) as engine:
        assert engine.ask(question).status == "answered"


def test_ingest_health_and_the_cli_leave_no_connection_open(
    client: GraphClient, settings: Settings, graph_name: str, tmp_path: Path
) -> None:
    (tmp_path / "a.md").write_text(
        "# a\n\nThe orders-api service calls the billing-core service.\n", encoding="utf-8"
    )
    ingest = lambda: zehn.ingest(tmp_path, f"{graph_name}x", settings=settings)  # noqa: E731
    assert _after(client, ingest, 20) <= 1
    assert _after(client, lambda: check_health(settings)) <= 1
    graph = f"{graph_name}x__rules"
    question = ["ask", "What does orders-api call?", "--graph", graph, "--json"]
    assert _after(client, lambda: main(question), 30) <= 1
    assert _after(client, lambda: main(["graphs", "--json"]), 30) <= 1
