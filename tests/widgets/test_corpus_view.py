"""The Corpus view: a folder or uploads built into a graph, with stages, unread files and health.

Invented documents only; FalkorDB is the session's real server.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from widgets.corpus import (
    CATALOG_CORPUS,
    CATALOG_FILE,
    CATALOG_NONE,
    CATALOG_SUGGESTED,
    UPLOAD,
    UPLOADS,
    CorpusView,
    checked_upload_name,
    complete_folder,
    corpus_name_for,
    save_uploads,
)
from widgets.curation import CurationView
from widgets.session import CorpusSource, Session
from zehn.config import Settings
from zehn.errors import CorpusError, SourceError
from zehn.evidence.policy import load_policy
from zehn.store.client import GraphClient
from zehn.store.lock import BuildLock

pytestmark = pytest.mark.integration

GOOD = (
    "# Ledger notes\n\nThe abacus-api service reads from the tally-store database. "
    "The abacus-api service publishes to the coins topic.\n"
)
HOSTILE = "# <script>alert(1)</script>\n\nThe abacus-api service calls <b>quill</b>.\n"
CATALOG = """entities:
  - name: abacus-api
    kind: service
  - name: tally-store
    kind: datastore
"""


@pytest.fixture
def session(settings: Settings, client: GraphClient) -> Session:
    return Session(settings, client, graph="unused", policy=load_policy("production"))


@pytest.fixture
def corpus_name(client: GraphClient) -> Iterator[str]:
    name = f"cv{uuid.uuid4().hex[:8]}"
    yield name
    for graph in client.list_graphs():
        if graph.startswith(name):
            client.delete_graph(graph)


def _folder(root: Path, *, broken: bool = True) -> Path:
    (root / "notes").mkdir(parents=True)
    (root / "notes" / "ledger.md").write_text(GOOD, encoding="utf-8")
    (root / "notes" / "evil.md").write_text(HOSTILE, encoding="utf-8")
    if broken:
        (root / "notes" / "latin1.md").write_bytes(b"caf\xe9 \xff\xfe broken")
        (root / "notes" / "<img src=x onerror=alert(3)>.md").write_bytes(b"")
    return root


def _view(session: Session, folder: Path, corpus: str) -> CorpusView:
    view = CorpusView(session)
    view.folder.value = str(folder)
    view.corpus.value = corpus
    return view


def test_a_folder_with_broken_files_builds_lists_them_and_becomes_the_active_graph(
    session: Session, client: GraphClient, tmp_path: Path, corpus_name: str
) -> None:
    folder = _folder(tmp_path / "export")
    view = _view(session, folder, corpus_name)
    report = view.build()
    assert report is not None and report.swapped
    assert report.ingest.documents == 2 and len(report.ingest.skipped) == 2
    skipped = view.skipped.value
    assert 'data-count="2"' in skipped and skipped.count('class="zehn-skipped-file"') == 2
    assert "notes/latin1.md" in skipped and "&lt;img src=x onerror=alert(3)&gt;.md" in skipped
    assert "<img" not in skipped
    for entry in report.ingest.skipped:  # every reason is shown, escaped
        assert entry.reason.replace("'", "&#x27;") in skipped or entry.reason in skipped
    health = view.health.value
    assert f'data-graph="{corpus_name}__rules"' in health
    assert f"{report.entities} entities" in health and f"{report.edges} edges" in health
    assert "READS_FROM" in health and "<script>" not in health
    assert 'data-state="done"' in view.status.value
    assert all(
        bar.value == bar.max and bar.bar_style == "success" for bar in view.stages.bars.values()
    )
    assert view.stages.bars["files"].max == 4  # every file counted, broken ones too
    assert session.graph == f"{corpus_name}__rules"
    assert session.source == CorpusSource(corpus_name, folder, "rules", None)
    stored = client.read(session.graph, "MATCH (d:Document) RETURN count(d)").scalar()
    assert stored == 2


def test_a_second_build_of_a_running_graph_is_refused_naming_it(
    session: Session, client: GraphClient, tmp_path: Path, corpus_name: str
) -> None:
    view = _view(session, _folder(tmp_path / "export", broken=False), corpus_name)
    with BuildLock(client, f"{corpus_name}__rules").held(wait_s=0) as running:
        assert view.build() is None
    status = view.status.value
    assert 'class="zehn-error"' in status and "BuildInProgress" in status
    assert f"pid {running.me.pid}" in status and running.me.since in status
    assert view.stages.bars["files"].bar_style == ""  # nothing started
    assert not client.graph_exists(f"{corpus_name}__rules")
    assert session.graph == "unused" and not view.build_button.disabled
    assert view.build() is not None  # free again: the same click builds


def test_nothing_readable_changes_nothing_and_says_so(
    session: Session, client: GraphClient, tmp_path: Path, corpus_name: str
) -> None:
    (tmp_path / "only-broken").mkdir()
    (tmp_path / "only-broken" / "x.md").write_bytes(b"")
    view = _view(session, tmp_path / "only-broken", corpus_name)
    report = view.build()
    assert report is not None and not report.swapped
    assert "nothing could be ingested" in view.status.value and "x.md" in view.skipped.value
    assert not client.graph_exists(f"{corpus_name}__rules") and session.graph == "unused"


def test_a_missing_folder_or_bad_name_is_named_without_a_traceback(
    session: Session, tmp_path: Path, corpus_name: str
) -> None:
    view = _view(session, tmp_path / "nowhere", corpus_name)
    assert view.build() is None
    assert "nowhere" in view.status.value and "does not exist" in view.status.value
    view.folder.value = str(_folder(tmp_path / "export"))
    view.corpus.value = "../escape"
    assert view.build() is None
    assert "corpus name &#x27;../escape&#x27;" in view.status.value


def test_catalog_choices(
    session: Session, client: GraphClient, tmp_path: Path, corpus_name: str
) -> None:
    corpus = tmp_path / "corpus"
    _folder(corpus / "sources", broken=False)
    (corpus / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    view = _view(session, corpus, corpus_name)
    assert view.catalog.value == CATALOG_CORPUS  # the folder's own catalog, offered first
    assert view.build() is not None
    origins = dict(client.read(session.graph, "MATCH (e:Entity) RETURN e.name, e.origin").rows)
    assert origins["tally-store"] == "catalog"

    view.catalog.value = CATALOG_NONE  # the folder's catalog.yaml is then not used
    assert view.build() is not None
    assert session.source is not None and session.source.catalog is None
    kinds = client.read(session.graph, "MATCH (e:Entity) RETURN DISTINCT e.origin").rows
    assert ("catalog",) not in kinds

    view.catalog.value = CATALOG_SUGGESTED
    assert view.build() is not None
    suggested = session.source.catalog if session.source else None
    assert suggested is not None and suggested.is_file()
    assert suggested.is_relative_to(Path(session.settings.home))

    view.catalog.value = CATALOG_FILE
    view.catalog_file.value = str(tmp_path / "missing.yaml")
    assert view.build() is None and "missing.yaml" in view.status.value
    view.folder.value = str(tmp_path)  # no catalog.yaml here: the option goes away
    assert CATALOG_CORPUS not in view.catalog.options


def test_uploads_land_under_zehn_home_and_build(
    session: Session, tmp_path: Path, corpus_name: str
) -> None:
    view = CorpusView(session)
    view.source_kind.value = UPLOAD
    assert view._source_box.children == (view.upload,)
    view.corpus.value = corpus_name
    view.upload.value = (
        {
            "name": "ledger.md",
            "type": "text/markdown",
            "size": len(GOOD),
            "last_modified": datetime.now(UTC),
            "content": memoryview(GOOD.encode()),
        },
    )
    report = view.build()
    assert report is not None and report.swapped and report.ingest.documents == 1
    stored = Path(session.settings.home) / UPLOADS / corpus_name / "ledger.md"
    assert stored.read_text(encoding="utf-8") == GOOD


@pytest.mark.parametrize("name", ["../evil.md", "a/b.md", "a\\b.md", "..", "", "x..md"])
def test_upload_names_with_separators_or_dots_are_refused(name: str) -> None:
    with pytest.raises(SourceError) as refused:
        checked_upload_name(name)
    assert (name or "(empty name)") in str(refused.value)


def test_one_bad_upload_name_stores_nothing_and_keeps_what_was_there(tmp_path: Path) -> None:
    kept = save_uploads(tmp_path, "mine", [{"name": "old.md", "content": b"old"}])
    with pytest.raises(SourceError, match=r"\.\./x\.md"):
        save_uploads(
            tmp_path,
            "mine",
            [{"name": "new.md", "content": b"new"}, {"name": "../x.md", "content": b"x"}],
        )
    assert sorted(p.name for p in kept.iterdir()) == ["old.md"]
    assert not (tmp_path / UPLOADS / "x.md").exists()
    with pytest.raises(CorpusError, match="no files uploaded"):
        save_uploads(tmp_path, "mine", [])


def test_folder_completion_and_suggested_name(tmp_path: Path) -> None:
    for name in ("alpha", "alpine", "beta", ".hidden"):
        (tmp_path / name).mkdir()
    (tmp_path / "alfalfa.txt").write_text("not a folder", encoding="utf-8")
    assert complete_folder(f"{tmp_path}/al") == [f"{tmp_path}/alpha/", f"{tmp_path}/alpine/"]
    assert complete_folder(f"{tmp_path}/.h") == [f"{tmp_path}/.hidden/"]
    assert complete_folder(f"{tmp_path}/nothing/x") == []
    assert corpus_name_for("/exports/Ops Space (2024)/") == "ops-space-2024"


def test_the_graph_being_rebuilt_answers_until_the_new_one_is_complete(
    session: Session, client: GraphClient, tmp_path: Path, corpus_name: str
) -> None:
    folder = _folder(tmp_path / "export", broken=False)
    view = _view(session, folder, corpus_name)
    assert view.build() is not None
    (folder / "notes" / "more.md").write_text(
        "# More\n\nThe quill-worker service depends on the abacus-api service.\n", "utf-8"
    )
    seen: dict[str, object] = {}
    begin = view.stages.begin

    def meanwhile(stage: str) -> None:  # the build is writing its staging graph now
        begin(stage)
        if stage == "extraction":
            seen["documents"] = client.read(
                session.graph, "MATCH (d:Document) RETURN count(d)"
            ).scalar()
            seen["status"] = session.engine().ask("If I change tally-store, what breaks?").status

    view.stages.begin = meanwhile  # type: ignore[method-assign,assignment]
    report = view.build()
    assert report is not None and report.swapped
    assert seen == {"documents": 2, "status": "answered"}  # the old graph, whole, answering
    assert client.read(session.graph, "MATCH (d:Document) RETURN count(d)").scalar() == 3


def test_the_curation_view_follows_a_build_with_the_new_graph_not_the_old_one(
    session: Session, corpus_name: str, tmp_path: Path
) -> None:
    old = tmp_path / "old"
    (old / "notes").mkdir(parents=True)
    (old / "notes" / "old.md").write_text(
        "# Zephyr\n\nThe zephyr-gateway service calls the nimbus-ledger service.\n", "utf-8"
    )
    first = _view(session, old, f"{corpus_name}-old").build()
    assert first is not None and session.graph == first.graph
    curation = CurationView(session)  # follows what the Corpus tab builds
    folder = _folder(tmp_path / "new", broken=False)
    report = _view(session, folder, corpus_name).build()
    assert report is not None and session.graph == report.graph
    assert curation.graph == report.graph and curation.table is not None
    names = {row.name for row in curation.table.rows}
    assert "abacus-api" in names
    assert not names & {"zephyr-gateway", "nimbus-ledger"}  # never the replaced graph's
    assert curation.catalog_path == folder.parent / f"{folder.name}.catalog.yaml"
