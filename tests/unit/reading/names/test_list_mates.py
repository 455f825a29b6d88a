"""Names listed with names (``zehn.reading.names.list_mates``), on invented documents."""

from __future__ import annotations

from tests.unit.reading.names.test_discovery import source
from zehn.reading.model import Entity
from zehn.reading.names.list_mates import listed_with_names

KNOWN = [
    Entity("lantern", "service", origin="discovered"),  # an ordinary word: vouches for nothing
    Entity("Quarnbase", "datastore", origin="discovered"),
    Entity("Zorbex", "datastore", origin="discovered"),
    Entity("Pluvia", "datastore", origin="discovered"),
]


def added(*texts: str) -> dict[str, Entity]:
    documents = [source(f"doc/{i}.md", text) for i, text in enumerate(texts)]
    return {e.name: e for e in listed_with_names(KNOWN, documents)}


def test_a_lowercase_product_listed_twice_with_known_names_is_one_of_them() -> None:
    found = added(
        "The stack runs Quarnbase, tellurd, Zorbex and Pluvia on one host.",
        "Back up Zorbex, tellurd, and Quarnbase every night.",
    )
    assert set(found) == {"tellurd"}
    assert found["tellurd"].kind == "datastore"
    assert "Quarnbase" in found["tellurd"].evidence[0][1]


def test_a_capitalised_ordinary_word_in_such_a_list_is_a_name_and_a_lowercase_one_is_not() -> None:
    found = added(
        "Install Quarnbase, Zorbex, Kettle and Pluvia.",
        "Restart Quarnbase, Kettle, logs, Zorbex and Pluvia.",
    )
    assert set(found) == {"Kettle"}


def test_a_name_an_entity_already_has_is_never_made_again() -> None:
    assert not added("Run Quarnbase, Lantern, Zorbex, now.", "Run Zorbex, Lantern, Pluvia, now.")


def test_a_list_of_mostly_unknown_items_or_a_single_listing_names_nothing() -> None:
    assert not added(
        "Bring Quarnbase, Zorbex, apples, pears, plums and figs.",
        "Bring Quarnbase, Zorbex, apples, pears, plums and figs.",
    )
    assert not added("Use Quarnbase, Zorbex and tellurd.")
    # a word at the list's edge may be the sentence's own: never taken as a name
    assert not added(
        "Run Quarnbase, Zorbex, Pluvia, Kettle now.", "Start Zorbex, Pluvia, Kettle now."
    )
