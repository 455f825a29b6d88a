"""The `zehn` command as a user runs it: output, JSON, exit codes, no tracebacks."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from zehn.cli import EXIT_ERROR, EXIT_OK, EXIT_USAGE, main
from zehn.config import Settings

pytestmark = pytest.mark.integration


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    monkeypatch.setenv("ZEHN_HOME", str(settings.home))
    monkeypatch.delenv("FALKORDB_URL", raising=False)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_ingest_json_report_and_graph_listing(
    env: None, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.md").write_text(
        "# A\n\nThe origin-mapper feeds search-api. Then search-api calls origin-mapper.\n",
        "utf-8",
    )
    (tmp_path / "bad.md").write_bytes(b"\xff\xfe\xfa")
    assert main(["ingest", str(tmp_path), "--graph", graph_name, "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert report["graph"] == f"{graph_name}__rules"
    assert report["ingest"]["documents_by_type"] == {"text": 1}
    assert report["ingest"]["sentences"] == 3
    assert [Path(s["path"]).name for s in report["ingest"]["skipped"]] == ["bad.md"]
    assert report["edges_by_predicate"] == {"FEEDS": 1, "CALLS": 1}

    assert main(["graphs", "--json"]) == EXIT_OK
    graphs = {g["name"]: g for g in json.loads(capsys.readouterr().out)}
    listed = graphs[f"{graph_name}__rules"]
    assert (listed["corpus"], listed["strategy"], listed["complete"]) == (graph_name, "rules", True)
    assert listed["nodes"]["Sentence"] == 3 and listed["edges"]["RELATES"] == 2


def test_ingest_text_summary_names_skipped_files(
    env: None, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.md").write_text("# A\n\nok.\n", "utf-8")
    (tmp_path / "empty.txt").write_text("  \n", "utf-8")
    assert main(["ingest", str(tmp_path), "--graph", graph_name, "--no-progress"]) == EXIT_OK
    out = capsys.readouterr().out
    assert f"graph {graph_name}__rules: 1 documents from 2 files (1 text)" in out
    assert "empty.txt" in out and "skipped 1 files" in out


def test_a_corpus_with_nothing_usable_exits_1_without_traceback(
    env: None, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "x.bin").write_bytes(b"\x00\x01\x02")
    assert main(["ingest", str(tmp_path), "--graph", graph_name, "--no-progress"]) == EXIT_ERROR
    captured = capsys.readouterr()
    assert "nothing could be ingested" in captured.err
    assert "Traceback" not in captured.err + captured.out


def test_missing_path_is_a_clear_error(
    env: None, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    assert main(["ingest", str(missing), "--graph", graph_name]) == EXIT_ERROR
    assert f"{missing}: no such file or directory" in capsys.readouterr().err


def test_health_json_when_up_and_when_down(
    env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["health", "--json"]) == EXIT_OK
    up = json.loads(capsys.readouterr().out)
    assert up["reachable"] is True and up["versions"]["falkordb"]
    monkeypatch.setenv("FALKORDB_URL", f"redis://127.0.0.1:{_closed_port()}")
    assert main(["health", "--json"]) == EXIT_ERROR
    down = json.loads(capsys.readouterr().out)
    assert down["reachable"] is False and "GraphUnavailable" in down["error"]


def test_unknown_strategy_is_named(
    env: None, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.md").write_text("# A\n\nok.\n", "utf-8")
    assert main(["ingest", str(tmp_path), "--graph", graph_name, "--strategy", "magic"]) == 1
    assert "unknown strategy 'magic'" in capsys.readouterr().err


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["ingest"])
    assert caught.value.code == EXIT_USAGE
    assert main([]) == EXIT_USAGE


def test_bad_setting_is_reported_by_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ZEHN_QUERY_TIMEOUT_MS", "soon")
    assert main(["health"]) == EXIT_ERROR
    assert "ZEHN_QUERY_TIMEOUT_MS" in capsys.readouterr().err


def test_graph_copy_and_delete_commands(
    env: None, graph_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["graph", "create", graph_name]) == EXIT_OK
    assert main(["graph", "copy", graph_name, f"{graph_name}_b"]) == EXIT_OK
    assert main(["graph", "delete", graph_name]) == EXIT_OK
    assert main(["graph", "delete", graph_name]) == EXIT_ERROR
    assert "does not exist" in capsys.readouterr().err


def test_ask_prints_numbered_verbatim_citations_and_json_contract(
    env: None, graph_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.conftest import REPO

    corpus = REPO / "data" / "sample"
    assert main(["ingest", str(corpus), "--graph", graph_name, "--no-progress"]) == EXIT_OK
    capsys.readouterr()
    question = "If I change origin-mapper, what breaks?"
    assert main(["ask", question, "--graph", graph_name]) == EXIT_OK
    out = capsys.readouterr().out
    assert "status: ANSWERED" in out and '[1] "' in out and "sources:" in out
    assert "policy: production (production)" in out
    assert main(["ask", question, "--graph", graph_name, "--json"]) == EXIT_OK
    contract = json.loads(capsys.readouterr().out)
    assert contract["status"] == "answered" and contract["graph"] == f"{graph_name}__rules"
    assert contract["citations"][0]["n"] == 1 and contract["citations"][0]["quote"]
    assert main(["ask", "What does Redwood Inference depend on?", "--graph", graph_name]) == EXIT_OK
    assert "status: AMBIGUOUS" in capsys.readouterr().out
    assert main(["ask", question, "--graph", graph_name, "--policy", "evaluation"]) == EXIT_OK
    assert "[EVALUATION MODE · policy evaluation]" in capsys.readouterr().out


def test_ask_against_a_down_server_exits_1_with_a_clear_error(
    env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FALKORDB_URL", f"redis://127.0.0.1:{_closed_port()}")
    assert main(["ask", "If I change origin-mapper, what breaks?"]) == EXIT_ERROR
    captured = capsys.readouterr()
    assert "cannot reach FalkorDB" in captured.err and "Traceback" not in captured.err


def test_ask_with_an_unknown_graph_names_it(env: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "Who owns search-api?", "--graph", "no_such_corpus"]) == EXIT_ERROR
    assert "no_such_corpus" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "program", "expected"),
    [
        ([], "jupyter", ["lab", "00_workbench.ipynb", "--port=8888", "--ServerApp.ip=127.0.0.1"]),
        (["--no-browser", "--port", "9000"], "jupyter", ["--port=9000", "--no-browser"]),
        (["--voila"], "voila", ["00_workbench.ipynb", "--Voila.ip=127.0.0.1"]),
    ],
)
def test_lab_opens_the_workbench_notebook_on_loopback(
    env: None, monkeypatch: pytest.MonkeyPatch, flags: list[str], program: str, expected: list[str]
) -> None:
    import os

    seen: dict[str, object] = {}
    monkeypatch.setattr(os, "chdir", lambda path: seen.setdefault("cwd", path))
    monkeypatch.setattr(os, "execv", lambda exe, argv: seen.setdefault("argv", argv))
    assert main(["lab", *flags]) == EXIT_OK
    argv = seen["argv"]
    assert isinstance(argv, list) and argv[1:3] == ["-m", program]
    assert all(part in argv for part in expected)
    assert str(seen["cwd"]).endswith("notebooks")
