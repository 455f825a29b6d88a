"""Corpus view: the analyst's own documents into a graph, from the workbench.

Choose a folder on the server (the path field completes folder names) or upload
files (kept under ``ZEHN_HOME/uploads/<corpus>``, never anywhere else), a
strategy and a catalog (none, a file, the corpus's own, or one suggested from
the documents), then Build. The build shows one bar per stage (files,
sentences, extraction, swap), lists every file it could not read with the
reason, and ends with the graph's health: documents by source type, entities,
edges by predicate, ambiguous mentions. The live graph stays answerable until
the new one is complete (the pipeline builds a staging graph and swaps it in);
a build of a graph another build holds is refused, naming that build. A
successful build becomes the session's active graph, so Ask asks it next.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import ipywidgets as w

from widgets.build_process import BuildOutcome, BuildProcess
from widgets.curation_model import catalog_location
from widgets.html import BORDER, CELL, GREEN, GREY, RED, error_box, error_html, escape
from widgets.session import CorpusSource, Session
from zehn import BuildReport, ZehnError
from zehn.errors import CorpusError, SourceError
from zehn.extract.pipeline import (
    BUILD_STAGES,
    DEFAULT_STRATEGY,
    STRATEGIES,
    CorpusLayout,
)
from zehn.reading.names.suggest import suggest_for_path
from zehn.store.client import GRAPH_NAME

FOLDER, UPLOAD = "Folder on the server", "Upload files"
CATALOG_NONE = "none"
CATALOG_CORPUS = "the corpus's catalog.yaml"
CATALOG_FILE = "a file"
CATALOG_SUGGESTED = "suggested from the documents"
COMPLETIONS = 40  # folder names offered at once
UPLOADS = "uploads"  # under ZEHN_HOME
SUGGESTED = "catalog.suggested.yaml"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


# --- uploads -------------------------------------------------------------------------------


def checked_upload_name(name: str) -> str:
    """An uploaded file's name as it will be stored, or ``SourceError`` naming it: no folders,
    no '..', nothing that would place the file outside the upload folder."""
    if not name or name in {".", ".."}:
        raise SourceError(name or "(empty name)", "not a file name")
    if "/" in name or "\\" in name or "\x00" in name or ".." in name:
        raise SourceError(name, "an uploaded file's name may not contain '/', '\\' or '..'")
    return name


def checked_corpus_name(name: str) -> str:
    """A corpus name that makes a valid graph name ``<corpus>__<strategy>`` and folder."""
    name = name.strip()
    if not GRAPH_NAME.match(name) or ".." in name:
        raise CorpusError(
            f"corpus name {name!r}: use letters, digits, '_', '.', '-' (starting with a letter "
            "or digit, no '..')"
        )
    return name


def save_uploads(home: Path, corpus: str, files: Iterable[Mapping[str, Any]]) -> Path:
    """Write uploaded files (ipywidgets ``FileUpload`` values) into
    ``home/uploads/<corpus>``; every name is checked before anything is written, so one bad
    name stores nothing. Files already there stay; one of the same name is replaced whole."""
    uploads = list(files)
    if not uploads:
        raise CorpusError("no files uploaded: choose files with the Upload button first")
    names = [checked_upload_name(str(f.get("name", ""))) for f in uploads]
    root = (Path(home) / UPLOADS).resolve()
    folder = (root / checked_corpus_name(corpus)).resolve()
    if folder.parent != root:  # belt and braces: the checks above already exclude this
        raise CorpusError(f"corpus name {corpus!r} leads outside {root}")
    folder.mkdir(parents=True, exist_ok=True)
    for name, upload in zip(names, uploads, strict=True):
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".upload-")
        with os.fdopen(handle, "wb") as out:
            out.write(bytes(upload["content"]))
        os.replace(temporary, folder / name)  # whole or not at all
    return folder


# --- folder completion ---------------------------------------------------------------------


def complete_folder(text: str, limit: int = COMPLETIONS) -> list[str]:
    """Folders whose path starts with ``text`` (``~`` expanded), each ending in '/'; hidden
    ones only when the typed name starts with a dot."""
    typed = os.path.expanduser(text.strip())
    if not typed:
        return []
    parent, separator, prefix = typed.rpartition("/")
    directory = Path(parent or "/") if separator else Path(".")
    try:
        names = sorted(
            entry.name
            for entry in directory.iterdir()
            if entry.name.startswith(prefix)
            and (prefix.startswith(".") or not entry.name.startswith("."))
            and entry.is_dir()
        )
    except OSError:
        return []
    return [f"{parent}/{name}/" if separator else f"{name}/" for name in names[:limit]]


def corpus_name_for(path: str) -> str:
    """A corpus name suggested by a folder's name (``~/exports/Ops Space/`` → ``ops-space``)."""
    stem = Path(path.rstrip("/")).name
    return _UNSAFE.sub("-", stem).strip("-._").lower()


