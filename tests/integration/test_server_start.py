"""Starting the managed server: the FalkorDB start-up race worked around, no process leaked
by a start that hangs, and a restart that keeps its address or says why it could not.

A hanging start is played by a stand-in ``redis-server`` (a small script that opens the
port, never replies and ignores SIGTERM), so the test does not depend on winning a race.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from zehn.config import Settings
from zehn.errors import ConfigError, QueryTimeout, ServerStartError
from zehn.store import forks, processes, server
from zehn.store.client import GraphClient
from zehn.store.server import ManagedServer

pytestmark = pytest.mark.integration

WEDGED_SERVER = """\
#!{python}
# A stand-in redis-server that never comes up: it listens on the configured port, logs a
# line, accepts connections, never replies and ignores SIGTERM (as a wedged FalkorDB did).
import os, signal, socket, sys, time
conf = dict(line.split(" ", 1) for line in open(sys.argv[1]).read().splitlines())
signal.signal(signal.SIGTERM, signal.SIG_IGN)
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", int(conf["port"])))
listener.listen()
with open(os.path.join(os.getcwd(), "stand-in.pids"), "a") as pids:
    pids.write(f"{{os.getpid()}}\\n")
print("Received shutdown signal during loading, scheduling shutdown.", flush=True)
held = []
while True:
    held.append(listener.accept()[0])
"""


# A stand-in that replays a large file the way FalkorDB does: PING goes unanswered (not even
# LOADING) while the log grows by one line per graph decoded; then it answers PONG.
SLOW_LOADING_SERVER = """\
#!{python}
import select, socket, sys, time
conf = dict(line.split(" ", 1) for line in open(sys.argv[1]).read().splitlines())
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", int(conf["port"])))
listener.listen()
held, loaded_at, n = [], time.monotonic() + {load_s}, 0
while time.monotonic() < loaded_at:
    if select.select([listener], [], [], {every_s})[0]:
        held.append(listener.accept()[0])
    n += 1
    if {logs}:
        print(f"Done decoding graph g{{n}}", flush=True)
open_ = [listener, *held]
while True:
    for sock in select.select(open_, [], [])[0]:
        if sock is listener:
            open_.append(listener.accept()[0])
        elif data := sock.recv(4096).upper():  # one command per read: PING, or set-up
            reply = b"+PONG" if b"PING" in data else b"-NOPROTO" if b"HELLO" in data else b"+OK"
            sock.sendall(reply + b"\\r\\n")
        else:
            open_.remove(sock)
"""


def _slow_loader(tmp_path: Path, *, logs: bool) -> Path:
    script = tmp_path / "redis-server"
    source = SLOW_LOADING_SERVER.format(python=sys.executable, load_s=2.5, every_s=0.2, logs=logs)
    script.write_text(textwrap.dedent(source))
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("logs", [True, False], ids=["log grows", "log still"])
def test_a_server_that_loads_without_replying_is_waited_for_while_its_log_grows(
    tmp_path: Path, logs: bool
) -> None:
    manager = ManagedServer(tmp_path / "home", start_timeout_s=1.0, stop_grace_s=0.5)
    manager.data_dir.mkdir(parents=True)
    port = _free_port()
    process = manager._spawn(
        _slow_loader(tmp_path, logs=logs), manager._write_conf(port, Path("m.so"))
    )
    try:
        outcome = server._wait_until_ready(process, port, 1.0, manager.log_path)
    finally:
        processes.end_child(process, 0.5)
    if logs:
        assert outcome is None  # 2.5 s without a reply, but never 1 s without a log line
    else:
        assert outcome == "no reply to PING and no new log line for 1 s (wedged)"


@pytest.fixture
def wedged_binary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``binaries()`` hands out the stand-in, named redis-server like the real one."""
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "redis-server"
    script.write_text(textwrap.dedent(WEDGED_SERVER.format(python=sys.executable)))
    script.chmod(0o755)
    _, module = server.binaries()
    monkeypatch.setattr(server, "binaries", lambda: (script, module))
    return script


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "home"
    yield home
    ManagedServer(home).stop()


def test_the_module_is_loaded_without_the_racing_cron_task(home: Path) -> None:
    info = ManagedServer(home).ensure()
    conf = (Path(info.data_dir) / server.CONF_FILE).read_text()
    assert f"{server.MODULE_ARGS}\n" in conf
    reply = redis.Redis(port=info.port).execute_command("GRAPH.CONFIG", "GET", "CMD_INFO")
    assert reply[1] in (0, b"no", "no"), reply


def test_a_start_that_hangs_is_ended_and_leaves_nothing_behind(
    home: Path, wedged_binary: Path
) -> None:
    manager = ManagedServer(home, start_timeout_s=1.0, stop_grace_s=0.5)
    with pytest.raises(ServerStartError) as raised:
        manager.ensure()
    message = str(raised.value)
    assert str(manager.data_dir) in message
    assert "no reply to PING and no new log line for 1 s (wedged)" in message
    assert "killed it with SIGKILL" in message  # SIGTERM was ignored
    assert "Received shutdown signal during loading" in message  # the log's last lines
    pids = [int(p) for p in (manager.data_dir / "stand-in.pids").read_text().split()]
    assert len(pids) == 3  # every attempt was started, and every one was ended
    assert not [pid for pid in pids if processes.pid_alive(pid)]
    assert not manager.state_path.exists()
    with open(manager.data_dir / server.LOCK_FILE, "a+") as handle:  # the lock is free
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


