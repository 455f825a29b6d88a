"""`zehn catalog suggest` on an invented corpus (tests/fixtures/discovery): the discovered
entities as a catalog file that `--catalog` reads back, the --json contract, and ingest with
the suggested catalog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.conftest import FIXTURES
from zehn.cli import EXIT_ERROR, EXIT_OK, EXIT_USAGE, main
from zehn.config import Settings
from zehn.reading.names.catalog import Catalog

pytestmark = pytest.mark.integration
CORPUS = FIXTURES / "discovery"
EXPECTED = {
    ("billing", "service"),
    ("cart", "service"),
    ("email", "service"),
    ("notifier", "service"),
    ("ledger-db", "datastore"),
    ("receipts-queue", "topic"),
    ("Quokkache", "datastore"),
}


def test_suggest_writes_a_catalog_that_loads_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "catalog.yaml"
    assert main(["catalog", "suggest", str(CORPUS), "--out", str(out)]) == EXIT_OK
    assert str(out) in capsys.readouterr().out
    catalog = Catalog.load(out)
    assert {(e.name, e.kind) for e in catalog.entities} == EXPECTED
    assert {e.origin for e in catalog.entities} == {"discovered"}
    entries = {e["name"]: e for e in yaml.safe_load(out.read_text("utf-8"))["entities"]}
    cart = entries["cart"]
    assert cart["mentions"] >= 3
    assert cart["first_sentence"]["text"] and "#" in cart["first_sentence"]["id"]
    assert any("page title 'Cart Service'" in reason for reason in cart["reasons"])
    assert out.read_text("utf-8").startswith("# Entities discovered in")


def test_suggest_prints_yaml_without_out(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["catalog", "suggest", str(CORPUS)]) == EXIT_OK
    data = yaml.safe_load(capsys.readouterr().out)
    assert {(e["name"], e["kind"]) for e in data["entities"]} == EXPECTED


def test_suggest_json_is_one_object_for_every_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["catalog", "suggest", str(CORPUS), "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert (report["status"], report["documents"], report["entities"]) == ("ok", 6, 7)
    assert report["out"] is None and report["skipped"] == []
    assert {(e["name"], e["kind"]) for e in report["catalog"]} == EXPECTED

    missing = tmp_path / "nowhere"
    assert main(["catalog", "suggest", str(missing), "--json"]) == EXIT_ERROR
    error = json.loads(capsys.readouterr().out)
    assert error["status"] == "error" and "nowhere" in error["reason"]

    (tmp_path / "bad.md").write_bytes(b"\xff\xfe\xfa")
    assert main(["catalog", "suggest", str(tmp_path), "--json"]) == EXIT_ERROR
    error = json.loads(capsys.readouterr().out)
    assert error["status"] == "error" and error["skipped"][0]["path"].endswith("bad.md")

    assert main(["catalog", "--json"]) == EXIT_USAGE
    usage = json.loads(capsys.readouterr().out)
    assert (usage["status"], usage["command"]) == ("error", "catalog")


def test_a_suggested_catalog_drives_ingest(
    settings: Settings,
    graph_name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ZEHN_HOME", str(settings.home))
    monkeypatch.delenv("FALKORDB_URL", raising=False)
    out = tmp_path / "catalog.yaml"
    assert main(["catalog", "suggest", str(CORPUS), "--out", str(out)]) == EXIT_OK
    capsys.readouterr()
    args = ["ingest", str(CORPUS), "--graph", graph_name, "--catalog", str(out), "--json"]
    assert main(args) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "ok" and report["entities"] == len(EXPECTED)
    assert report["edges"] >= 1
