"""The entity curation view on a copy of the sample corpus without its catalog (real FalkorDB):
the suggested table, edits through the row controls (never a merge), the sentences behind a row,
saving that never loses the previous catalog, and a rebuild that shows what changed."""

from __future__ import annotations

import html
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from widgets.curation import CurationView
from widgets.curation_model import (
    CurationTable,
    EntityRow,
    GraphState,
    catalog_location,
    compare_states,
)
from widgets.curation_row import CurationRowView, row_class
from widgets.session import CorpusSource, Session
from widgets.workbench import Workbench
from zehn.config import Settings
from zehn.errors import CatalogError
from zehn.evaluate.compare import stored_edges
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.reading.names.catalog import Catalog, backup_path
from zehn.store.client import GraphClient
from zehn.store.lock import BuildLock

pytestmark = pytest.mark.integration
SAMPLE_SOURCES = REPO / "data" / "sample" / "sources"
SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"><img src=x onerror=alert(1)>'


@pytest.fixture(scope="module")
def module_client(settings: Settings) -> Iterator[GraphClient]:
    client = GraphClient.connect(settings)
    yield client
    client.close()


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """The sample's sources in a corpus folder of their own, without a catalog."""
    folder = tmp_path / "corpus"
    shutil.copytree(SAMPLE_SOURCES, folder / "sources")
    return folder


