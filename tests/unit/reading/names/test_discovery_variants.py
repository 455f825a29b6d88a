"""Numbered instances and deployment variants of one component are that component, on
invented names: aliases with reasons, never entities of their own."""

from __future__ import annotations

from zehn.reading.model import Entity
from zehn.reading.names.variants import fold_instances, instance_of


def entity(name: str, kind: str = "component") -> Entity:
    return Entity(name, kind, origin="discovered", evidence=((name, "test"),))


def test_numbered_instances_and_deployment_suffixes_name_their_base() -> None:
    assert instance_of("QuorumNode2") == ("QuorumNode", "numbered instance 'QuorumNode2'")
    assert instance_of("ledger-prod") == ("ledger", "deployment variant 'ledger-prod'")
    assert instance_of("ledger_dev") == ("ledger", "deployment variant 'ledger_dev'")
    assert instance_of("alert-server") is None and instance_of("max-replicas") is None
    assert instance_of("S3") is None and instance_of("k8s") is None


def test_instances_fold_into_the_component_of_their_base() -> None:
    folded = fold_instances([entity("Tallyd"), entity("Tallyd1"), entity("Tallyd2")])
    assert [e.name for e in folded] == ["Tallyd"]
    assert {"Tallyd1", "Tallyd2"} <= set(folded[0].aliases)
    assert ("Tallyd2", "numbered instance 'Tallyd2'") in folded[0].evidence


def test_two_instances_without_their_base_become_the_base() -> None:
    folded = fold_instances([entity("inkpot-prod"), entity("inkpot-dev"), entity("Other")])
    names = {e.name: e for e in folded}
    assert set(names) == {"inkpot", "Other"}
    assert {"inkpot-prod", "inkpot-dev"} <= set(names["inkpot"].aliases)


def test_a_lone_numbered_name_without_its_base_stays_a_name() -> None:
    assert [e.name for e in fold_instances([entity("Raft2"), entity("Other")])] == [
        "Raft2",
        "Other",
    ]
