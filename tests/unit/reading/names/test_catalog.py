from __future__ import annotations

from pathlib import Path

import pytest

from zehn.corpus.sample import SAMPLE_CATALOG
from zehn.errors import CatalogError
from zehn.reading.names.catalog import Catalog, backup_path, save_catalog


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


# --- "not an entity" and saving (invented names) ----------------------------------------------


def test_not_entity_entries_make_no_entity_and_are_remembered() -> None:
    catalog = Catalog.from_entries(
        [
            {"name": "quillmap", "kind": "service", "aliases": ["qm"]},
            {"name": "velvet-repo", "kind": "component", "aliases": ["Velvet"], "not_entity": True},
            {"name": "Thursday", "not_entity": True},  # no kind needed to say "not a thing"
            {"name": "zorbital", "kind": "datastore", "not_entity": False},
        ],
        "invented.yaml",
    )
    assert [e.id for e in catalog.entities] == ["service:quillmap", "datastore:zorbital"]
    assert catalog.not_entities == ("velvet-repo", "Thursday", "Velvet")


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([{"name": "x", "kind": "service", "not_entity": "yes"}], "not_entity must be true or false"),
        ([{"name": "x", "kind": "service"}, {"kind": "team", "not_entity": True}], "has no name"),
        ([{"name": "x", "kind": "service"}, {"name": "y", "kind": "moon", "not_entity": True}],
         "has kind 'moon'"),
        ([{"name": "x", "kind": "service", "not_entity": True}], r"no entities \(1 marked"),
        ([{"name": "Quill Map", "kind": "service"},
          {"name": "quill-map", "kind": "service", "not_entity": True}],
         r"entry 2 marks \('quill-map', service\) as not an entity, but entry 1 makes it one"),
    ],
)  # fmt: skip
def test_bad_not_entity_entries_are_named(entries: list[object], message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        Catalog.from_entries(entries, "invented.yaml")


def test_the_same_name_may_be_an_entity_of_one_kind_and_not_of_another() -> None:
    catalog = Catalog.from_entries(
        [
            {"name": "Quill", "kind": "team"},
            {"name": "Quill", "kind": "customer", "not_entity": True},
        ]
    )
    assert [e.id for e in catalog.entities] == ["team:quill"]


def test_save_catalog_round_trips_and_keeps_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "catalog.yaml"
    first = [{"name": "quillmap", "kind": "service", "aliases": ["qm"], "mentions": 4}]
    assert save_catalog(target, first, "curated by hand") == target
    assert target.read_text(encoding="utf-8").startswith("# curated by hand\n")
    assert [e.id for e in Catalog.load(target).entities] == ["service:quillmap"]
    assert not backup_path(target).exists()
    original = target.read_text(encoding="utf-8")
    second = [*first, {"name": "Velvet", "kind": "team", "not_entity": True}]
    save_catalog(target, second)
    assert backup_path(target).read_text(encoding="utf-8") == original
    assert Catalog.load(target).not_entities == ("Velvet",)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.yaml", "catalog.yaml.bak"]


@pytest.mark.parametrize(
    "entries",
    [
        [{"name": "quillmap", "kind": "planet"}],
        [{"name": "quillmap", "kind": "service"}, {"name": "quillmap", "kind": "service"}],
        [{"name": "quillmap", "kind": "service", "not_entity": True}],
        [],
    ],
)
def test_a_bad_catalog_is_never_written(tmp_path: Path, entries: list[dict[str, object]]) -> None:
    target = tmp_path / "catalog.yaml"
    target.write_text("entities:\n  - {name: zorbital, kind: datastore}\n", encoding="utf-8")
    before = target.read_text(encoding="utf-8")
    with pytest.raises(CatalogError):
        save_catalog(target, entries)
    assert target.read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.yaml"]  # no .bak, no temp


def test_save_catalog_names_a_folder_that_is_not_there(tmp_path: Path) -> None:
    with pytest.raises(CatalogError, match="cannot write: no folder"):
        save_catalog(tmp_path / "missing" / "catalog.yaml", [{"name": "q", "kind": "team"}])


def test_the_build_binds_nothing_to_a_name_marked_not_an_entity(tmp_path: Path) -> None:
    from zehn.reading.names.subjects import bind_corpus
    from zehn.reading.names.suggest import read_sources

    (tmp_path / "notes.md").write_text(
        "# Notes\n\nThe quillmap service reads from velvet-repo every night.\n", encoding="utf-8"
    )
    documents, _ = read_sources(tmp_path)
    catalog = Catalog.from_entries(
        [
            {"name": "quillmap", "kind": "service"},
            {"name": "velvet-repo", "kind": "datastore", "not_entity": True},
        ]
    )
    entities, bound = bind_corpus(documents, catalog)
    assert [e.id for e in entities] == ["service:quillmap"]
    ids = {m.entity_id for _, mentions in bound for m in mentions}
    assert "service:quillmap" in ids and not any("velvet" in str(i) for i in ids)
    kept = Catalog.from_entries([{"name": "velvet-repo", "kind": "datastore"}])
    unmarked = {m.entity_id for _, ms in bind_corpus(documents, kept)[1] for m in ms}
    assert unmarked == {"datastore:velvet-repo"}  # the same entry without the mark binds
