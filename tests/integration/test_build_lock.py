"""One build per graph at a time (zehn.store.lock): two `zehn ingest` of one graph started
together both end with the graph complete; a second build waits for, or refuses naming,
the running one; a killed build frees the lock when it expires."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.config import Settings
from zehn.errors import BuildInProgress
from zehn.extract.pipeline import STAGING_SUFFIX, build_graph
from zehn.store.client import GraphClient
from zehn.store.lock import BuildLock, current_holder, lock_key

pytestmark = pytest.mark.integration
ZEHN = [sys.executable, "-m", "zehn.cli"]
FILES = 120  # enough that two builds started together overlap


def _corpus(root: Path, files: int = FILES) -> Path:
    """Invented notes: each file states one relation between two made-up services."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        (root / f"note-{i:03}.md").write_text(
            f"# Note {i}\n\nThe quill-{i} service reads from the inkwell-{i} store. "
            f"The quill-{i} service publishes to the parchment-{i} topic.\n",
            encoding="utf-8",
        )
    return root


def _ingest(path: Path, corpus: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*ZEHN, "ingest", str(path), "--graph", corpus, "--no-progress", *extra],
        cwd=REPO,
        env={**os.environ},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _complete(client: GraphClient, graph: str) -> tuple[int, bool]:
    documents = int(client.read(graph, "MATCH (d:Document) RETURN count(d)").scalar() or 0)
    complete = bool(client.read(graph, "MATCH (m:Meta) RETURN m.complete").scalar())
    return documents, complete


def test_two_ingests_started_together_both_end_with_the_graph_complete(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path / "notes")
    first, second = _ingest(corpus, graph_name), _ingest(corpus, graph_name)
    outcomes = [p.communicate(timeout=300) for p in (first, second)]
    codes = [first.returncode, second.returncode]
    assert codes == [0, 0], outcomes
    errors = "".join(err for _, err in outcomes)
    assert "does not exist" not in errors and "Traceback" not in errors
    graph = f"{graph_name}__rules"
    assert _complete(client, graph) == (FILES, True)
    assert not client.graph_exists(graph + STAGING_SUFFIX)
    assert current_holder(client, graph) is None  # both released


def test_no_wait_refuses_naming_the_running_build_and_wait_waits_for_it(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path / "notes", files=3)
    graph = f"{graph_name}__rules"
    running = BuildLock(client, graph)
    running.acquire(wait_s=0)
    try:
        refused = _ingest(corpus, graph_name, "--no-wait")
        _, err = refused.communicate(timeout=120)
        assert refused.returncode == 1
        assert f"graph {graph!r} is being built by another build" in err
        assert f"pid {os.getpid()} on {socket.gethostname()}" in err
        assert running.me.since in err and "Traceback" not in err
        assert not client.graph_exists(graph)  # the refused build wrote nothing

        waiting = _ingest(corpus, graph_name)  # --wait is the default
        time.sleep(3)
        assert waiting.poll() is None, waiting.communicate()
    finally:
        running.release()
    _, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, err
    assert f"waiting: {graph} is being built (pid {os.getpid()}" in err
    assert _complete(client, graph) == (3, True)


def test_json_refusal_names_the_error_kind(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    corpus = _corpus(tmp_path / "notes", files=1)
    graph = f"{graph_name}__rules"
    with BuildLock(client, graph).held(wait_s=0):
        refused = _ingest(corpus, graph_name, "--no-wait", "--json")
        out, _ = refused.communicate(timeout=120)
    assert refused.returncode == 1
    assert '"error": "BuildInProgress"' in out and "is being built by another build" in out


def test_a_killed_build_frees_the_lock_when_it_expires(
    settings: Settings, client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    graph = f"{graph_name}__rules"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from zehn.config import Settings\n"
            "from zehn.store.client import GraphClient\n"
            "from zehn.store.lock import BuildLock\n"
            "BuildLock(GraphClient.connect(Settings.from_env()), sys.argv[1], ttl_ms=1500)"
            ".acquire(wait_s=0)\n"
            "print('held', flush=True)\n"
            "time.sleep(600)\n",
            graph,
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        time.sleep(2)  # past the ttl: the live holder renews, so the lock is still its own
        assert current_holder(client, graph) is not None
        with pytest.raises(BuildInProgress, match=f"pid {holder.pid} on "):
            build_graph(client, graph_name, _corpus(tmp_path / "n", 1), lock_wait_s=0)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
    started = time.monotonic()
    report = build_graph(client, graph_name, _corpus(tmp_path / "n", 1), lock_wait_s=30)
    assert report.swapped and time.monotonic() - started < 10
    assert current_holder(client, graph) is None


def test_release_never_frees_a_lock_another_build_took(
    client: GraphClient, graph_name: str
) -> None:
    ours = BuildLock(client, graph_name, ttl_ms=200)
    ours.acquire(wait_s=0)
    ours._stop.set()  # a build paused past its ttl: no renewals
    assert ours._renewer is not None
    ours._renewer.join()
    time.sleep(0.4)
    theirs = BuildLock(client, graph_name)
    theirs.acquire(wait_s=0)
    try:
        ours.release()
        holder = current_holder(client, graph_name)
        assert holder is not None and holder.token == theirs.me.token
    finally:
        theirs.release()
    assert client.server_command("GET", lock_key(graph_name)) is None


def test_a_foreign_value_is_named_not_trusted(client: GraphClient, graph_name: str) -> None:
    client.server_command("SET", lock_key(graph_name), "<b>not json</b>", "PX", "5000")
    try:
        with pytest.raises(BuildInProgress, match="an unknown host"):
            BuildLock(client, graph_name).acquire(wait_s=0)
    finally:
        client.server_command("DEL", lock_key(graph_name))


def test_a_lock_this_process_left_behind_is_taken_over_at_once(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    """A build of ours whose release never reached the server (it went away) left the key;
    the next build in this process takes it over instead of waiting out the expiry."""
    graph = f"{graph_name}__rules"
    left = BuildLock(client, graph)
    client.server_command("SET", lock_key(graph), left.value, "PX", "60000")  # never held
    started = time.monotonic()
    report = build_graph(client, graph_name, _corpus(tmp_path / "n", 1), lock_wait_s=0)
    assert report.swapped and time.monotonic() - started < 20
    assert current_holder(client, graph) is None


def test_a_lock_another_thread_of_this_process_holds_is_respected(
    client: GraphClient, graph_name: str, tmp_path: Path
) -> None:
    graph = f"{graph_name}__rules"
    with BuildLock(client, graph).held(wait_s=0) as running:
        with pytest.raises(BuildInProgress, match=f"pid {os.getpid()} on "):
            build_graph(client, graph_name, _corpus(tmp_path / "n", 1), lock_wait_s=0)
        holder = current_holder(client, graph)
        assert holder is not None and holder.token == running.me.token
