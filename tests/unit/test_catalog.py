from __future__ import annotations

from pathlib import Path

import pytest

from zehn.corpus.sample import SAMPLE_CATALOG
from zehn.errors import CatalogError
from zehn.reading.catalog import Catalog


def test_sample_catalog_keeps_one_name_with_three_kinds() -> None:
    catalog = Catalog.load(SAMPLE_CATALOG)
    redwood = sorted(e.id for e in catalog.entities if e.name == "Redwood Inference")
    assert redwood == [
        "customer:redwood-inference",
        "service:redwood-inference",
        "team:redwood-inference",
    ]


def test_duplicate_entries_are_named() -> None:
    entries = [
        {"name": "indexer", "kind": "service"},
        {"name": "indexer", "kind": "team"},
        {"name": "indexer", "kind": "service", "aliases": ["idx"]},
    ]
    with pytest.raises(CatalogError, match=r"entry 3 \('indexer', service\) duplicates entry 1"):
        Catalog.from_entries(entries, "test.yaml")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("just a string", "entry 1 is not a mapping"),
        ({"kind": "service"}, "entry 1 has no name"),
        ({"name": "x", "kind": "planet"}, "entry 1 \\('x'\\) has kind 'planet'"),
        ({"name": "x", "kind": "service", "aliases": "y"}, "aliases must be a list"),
    ],
)
def test_malformed_entries_are_explained(entry: object, message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        Catalog.from_entries([entry], "test.yaml")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("entities: [", "not valid YAML"),
        ("entities: 3", "expected a list"),
        ("entities: []", "no entities"),
    ],
)
def test_broken_files_name_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "catalog.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CatalogError, match=message) as caught:
        Catalog.load(path)
    assert str(path) in str(caught.value)


def test_missing_file_is_a_catalog_error(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot read"):
        Catalog.load(tmp_path / "nope.yaml")
