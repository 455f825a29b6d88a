"""Builds off the kernel (issue 29, item 4): the Corpus view runs the CLI's own ingest in a child
process, shows its stages, can cancel it (lock released, the live graph untouched), and the
kernel answers questions while it runs. Invented documents only; FalkorDB is the session's
real server."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from widgets.corpus import CorpusView
from widgets.session import Session
from zehn.config import Settings
from zehn.engine import Engine
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.store.client import GraphClient
from zehn.store.lock import current_holder

pytestmark = pytest.mark.integration
PAGES = 400  # enough for a build to be still running when it is cancelled


@pytest.fixture
def corpus_name(client: GraphClient) -> Iterator[str]:
    name = f"ok{uuid.uuid4().hex[:8]}"
    yield name
    for graph in client.list_graphs():
        if graph.startswith(name):
            client.delete_graph(graph)


def _folder(root: Path, pages: int) -> Path:
    root.mkdir(parents=True)
    for n in range(pages):
        (root / f"page-{n:03d}.md").write_text(
            f"# Page {n}\n\nThe abacus-api service reads from the tally-store database.\n"
            f"The abacus-api service publishes to the coins topic, note {n}.\n",
            encoding="utf-8",
        )
    return root


def _view(settings: Settings, client: GraphClient, folder: Path, corpus: str) -> CorpusView:
    session = Session(settings, client, graph="unused", policy=load_policy("production"))
    view = CorpusView(session)
    view.folder.value = str(folder)
    view.corpus.value = corpus
    return view


def test_the_build_runs_in_a_child_and_the_kernel_answers_meanwhile(
    settings: Settings, client: GraphClient, tmp_path: Path, corpus_name: str
) -> None:
    answering = build_graph(client, f"{corpus_name}a", _folder(tmp_path / "small", 2), "rules")
    engine = Engine(client, answering.graph, load_policy("production"), OfflineModel())
    view = _view(settings, client, _folder(tmp_path / "big", PAGES), corpus_name)
    started = time.perf_counter()
    process = view.start_build()
    assert process is not None and process.running  # the call returned: the kernel is free
    assert view.build_button.disabled and not view.cancel_button.disabled
    answer = engine.ask("What does abacus-api read from?")
    assert answer.status == "answered" and process.running  # answered during the build
    outcome = process.wait(120)
    assert outcome is not None and outcome.ok and view.report is not None
    assert view.report.ingest.documents == PAGES
    assert "built" in view.status.value and view.session.graph == f"{corpus_name}__rules"
    assert all(bar.bar_style == "success" for bar in view.stages.bars.values())
    assert view.stages.bars["files"].value == view.stages.bars["files"].max
    assert not view.build_button.disabled and view.cancel_button.disabled
    assert time.perf_counter() - started < 120


def test_cancel_stops_the_build_releases_the_lock_and_leaves_the_live_graph(
    settings: Settings, client: GraphClient, tmp_path: Path, corpus_name: str
) -> None:
    folder = _folder(tmp_path / "big", PAGES)
    live = build_graph(client, corpus_name, _folder(tmp_path / "first", 3), "rules").graph
    before = client.read(live, "MATCH (n) RETURN count(n)").scalar()
    revision = client.read(live, "MATCH (m:Meta) RETURN m.revision").scalar()
    view = _view(settings, client, folder, corpus_name)
    stages: list[str] = []
    process = view.start_build()
    assert process is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and view.stages.current in (None, "files"):
        time.sleep(0.05)  # let it get going: past reading the files
    stages.append(str(view.stages.current))
    view.cancel_build()
    outcome = process.wait(60)
    assert outcome is not None and outcome.cancelled
    assert "cancelled: the graph was not changed" in view.status.value
    assert current_holder(client, live) is None  # the lock is free at once, not after its TTL
    assert not client.graph_exists(f"{live}__staging")
    assert client.read(live, "MATCH (n) RETURN count(n)").scalar() == before
    assert client.read(live, "MATCH (m:Meta) RETURN m.revision").scalar() == revision
    assert view.session.graph == "unused" and not view.build_button.disabled
    assert stages != ["None"]