@pytest.fixture(scope="module")
def built(module_client: GraphClient, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A graph of the sample's sources built by discovery (no catalog)."""
    folder = tmp_path_factory.mktemp("built") / "corpus"
    shutil.copytree(SAMPLE_SOURCES, folder / "sources")
    report = build_graph(module_client, "widgets_curation", folder, "rules")
    yield report.graph
    module_client.delete_graph(report.graph)


def _session(settings: Settings, client: GraphClient, graph: str) -> Session:
    return Session(settings, client, graph=graph, policy=load_policy("production"))


def _row(view: CurationView, entity_id: str) -> CurationRowView:
    """The controls of a row, after filtering the table down to it (as a person would)."""
    view.filter.value = entity_id.partition(":")[2]
    rows = [r for r in view.rows_box.children if isinstance(r, CurationRowView)]
    found = [r for r in rows if row_class(entity_id) in r._dom_classes]
    assert found, f"no row {entity_id} among {[r.view.table.rows[r.index] for r in rows]}"
    return found[0]


def _everything(view: CurationView) -> str:
    return "".join(
        h.value for h in (view.header, view.status, view.evidence, view.changes, view.page_label)
    ) + "".join(r.identity.value for r in view.rows_box.children if isinstance(r, CurationRowView))


# --- the table, without a database -----------------------------------------------------------


def _table() -> CurationTable:
    return CurationTable(
        [
            EntityRow("quillmap", "service", ["quill", "QM"], origin="discovered"),
            EntityRow("Larkspur team", "team", ["Larkspur"]),
            EntityRow("zorbital", "datastore"),
        ],
        "invented.yaml",
        "suggested",
    )


def test_edits_that_would_merge_two_rows_are_refused_and_change_nothing() -> None:
    table = _table()
    table.rename(2, "Quillmap")  # the same name with another kind is another entity
    with pytest.raises(CatalogError, match=r"row 1 is already 'quillmap' \(service\)"):
        table.set_kind("datastore:quillmap", "service")  # … the same kind would be one
    table.set_kind(1, "datastore")
    with pytest.raises(CatalogError, match="rows are never merged"):
        table.rename("datastore:larkspur-team", "quillmap")
    table.add_alias(1, "QuillMap")
    with pytest.raises(CatalogError, match="row 1 is already 'quillmap'"):
        table.split_alias(1, "QuillMap", "service")
    with pytest.raises(CatalogError, match="a name cannot be empty"):
        table.rename(0, " ")
    assert [(r.name, r.kind) for r in table.rows] == [
        ("quillmap", "service"), ("Larkspur team", "datastore"), ("Quillmap", "datastore"),
    ]  # fmt: skip
    assert table.rows[0].aliases == ["quill", "QM"] and table.rows[1].aliases == [
        "Larkspur", "QuillMap",
    ]  # fmt: skip


def test_split_alias_makes_its_own_row_right_after_and_keeps_the_origin() -> None:
    table = _table()
    position = table.split_alias(0, "QM")
    assert position == 1 and table.rows[0].aliases == ["quill"]
    split = table.rows[1]
    assert (split.name, split.kind, split.origin) == ("QM", "service", "discovered")
    assert split.notes == {"split_from": "quillmap"}
    with pytest.raises(CatalogError, match="has no alias 'QM' to split"):
        table.split_alias(0, "QM")


def test_aliases_are_checked_and_a_shared_alias_is_flagged_not_merged() -> None:
    table = _table()
    with pytest.raises(CatalogError, match="already answers to 'Quill'"):
        table.add_alias(0, "Quill")
    with pytest.raises(CatalogError, match="an alias cannot be empty"):
        table.add_alias(0, "  ")
    notes = table.add_alias(2, "larkspur")
    assert notes and "'Larkspur team' (team)" in notes[0] and "ambiguous" in notes[0]
    assert len(table.rows) == 3 and table.rows[2].aliases == ["larkspur"]
    table.remove_alias(2, "larkspur")
    with pytest.raises(CatalogError, match="has no alias 'larkspur'"):
        table.remove_alias(2, "larkspur")


def test_not_an_entity_rows_stay_in_the_entries_and_out_of_the_catalog() -> None:
    table = _table()
    table.mark_not_entity("datastore:zorbital")
    entries = table.entries()
    assert entries[2] == {
        "name": "zorbital",
        "kind": "datastore",
        "aliases": [],
        "not_entity": True,
    }
    catalog = table.validate()
    assert [e.id for e in catalog.entities] == ["service:quillmap", "team:larkspur-team"]
    assert catalog.not_entities == ("zorbital",)


def test_compare_states_lists_gains_and_losses() -> None:
    before = GraphState({"service:a": "a", "team:b": "b"}, {("service:a", "USES", "team:b"): 1})
    after = GraphState(
        {"service:a": "a", "service:b": "b"}, {("service:a", "USES", "service:b"): 2}
    )
    changes = compare_states(before, after)
    assert changes.entities_gained == (("service:b", "b"),)
    assert changes.entities_lost == (("team:b", "b"),)
    assert changes.edges_gained == (("service:a", "USES", "service:b"),)
    assert changes.edges_lost == (("service:a", "USES", "team:b"),)
    assert not changes.unchanged and compare_states(after, after).unchanged


def test_the_catalog_lives_beside_the_corpus_unless_that_is_read_only(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "folder" / "sources").mkdir(parents=True)
    assert catalog_location(tmp_path / "folder", home) == tmp_path / "folder" / "catalog.yaml"
    (tmp_path / "docs").mkdir()
    assert catalog_location(tmp_path / "docs", home) == tmp_path / "docs.catalog.yaml"
    (tmp_path / "notes").mkdir()  # a sibling folder keeps its own catalog
    assert catalog_location(tmp_path / "notes", home) == tmp_path / "notes.catalog.yaml"
    shared = tmp_path / "shared"
    (shared / "corpus" / "docs").mkdir(parents=True)
    (shared / "corpus").chmod(0o555)  # as a shared corpus is mounted: no write bits
    try:
        kept = catalog_location(shared / "corpus" / "docs", home)
        assert kept.parent.parent == home / "catalogs" and kept.name == "catalog.yaml"
        assert kept.parent.name.startswith("docs-")
        assert catalog_location(shared / "corpus" / "docs", home) == kept  # stable
        assert (
            catalog_location(shared / "corpus" / "docs") == shared / "corpus" / "docs.catalog.yaml"
        )
    finally:
        (shared / "corpus").chmod(0o755)


# --- the view on a real graph ------------------------------------------------------------------


def test_without_a_catalog_the_table_is_the_suggestion_with_controls_on_every_row(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    view = CurationView(_session(settings, module_client, built), corpus, graph=built)
    assert view.table.origin == "suggested" and view.dirty
    assert len(view.table.rows) > 20 and not (corpus / "catalog.yaml").exists()
    assert "not saved yet" in view.header.value and built in view.header.value
    rows = [r for r in view.rows_box.children if isinstance(r, CurationRowView)]
    assert len(rows) == view.page_size
    for control in ("name", "kind", "not-entity", "alias-pick", "add-alias", "split-alias", "show"):
        widgets = [
            c for r in rows for c in r.children if f"zehn-curation-{control}" in c._dom_classes
        ]
        assert len(widgets) == len(rows), control
    assert "page 1 of" in view.page_label.value
    view.next_button.click()
    assert view.page == 1 and "page 2 of" in view.page_label.value
    assert {"zehn-curation-save", "zehn-curation-rebuild"} <= {
        *view.save_button._dom_classes, *view.rebuild_button._dom_classes,
    }  # fmt: skip


def test_a_refused_edit_shows_why_and_the_control_returns_to_the_table(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    view = CurationView(_session(settings, module_client, built), corpus, graph=built)
    first, second = view.table.rows[0], view.table.rows[1]
    view.set_kind(1, first.kind)  # (the suggestion may give them different kinds)
    row = _row(view, second.entity_id)
    row.name.value = first.name
    assert "zehn-error" in view.status.value and "never merged" in view.status.value
    assert view.table.rows[1].name != first.name
    assert _row(view, view.table.rows[1].entity_id).name.value == view.table.rows[1].name


def test_the_sentences_behind_a_row_come_from_the_graph_and_the_suggestion(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    view = CurationView(_session(settings, module_client, built), corpus, graph=built)
    top = view.table.rows[0]
    _row(view, top.entity_id).show.click()
    evidence = view.evidence.value
    assert evidence.count('class="zehn-curation-mention"') >= 2 and "<mark>" in evidence
    assert "first sentence" in evidence and "why discovery took it" in evidence
    renamed = view.table.rows[0].name + " renamed"
    view.rename(0, renamed)
    shown = view.show_row(0)  # the graph still knows it by its old id
    assert top.loaded_id in shown and shown.count('class="zehn-curation-mention"') >= 2
    unbuilt = CurationView(_session(settings, module_client, built), corpus)
    assert unbuilt.graph == "corpus__rules"  # not known to be built from this corpus
    shown = unbuilt.show_row(0)
    assert "zehn-curation-not-built" in shown and "no unambiguous mention" not in shown
    broken = CurationView(_session(settings, module_client, built), corpus, graph="bad name!")
    shown = broken.show_row(0)
    assert "zehn-error" in shown and "InvalidGraphName" in shown  # a failure, never "empty"
    assert "no unambiguous mention" not in shown and "not built" not in shown


def test_save_validates_first_writes_atomically_and_keeps_the_previous_file(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    view = CurationView(_session(settings, module_client, built), corpus, graph=built)
    first = view.table.rows[0]
    view.set_kind(0, "datastore" if first.kind != "datastore" else "service")
    view.add_alias(0, "Invented Alias")
    saved = view.save()
    assert saved == corpus / "catalog.yaml" and not view.dirty
    catalog = Catalog.load(saved)
    entity = catalog.entities[0]
    assert (entity.name, entity.kind) == (
        first.name,
        first.kind,
    ) and "Invented Alias" in entity.aliases
    original = saved.read_text(encoding="utf-8")
    for i in range(len(view.table.rows)):  # every row "not an entity": no catalog left
        view.mark_not_entity(i)
    view.save_button.click()
    assert "zehn-error" in view.status.value and "no entities" in view.status.value
    assert saved.read_text(encoding="utf-8") == original and not backup_path(saved).exists()
    view.mark_not_entity(0, False)
    view.save()
    assert backup_path(saved).read_text(encoding="utf-8") == original
    assert len(Catalog.load(saved).entities) == 1
    reopened = CurationView(_session(settings, module_client, built), corpus, graph=built)
    assert reopened.table.origin == "catalog" and not reopened.dirty
    assert sum(r.not_entity for r in reopened.table.rows) == len(reopened.table.rows) - 1
    assert reopened.table.rows[0].notes.get("mentions") == first.notes.get("mentions")


def test_a_broken_catalog_is_reported_and_kept(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    broken = "entities:\n  - name: quillmap\n    kind: planet\n"
    (corpus / "catalog.yaml").write_text(broken, encoding="utf-8")
    view = CurationView(_session(settings, module_client, built), corpus, graph=built)
    assert "zehn-error" in view.status.value and "kind 'planet'" in html.unescape(view.status.value)
    assert view.table.rows == [] and view.save_button.disabled and view.rebuild_button.disabled
    assert (corpus / "catalog.yaml").read_text(encoding="utf-8") == broken


def test_rebuild_applies_the_curated_catalog_and_shows_what_changed(
    settings: Settings, module_client: GraphClient, corpus: Path
) -> None:
    graph = build_graph(module_client, "widgets_curation_rebuild", corpus, "rules").graph
    try:
        session = _session(settings, module_client, graph)
        session.source = CorpusSource("widgets_curation_rebuild", corpus, "rules", None)
        view = CurationView(session, corpus)  # the session knows the graph is this corpus's
        assert view.graph == graph
        before_edges = {
            (e.subject, e.rel_type, e.object) for e in stored_edges(module_client, graph)
        }
        kept, dropped = view.table.rows[0], view.table.rows[1]
        old_id = kept.entity_id
        new_kind = "pipeline" if kept.kind != "pipeline" else "topic"
        _row(view, old_id).kind.value = new_kind
        _row(view, dropped.entity_id).not_entity.value = True
        changes = view.rebuild()
        assert (corpus / "catalog.yaml").is_file() and session.graph == graph
        after_edges = {
            (e.subject, e.rel_type, e.object) for e in stored_edges(module_client, graph)
        }
        assert set(changes.edges_gained) == after_edges - before_edges
        assert set(changes.edges_lost) == before_edges - after_edges
        gained = dict(changes.entities_gained)
        lost = dict(changes.entities_lost)
        assert kept.entity_id in gained and old_id in lost and dropped.entity_id in lost
        shown = view.changes.value
        assert "entities gained" in shown and "edges lost" in shown and old_id in shown
        assert "rebuilt" in view.status.value
        again = view.rebuild()  # the same catalog again: nothing changes
        assert again.unchanged and "no entity or edge changed" in view.changes.value
    finally:
        module_client.delete_graph(graph)


def test_everything_from_the_corpus_and_the_catalog_is_escaped(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    hostile = (
        "entities:\n"
        f"  - name: 'quill {SCRIPT}'\n    kind: service\n    aliases: ['{ATTRIBUTE}']\n"
        "    first_sentence: {id: 'doc#1-2', text: 'the quill " + SCRIPT + "'}\n"
        "    reasons: ['" + ATTRIBUTE + "']\n"
        "  - name: zorbital\n    kind: datastore\n"
    )
    (corpus / "catalog.yaml").write_text(hostile, encoding="utf-8")
    view = CurationView(_session(settings, module_client, built), corpus, graph=built)
    assert len(view.table.rows) == 2
    view.show_row(0)
    view.split_alias(0, ATTRIBUTE)
    page = _everything(view)
    assert "&lt;script&gt;" in page and "quill" in view.evidence.value
    for raw in (SCRIPT, ATTRIBUTE, "<img"):
        assert raw not in page
    (corpus / "sources" / "evil.md").write_text(
        f"# Night notes {SCRIPT}\n\nThe zorbital store {ATTRIBUTE} holds maps {SCRIPT}.\n"
        "Then zorbital was cleaned.\n",
        encoding="utf-8",
    )
    own = CurationView(_session(settings, module_client, built), corpus)  # its own graph
    try:
        own.rebuild()  # the changes panel lists the hostile names
        assert "zorbital" in own.show_row("datastore:zorbital")
        assert own.evidence.value.count('class="zehn-curation-mention"') >= 1
        page = _everything(own)
        assert "&lt;script&gt;" in page and "&lt;img" in page
        for raw in (SCRIPT, ATTRIBUTE, "<img"):
            assert raw not in page
    finally:
        if module_client.graph_exists(own.graph):
            module_client.delete_graph(own.graph)


def test_the_view_follows_what_the_corpus_view_built_unless_edits_are_unsaved(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path, tmp_path: Path
) -> None:
    session = _session(settings, module_client, built)
    session.source = CorpusSource("widgets_curation", corpus, "rules", None)
    view = CurationView(session)  # as the workbench's tab makes it
    assert view.corpus_path == corpus and view.table.rows
    other = tmp_path / "other"
    (other / "sources").mkdir(parents=True)
    (other / "sources" / "notes.md").write_text(
        "# Notes\n\nThe quillmap service reads from zorbital-db.\n"
        "Then quillmap writes to zorbital-db again.\n",
        encoding="utf-8",
    )
    session.source = CorpusSource("other", other, "rules", None)
    assert view.corpus_path == other  # nothing edited: the new corpus opens
    view.set_kind(0, "team" if view.table.rows[0].kind != "team" else "service")
    session.source = CorpusSource("widgets_curation", corpus, "rules", None)
    assert view.corpus_path == other and view.edited  # edits are never thrown away
    assert "save or drop these edits" in view.status.value
    bench = Workbench(session)
    assert bench.tabs.get_title(len(bench.tabs.children) - 1) == "Curate entities"
    assert bench.curation.corpus_path == corpus


def test_a_rebuild_while_another_build_runs_names_it_and_changes_no_graph(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    view = CurationView(_session(settings, module_client, built), corpus, graph=built)
    before = {(e.subject, e.rel_type, e.object) for e in stored_edges(module_client, built)}
    view.mark_not_entity(0)
    with BuildLock(module_client, built).held(wait_s=0):
        view.rebuild_button.click()
    status = html.unescape(view.status.value)
    assert "BuildInProgress" in status and f"graph {built!r} is being built" in status
    assert view.changes.value == "" and view.last_changes is None
    after = {(e.subject, e.rel_type, e.object) for e in stored_edges(module_client, built)}
    assert after == before
    assert (corpus / "catalog.yaml").is_file()  # the curated catalog itself was saved


def test_a_corpus_the_session_did_not_build_gets_a_graph_of_its_own(
    settings: Settings, module_client: GraphClient, built: str, corpus: Path
) -> None:
    session = _session(settings, module_client, built)
    view = CurationView(session, corpus)
    assert view.graph == "corpus__rules" and "Rebuild writes graph <b>corpus__rules</b>" in (
        view.header.value
    )
    try:
        view.rebuild()
        assert session.graph == "corpus__rules"  # the session now asks the corpus's graph
        assert session.source is not None and session.source.path == corpus
        assert module_client.graph_exists(built)  # the graph the session had is untouched
        assert view.last_changes is not None and not view.last_changes.entities_lost
    finally:
        if module_client.graph_exists("corpus__rules"):
            module_client.delete_graph("corpus__rules")


def test_entities_the_graph_has_but_the_suggestion_lacks_become_rows(
    settings: Settings, module_client: GraphClient, corpus: Path
) -> None:
    graph = build_graph(module_client, "widgets_curation_extra", corpus, "rules").graph
    try:  # as discovery keeps a name seen only in a diagram, which the suggestion drops
        module_client.write(
            graph,
            "CREATE (:Entity {id: 'datastore:zorbital-vault', name: 'Zorbital Vault', "
            "kind: 'datastore', aliases: ['zvault'], origin: 'discovered'})",
        )
        session = _session(settings, module_client, graph)
        session.source = CorpusSource("widgets_curation_extra", corpus, "rules", None)
        view = CurationView(session, corpus)
        extra = view.table.rows[view.table.index("datastore:zorbital-vault")]
        assert extra.aliases == ["zvault"] and extra.origin == "discovered"
        assert extra.mentions == 0 and "1 more from graph" in view.status.value
        changes = view.rebuild()  # nothing edited: nothing the graph had is lost
        assert not changes.entities_lost and not changes.edges_lost
    finally:
        module_client.delete_graph(graph)
