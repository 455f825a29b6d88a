"""One row of the curation table as controls: rename, kind, "not an entity", an alias picker
with remove and split, a new alias, and the button that shows the sentences behind the row.
Every edit goes through the view, which may refuse it (and then redraws the row)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

import ipywidgets as w

from widgets.curation_model import CurationTable, EntityRow
from widgets.curation_render import row_id_html
from zehn.reading.vocabulary import ENTITY_KINDS

KINDS = [str(k) for k in ENTITY_KINDS]
_NOT_CLASS = re.compile(r"[^A-Za-z0-9_-]+")


class RowEditor(Protocol):
    """What a row needs of the view that owns it (``CurationView``)."""

    table: CurationTable

    @property
    def busy(self) -> bool: ...

    def run_edit(self, index: int, action: Callable[[], object]) -> None: ...
    def rename(self, row: int | str, name: str) -> None: ...
    def set_kind(self, row: int | str, kind: str) -> None: ...
    def mark_not_entity(self, row: int | str, flag: bool = True) -> None: ...
    def add_alias(self, row: int | str, alias: str) -> list[str]: ...
    def remove_alias(self, row: int | str, alias: str) -> None: ...
    def split_alias(self, row: int | str, alias: str, kind: str | None = None) -> EntityRow: ...
    def show_row(self, row: int | str) -> str: ...


def row_class(entity_id: str) -> str:
    """The CSS class naming a row by its entity id: ``zehn-curation-row--service-frontend``."""
    return "zehn-curation-row--" + _NOT_CLASS.sub("-", entity_id).strip("-")


class CurationRowView(w.HBox):
    """One row's controls; every edit goes through the view's table, which may refuse it."""

    def __init__(self, view: RowEditor, index: int) -> None:
        self.view, self.index = view, index
        row = view.table.rows[index]
        self.identity = w.HTML(row_id_html(row), layout=w.Layout(width="150px"))
        self.name = w.Text(row.name, continuous_update=False, layout=w.Layout(width="170px"))
        self.kind = w.Dropdown(options=KINDS, value=row.kind, layout=w.Layout(width="115px"))
        self.not_entity = w.Checkbox(row.not_entity, description="not an entity", indent=False)
        self.not_entity.layout.width = "115px"
        self.aliases = w.Dropdown(options=row.aliases, layout=w.Layout(width="150px"))
        self.remove_alias = w.Button(description="remove", tooltip="remove the chosen alias")
        self.split_alias = w.Button(
            description="split", tooltip="make the chosen alias an entity of its own"
        )
        self.new_alias = w.Text(placeholder="new alias", layout=w.Layout(width="120px"))
        self.add_alias = w.Button(description="add alias", icon="plus")
        self.show = w.Button(description=_mentions_text(row), tooltip="the sentences behind it")
        for button in (self.remove_alias, self.split_alias, self.add_alias, self.show):
            button.layout.width = "auto"
        self.aliases.disabled = self.remove_alias.disabled = self.split_alias.disabled = not (
            row.aliases
        )
        for widget, name in (
            (self.name, "name"), (self.kind, "kind"), (self.not_entity, "not-entity"),
            (self.aliases, "alias-pick"), (self.remove_alias, "remove-alias"),
            (self.split_alias, "split-alias"), (self.new_alias, "new-alias"),
            (self.add_alias, "add-alias"), (self.show, "show"),
        ):  # fmt: skip
            widget.add_class(f"zehn-curation-{name}")
        super().__init__(
            [
                self.identity,
                self.name,
                self.kind,
                self.not_entity,
                self.aliases,
                self.remove_alias,
                self.split_alias,
                self.new_alias,
                self.add_alias,
                self.show,
            ],
            layout=w.Layout(align_items="center", border_bottom="1px solid #eee"),
        )
        self.add_class("zehn-curation-row")
        self.add_class(row_class(row.entity_id))
        if row.not_entity:
            self.add_class("zehn-curation-row-not-entity")
        self.name.observe(lambda c: self._edit(lambda: view.rename(index, c["new"])), "value")
        self.kind.observe(lambda c: self._edit(lambda: view.set_kind(index, c["new"])), "value")
        self.not_entity.observe(
            lambda c: self._edit(lambda: view.mark_not_entity(index, bool(c["new"]))), "value"
        )
        self.add_alias.on_click(lambda _: self._edit(self._add))
        self.remove_alias.on_click(
            lambda _: self._edit(lambda: view.remove_alias(index, str(self.aliases.value)))
        )
        self.split_alias.on_click(
            lambda _: self._edit(lambda: view.split_alias(index, str(self.aliases.value)))
        )
        self.show.on_click(lambda _: view.show_row(index))

    def _add(self) -> None:
        self.view.add_alias(self.index, self.new_alias.value)

    def _edit(self, action: Callable[[], object]) -> None:
        if not self.view.busy:
            self.view.run_edit(self.index, action)


def _mentions_text(row: EntityRow) -> str:
    count = row.mentions
    return "sentences" if count is None else f"{count} mentions"


def _w(width: str) -> w.Layout:
    return w.Layout(width=width)