# --- rendering -----------------------------------------------------------------------------


def skipped_html(report: BuildReport) -> str:
    """Every file the build could not read, with the reason (all escaped)."""
    skipped = report.ingest.skipped
    if not skipped:
        return '<div class="zehn-skipped" data-count="0"><small>every file was read</small></div>'
    root = report.ingest.root
    rows = "".join(
        f'<tr class="zehn-skipped-file"><td {CELL}><code>{escape(_relative(s.path, root))}'
        f"</code></td><td {CELL}>{escape(s.reason)}</td><td {CELL}><small>{escape(s.error)}"
        "</small></td></tr>"
        for s in skipped
    )
    return (
        f'<div class="zehn-skipped" data-count="{len(skipped)}">'
        f"<b style='color:{RED}'>{len(skipped)} file(s) not read</b> "
        "<small>(everything else was built)</small>"
        f"<table><tr><th {CELL}>file</th><th {CELL}>reason</th><th {CELL}>error</th></tr>"
        f"{rows}</table></div>"
    )


def health_html(report: BuildReport) -> str:
    """The new graph's health: documents by source type, entities, edges by predicate,
    ambiguous mentions."""
    ingest = report.ingest
    types = "".join(
        f"<tr><td {CELL}>{escape(t)}</td><td {CELL}>{n}</td></tr>"
        for t, n in ingest.documents_by_type.items()
    )
    predicates = (
        "".join(
            f"<tr><td {CELL}>{escape(p)}</td><td {CELL}>{n}</td></tr>"
            for p, n in sorted(report.edges_by_predicate.items())
        )
        or f"<tr><td {CELL} colspan=2><i>no edges</i></td></tr>"
    )
    notes = "".join(f"<li>{escape(note)}</li>" for note in report.notes)
    return (
        f'<div class="zehn-health" data-graph="{escape(report.graph)}" '
        f'style="border:1px solid {BORDER};padding:6px 12px;margin-top:6px">'
        f"<h4 style='margin:4px 0'>graph {escape(report.graph)}</h4>"
        f"<div>{ingest.documents} documents from {ingest.files} files · "
        f"{ingest.sentences} sentences · "
        f'<span class="zehn-entities">{report.entities} entities</span> · '
        f'<span class="zehn-edges">{report.edges} edges</span> · '
        f'<span class="zehn-ambiguous">{report.ambiguous_mentions} of {report.mentions} '
        "mentions ambiguous</span></div>"
        "<div style='display:flex;gap:24px'>"
        f"<table><tr><th {CELL}>source type</th><th {CELL}>documents</th></tr>{types}</table>"
        f"<table><tr><th {CELL}>predicate</th><th {CELL}>edges</th></tr>{predicates}</table>"
        "</div>"
        + (f"<ul>{notes}</ul>" if notes else "")
        + f"<small>{report.elapsed_s:.1f} s</small></div>"
    )


def _relative(path: str, root: str) -> str:
    try:
        return str(Path(path).relative_to(root))
    except ValueError:
        return path


def _state(state: str, text: str, colour: str) -> str:
    return (
        f'<div class="zehn-build-status" data-state="{escape(state)}" '
        f'style="color:{colour};font-weight:bold;margin:4px 0">{escape(text)}</div>'
    )


