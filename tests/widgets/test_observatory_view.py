"""The observatory view: two panels, each with its own facts and failure state."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator

import pytest

from tests.conftest import REPO
from widgets.observatory import Observatory
from widgets.session import Session
from zehn.config import Settings
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, f"obsview_{uuid.uuid4().hex[:6]}", REPO / "data" / "sample")
    yield report.graph
    client.delete_graph(report.graph)
    client.close()


def test_healthy_graph_and_offline_model(
    settings: Settings, client: GraphClient, sample_graph: str
) -> None:
    session = Session(settings, client, graph=sample_graph, policy=load_policy("production"))
    view = Observatory(session)
    api, graph = view.api_panel.value, view.graph_panel.value
    assert 'data-panel="api"' in api and "offline model in use" in api
    assert 'data-state="not configured"' in api and "zehn-failure" not in api
    assert 'data-panel="graph"' in graph and 'data-state="ok"' in graph
    assert "falkordb" in graph and sample_graph in graph
    assert "RELATES edges without a stored sentence:</small> 0" in graph
    assert "source-supported" in graph and "%)" in graph


def test_refresh_shows_a_graph_that_lost_a_sentence(
    settings: Settings, client: GraphClient, sample_graph: str, graph_name: str
) -> None:
    client.copy_graph(sample_graph, graph_name)
    session = Session(settings, client, graph=graph_name, policy=load_policy("production"))
    view = Observatory(session)
    assert 'data-state="ok"' in view.graph_panel.value
    client.write(
        graph_name,
        "MATCH ()-[r:RELATES]->() WITH r LIMIT 1 "
        "MATCH (s:Sentence {id: r.sentence_id}) DETACH DELETE s",
    )
    view.refresh_button.click()
    assert 'data-state="warning"' in view.graph_panel.value
    assert "RELATES edges have no stored sentence" in view.graph_panel.value


def test_a_missing_graph_is_red_in_the_graph_panel_only(
    settings: Settings, client: GraphClient
) -> None:
    session = Session(settings, client, graph="no_such_graph", policy=load_policy("production"))
    view = Observatory(session)
    assert 'data-state="failed"' in view.graph_panel.value
    assert "graph &#x27;no_such_graph&#x27; does not exist" in view.graph_panel.value
    assert "zehn-failure" not in view.api_panel.value


def test_a_down_server_is_red_in_the_graph_panel_and_the_api_panel_still_reports() -> None:
    settings = Settings(falkordb_url=f"redis://127.0.0.1:{_free_port()}")
    session = Session(settings, graph="sample__rules", policy=load_policy("production"))
    view = Observatory(session)
    graph, api = view.graph_panel.value, view.api_panel.value
    assert 'data-state="unreachable"' in graph and "server unreachable: " in graph
    assert "GraphUnavailable" in graph and "Traceback" not in graph
    assert "offline model in use" in api and "zehn-failure" not in api


def test_an_unreachable_api_is_red_in_the_api_panel_only(
    settings: Settings, client: GraphClient, sample_graph: str
) -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    configured = settings.with_changes(openai_base_url=url, openai_model="m")
    session = Session(configured, client, graph=sample_graph, policy=load_policy("production"))
    view = Observatory(session, api_timeout_s=2)
    api = view.api_panel.value
    assert 'data-state="failed"' in api and "zehn-failure" in api and url in api
    assert "offline model in use" in api
    assert 'data-state="ok"' in view.graph_panel.value
