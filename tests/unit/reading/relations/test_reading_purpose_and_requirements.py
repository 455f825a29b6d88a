"""Readings added for real documentation, on invented sentences: a reader named in a purpose
clause, a requirement addressed to the reader ("For this to work, you need …"), a deployment
place ("can be run as a process in Y"), a term a paragraph marked opening a later sentence,
and an ordinary word with a page of its own that another page sets as a term."""

from __future__ import annotations

from zehn.corpus.model import SourceText
from zehn.reading.model import Entity
from zehn.reading.names.catalog import Catalog
from zehn.reading.names.discover import discover_entities
from zehn.reading.references.reader import read_corpus, with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

LEDGER = Entity("ledger", "service", aliases=("Ledger Service", "ledger service"))
VAULT = Entity("Vaultstore", "datastore")
BUS = Entity("eventhub", "topic")
CATALOG = Catalog((LEDGER, VAULT, BUS))


def _doc(text: str, doc_id: str = "doc/notes-md", title: str = "Notes") -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, title, text, tuple(chunks), tuple(sentences))


def _edges(text: str, catalog: Catalog | None = CATALOG, *more: SourceText) -> set[tuple[str, ...]]:
    _, read = read_corpus([_doc("Notes\n\n" + text + "\n"), *more], catalog)
    out = set()
    for sentence, mentions in read:
        found, _ = sentence_edges(sentence, mentions, "rules")
        for edge in with_references(found, mentions):
            flags = ("negated " if edge.negated else "") + ("hedged" if edge.hedged else "")
            out.add((edge.subject.split(":")[1], edge.rel_type, edge.object.split(":")[1], flags))
    return out


# --- a reader named in a purpose clause ------------------------------------------------------


def test_a_place_written_for_a_named_reader_is_read_by_it() -> None:
    assert ("eventhub", "READS_FROM", "vaultstore", "") in _edges(
        "The ledger service writes summaries into *Vaultstore* for the *eventhub* to read."
    )


def test_which_is_configured_for_a_reader_and_allows_a_second_one() -> None:
    edges = _edges(
        "*Vaultstore*, which is configured for the *ledger service* to load snapshots from "
        "and allow *eventhub* to access the latest copy."
    )
    assert ("ledger", "READS_FROM", "vaultstore", "") in edges
    assert ("eventhub", "READS_FROM", "vaultstore", "") in edges


def test_a_purpose_without_a_read_verb_or_a_place_states_nothing() -> None:
    assert _edges("Vaultstore is ready for the ledger service to start.") == set()
    assert _edges("The ledger service waits for eventhub to read.") == set()


# --- "For this to work, you need …" ----------------------------------------------------------


def test_a_requirement_opening_with_this_names_what_the_subject_depends_on() -> None:
    edges = _edges(
        "The ledger service keeps balances. For this to work, you need to set up a store "
        "(**Vaultstore**, **eventhub** ...) and change the settings."
    )
    # two options in the parentheses: each is one alternative, not a fact: hedged
    assert edges == {
        ("ledger", "DEPENDS_ON", "vaultstore", "hedged"),
        ("ledger", "DEPENDS_ON", "eventhub", "hedged"),
    }
    one = _edges(
        "The ledger service keeps balances. For this to work, you need to set up a store "
        "(**Vaultstore**) first."
    )
    assert one == {("ledger", "DEPENDS_ON", "vaultstore", "")}


def test_a_name_in_the_noun_phrase_of_the_options_is_needed_whichever_is_chosen() -> None:
    catalog = Catalog((LEDGER, VAULT, BUS, Entity("Kestrel", "component")))
    edges = _edges(
        "The ledger service keeps balances. For this to work, you need to set up a Kestrel "
        "backend (**Vaultstore**, **eventhub** ...) and change the settings.",
        catalog,
    )
    assert edges == {
        ("ledger", "DEPENDS_ON", "kestrel", ""),  # a Kestrel backend, whichever option
        ("ledger", "DEPENDS_ON", "vaultstore", "hedged"),
        ("ledger", "DEPENDS_ON", "eventhub", "hedged"),
    }
    # two names in the phrase: which one is meant is not read
    two = _edges(
        "The ledger service keeps balances. For this to work, you need to set up a Kestrel "
        "eventhub backend (**Vaultstore**, **Plover** ...).",
        catalog,
    )
    assert ("ledger", "DEPENDS_ON", "kestrel", "") not in two