# --- progress ------------------------------------------------------------------------------


class _StageBars(w.VBox):
    """One bar per build stage; the files bar counts files, the others fill when done."""

    def __init__(self) -> None:
        self.bars = {
            name: w.IntProgress(
                value=0, min=0, max=1, description=name, layout=w.Layout(width="420px")
            )
            for name in BUILD_STAGES
        }
        for name, bar in self.bars.items():
            bar.add_class("zehn-stage")
            bar.add_class(f"zehn-stage-{name}")
        self.current: str | None = None
        super().__init__(list(self.bars.values()))

    def reset(self) -> None:
        self.current = None
        for bar in self.bars.values():
            bar.value, bar.max, bar.bar_style = 0, 1, ""

    def begin(self, name: str) -> None:
        """``name`` starts: every earlier stage is complete."""
        for stage in BUILD_STAGES[: BUILD_STAGES.index(name)]:
            self._done(stage)
        self.current = name
        self.bars[name].bar_style = "info"

    def finish(self, ok: bool) -> None:
        if ok:
            for stage in BUILD_STAGES:
                self._done(stage)
        elif self.current is not None:
            self.bars[self.current].bar_style = "danger"

    def files(self, total: int) -> _FileBar:
        bar = self.bars["files"]
        bar.max, bar.value = max(total, 1), 0
        return _FileBar(bar)

    def _done(self, stage: str) -> None:
        bar = self.bars[stage]
        bar.value, bar.bar_style = bar.max, "success"


class _FileBar:
    """The pipeline's progress protocol (``update``, ``close``) over one ipywidgets bar."""

    def __init__(self, bar: w.IntProgress) -> None:
        self.bar = bar

    def update(self, n: int = 1) -> None:
        self.bar.value = min(self.bar.max, self.bar.value + n)

    def close(self) -> None:
        return None


# --- the view ------------------------------------------------------------------------------


