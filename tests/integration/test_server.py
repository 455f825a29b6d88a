"""The managed server's life cycle, each test under its own ZEHN_HOME."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from zehn.config import Settings
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer

pytestmark = pytest.mark.integration


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ManagedServer]:
    server = ManagedServer(tmp_path)
    yield server
    server.stop()


def _config(info_port: int, key: str) -> str:
    value = redis.Redis(port=info_port, decode_responses=True).config_get(key)[key]
    return str(value)


def test_server_is_loopback_only_persistent_and_never_evicts(own_server: ManagedServer) -> None:
    info = own_server.ensure()
    assert info.host == "127.0.0.1"
    assert _config(info.port, "bind") == "127.0.0.1"
    assert _config(info.port, "protected-mode") == "yes"
    assert _config(info.port, "appendonly") == "yes"
    assert _config(info.port, "appendfsync") == "everysec"
    assert _config(info.port, "maxmemory-policy") == "noeviction"
    assert _config(info.port, "dir") == str(own_server.data_dir)


def test_second_process_reuses_the_running_server(
    own_server: ManagedServer, tmp_path: Path
) -> None:
    info = own_server.ensure()
    code = (
        "from pathlib import Path; from zehn.store.server import ManagedServer; "
        f"i = ManagedServer(Path({str(tmp_path)!r})).ensure(); print(i.pid, i.port)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == [str(info.pid), str(info.port)]


def test_stale_state_file_from_a_killed_server_is_replaced(own_server: ManagedServer) -> None:
    first = own_server.ensure()
    os.kill(first.pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while own_server.status() is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert own_server.status() is None
    second = own_server.ensure()
    assert second.pid != first.pid
    assert redis.Redis(port=second.port).ping()


def test_state_file_naming_a_foreign_process_is_not_trusted(own_server: ManagedServer) -> None:
    own_server.data_dir.mkdir(parents=True, exist_ok=True)
    fake = {"pid": os.getpid(), "port": 1, "host": "127.0.0.1", "data_dir": "x", "started_at": 0}
    own_server.state_path.write_text(json.dumps(fake))
    info = own_server.ensure()
    assert info.pid != os.getpid()
    assert json.loads(own_server.state_path.read_text())["pid"] == info.pid


def test_data_survives_stop_and_restart(own_server: ManagedServer, tmp_path: Path) -> None:
    settings = Settings(home=tmp_path)
    client = GraphClient.connect(settings)
    client.write("keep", "CREATE (:Document {id: 'doc/a', title: $t})", {"t": "kept"})
    assert own_server.stop() is True
    assert not own_server.state_path.exists()
    client = GraphClient.connect(settings)
    assert client.read("keep", "MATCH (d:Document) RETURN d.title").scalar() == "kept"


def test_data_survives_a_kill_through_the_append_only_file(
    own_server: ManagedServer, tmp_path: Path
) -> None:
    settings = Settings(home=tmp_path)
    client = GraphClient.connect(settings)
    client.write("aof", "UNWIND range(1, 50) AS i CREATE (:N {i: i})")
    time.sleep(1.2)  # appendfsync everysec
    info = own_server.ensure()
    os.kill(info.pid, signal.SIGKILL)
    client = GraphClient.connect(settings)
    assert client.read("aof", "MATCH (n:N) RETURN count(n)").scalar() == 50


def test_stop_without_a_server_says_so(tmp_path: Path) -> None:
    assert ManagedServer(tmp_path).stop() is False