def test_a_server_left_in_the_data_directory_is_ended_before_a_new_one_starts(
    home: Path, wedged_binary: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = ManagedServer(home, start_timeout_s=1.0, stop_grace_s=0.5)
    manager.data_dir.mkdir(parents=True)
    real = manager._spawn(wedged_binary, manager._write_conf(_free_port(), Path("m.so")))
    _wait_for(lambda: (manager.data_dir / "stand-in.pids").exists())
    assert processes.servers_in(manager.data_dir) == [real.pid]
    monkeypatch.undo()  # the real binary again
    info = manager.ensure()
    assert real.wait(5) is not None  # the leftover was ended (and reaped)
    assert processes.servers_in(manager.data_dir) == [info.pid]


def test_a_restart_keeps_the_configured_port(home: Path) -> None:
    port = _free_port()
    manager = ManagedServer(home, port=port)
    first = manager.ensure()
    assert first.port == port
    _kill(first.pid)
    second = manager.ensure()
    assert (second.port, second.moved_from) == (port, None)
    assert second.pid != first.pid


def test_a_configured_port_held_by_another_program_is_an_error_naming_it(home: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        with pytest.raises(ServerStartError, match=f"port {port} \\(ZEHN_SERVER_PORT\\)"):
            ManagedServer(home, port=port).ensure()
    assert not ManagedServer(home).state_path.exists()


def test_a_restart_whose_port_was_taken_moves_and_says_so(
    home: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server, "_PORT_WAIT_S", 0.2)  # do not wait 5 s for the squatter
    manager = ManagedServer(home)
    manager.data_dir.mkdir(parents=True)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # a pid that no longer runs: the recorded server died
    with socket.socket() as squatter:  # holds its port from the start: no race for it
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        old_port = squatter.getsockname()[1]
        record = {"pid": gone.pid, "port": old_port, "host": "127.0.0.1",
                  "data_dir": str(manager.data_dir), "started_at": 0.0}  # fmt: skip
        manager.state_path.write_text(json.dumps(record))
        with caplog.at_level(logging.WARNING, logger="zehn.store.server"):
            second = manager.ensure()
    assert second.port != old_port and second.moved_from == old_port
    assert f"ran on port {old_port}" in caplog.text
    assert manager.status() == second


def test_the_server_port_setting_is_checked() -> None:
    assert Settings.from_env({"ZEHN_SERVER_PORT": "6400"}).server_port == 6400
    assert Settings.from_env({}).server_port is None
    for bad in ("80", "70000", "six"):
        with pytest.raises(ConfigError, match="ZEHN_SERVER_PORT"):
            Settings.from_env({"ZEHN_SERVER_PORT": bad})


def _kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    assert processes.wait_for_exit(pid, 5)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for(condition: Callable[[], bool], timeout_s: float = 5.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_the_server_starts_no_child_process_of_its_own_accord(home: Path) -> None:
    info = ManagedServer(home).ensure()
    probe = redis.Redis(port=info.port, decode_responses=True)
    assert probe.config_get("save")["save"] == ""
    assert probe.config_get("auto-aof-rewrite-percentage")["auto-aof-rewrite-percentage"] == "0"


def test_a_copy_beside_a_background_save_waits_instead_of_hanging_the_server(home: Path) -> None:
    """FalkorDB 4.16.3's GRAPH.COPY deadlocks the server when its fork meets another child."""
    client = GraphClient.connect(Settings(home=home))
    client.write("src", "UNWIND range(1, 20) AS i CREATE (:N {i: i})")
    probe = redis.Redis(port=ManagedServer(home).ensure().port, decode_responses=True)
    probe.mset({f"slow:{i}": i for i in range(8)})
    probe.config_set("rdb-key-save-delay", 150_000)  # 0.15 s per key: a save of about 1.5 s
    probe.bgsave()
    assert forks.child_running(probe)
    client.copy_graph("src", "dst")  # waited for the save, then copied
    assert not forks.child_running(probe)
    assert client.read("dst", "MATCH (n:N) RETURN count(n)").scalar() == 20
    assert probe.ping() and probe.get(forks.COPY_LOCK) is None
    client.close()


def test_a_copy_that_cannot_start_says_why(home: Path) -> None:
    info = ManagedServer(home).ensure()
    probe = redis.Redis(port=info.port)
    probe.set(forks.COPY_LOCK, "another process", px=60_000)
    waited = r"another graph copy was still running after 0\.2 s"
    with pytest.raises(QueryTimeout, match=waited), forks.no_fork_beside(probe, wait_s=0.2):
        pass
    assert probe.get(forks.COPY_LOCK) == b"another process"  # not ours to free


def test_a_start_compacts_an_append_only_file_that_outgrew_its_base(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = ManagedServer(home)
    first = manager.ensure()
    client = GraphClient.connect(Settings(home=home))
    for i in range(200):  # the increments outgrow the (empty) base
        client.write("grown", "CREATE (:N {i: $i})", {"i": i})
    client.close()
    manifest = manager.data_dir / "appendonlydir" / "appendonly.aof.manifest"
    before = manifest.read_text()
    _kill(first.pid)
    monkeypatch.setattr(server, "AOF_COMPACT_MIN_BYTES", 1)
    manager.ensure()
    assert manifest.read_text() != before  # a new base: the increments were folded into it
    client = GraphClient.connect(Settings(home=home))
    assert client.read("grown", "MATCH (n:N) RETURN count(n)").scalar() == 200
    client.close()
