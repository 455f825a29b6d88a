"""Entity curation view: the corpus's catalog as an editable table, saved beside the corpus,
then rebuilt, with what the rebuild changed.

The table starts from ``catalog.yaml`` when the corpus has one, else from the suggested catalog
(``zehn.reading.names.suggest``). Each row can be renamed, given a kind, gain or lose an alias, have
an alias split into an entity of its own, or be marked "not an entity"; two rows are never
merged. The sentences behind a row are one click away: the graph's mentions (named query
``mentions``) and the suggestion's first sentence and reasons. Save validates first, writes
atomically and keeps ``catalog.yaml.bak``; Rebuild saves, builds the graph with the catalog and
compares the two graphs' entities and edges. Every control carries a ``zehn-curation-…`` CSS
class for browser tests; everything from the corpus is escaped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as w

from widgets.corpus import corpus_name_for
from widgets.curation_model import (
    CurationTable,
    EntityRow,
    GraphChanges,
    GraphState,
    catalog_location,
    compare_states,
    read_table,
)
from widgets.curation_render import changes_html, evidence_html, header_html
from widgets.curation_row import CurationRowView
from widgets.hooks import Callbacks, quietly
from widgets.html import AMBER, GREEN, error_box, escape
from widgets.session import CorpusSource, Session
from zehn import ZehnError
from zehn.engine.tools import ToolExecutor
from zehn.errors import CatalogError
from zehn.evaluate.compare import stored_edges
from zehn.extract.pipeline import (
    DEFAULT_STRATEGY,
    BuildReport,
    CorpusLayout,
    build_graph,
    graph_name,
    split_graph_name,
)
from zehn.reading.names.catalog import save_catalog
from zehn.reading.names.suggest import suggest_for_path

_logger = logging.getLogger(__name__)
PAGE_SIZE = 15
MENTION_LIMIT = 10
CATALOG_HEADER = (
    "Curated in the ZEHN workbench (entity curation view). discover: true: discovery runs on\n"
    "every build and these decisions are applied to what it finds.\n"
    "name, kind, aliases and not_entity are read; origin: discovered binds ordinary words only\n"
    "where the text marks them; mentions, first_sentence, reasons and split_from are notes."
)
ChangesCallback = Callable[[GraphChanges], None]


class CurationView(w.VBox):
    """Curate the entities of the corpus at ``corpus_path`` (None: the analyst types a path).

    The public surface browser tests and notebooks drive: ``open_corpus``, ``table`` (its ``rows``),
    the edits ``rename``, ``set_kind``, ``add_alias``, ``remove_alias``, ``split_alias``,
    ``mark_not_entity`` (a row by position or entity id), ``show_row``, ``save``, ``rebuild``;
    the widgets ``save_button``, ``rebuild_button``, ``status``, ``evidence``, ``changes``.
    Rebuild writes ``graph`` (default: the session's graph at that moment).
    """

    def __init__(
        self,
        session: Session,
        corpus_path: Path | str | None = None,
        *,
        catalog_path: Path | str | None = None,
        graph: str | None = None,
        page_size: int = PAGE_SIZE,
    ) -> None:
        self.session = session
        self._graph = graph
        self._busy = False
        self.page_size = page_size
        self.page = 0
        self.corpus_path: Path | None = None
        self.catalog_path: Path | None = None
        self.table = CurationTable((), "<no corpus>", "none")
        self.dirty = False  # the table differs from the file (a suggestion is never saved yet)
        self.edited = False  # the analyst changed something since opening or saving
        self.last_changes: GraphChanges | None = None
        self._changed: Callbacks[ChangesCallback] = Callbacks()
        self.header = w.HTML()
        self.path = w.Text(
            placeholder="corpus folder on the server, e.g. /data/my-docs",
            layout=w.Layout(width="60%"),
        )
        self.open_button = w.Button(description="Open", icon="folder-open")
        self.filter = w.Text(
            placeholder="filter rows by name, kind or alias", layout=w.Layout(width="40%")
        )
        self.prev_button = w.Button(description="◀", layout=w.Layout(width="40px"))
        self.next_button = w.Button(description="▶", layout=w.Layout(width="40px"))
        self.page_label = w.HTML()
        self.columns = w.HTML(_COLUMNS)
        self.rows_box = w.VBox()
        self.evidence = w.HTML()
        self.save_button = w.Button(description="Save catalog", icon="save", disabled=True)
        self.rebuild_button = w.Button(
            description="Rebuild graph", icon="refresh", button_style="primary", disabled=True
        )
        self.progress = w.IntProgress(min=0, max=1, value=0, layout=w.Layout(width="200px"))
        self.progress.layout.visibility = "hidden"
        self.status = w.HTML()
        self.changes = w.HTML()
        for widget, name in (
            (self, "view"), (self.header, "header"), (self.path, "path"),
            (self.open_button, "open"), (self.filter, "filter"), (self.prev_button, "prev"),
            (self.next_button, "next"), (self.page_label, "page"), (self.rows_box, "rows"),
            (self.evidence, "evidence"), (self.save_button, "save"),
            (self.rebuild_button, "rebuild"), (self.progress, "progress"),
            (self.status, "status"), (self.changes, "changes"),
        ):  # fmt: skip
            widget.add_class(f"zehn-curation-{name}")
        self.open_button.on_click(
            lambda _: self._guarded(lambda: self.open_corpus(self.path.value))
        )
        self.filter.observe(lambda _: self._turn(0), "value")
        self.prev_button.on_click(lambda _: self._turn(self.page - 1))
        self.next_button.on_click(lambda _: self._turn(self.page + 1))
        self.save_button.on_click(lambda _: self._guarded(self.save))
        self.rebuild_button.on_click(lambda _: self._guarded(self.rebuild))
        session.observe(self._graph_changed, names="graph")
        session.observe(self._source_changed, names="source")
        super().__init__(
            [
                self.header,
                w.HBox([self.path, self.open_button]),
                w.HBox([self.filter, self.prev_button, self.page_label, self.next_button]),
                self.columns,
                self.rows_box,
                w.HBox([self.save_button, self.rebuild_button, self.progress]),
                self.status,
                self.evidence,
                self.changes,
            ]
        )
        self._show_header()
        if corpus_path is None and session.source is not None:
            corpus_path = session.source.path  # what the Corpus view built last
        if corpus_path is not None:
            self._guarded(lambda: self.open_corpus(corpus_path, catalog_path=catalog_path))

    # --- opening a corpus -----------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while the view updates its own controls (their observers then do nothing)."""
        return self._busy

    @property
    def graph(self) -> str:
        """The graph Rebuild writes and the mentions are read from: ``graph=`` if given; the
        session's graph when the session knows it was built from this corpus (the Corpus view
        sets ``session.source``) or no corpus is open; otherwise the corpus's own graph,
        named as the Corpus view names it, so that another corpus's graph is never replaced."""
        if self._graph:
            return self._graph
        source = self.session.source
        if self.corpus_path is None or (source is not None and self._built_from(source.path)):
            return self.session.graph
        _, strategy = split_graph_name(self.session.graph)
        folder = self.corpus_path.resolve()
        name = folder.parent.name if folder.name == "sources" else folder.name
        return graph_name(corpus_name_for(name) or "corpus", strategy or DEFAULT_STRATEGY)

    def _built_from(self, path: Path) -> bool:
        """Whether ``path`` (what a build read) is this corpus: the folder or its sources."""
        if self.corpus_path is None:
            return False
        mine = self.corpus_path.resolve()
        built = Path(path).resolve()
        return built in (mine, mine / "sources") or mine == built / "sources"

    def open_corpus(
        self, corpus_path: Path | str, *, catalog_path: Path | str | None = None
    ) -> None:
        """Load the corpus's catalog (or, without one, the suggested catalog) into the table."""
        path = Path(str(corpus_path).strip()).expanduser()
        if not str(corpus_path).strip() or not path.exists():
            raise CatalogError(str(corpus_path), "no such corpus folder or file")
        home = Path(self.session.settings.home)
        where = Path(catalog_path) if catalog_path else catalog_location(path, home)
        if home in where.parents:  # a read-only corpus: its catalog is kept under ZEHN_HOME
            where.parent.mkdir(parents=True, exist_ok=True)
        if where.is_file():
            table = read_table(where)
        else:
            suggestion = suggest_for_path(path, CorpusLayout.of(path).sources)
            table = CurationTable.from_suggestion(suggestion, str(where))
        with quietly(self):
            self.path.value = str(path)
            self.filter.value = ""
        self.corpus_path, self.catalog_path, self.table = path, where, table
        self.dirty, self.edited = table.origin == "suggested", False
        self.evidence.value = self.changes.value = ""
        self.save_button.disabled = self.rebuild_button.disabled = False
        note = self._add_graph_entities() if table.origin == "suggested" else ""
        self._show_header()
        self._turn(0)
        source = "read from" if table.origin == "catalog" else "suggested; not yet saved to"
        self._say(f"{len(table.rows)} rows {source} <code>{escape(where)}</code>{note}")

    def _add_graph_entities(self) -> str:
        """Rows for the entities this corpus's graph has that the suggestion lacks (discovery
        keeps names seen only in a diagram, the suggestion only names with a sentence
        mention), so that rebuilding an unedited table loses nothing. Says what it added."""
        graph = self.graph
        try:
            if not self.session.client.graph_exists(graph):
                return ""
            rows = ToolExecutor(self.session.client, graph, self.session.policy).internal(
                "all_entities", {}
            )
        except ZehnError as e:
            return f"; the entities of graph {escape(graph)} could not be read: {escape(e)}"
        known = {r.entity_id for r in self.table.rows}
        added = [
            EntityRow(
                name=str(r["name"]),
                kind=str(r["kind"]),
                aliases=[str(a) for a in r.get("aliases") or []],
                origin=str(r.get("origin") or "catalog"),
                notes={"mentions": 0, "in_graph": f"{graph}: no sentence names it"},
                loaded_id=str(r["id"]),
            )
            for r in sorted(rows, key=lambda r: str(r["id"]))
            if str(r["id"]) not in known
        ]
        self.table.rows.extend(added)
        if not added:
            return ""
        return f"; {len(added)} more from graph <b>{escape(graph)}</b> (named in no sentence)"

    # --- edits (each refused with a CatalogError that names the row) ----------------------

    def rename(self, row: int | str, name: str) -> None:
        i = self.table.index(row)
        self._apply(lambda: self.table.rename(i, name), i)

    def set_kind(self, row: int | str, kind: str) -> None:
        i = self.table.index(row)
        self._apply(lambda: self.table.set_kind(i, kind), i)

    def add_alias(self, row: int | str, alias: str) -> list[str]:
        """Add an alias; returns (and shows) which other rows already answer to it."""
        i, notes = self.table.index(row), []
        self._apply(lambda: notes.extend(self.table.add_alias(i, alias)), i)
        if notes:
            self._say("; ".join(escape(n) for n in notes), colour=AMBER)
        return notes

    def remove_alias(self, row: int | str, alias: str) -> None:
        i = self.table.index(row)
        self._apply(lambda: self.table.remove_alias(i, alias), i)

    def split_alias(self, row: int | str, alias: str, kind: str | None = None) -> EntityRow:
        """Make ``alias`` an entity of its own, right after its row; returns the new row."""
        made: list[int] = []
        self._apply(lambda: made.append(self.table.split_alias(row, alias, kind)), None)
        return self.table.rows[made[0]]

    def mark_not_entity(self, row: int | str, flag: bool = True) -> None:
        i = self.table.index(row)
        self._apply(lambda: self.table.mark_not_entity(i, flag), i)

    def run_edit(self, index: int, action: Callable[[], object]) -> None:
        """Run an edit from a row's control: a refusal is shown in the status line, never
        raised, and the row's controls go back to what the table holds."""
        try:
            action()
        except Exception as e:
            self.status.value = error_box(e)
            if not isinstance(e, ZehnError):
                _logger.exception("curation edit failed")
            self._redraw(index)

    # --- the sentences behind a row --------------------------------------------------------

    def show_row(self, row: int | str) -> str:
        """Show (and return) the mentions of a row in the graph and its suggestion's evidence."""
        entry = self.table.rows[self.table.index(row)]
        wanted = entry.loaded_id or entry.entity_id
        rows: list[dict[str, Any]] | None = None
        failure: BaseException | None = None
        built = True
        try:
            built = self.session.client.graph_exists(self.graph)
            if built:
                outcome = self._tools().run(
                    "mentions", {"entity_id": wanted, "limit": MENTION_LIMIT}
                )
                rows = outcome.rows
        except ZehnError as e:
            failure = e
        shown = evidence_html(entry, wanted, self.graph, rows, failure, built=built)
        self.evidence.value = shown
        return shown

    # --- save and rebuild ------------------------------------------------------------------

    def save(self) -> Path:
        """Validate and write the catalog (the previous one kept as ``.bak``)."""
        if self.catalog_path is None:
            raise CatalogError("<no corpus>", "open a corpus first")
        # a curation of discovery, applied on every build: the corpus may grow
        entries = self.table.entries()
        path = save_catalog(self.catalog_path, entries, CATALOG_HEADER, discover=True)
        self.table.origin = "catalog"
        self.dirty = self.edited = False
        self._say(f"saved <code>{escape(path)}</code>", colour=GREEN)
        self._show_header()
        return path

    def rebuild(self) -> GraphChanges:
        """Save, build the graph with the catalog, and show what changed."""
        if self.corpus_path is None:
            raise CatalogError("<no corpus>", "open a corpus first")
        catalog = self.save()
        graph = self.graph
        corpus, strategy = self._corpus_and_strategy(graph)
        before = self._state(graph)
        doing = f"rebuilding <b>{escape(graph)}</b> with <code>{escape(catalog)}</code>"
        self._say(doing + "…")
        self.progress.layout.visibility = "visible"
        try:
            report = build_graph(
                self.session.client, corpus, self.corpus_path, strategy, self.session.settings,
                catalog_path=catalog, progress=self._progress, lock_wait_s=0,
                stage=lambda name: self._say(f"{doing}: {escape(name)}…"),
            )  # fmt: skip
        finally:
            self.progress.layout.visibility = "hidden"
        if not report.swapped:
            raise CatalogError(str(self.corpus_path), _not_built(report))
        changes = compare_states(before, self._state(report.graph))
        self.last_changes = changes
        self.changes.value = changes_html(changes, report.graph)
        self._say(
            f"rebuilt <b>{escape(report.graph)}</b>: {report.entities} entities, "
            f"{report.edges} edges in {report.elapsed_s:.1f} s",
            colour=GREEN,
        )
        if self._graph is None:  # the session now asks this graph, known by its catalog
            with quietly(self):
                self.session.source = CorpusSource(corpus, self.corpus_path, strategy, catalog)
                self.session.graph = report.graph
        self._changed.fire(changes)
        return changes

    def on_rebuilt(self, callback: ChangesCallback, remove: bool = False) -> None:
        """Call ``callback(changes)`` after every successful rebuild."""
        self._changed.register(callback, remove)

    def close(self) -> None:
        """Stop observing the session, then close the widgets."""
        self.session.unobserve(self._graph_changed, names="graph")
        self.session.unobserve(self._source_changed, names="source")
        super().close()

    # --- internals ------------------------------------------------------------------------

    def _apply(self, edit: Callable[[], object], row: int | None) -> None:
        """Edit the table, then redraw that row (``None``: the page, rows moved)."""
        edit()
        self.dirty = self.edited = True
        self._say("unsaved changes: Save writes them, Rebuild saves and builds")
        if row is None:
            self._render_page()
        else:
            self._redraw(row)

    def _redraw(self, index: int) -> None:
        """Replace the controls of row ``index`` if it is on the page."""
        children = list(self.rows_box.children)
        for position, child in enumerate(children):
            if isinstance(child, CurationRowView) and child.index == index:
                with quietly(self):
                    children[position] = CurationRowView(self, index)
                    self.rows_box.children = children
                child.close()

    def _guarded(self, action: Callable[[], object]) -> None:
        """Run ``action`` from a control: expected errors in a red box, never a traceback."""
        try:
            action()
        except ZehnError as e:
            self.status.value = error_box(e)
        except Exception as e:  # unexpected: shown, and logged with its traceback
            self.status.value = error_box(e)
            _logger.exception("curation action failed")

    def _tools(self) -> ToolExecutor:
        return ToolExecutor(self.session.client, self.graph, self.session.policy)

    def _state(self, graph: str) -> GraphState:
        """The graph's entities and edges (empty before its first build)."""
        client = self.session.client
        if not client.graph_exists(graph):
            return GraphState({}, {})
        tools = ToolExecutor(client, graph, self.session.policy)
        entities = {str(r["id"]): str(r["name"]) for r in tools.internal("all_entities", {})}
        edges: dict[tuple[str, str, str], int] = {}
        for edge in stored_edges(client, graph):
            triple = (edge.subject, edge.rel_type, edge.object)
            edges[triple] = edges.get(triple, 0) + 1
        return GraphState(entities, edges)

    def _progress(self, total: int) -> _Progress:
        return _Progress(self.progress, total)

    def _turn(self, page: int) -> None:
        if self._busy:
            return
        self.page = page
        self._render_page()

    def _render_page(self) -> None:
        shown = self.table.matching(self.filter.value)
        pages = max(1, -(-len(shown) // self.page_size))
        self.page = min(max(self.page, 0), pages - 1)
        start = self.page * self.page_size
        with quietly(self):
            old = list(self.rows_box.children)
            self.rows_box.children = [
                CurationRowView(self, i) for i in shown[start : start + self.page_size]
            ]
            for child in old:
                child.close()
        self.prev_button.disabled = self.page == 0
        self.next_button.disabled = self.page >= pages - 1
        self.page_label.value = (
            f"<small>page {self.page + 1} of {pages} · {len(shown)} of "
            f"{len(self.table.rows)} rows</small>"
        )

    def _show_header(self) -> None:
        self.header.value = header_html(self.corpus_path, self.catalog_path, self.graph, self.table)
        self.rebuild_button.tooltip = f"save, then rebuild graph {self.graph}"

    def _corpus_and_strategy(self, graph: str) -> tuple[str, str]:
        """The corpus and strategy of ``graph``: as the Corpus view built it, else its name."""
        source = self.session.source
        if source is not None and graph_name(source.corpus, source.strategy) == graph:
            return source.corpus, source.strategy
        corpus, strategy = split_graph_name(graph)
        return corpus, strategy or DEFAULT_STRATEGY

    def _graph_changed(self, _: dict[str, Any]) -> None:
        self._show_header()

    def _source_changed(self, change: dict[str, Any]) -> None:
        """The Corpus view built a corpus: curate it, unless edits here are not saved."""
        source = change["new"]
        self._show_header()  # the graph Rebuild writes may follow the session now
        if self._busy or source is None or self._built_from(source.path):
            return
        if self.edited:
            self._say(
                f"{escape(source.path)} was built; save or drop these edits, then Open it",
                colour=AMBER,
            )
            return
        self._guarded(lambda: self.open_corpus(source.path))

    def _say(self, html: str, colour: str = "#6e7781") -> None:
        self.status.value = (
            f'<div class="zehn-curation-message" style="color:{colour}">{html}</div>'
        )


class _Progress:
    """``build_graph``'s progress bar (``update``/``close``) on an ``IntProgress``."""

    def __init__(self, bar: w.IntProgress, total: int) -> None:
        self.bar = bar
        bar.max, bar.value = max(total, 1), 0

    def update(self, n: int = 1) -> None:
        self.bar.value = min(self.bar.max, self.bar.value + n)

    def close(self) -> None:
        self.bar.value = self.bar.max


def _not_built(report: BuildReport) -> str:
    failed = "; ".join(f"{s.path}: {s.reason}" for s in report.ingest.skipped[:3])
    return f"nothing could be ingested, the graph is unchanged{f' ({failed})' if failed else ''}"


_COLUMNS = (
    '<div class="zehn-curation-columns" style="font-size:85%;color:#6e7781">'
    "entity id · name · kind · not an entity · aliases (choose one to remove or split) · "
    "new alias · the sentences behind it</div>"
)


CURATION_TITLE = "Curate entities"


def add_curation_tab(tabs: w.Tab, session: Session) -> CurationView:
    """Append the curation view to the workbench's ``tabs``; it opens whatever corpus the
    Corpus tab builds (``session.source``)."""
    view = CurationView(session)
    tabs.children = (*tabs.children, view)
    tabs.set_title(len(tabs.children) - 1, CURATION_TITLE)
    return view
