"""The pure parts of the abstention reasons (``zehn.engine.reasons``)."""

from __future__ import annotations

from pathlib import Path

from zehn.engine.reasons import looks_up, other_policies, walks_of
from zehn.evidence.policy import load_policy

POLICY = """name: {name}
mode: {mode}
predicates:
  DEPENDS_ON: {{traverse: true, impact: reverse}}
  CALLS: {{traverse: {calls}, impact: reverse, why: "not evaluated"}}
"""


def _policy(directory: Path, name: str, mode: str, calls: bool) -> None:
    text = POLICY.format(name=name, mode=mode, calls=str(calls).lower())
    (directory / f"{name}.yaml").write_text(text, encoding="utf-8")


def test_only_policies_that_walk_a_blocked_predicate_are_offered(tmp_path: Path) -> None:
    _policy(tmp_path, "strict", "production", calls=False)
    _policy(tmp_path, "also-strict", "production", calls=False)
    _policy(tmp_path, "wide", "evaluation", calls=True)
    active = load_policy(tmp_path / "strict.yaml")
    assert [p.name for p in other_policies(active)] == ["wide"]
    assert other_policies(load_policy(tmp_path / "wide.yaml")) == []  # it blocks nothing


def test_walks_are_the_calls_the_policy_decides_and_a_named_lookup_is_not() -> None:
    calls = [
        ("downstream_impact", {"entity_id": "service:a", "depth": 3}),
        ("downstream_impact", {"entity_id": "service:a", "depth": 3}),  # once
        ("neighbours", {"entity_id": "service:a", "predicate": "CALLS"}),
        ("neighbours", {"entity_id": "service:a"}),
        ("mentions", {"entity_id": "service:a"}),
    ]
    assert [(w.query, w.params.get("predicate")) for w in walks_of(calls)] == [
        ("downstream_impact", None),
        ("neighbours", None),
    ]


def test_a_look_up_reads_relations_or_the_sentences_that_may_state_them() -> None:
    assert looks_up("downstream_impact") and looks_up("search_sentences")
    assert not looks_up("find_entities") and not looks_up("mentions")
