"""A large catalog parsed in a forked process gives the same catalog, and the same error."""

from __future__ import annotations

from pathlib import Path

import pytest

from zehn.errors import CatalogError
from zehn.extract import catalog_aside
from zehn.extract.catalog_aside import ASIDE_FROM_BYTES, CatalogLoad
from zehn.extract.write import entity_batches
from zehn.reading.names.catalog import Catalog


def _catalog(path: Path, entries: int, *, broken_at: int | None = None) -> Path:
    lines = ["entities:"]
    for i in range(entries):
        kind = "nonsense" if i == broken_at else "service"
        lines += [f"- name: kite-{i:05d}", f"  kind: {kind}"]
        lines += [f"  aliases: [kite number {i}]", "  owner: null"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_large_catalog_parsed_aside_is_the_catalog_a_plain_load_gives(tmp_path: Path) -> None:
    path = _catalog(tmp_path / "catalog.yaml", 6000)
    assert path.stat().st_size >= ASIDE_FROM_BYTES
    loading = CatalogLoad(path)
    assert loading._future is not None  # it went aside
    catalog = loading.result()
    assert catalog == Catalog.load(path)
    # its entity batches came with it, the ones made here, and only for its own entities
    assert catalog is not None
    assert loading.entity_batches(catalog.entities) == entity_batches(catalog.entities)
    assert loading.entity_batches(tuple(catalog.entities[:-1])) is None


def test_a_malformed_large_catalog_raises_what_a_plain_load_raises(tmp_path: Path) -> None:
    path = _catalog(tmp_path / "catalog.yaml", 6000, broken_at=4321)
    with pytest.raises(CatalogError) as plain:
        Catalog.load(path)
    loading = CatalogLoad(path)
    with pytest.raises(CatalogError) as aside:
        loading.result()
    assert str(aside.value) == str(plain.value) and "entry 4322" in str(aside.value)


def test_a_small_catalog_is_loaded_at_once_and_fails_at_once(tmp_path: Path) -> None:
    good = _catalog(tmp_path / "good.yaml", 3)
    loading = CatalogLoad(good)
    assert loading._future is None and loading.result() == Catalog.load(good)
    assert loading.entity_batches(Catalog.load(good).entities) is None  # made by the build
    with pytest.raises(CatalogError, match="nonsense"):
        CatalogLoad(_catalog(tmp_path / "bad.yaml", 3, broken_at=1))
    assert CatalogLoad(None).result() is None


def test_a_child_that_dies_is_settled_by_loading_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _catalog(tmp_path / "catalog.yaml", 6000)
    monkeypatch.setattr(catalog_aside.Catalog, "load", _die_in_child(Catalog.load))
    assert CatalogLoad(path).result() == Catalog.load(path)


def _die_in_child(load: object) -> object:
    import os

    parent = os.getpid()

    def dying(path: Path) -> Catalog:
        if os.getpid() != parent:
            os._exit(3)  # the child is killed: the pool breaks
        return load(path)  # type: ignore[operator,no-any-return]

    return dying
