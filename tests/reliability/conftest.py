"""Fixtures for the reliability suite: the sample graph, and servers a test may kill.

Tests that kill FalkorDB never touch the session's server: each gets its own
managed server under its own ``ZEHN_HOME`` (``own_home``), stopped afterwards.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from tests.conftest import REPO
from zehn.config import Settings
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer, ServerInfo

SAMPLE = REPO / "data" / "sample"
# Inputs tried, faults injected, records lost: counted by the tests, printed at the end and
# saved to .artifacts/reliability/tally.json (docs/reliability.md's table comes from these).
TALLY: Counter[str] = Counter()


@pytest.fixture(scope="package", autouse=True)
def _tally_report() -> Iterator[Counter[str]]:
    yield TALLY
    if not TALLY:
        return
    folder = Path(os.environ.get("ZEHN_ARTIFACTS") or REPO / ".artifacts") / "reliability"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tally.json").write_text(json.dumps(dict(sorted(TALLY.items())), indent=2) + "\n")
    lines = "\n".join(f"  {key}: {value}" for key, value in sorted(TALLY.items()))
    print(f"\nreliability tally:\n{lines}", file=sys.__stderr__)


@dataclass(frozen=True)
class SampleGraph:
    client: GraphClient
    graph: str
    settings: Settings


@pytest.fixture(scope="package")
def sample_graph(settings: Settings) -> Iterator[SampleGraph]:
    """The sample corpus (rules) under a name of its own, built once for this folder."""
    client = GraphClient.connect(settings)
    report = build_graph(client, f"rel_{uuid.uuid4().hex[:6]}", SAMPLE, "rules")
    yield SampleGraph(client, report.graph, settings)
    if client.graph_exists(report.graph):
        client.delete_graph(report.graph)
    client.close()


@dataclass
class OwnServer:
    """A managed server under a test's own home: free to kill and restart."""

    home: Path
    manager: ManagedServer

    @property
    def settings(self) -> Settings:
        return Settings(home=self.home)

    def ensure(self) -> ServerInfo:
        return self.manager.ensure()

    def kill(self) -> ServerInfo:
        """SIGKILL the server (no save, no goodbye) and wait until it is gone."""
        info = self.manager.ensure()
        os.kill(info.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while self.manager.status() is not None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert self.manager.status() is None, "the killed server still answers"
        return info

    def wait_for_aof(self, info: ServerInfo, timeout_s: float = 5.0) -> None:
        """Until every acknowledged write is in the append-only file (not only in memory)."""
        probe = redis.Redis(host=info.host, port=info.port, decode_responses=True)
        try:
            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline:
                persistence = probe.info("persistence")
                if int(persistence.get("aof_buffer_length", 0)) == 0:
                    return
                time.sleep(0.01)
        finally:
            probe.close()
        raise AssertionError("the AOF buffer was not written out in time")


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[OwnServer]:
    home = tmp_path / "zehn-home"
    server = OwnServer(home, ManagedServer(home))
    yield server
    server.manager.stop()
