"""A name described by its own kind's head noun is the same entity (invented names)."""

from __future__ import annotations

from zehn.reading.model import Entity
from zehn.reading.names.discover import _folded, _served


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


def test_a_process_identifier_runs_the_entity_its_humps_name() -> None:
    # "**GrebeProcess** sends …": the grebe at run time, whatever kind its bold clue gave it
    grebe = Entity("grebe", "component", ("Grebe scheduler",), origin="discovered")
    process = Entity("GrebeProcess", "service", (), origin="discovered")
    (folded,) = _folded([grebe, process])
    assert folded.id == grebe.id
    assert "GrebeProcess" in folded.aliases


def test_a_process_identifier_naming_nothing_known_stays_its_own() -> None:
    grebe = Entity("grebe", "component", (), origin="discovered")
    child = Entity("GrebeChildProcess", "service", (), origin="discovered")
    plain = Entity("Grebeprocess", "service", (), origin="discovered")  # no hump: one word
    assert _folded([grebe, child, plain]) == [grebe, child, plain]


def test_a_process_identifier_of_namesakes_stays_its_own() -> None:
    team = Entity("Grebe", "team", (), origin="discovered")
    store = Entity("grebe", "datastore", (), origin="discovered")
    process = Entity("GrebeProcess", "service", (), origin="discovered")
    assert _folded([team, store, process]) == [team, store, process]


def test_a_server_is_also_named_by_what_it_serves() -> None:
    (served,) = _served([Entity("Tern Quote API Server", "component", (), origin="discovered")])
    assert "Tern Quote API" in served.aliases


def test_a_served_name_is_never_one_word_nor_taken() -> None:
    lone = Entity("tern-server", "component", (), origin="discovered")  # "tern" alone: too short
    taken = Entity("Petrel Feed Server", "component", (), origin="discovered")
    feed = Entity("Petrel Feed", "topic", (), origin="discovered")
    assert _served([lone, taken, feed]) == [lone, taken, feed]
    assert _served([lone])[0].aliases == ()
