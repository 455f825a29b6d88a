"""A policy decided by measured evidence (issue 29, item 1): ``zehn policy evaluate`` on a graph
whose CALLS edges reviewers audited; ``--write`` records the evaluation and applies it, and
answers under the policy then walk (or keep off) the predicate and quote the evaluation. The
invented corpus below is written for these tests."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO
from widgets.policy_toggle import PolicyToggle
from widgets.session import Session
from zehn.cli import EXIT_OK, main
from zehn.config import Settings
from zehn.engine import Engine
from zehn.evidence.policy import load_policy
from zehn.extract.pipeline import build_graph
from zehn.models.offline import OfflineModel
from zehn.review.audit import AuditStore, read_items
from zehn.review.policy_eval import KEEP_OFF, TOO_FEW, WALK, evaluate_policy, write_evaluation
from zehn.store.client import GraphClient
from zehn.store.revision import bump_revision

pytestmark = pytest.mark.integration
CALLERS = 40  # a service calls the ledger service in each page: 40 plainly stated CALLS edges


@pytest.fixture(scope="module")
def graph(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    corpus = tmp_path_factory.mktemp("policy-evaluate")
    for n in range(CALLERS):
        (corpus / f"caller-{n:02d}.md").write_text(
            f"# caller-{n:02d}\n\nThe caller-{n:02d} service calls the ledger-core service.\n",
            encoding="utf-8",
        )
    client = GraphClient.connect(settings)
    report = build_graph(client, "policy_eval", corpus, "rules")
    yield report.graph
    client.delete_graph(report.graph)
    client.close()


@pytest.fixture
def policy_file(tmp_path: Path) -> Path:
    for name in ("production.yaml", "evaluation.yaml"):  # a policy folder of its own
        shutil.copy(REPO / "policies" / name, tmp_path / name)
    return tmp_path / "production.yaml"


def _label(client: GraphClient, graph: str, correct: int, wrong: int) -> None:
    store = AuditStore(client)
    calls = [i for i in read_items(client, graph) if i.rel_type == "CALLS"]
    assert len(calls) >= correct + wrong
    for n, item in enumerate(calls[: correct + wrong]):
        store.label(item, label="correct" if n < correct else "wrong_target", reviewer="rev")


def test_audited_calls_are_proposed_written_and_then_walked_under_production(
    client: GraphClient, graph: str, policy_file: Path
) -> None:
    _label(client, graph, correct=CALLERS, wrong=0)
    policy = load_policy(policy_file)
    assert "CALLS" not in policy.traversable()
    evaluation = evaluate_policy(client, graph, policy)
    (calls,) = [p for p in evaluation.predicates if p.predicate == "CALLS"]
    assert (calls.edges, calls.audited, calls.correct) == (CALLERS, CALLERS, CALLERS)
    assert calls.supported == CALLERS and calls.low is not None and calls.low >= 0.9
    assert calls.proposal == WALK and not calls.walked
    (owns,) = [p for p in evaluation.predicates if p.predicate == "OWNS"]
    assert owns.proposal == TOO_FEW  # nothing audited: nothing unverified is turned on
    write_evaluation(evaluation, policy)
    text = policy_file.read_text(encoding="utf-8")
    assert text.startswith("# The policy answers are given under by default.")  # comments kept
    assert "mode: production            # anything else shows the evaluation-mode badge" in text
    written = load_policy(policy_file)
    assert "CALLS" in written.traversable() and "OWNS" not in written.traversable()
    assert written.evaluation and written.evaluation["graph"] == graph
    answer = Engine(client, graph, written, OfflineModel()).ask(
        "What breaks if ledger-core changes?"
    )
    # the numbered callers are one component's instances (caller-00 … caller-39: "caller")
    assert answer.status == "answered" and "caller CALLS ledger-core" in answer.answer
    line = next(x for x in answer.limitations if x.startswith("policy production"))
    assert f"CALLS walked: audited {CALLERS}/{CALLERS} correct, 95 % CI" in line
    assert f"graph {graph}" in line and "predates" not in line
    bump_revision(client, graph)  # the graph changes after its evaluation
    again = Engine(client, graph, written, OfflineModel()).ask(
        "What breaks if ledger-core changes?"
    )
    line = next(x for x in again.limitations if x.startswith("policy production"))
    assert "its evaluation predates the graph's current revision" in line


def test_poorly_audited_calls_stay_off_and_the_answer_says_why(
    client: GraphClient, graph: str, policy_file: Path
) -> None:
    _label(client, graph, correct=20, wrong=CALLERS - 20)
    policy = load_policy(policy_file)
    evaluation = evaluate_policy(client, graph, policy)
    (calls,) = [p for p in evaluation.predicates if p.predicate == "CALLS"]
    assert calls.proposal == KEEP_OFF and calls.audited == CALLERS and calls.correct == 20
    write_evaluation(evaluation, policy)
    written = load_policy(policy_file)
    assert "CALLS" not in written.traversable()
    answer = Engine(client, graph, written, OfflineModel()).ask(
        "What breaks if ledger-core changes?"
    )
    assert answer.status == "abstained" and answer.reason_code == "not_walked_by_policy"
    line = next(x for x in answer.limitations if x.startswith("policy production"))
    assert f"CALLS not walked: audited 20/{CALLERS} correct, 95 % CI" in line


def test_the_cli_prints_and_writes_the_evaluation(
    client: GraphClient, graph: str, policy_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _label(client, graph, correct=CALLERS, wrong=0)
    argv = ["policy", "evaluate", "--graph", graph, "--policy", str(policy_file)]
    assert main([*argv, "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "ok" and data["written"] is None
    assert {p["predicate"]: p["proposal"] for p in data["predicates"]}["CALLS"] == WALK
    assert main(argv) == EXIT_OK
    out = capsys.readouterr().out
    assert "CALLS" in out and "walk" in out and "proposal" in out
    assert main([*argv, "--write"]) == EXIT_OK
    assert "written to" in capsys.readouterr().out
    assert "CALLS" in load_policy(policy_file).traversable()


def test_the_policy_toggle_evaluates_the_active_graph_and_writes_it(
    settings: Settings, client: GraphClient, graph: str, policy_file: Path
) -> None:
    _label(client, graph, correct=CALLERS, wrong=0)
    session = Session(settings, client, graph=graph, policy=load_policy(policy_file))
    toggle = PolicyToggle(session, directory=str(policy_file.parent))
    assert toggle.write_button.disabled  # nothing measured yet: no control without an action
    toggle.evaluate_button.click()
    assert "zehn-policy-evaluation" in toggle.evaluation.value
    assert "<td>CALLS</td>" in toggle.evaluation.value and f"{CALLERS}/{CALLERS}" in (
        toggle.evaluation.value
    )
    toggle.write_button.click()
    assert "CALLS" in session.policy.traversable()  # the written policy is the active one
    assert "written to" in toggle.evaluation.value and toggle.write_button.disabled
    session.graph = "no_such_graph__rules"
    toggle.evaluate_button.click()  # an error is shown, never a traceback
    assert "Traceback" not in toggle.evaluation.value and toggle.write_button.disabled
