"""Shared fixtures: a real FalkorDB server for the whole session, one graph per test."""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from zehn.config import Settings
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer, ServerInfo

REPO = Path(__file__).resolve().parent.parent
SAMPLE_SOURCES = REPO / "data" / "sample" / "sources"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="session")
def zehn_home() -> Path:
    """The session's temporary ZEHN_HOME, set up by the root conftest.py."""
    return Path(os.environ["ZEHN_HOME"])


@pytest.fixture(scope="session")
def falkordb_server(zehn_home: Path) -> ServerInfo:
    """The managed server on a free loopback port; the root conftest stops it (with a save)."""
    return ManagedServer(zehn_home).ensure()


@pytest.fixture(scope="session")
def settings(zehn_home: Path, falkordb_server: ServerInfo) -> Settings:
    return Settings(home=zehn_home)


@pytest.fixture
def client(settings: Settings) -> Iterator[GraphClient]:
    graph_client = GraphClient.connect(settings)
    yield graph_client
    graph_client.close()


@pytest.fixture
def graph_name(request: pytest.FixtureRequest, client: GraphClient) -> Iterator[str]:
    """A fresh graph name for this test; the graph is deleted afterwards."""
    stem = re.sub(r"[^A-Za-z0-9]+", "_", request.node.name)[:40]
    name = f"t_{stem}_{uuid.uuid4().hex[:6]}"
    yield name
    for existing in client.list_graphs():
        if existing.startswith(name):
            client.delete_graph(existing)
