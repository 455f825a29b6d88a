"""The `zehn` command as a user runs it: output, JSON, exit codes, no tracebacks."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.cli import EXIT_ERROR, EXIT_OK, EXIT_USAGE, main
from zehn.config import Settings
from zehn.engine import CitedAnswer
from zehn.extract.llm_extra import LLM_INSTALL

pytestmark = pytest.mark.integration
SAMPLE = REPO / "data" / "sample"
IMPACT = "If I change origin-mapper, what breaks?"
# the keys of the answer contract, which `ask --json` prints for every outcome
CONTRACT = set(CitedAnswer("q", "error", "", None, "", {}, "").to_dict())


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
    assert up["status"] == "ok" and up["reason"] is None
    assert up["reachable"] is True and up["versions"]["falkordb"]
    monkeypatch.setenv("FALKORDB_URL", f"redis://127.0.0.1:{_closed_port()}")
    assert main(["health", "--json"]) == EXIT_ERROR
    down = json.loads(capsys.readouterr().out)
    assert down["status"] == "error" and down["reason"] == down["error"]
    assert down["reachable"] is False and "GraphUnavailable" in down["error"]


def test_unknown_strategy_is_named(
    env: None, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.md").write_text("# A\n\nok.\n", "utf-8")
    assert main(["ingest", str(tmp_path), "--graph", graph_name, "--strategy", "magic"]) == 1
    assert "unknown strategy 'magic'" in capsys.readouterr().err


def test_bad_usage_exits_2_with_usage_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest"]) == EXIT_USAGE
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("usage: zehn ingest")
    assert captured.err.endswith(
        "zehn ingest: error: the following arguments are required: path, --graph\n"
    )
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


# --- --json: one JSON object for every outcome --------------------------------------------


def _one_object(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    """stdout is exactly one JSON object, and nothing on stderr looks like a crash."""
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    payload = json.loads(captured.out)
    assert isinstance(payload, dict)
    return payload


@pytest.mark.parametrize(
    "argv",
    [
        ["ask", IMPACT, "--json"],
        ["demo", "--json"],
        ["ingest", str(SAMPLE), "--graph", "down", "--json"],
        ["compare", "--json"],
        ["eval", "--json"],
        ["health", "--json"],
        ["graphs", "--json"],
    ],
    ids=lambda argv: argv[0],
)
def test_every_json_command_reports_a_down_server_as_one_error_object(
    env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    port = _closed_port()
    monkeypatch.setenv("FALKORDB_URL", f"redis://127.0.0.1:{port}")
    assert main(argv) == EXIT_ERROR
    payload = _one_object(capsys)
    assert payload["status"] == "error"
    reason = str(payload["reason"])
    assert reason.startswith("GraphUnavailable: cannot reach FalkorDB") and f":{port}" in reason


def test_ask_json_against_a_down_server_is_the_answer_contract_with_status_error(
    env: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FALKORDB_URL", f"redis://127.0.0.1:{_closed_port()}")
    assert main(["ask", IMPACT, "--json"]) == EXIT_ERROR
    answer = _one_object(capsys)
    assert set(answer) >= CONTRACT
    assert (answer["status"], answer["answer"], answer["question"]) == (
        "error",
        "I don't know",
        IMPACT,
    )
    assert answer["citations"] == answer["paths"] == answer["identities"] == []
    assert answer["tool_calls"] == [] and answer["error"] == "GraphUnavailable"
    # what was known before the server was needed: the default graph, the loaded policy
    assert (answer["graph"], answer["model"]) == ("sample__rules", "offline")
    policy = answer["policy"]
    assert isinstance(policy, dict)
    assert (policy["name"], policy["mode"], policy["max_hops"]) == ("production", "production", 3)

    assert main(["ask", "如果我修改 indexer，哪些服务会受影响？", "--json"]) == EXIT_ERROR
    chinese = _one_object(capsys)
    assert (chinese["answer"], chinese["language"]) == ("我不知道", "zh")


def test_ask_json_with_an_unknown_graph_names_it(
    env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["ask", "Who owns search-api?", "--graph", "no_such_corpus", "--json"]) == 1
    answer = _one_object(capsys)
    assert set(answer) >= CONTRACT
    assert (answer["status"], answer["graph"], answer["error"]) == (
        "error",
        "no_such_corpus",
        "GraphNotFound",
    )
    assert "'no_such_corpus' does not exist" in str(answer["reason"])


def test_ask_json_with_a_bad_policy_name_names_it(
    env: None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["ask", "Who owns search-api?", "--policy", "lenient", "--json"]
    assert main(argv) == EXIT_ERROR
    answer = _one_object(capsys)
    assert (answer["status"], answer["policy"], answer["error"]) == (
        "error",
        {"name": "lenient"},
        "PolicyError",
    )
    assert "policy 'lenient' not found" in str(answer["reason"])
    assert main(["eval", "--policy", "lenient", "--json"]) == EXIT_ERROR
    evaluation = _one_object(capsys)
    assert (evaluation["status"], evaluation["command"]) == ("error", "eval")
    assert "policy 'lenient' not found" in str(evaluation["reason"])


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["ask", "--json"], "zehn ask: the following arguments are required: question"),
        (
            ["ask", IMPACT, "--model", "gpt", "--json"],
            "zehn ask: argument --model: invalid choice: 'gpt'",
        ),
        (["ingest", "--json"], "zehn ingest: the following arguments are required: path, --graph"),
        (["compare", "--bogus", "--json"], "zehn: unrecognized arguments: --bogus"),
        (
            ["eval", "--model", "gpt", "--json"],
            "zehn eval: argument --model: invalid choice: 'gpt'",
        ),
        (["--json"], "zehn: unrecognized arguments: --json"),
    ],
)
def test_bad_usage_with_json_is_one_error_object_and_exits_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], reason: str
) -> None:
    assert main(argv) == EXIT_USAGE
    payload = _one_object(capsys)
    assert payload["status"] == "error" and payload["error"] == "usage"
    assert str(payload["reason"]).startswith(reason)
    assert str(payload["usage"]).startswith("usage: zehn")
    if argv[0] == "ask":
        assert set(payload) >= CONTRACT and payload["answer"] == "I don't know"
        assert payload["question"] == (IMPACT if len(argv) > 2 else None)
    else:
        assert payload["command"] == (argv[0] if argv[0] != "--json" else None)


def test_missing_inputs_with_json_are_one_error_object(
    env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    assert main(["ingest", str(missing), "--graph", "g", "--json"]) == EXIT_ERROR
    ingest = _one_object(capsys)
    assert (ingest["status"], ingest["command"], ingest["error"]) == (
        "error",
        "ingest",
        "CorpusError",
    )
    assert ingest["reason"] == f"CorpusError: {missing}: no such file or directory"
    assert main(["compare", "--corpus", str(missing), "--json"]) == EXIT_ERROR
    compare = _one_object(capsys)
    assert (compare["status"], compare["error"]) == ("error", "GoldError")
    assert str(missing) in str(compare["reason"])


def test_ingest_json_of_a_corpus_with_nothing_usable_is_an_error_with_its_report(
    env: None, graph_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "x.bin").write_bytes(b"\x00\x01\x02")
    assert main(["ingest", str(tmp_path), "--graph", graph_name, "--json"]) == EXIT_ERROR
    payload = _one_object(capsys)
    assert payload["status"] == "error"
    assert payload["reason"] == f"nothing could be ingested from {tmp_path}"
    build = payload["build"]
    assert isinstance(build, dict) and build["swapped"] is False
    assert [Path(s["path"]).name for s in build["ingest"]["skipped"]] == ["x.bin"]


# --- the llm strategy without graphrag-sdk (a plain `pip install`) -------------------------


@pytest.fixture
def without_graphrag_sdk(monkeypatch: pytest.MonkeyPatch) -> None:
    """As after `pip install zehn` without the llm extra: importing graphrag_sdk fails."""
    monkeypatch.setitem(sys.modules, "graphrag_sdk", None)
    monkeypatch.delitem(sys.modules, "zehn.extract.llm", raising=False)


def test_ingest_with_the_llm_strategy_says_how_to_install_it(
    env: None,
    without_graphrag_sdk: None,
    graph_name: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["ingest", str(SAMPLE), "--graph", graph_name, "--strategy", "llm"]
    assert main(argv) == EXIT_ERROR
    captured = capsys.readouterr()
    (line,) = captured.err.splitlines()
    assert line.startswith("error: the llm strategy needs graphrag-sdk, which is not installed")
    assert LLM_INSTALL in line and "pip install --no-deps 'graphrag-sdk==1.4.0'" in line
    assert main([*argv, "--json"]) == EXIT_ERROR
    payload = _one_object(capsys)
    assert (payload["status"], payload["error"]) == ("error", "ExtractionError")
    assert LLM_INSTALL in str(payload["reason"])


def test_compare_says_why_the_llm_row_did_not_run(
    env: None, without_graphrag_sdk: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", "--corpus", str(SAMPLE), "--strategies", "llm", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert row["strategy"] == "llm" and row["graph"] is None
    assert all(row[c] is None for c in row if c.startswith("edges_"))  # no made-up figures
    assert row["status"].startswith("not run: the llm strategy needs graphrag-sdk")
    assert LLM_INSTALL in row["status"]


@pytest.mark.parametrize(
    ("flags", "program", "expected"),
    [
        ([], "jupyter", ["lab", "00_workbench.ipynb", "--port=8888", "--ServerApp.ip=127.0.0.1"]),
        (["--no-browser", "--port", "9000"], "jupyter", ["--port=9000", "--no-browser"]),
        (["--voila"], "voila", ["00_workbench.ipynb", "--Voila.ip=127.0.0.1"]),
        (["--app"], "jupyter", ["lab", "--LabApp.default_url=/voila/render/00_workbench.ipynb"]),
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
