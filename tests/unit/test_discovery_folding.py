"""A name described by its own kind's head noun is the same entity (invented names)."""

from __future__ import annotations

from zehn.reading.discover import _folded
from zehn.reading.model import Entity


def test_a_name_with_its_own_kinds_head_folds_into_the_entity() -> None:
    broker = Entity("Quokka", "topic", ("quokka",), origin="discovered")
    described = Entity("Quokka topic", "topic", (), origin="discovered")
    (folded,) = _folded([broker, described])
    assert folded.id == broker.id
    assert "Quokka topic" in folded.aliases
    assert any("described by its kind" in why for _, why in folded.evidence)


def test_another_kind_never_folds() -> None:
    store = Entity("Wombat", "datastore", (), origin="discovered")
    collector = Entity("Wombat Collector", "component", (), origin="discovered")
    assert _folded([store, collector]) == [store, collector]


def test_a_head_of_another_kind_never_folds() -> None:
    # "Quokka service" is not the Quokka topic described by its kind: the head says service
    topic = Entity("Quokka", "topic", (), origin="discovered")
    service = Entity("Quokka service", "topic", (), origin="discovered")
    assert _folded([topic, service]) == [topic, service]