class CorpusView(w.VBox):
    """Build a graph from a folder or from uploads; ``build()`` is what the button runs."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.report: BuildReport | None = None
        self._auto_name = ""
        self.source_kind = w.ToggleButtons(options=[FOLDER, UPLOAD], value=FOLDER)
        self.folder = w.Combobox(
            placeholder="/path/to/your/export  (folder names complete as you type)",
            ensure_option=False,
            layout=w.Layout(width="95%"),
        )
        self.upload = w.FileUpload(multiple=True, description="Choose files")
        self.corpus = w.Text(description="Corpus", placeholder="my-docs")
        self.strategy = w.Dropdown(
            options=list(STRATEGIES), value=DEFAULT_STRATEGY, description="Strategy"
        )
        self.catalog = w.Dropdown(options=[CATALOG_NONE], value=CATALOG_NONE, description="Catalog")
        self.catalog_file = w.Combobox(
            placeholder="/path/to/catalog.yaml", ensure_option=False, layout=w.Layout(width="60%")
        )
        self.build_button = w.Button(description="Build", button_style="primary", icon="cogs")
        self.cancel_button = w.Button(description="Cancel build", icon="stop", disabled=True)
        self._process: BuildProcess | None = None
        self._pending: CorpusSource | None = None
        self._bar: _FileBar | None = None
        self.stages = _StageBars()
        self.status = w.HTML()
        self.skipped = w.HTML()
        self.health = w.HTML()
        for widget, css in (
            (self.folder, "zehn-corpus-folder"),
            (self.upload, "zehn-corpus-upload"),
            (self.corpus, "zehn-corpus-name"),
            (self.catalog, "zehn-corpus-catalog"),
            (self.build_button, "zehn-corpus-build"),
            (self.cancel_button, "zehn-corpus-cancel"),
        ):
            widget.add_class(css)
        self.folder.observe(self._folder_typed, names="value")
        self.catalog_file.observe(self._catalog_typed, names="value")
        self.source_kind.observe(lambda _: self._show_source(), names="value")
        self.catalog.observe(lambda _: self._show_catalog(), names="value")
        self.build_button.on_click(lambda _: self.start_build())
        self.cancel_button.on_click(lambda _: self.cancel_build())
        intro = w.HTML(
            "<small>Point the workbench at your own documents: a folder on this server "
            "(Confluence export, tickets, a docs tree) or uploaded files. The current graph "
            "stays answerable while the new one is built.</small>"
        )
        self._source_box = w.VBox([self.folder])
        super().__init__(
            [
                intro,
                self.source_kind,
                self._source_box,
                w.HBox([self.corpus, self.strategy]),
                w.HBox([self.catalog, self.catalog_file]),
                w.HBox([self.build_button, self.cancel_button]),
                self.stages,
                self.status,
                self.skipped,
                self.health,
            ]
        )
        self._show_catalog()

    # --- the form ---------------------------------------------------------------------------

    def _show_source(self) -> None:
        chosen = self.folder if self.source_kind.value == FOLDER else self.upload
        self._source_box.children = [chosen]
        self._offer_catalogs()

    def _show_catalog(self) -> None:
        self.catalog_file.layout.display = None if self.catalog.value == CATALOG_FILE else "none"

    def _folder_typed(self, change: dict[str, Any]) -> None:
        text = str(change["new"])
        self.folder.options = tuple(complete_folder(text))
        suggested = corpus_name_for(text) if text.strip() else ""
        if suggested and self.corpus.value in {"", self._auto_name}:
            self.corpus.value = self._auto_name = suggested
        self._offer_catalogs()

    def _catalog_typed(self, change: dict[str, Any]) -> None:
        self.catalog_file.options = tuple(complete_folder(str(change["new"])))

    def _offer_catalogs(self) -> None:
        """'the corpus's catalog.yaml' only where the folder has one (and then first)."""
        has_own = self.source_kind.value == FOLDER and self._own_catalog() is not None
        options = [CATALOG_NONE, CATALOG_FILE, CATALOG_SUGGESTED]
        options = [CATALOG_CORPUS, *options] if has_own else options
        previous = self.catalog.value
        self.catalog.options = options
        if has_own and previous == CATALOG_NONE:
            self.catalog.value = CATALOG_CORPUS
        elif previous in options:
            self.catalog.value = previous
        self._show_catalog()

    def _own_catalog(self) -> Path | None:
        text = self.folder.value.strip()
        if not text:
            return None
        try:
            path = Path(os.path.expanduser(text))
            curated = catalog_location(path, Path(self.session.settings.home))
            return CorpusLayout.of(path).catalog or (curated if curated.is_file() else None)
        except OSError:
            return None

    # --- building ---------------------------------------------------------------------------

    def build(self) -> BuildReport | None:
        """Build the chosen corpus and wait for it (notebooks, tests); the Build button starts
        it without waiting (``start_build``), so the kernel stays free meanwhile."""
        process = self.start_build()
        if process is not None:
            process.wait()
        return self.report

    def start_build(self) -> BuildProcess | None:
        """Start the build in a child process (``widgets.build_process``): the stages, the
        unread files and the health follow as it reports; Cancel stops it."""
        if self._process is not None and self._process.running:
            return self._process
        self.build_button.disabled = True
        self.stages.reset()
        self.status.value = _state("running", "building…", GREY)
        self.skipped.value = self.health.value = ""
        self.report = None
        try:
            corpus, path, strategy, catalog = self._prepare()
        except ZehnError as e:
            self._failed(error_box(e))
            return None
        except OSError as e:  # a folder or catalog that cannot be read or written
            self._failed(error_box(CorpusError(f"{e.filename or ''}: {e.strerror or e}")))
            return None
        self._pending = CorpusSource(corpus, path, strategy, catalog)
        self._process = BuildProcess(
            self.session.settings, path, corpus, strategy, catalog,
            on_event=self._event, on_done=self._finished,
        ).start()  # fmt: skip
        self.cancel_button.disabled = False
        return self._process

    def cancel_build(self) -> None:
        """Stop the running build; the graph stays as it was."""
        if self._process is not None and self._process.running:
            self.status.value = _state("running", "cancelling…", GREY)
            self._process.cancel()

    def _failed(self, html: str) -> None:
        self.stages.finish(ok=False)
        self.status.value = html
        self.build_button.disabled, self.cancel_button.disabled = False, True

    def _prepare(self) -> tuple[str, Path, str, Path | None]:
        corpus = checked_corpus_name(self.corpus.value)
        strategy = str(self.strategy.value)
        if self.source_kind.value == UPLOAD:
            path = save_uploads(self.session.settings.home, corpus, self.upload.value)
        else:
            path = self._folder()
        path, catalog = self._catalog_for(path, corpus)
        return corpus, path, strategy, catalog

    def _event(self, event: dict[str, Any]) -> None:
        """A stage or file event of the build in the child process."""
        if event.get("event") == "stage" and event.get("stage") in BUILD_STAGES:
            self.stages.begin(str(event["stage"]))
        elif event.get("event") == "files":
            self._bar = self.stages.files(int(event.get("total") or 0))
        elif event.get("event") == "file" and self._bar is not None:
            self._bar.update(int(event.get("done") or 1))

    def _finished(self, outcome: BuildOutcome) -> None:
        """The build ended: show how, and make a new graph the active one."""
        try:
            if outcome.cancelled:
                self.stages.finish(ok=False)
                self.status.value = _state(
                    "cancelled", "cancelled: the graph was not changed", GREY
                )
            elif outcome.report is None:
                self.stages.finish(ok=False)
                self.status.value = error_html(outcome.kind, outcome.reason)
            else:
                self._built(outcome.report)
        finally:
            self.build_button.disabled, self.cancel_button.disabled = False, True

    def _built(self, report: BuildReport) -> None:
        self.report = report
        self.skipped.value = skipped_html(report)
        if not report.swapped:
            self.stages.finish(ok=False)
            self.status.value = error_box(
                CorpusError(
                    f"nothing could be ingested from {report.ingest.root}: the graph was not "
                    "changed"
                )
            )
            return
        self.stages.finish(ok=True)
        self.status.value = _state("done", f"built {report.graph}: now the active graph", GREEN)
        self.health.value = health_html(report)
        # the graph first: views that follow ``source`` (curation) read the new graph, never
        # the one it replaced
        self.session.graph = report.graph
        if self._pending is not None:
            self.session.source = self._pending

    def _folder(self) -> Path:
        text = self.folder.value.strip()
        if not text:
            raise CorpusError("choose a folder first (type its path on this server)")
        path = Path(os.path.expanduser(text))
        if not path.exists():
            raise CorpusError(f"folder {text!r} does not exist on this server")
        return path

    def _catalog_for(self, path: Path, corpus: str) -> tuple[Path, Path | None]:
        """The path to build and the catalog file to use, per the catalog choice."""
        choice = self.catalog.value
        layout = CorpusLayout.of(path)
        if choice == CATALOG_CORPUS:  # a corpus folder's, else the one the curation saved
            return path, layout.catalog or self._own_catalog()
        if choice == CATALOG_FILE:
            text = self.catalog_file.value.strip()
            catalog = Path(os.path.expanduser(text)) if text else None
            if catalog is None or not catalog.is_file():
                raise CorpusError(f"catalog file {text!r} does not exist on this server")
            return path, catalog
        if choice == CATALOG_SUGGESTED:
            return path, self._suggest(path, layout, corpus)
        # none: build the sources alone, so a corpus folder's own catalog.yaml is not used
        return layout.sources, None

    def _suggest(self, path: Path, layout: CorpusLayout, corpus: str) -> Path:
        """Discover the corpus's entities and keep them as a catalog under ZEHN_HOME."""
        found = suggest_for_path(path, layout.sources)
        if not found.documents:
            raise CorpusError(f"no documents could be read from {path} to suggest a catalog")
        folder = Path(self.session.settings.home) / UPLOADS / ".catalogs" / corpus
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / SUGGESTED
        target.write_text(found.to_yaml(), encoding="utf-8")
        return target
