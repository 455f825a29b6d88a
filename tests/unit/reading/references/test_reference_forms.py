"""A bare "This" opening a page, pronoun objects read back from their place, and names that
share a later name's kind word. Every document here is invented."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.references.forms import (
    definite_heads,
    opening_this,
    read_back_objects,
    shared_kind_names,
)
from zehn.reading.references.reader import read_corpus, with_references
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import split_sentences

BUS = Entity("Quillbus", "component")
INVOICING = Entity("invoicing", "service", aliases=("invoicing service",), origin="discovered")
AUDIT = Entity("audit-trail", "service", aliases=("audit trail services",))
VAULT = Entity("Vaultstore", "datastore")
CATALOG = Catalog((BUS, INVOICING, AUDIT, VAULT))
BINDER = Binder(CATALOG.entities)


def _edges(title: str, text: str) -> set[tuple[str, str, str]]:
    doc = SourceText("doc/x-md", title, text, (), tuple(split_sentences("doc/x-md", text)))
    _, read = read_corpus([doc], CATALOG)
    found = set()
    for sentence, mentions in read:
        edges, _ = sentence_edges(sentence, mentions, "rules")
        found.update((e.subject, e.rel_type, e.object) for e in with_references(edges, mentions))
    return found


def test_this_opening_a_page_is_what_the_page_is_about() -> None:
    text = (
        "Quillbus\n\nThis is used as a message broker to connect the invoicing service with the "
        "audit trail services.\n"
    )
    assert _edges("Quillbus", text) == {
        (INVOICING.id, "PUBLISHES_TO", "component:quillbus"),
        ("service:audit-trail", "CONSUMES_FROM", "component:quillbus"),
    }


def test_this_later_in_a_section_is_not_the_page() -> None:
    text = (
        "Quillbus\n\nQuillbus carries pay slips.\n\nThis is used as a message broker to connect "
        "the invoicing service with the audit trail services.\n"
    )
    assert _edges("Quillbus", text) == set()


def test_opening_this_needs_a_description() -> None:
    sentence = "This means invoicing waits."
    assert opening_this("s", 0, sentence, BUS, "from the page title") is None
    made = opening_this("s", 10, "This is a broker.", BUS, "from the page title")
    assert made is not None and (made.start, made.end, made.entity_id) == (10, 14, BUS.id)


def test_a_pronoun_read_back_from_where_it_was_put() -> None:
    text = "The invoicing service stores the pay slips in Vaultstore and retrieves them."
    sentence = Sentence("doc/x", text, 0, len(text))
    mentions = BINDER.bind(sentence)
    (ref,) = read_back_objects(sentence.id, 0, text, mentions)
    assert (ref.surface, ref.entity_id) == ("them", VAULT.id)
    edges, _ = sentence_edges(sentence, [*mentions, ref], "rules")
    assert {(e.subject, e.rel_type, e.object) for e in edges} == {
        (INVOICING.id, "WRITES_TO", VAULT.id),
        (INVOICING.id, "READS_FROM", VAULT.id),
    }


def test_a_pronoun_without_a_place_before_it_is_left_alone() -> None:
    text = (
        "The invoicing service reads Vaultstore and retrieves it."  # no put: "it" is not Vaultstore
    )
    sentence = Sentence("doc/x", text, 0, len(text))
    assert read_back_objects(sentence.id, 0, text, BINDER.bind(sentence)) == []


def test_a_name_shares_the_kind_word_of_the_name_after_it() -> None:
    text = "Quillbus links the invoicing and audit trail services."
    sentence = Sentence("doc/x", text, 0, len(text))
    mentions = BINDER.bind(sentence)
    assert "invoicing" not in {m.surface for m in mentions}  # a plain word alone
    (ref,) = shared_kind_names(sentence.id, 0, text, mentions, BINDER)
    assert (ref.surface, ref.entity_id) == ("invoicing", INVOICING.id)
    assert ref.reason == (
        "'invoicing' = 'invoicing service', sharing the kind word 'services' of 'audit trail services'"
    )


def test_a_word_that_names_nothing_with_the_kind_word_is_not_taken() -> None:
    text = "Quillbus links the billing and audit trail services."
    sentence = Sentence("doc/x", text, 0, len(text))
    assert shared_kind_names(sentence.id, 0, text, BINDER.bind(sentence), BINDER) == []


def test_the_capitalised_head_of_a_name_given_earlier_is_that_name() -> None:
    text = (
        "Ledger notes\n\nPostings may go to the Vault Ledgerstore first.\n\n"
        "The invoicing service writes postings directly to the Ledgerstore.\n"
    )
    catalog = Catalog((INVOICING, Entity("Vault Ledgerstore", "datastore")))
    doc = SourceText("doc/n-md", "Ledger notes", text, (), tuple(split_sentences("doc/n-md", text)))
    _, read = read_corpus([doc], catalog)
    edges = [
        (e.subject, e.rel_type, e.object, e.object_reference)
        for sentence, mentions in read
        for e in with_references(sentence_edges(sentence, mentions, "rules")[0], mentions)
    ]
    assert edges == [
        (
            INVOICING.id,
            "WRITES_TO",
            "datastore:vault-ledgerstore",
            "'the Ledgerstore' = Vault Ledgerstore, named in full earlier in the document",
        )
    ]


def test_a_head_two_earlier_names_share_or_a_lowercase_one_refers_to_nothing() -> None:
    earlier_text = "Vault Ledgerstore and Cold Ledgerstore"
    probe = Sentence("doc/x", earlier_text, 0, len(earlier_text))
    binder = Binder(
        [Entity("Vault Ledgerstore", "datastore"), Entity("Cold Ledgerstore", "datastore")]
    )
    earlier = binder.bind(probe)
    assert len(earlier) == 2
    assert definite_heads("s", 100, "It reads from the Ledgerstore.", [], earlier) == []
    assert definite_heads("s", 100, "It reads from the ledgerstore.", [], earlier[:1]) == []


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        (
            "Quillbus is the front door; it serves static files and proxies to Vaultstore.\n",
            ("component:quillbus", "CALLS", "datastore:vaultstore"),
        ),
        (
            "Quillbus starts first, and it then reads from Vaultstore.\n",
            ("component:quillbus", "READS_FROM", "datastore:vaultstore"),
        ),
        (
            "Quillbus keeps a small cache; it also writes to Vaultstore.\n",
            ("component:quillbus", "WRITES_TO", "datastore:vaultstore"),
        ),
    ],
)
def test_it_opening_a_later_clause_is_the_sentences_opening_subject(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert edge in _edges("Notes", text)


def test_it_before_is_or_has_is_no_clause_subject() -> None:
    text = "Quillbus is optional; it is simple to read from Vaultstore instead.\n"
    assert not {e for e in _edges("Notes", text) if e[0] == "component:quillbus"}