def test_you_need_without_the_opening_states_nothing() -> None:
    assert _edges("The ledger service keeps balances. You need to set up Vaultstore.") == set()


# --- where a component is run -----------------------------------------------------------------


def test_run_as_a_process_in_a_place_depends_on_that_place() -> None:
    assert _edges("The ledger service can be run as a long running process in Vaultstore.") == {
        ("ledger", "DEPENDS_ON", "vaultstore", "hedged")
    }


def test_a_bare_run_in_is_not_read() -> None:
    assert _edges("The ledger service runs in Vaultstore.") == set()


def test_it_in_a_list_item_that_opens_with_one_word_before_the_name() -> None:
    edges = _edges(
        "- Optional *eventhub*, which carries events. It is often quiet. "
        "It can be run as a long running process in Vaultstore."
    )
    assert ("eventhub", "DEPENDS_ON", "vaultstore", "hedged") in edges


# --- a term the paragraph marked, opening a later sentence -------------------------------------


def _with_discovered_term(paragraph: str) -> set[tuple[str, ...]]:
    page = _doc("widgets\n\nWidgets are small.\n", "doc/admin/widgets-rst", "widgets")
    elsewhere = _doc(
        "Parts\n\nThe ledger keeps balances and needs *Vaultstore*. Read *Vaultstore* notes.\n",
        "doc/parts-rst",
        "parts",
    )
    return _edges(paragraph, None, page, elsewhere)


def test_an_ordinary_word_with_its_own_page_set_as_a_term_elsewhere_is_discovered() -> None:
    page = _doc("widgets\n\nWidgets are small.\n", "doc/admin/widgets-rst", "widgets")
    term = _doc("Intro\n\nAn optional folder of *widgets* sits here.\n", "doc/intro-rst", "intro")
    assert "widgets" in {e.name for e in discover_entities([page, term])}


def test_an_ordinary_word_with_only_a_page_or_only_emphasis_is_not_discovered() -> None:
    page = _doc("widgets\n\nWidgets are small.\n", "doc/admin/widgets-rst", "widgets")
    term = _doc("Intro\n\nAn optional folder of *widgets* sits here.\n", "doc/intro-rst", "intro")
    assert "widgets" not in {e.name for e in discover_entities([page])}
    assert "widgets" not in {e.name for e in discover_entities([term])}


def test_a_term_marked_in_the_paragraph_binds_when_a_later_sentence_opens_with_it() -> None:
    edges = _with_discovered_term(
        "A folder of *widgets* sits here. Widgets are read by *Vaultstore*."
    )
    assert ("vaultstore", "READS_FROM", "widgets", "") in edges


def test_the_term_does_not_carry_past_the_paragraph() -> None:
    edges = _with_discovered_term(
        "A folder of *widgets* sits here.\n\nWidgets are read by *Vaultstore*."
    )
    assert not any(edge[2] == "widgets" for edge in edges)


def test_the_cue_preposition_repeated_after_or_names_a_second_place() -> None:
    assert _edges(
        "The ledger service can be run as a long running process in Vaultstore, "
        "or as a job in eventhub."
    ) == {
        ("ledger", "DEPENDS_ON", "vaultstore", "hedged"),
        ("ledger", "DEPENDS_ON", "eventhub", "hedged"),
    }
    assert ("ledger", "WRITES_TO", "eventhub", "") in _edges(
        "The ledger service writes to Vaultstore and to eventhub."
    )


def test_another_preposition_after_and_is_no_second_place() -> None:
    edges = _edges("The ledger service writes to Vaultstore and in eventhub.")
    assert edges == {("ledger", "WRITES_TO", "vaultstore", "")}
