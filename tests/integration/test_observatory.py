"""The observatory's two health facts, each against a real counterpart: an HTTP endpoint
(a tiny stdlib server: the shared fake serves only POST /v1/chat/completions) and FalkorDB."""

from __future__ import annotations

import json
import socket
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tests.conftest import REPO
from zehn.config import Settings
from zehn.extract.pipeline import build_graph
from zehn.review.observatory import OFFLINE_NOTE, api_health, graph_health
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"


class _Models:
    """GET /v1/models answers a model list (or ``status``); everything else is 404."""

    def __init__(self, models: tuple[str, ...] = ("local-model",), status: int = 200) -> None:
        self.models, self.status = models, status
        self.headers: list[dict[str, str]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.headers.append(dict(self.headers))
                if self.path != "/v1/models":
                    self._send(404, {"error": {"message": "no route"}})
                elif owner.status != 200:
                    self._send(owner.status, {"error": {"message": "scripted"}})
                else:
                    data = [{"id": m, "object": "model"} for m in owner.models]
                    self._send(200, {"object": "list", "data": data})

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                body = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                """Quiet."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def endpoint() -> Iterator[_Models]:
    server = _Models()
    yield server
    server.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# --- API -----------------------------------------------------------------------------


def test_unconfigured_api_with_the_offline_model_is_a_fact_not_a_failure() -> None:
    health = api_health(Settings())
    assert health.configured is False and health.reachable is None
    assert health.missing == ("OPENAI_BASE_URL", "ZEHN_OPENAI_MODEL")
    assert health.error is None and health.ok
    assert OFFLINE_NOTE in health.notes and health.to_dict()["notes"] == [OFFLINE_NOTE]


def test_unconfigured_api_with_the_openai_model_selected_is_a_failure() -> None:
    health = api_health(Settings(model="openai", openai_base_url="http://127.0.0.1:9/v1"))
    assert health.configured is False and health.missing == ("ZEHN_OPENAI_MODEL",)
    assert health.error and "ZEHN_OPENAI_MODEL" in health.error and not health.ok


def test_configured_api_is_reachable_with_status_latency_and_models(endpoint: _Models) -> None:
    settings = Settings(
        openai_base_url=endpoint.base_url + "/",
        openai_model="local-model",
        openai_api_key="sk-secret",
    )
    health = api_health(settings)
    assert health.configured and health.reachable and health.status == 200
    assert health.latency_ms is not None and health.latency_ms > 0  # measured, not defaulted
    assert health.models == ("local-model",) and health.error is None and health.ok
    assert endpoint.headers[-1]["Authorization"] == "Bearer sk-secret"
    assert "sk-secret" not in json.dumps(health.to_dict())


def test_a_model_the_endpoint_does_not_list_is_reported(endpoint: _Models) -> None:
    settings = Settings(openai_base_url=endpoint.base_url, openai_model="other")
    health = api_health(settings)
    assert health.reachable and health.error and "'other'" in health.error


def test_an_http_error_is_reachable_but_failed() -> None:
    server = _Models(status=401)
    try:
        health = api_health(Settings(openai_base_url=server.base_url, openai_model="m"))
    finally:
        server.close()
    assert health.reachable is True and health.status == 401
    assert health.error and "401" in health.error and not health.ok


def test_unreachable_port_is_not_reachable_with_an_error() -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    health = api_health(Settings(openai_base_url=url, openai_model="m"), timeout_s=2)
    assert health.reachable is False and health.status is None
    assert health.error and url in health.error
    assert OFFLINE_NOTE in health.notes  # the offline model still answers questions


def test_a_non_http_base_url_is_refused_without_a_request() -> None:
    health = api_health(Settings(openai_base_url="file:///etc", openai_model="m"))
    assert health.reachable is False and health.error and "http" in health.error


# --- graph ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_graph(settings: Settings) -> Iterator[str]:
    client = GraphClient.connect(settings)
    report = build_graph(client, f"obs_{uuid.uuid4().hex[:6]}", SAMPLE, "rules")
    yield report.graph
    client.delete_graph(report.graph)
    client.close()


def test_graph_health_counts_and_grades_every_edge(
    settings: Settings, client: GraphClient, sample_graph: str
) -> None:
    health = graph_health(settings, sample_graph, client)
    assert health.reachable and health.error is None and health.graph_error is None
    assert health.versions.get("falkordb")
    stats = {g.name: g for g in health.graphs}[sample_graph]
    edges = client.read(sample_graph, "MATCH ()-[r:RELATES]->() RETURN count(r)").scalar()
    assert health.relates_edges == edges == stats.edges["RELATES"] > 0
    assert health.edges_without_sentence == 0
    assert health.graded_edges == edges
    assert sum(health.labels.values()) == edges
    assert health.supported_edges == health.labels.get("source-supported")
    share = health.supported_share
    assert share is not None and 0 < share < 1
    assert health.to_dict()["supported_share"] == round(share, 4)
    assert health.ok


def test_a_deleted_sentence_leaves_edges_without_a_sentence(
    settings: Settings, client: GraphClient, sample_graph: str, graph_name: str
) -> None:
    client.copy_graph(sample_graph, graph_name)
    deleted = client.write(
        graph_name,
        "MATCH ()-[r:RELATES]->() WITH r LIMIT 1 "
        "MATCH (s:Sentence {id: r.sentence_id}) DETACH DELETE s",
    )
    assert deleted.stats["nodes_deleted"] == 1
    health = graph_health(settings, graph_name, client)
    orphans, total = health.edges_without_sentence, health.relates_edges
    assert orphans is not None and orphans >= 1 and total is not None
    assert health.graded_edges == total - orphans
    original = graph_health(settings, sample_graph, client)
    assert original.edges_without_sentence == 0  # the copy, not the source, was changed


def test_a_missing_graph_is_a_graph_failure_not_a_server_failure(
    settings: Settings, client: GraphClient
) -> None:
    health = graph_health(settings, "no_such_graph_here", client)
    assert health.reachable and health.error is None
    assert health.graph_error and "no_such_graph_here" in health.graph_error
    assert health.relates_edges is None and not health.ok


def test_no_graph_chosen_reports_only_the_server(settings: Settings, client: GraphClient) -> None:
    health = graph_health(settings, None, client)
    assert health.reachable and health.graph is None and health.relates_edges is None


def test_an_unreachable_server_is_reported_not_raised() -> None:
    settings = Settings(falkordb_url=f"redis://127.0.0.1:{_free_port()}")
    health = graph_health(settings, "sample__rules")
    assert health.reachable is False and health.error and "GraphUnavailable" in health.error
    assert health.to_dict()["ok"] is False
