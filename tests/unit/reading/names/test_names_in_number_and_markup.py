"""Names in either grammatical number, possessives, reStructuredText markup and what
discovery keeps out (activities, plurals, a file name used as a title), on invented text."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.lexicon import number_stem, number_variants, store_kind
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.clues import name_key
from zehn.reading.names.discover import discover_entities
from zehn.reading.relations.phrases import plain
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences


def _source(doc_id: str, text: str, title: str) -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, title, text, tuple(chunks), tuple(sentences))


def _bound(binder: Binder, text: str) -> list[tuple[str, str]]:
    sentence = Sentence("doc/x", text, 0, len(text))
    return [(m.surface, m.entity_id or "") for m in binder.bind(sentence)]


def _edges(binder: Binder, text: str) -> set[tuple[str, str, str]]:
    sentence = Sentence("doc/x", text, 0, len(text))
    edges, _ = sentence_edges(sentence, binder.bind(sentence), "rules")
    return {(e.subject.split(":")[1], e.rel_type, e.object.split(":")[1]) for e in edges}


# --- number ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "stem", "variants"),
    [
        ("relays", "relay", ("relay",)),
        ("relay", "relay", ("relays",)),
        ("proxies", "proxy", ("proxy",)),
        ("caches", "cache", ("cache",)),
        ("boxes", "box", ("box",)),
        ("Hopper", "Hopper", ("Hoppers",)),
        ("SDK", "SDK", ("SDKs",)),
        # not plurals: nothing to add
        ("Zorbis", "Zorbis", ()),
        ("status", "status", ()),
        ("class", "class", ()),
    ],
)
def test_a_words_other_number(word: str, stem: str, variants: tuple[str, ...]) -> None:
    assert number_stem(word) == stem
    assert number_variants(word) == variants


def test_a_name_and_its_plural_share_one_key() -> None:
    assert name_key("Spool relays") == name_key("spool-relay") == name_key("SpoolRelay")
    assert name_key("Zorbis") != name_key("Zorbi")  # "-is" is no plural


def test_a_name_binds_in_either_number() -> None:
    binder = Binder([Entity("spool relay", "component"), Entity("hoppers", "service")])
    assert _bound(binder, "Both spool relays restart, then the hopper drains.") == [
        ("spool relays", "component:spool-relay"),
        ("hopper", "service:hoppers"),
    ]


def test_an_ordinary_word_in_the_other_number_still_needs_its_mark() -> None:
    binder = Binder([Entity("garden", "component", origin="discovered")])
    assert _bound(binder, "Several gardens were added last year.") == []
    assert _bound(binder, "The *gardens* forward requests.") == [("gardens", "component:garden")]


def test_a_discovered_capitalised_name_that_is_no_english_word_binds_in_any_case() -> None:
    binder = Binder(
        [
            Entity("Quillomat", "service", origin="discovered"),
            Entity("Garden", "service", origin="discovered"),
        ]
    )
    assert _bound(binder, "Then the quillomat retries.") == [("quillomat", "service:quillomat")]
    assert _bound(binder, "Then the garden retries.") == []  # "garden" is English: case counts


@pytest.mark.parametrize(
    "text",
    [
        "Next we extend the Garden to retry.",
        "Queries reach our Gardens first.",
        "Restart both Garden replicas, then wait.",
    ],
)
def test_an_ordinary_word_name_capitalised_mid_sentence_is_written_as_a_name(text: str) -> None:
    binder = Binder([Entity("garden", "service", origin="discovered")])
    assert [entity for _, entity in _bound(binder, text)] == ["service:garden"]


@pytest.mark.parametrize(
    "text",
    [
        "Garden makes use of the spool.",
        "Garden periodically calls the spool.",
        "Garden proxies requests to the spool.",
        "Garden: connects to the spool.",
        "* **Garden** – reads the spool.",
    ],
)
def test_an_ordinary_word_name_as_a_bare_subject_of_a_verb_is_a_name(text: str) -> None:
    binder = Binder([Entity("garden", "service", origin="discovered")])
    assert [entity for _, entity in _bound(binder, text)] == ["service:garden"]


@pytest.mark.parametrize(
    "text",
    [
        "Garden beds were added.",
        "Then the garden retries.",
        "GARDEN RULES apply.",
        "Garden hoses are cheap.",
        "Garden: a place of plants.",
    ],
)
def test_a_sentences_first_word_or_a_lower_case_word_is_no_such_mark(text: str) -> None:
    binder = Binder([Entity("garden", "service", origin="discovered")])
    assert _bound(binder, text) == []


# --- possessives ------------------------------------------------------------------------------


POSSESSIVE = Binder(
    [
        Entity("Zorbis", "component", origin="discovered"),
        Entity("result store", "datastore", origin="discovered"),
        Entity("Kestrel", "service", origin="discovered"),
    ]
)


def test_the_possessed_name_binds_and_the_possessor_does_not() -> None:
    assert _bound(POSSESSIVE, "Kestrel writes to Zorbis's result store.") == [
        ("Kestrel", "service:kestrel"),
        ("result store", "datastore:result-store"),
    ]
    assert _edges(POSSESSIVE, "Kestrel writes to Zorbis's result store.") == {
        ("kestrel", "WRITES_TO", "result-store")
    }


def test_a_possessor_of_something_unnamed_is_no_end_of_a_relation() -> None:
    assert _edges(POSSESSIVE, "Kestrel writes to Zorbis's spool.") == set()
    assert _edges(POSSESSIVE, "Kestrel writes to Zorbis.") == {("kestrel", "WRITES_TO", "zorbis")}


def test_a_possessed_kind_word_names_the_one_entity_with_that_head() -> None:
    binder = Binder(
        [
            Entity("Kestrel", "service"),
            Entity("Zorbis", "component"),
            Entity("JobBroker", "component"),
        ]
    )
    assert _bound(binder, "Kestrel writes to Zorbis's broker.") == [
        ("Kestrel", "service:kestrel"),
        ("broker", "component:jobbroker"),
    ]
    two = Binder([*binder.entities.values(), Entity("Event broker", "component")])
    assert _bound(two, "Kestrel writes to Zorbis's broker.") == [("Kestrel", "service:kestrel")]
    assert _bound(binder, "Kestrel writes to Zorbis's spool.") == [("Kestrel", "service:kestrel")]


def test_a_legend_arrow_to_a_possessed_name() -> None:
    text = "[3] **Kestrel** --> **Zorbis's result store** - Saves the outcome"
    assert _edges(POSSESSIVE, text) == {("kestrel", "WRITES_TO", "result-store")}


# --- cues ---------------------------------------------------------------------------------------

CUES = Binder(
    [
        Entity("Kestrel", "service"),
        Entity("Zorbis", "datastore"),
        Entity("Quillomat", "service"),
        Entity("Pelican", "service"),
        Entity("JobBroker", "component"),
        Entity("jobqueue", "topic"),
    ]
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Kestrel gets the ledger from Zorbis.", {("kestrel", "READS_FROM", "zorbis")}),
        ("Kestrel obtains its settings from Zorbis.", {("kestrel", "READS_FROM", "zorbis")}),
        ("Quillomat notifies Kestrel about finished jobs.", {("quillomat", "CALLS", "kestrel")}),
        # a coordinated verb after glue words keeps the subject (and its negation)
        (
            "Kestrel reads from Zorbis and does not require access to Pelican.",
            {("kestrel", "READS_FROM", "zorbis"), ("kestrel", "DEPENDS_ON", "pelican")},
        ),
        # reStructuredText roles, link targets and directives are markup around the name
        (
            "A :doc:`Kestrel <../services/kestrel>` gets the ledger from Zorbis.",
            {("kestrel", "READS_FROM", "zorbis")},
        ),
        (".. note:: Kestrel gets its jobs from Zorbis.", {("kestrel", "READS_FROM", "zorbis")}),
        ("Kestrel asks Pelican for a token.", {("kestrel", "CALLS", "pelican")}),
        ("Kestrel asks Zorbis about the status.", {("kestrel", "READS_FROM", "zorbis")}),
        ("Quillomat monitors Pelican.", {("quillomat", "READS_FROM", "pelican")}),
        # a determiner "one" and an object in apposition after a dash
        ("Kestrel assigns each job to one Pelican.", {("kestrel", "CALLS", "pelican")}),
        (
            "Quillomat notifies the main process - Kestrel - when it ends.",
            {("quillomat", "CALLS", "kestrel")},
        ),
        # a definition: the name that opens it is the subject of its description
        (
            "Quillomat - takes jobs and runs them using Pelican",
            {("quillomat", "USES", "pelican")},
        ),
        # handed to a broker is published; handed on by a broker is consumed from it
        ("Kestrel sends each job to the JobBroker.", {("kestrel", "PUBLISHES_TO", "jobbroker")}),
        ("JobBroker sends the job to Pelican.", {("pelican", "CONSUMES_FROM", "jobbroker")}),
        ("Kestrel sends the job to Pelican.", {("kestrel", "FEEDS", "pelican")}),
        # a time clause between a subject and its verb
        (
            "JobBroker, when it becomes aware of a job, sends it to one Pelican.",
            {("pelican", "CONSUMES_FROM", "jobbroker")},
        ),
        ("Kestrel, once it starts, reads from Zorbis.", {("kestrel", "READS_FROM", "zorbis")}),
        (
            "Kestrel, which the team likes, reads from Zorbis.",
            {("kestrel", "READS_FROM", "zorbis")},
        ),
        # a participle after the opening subject's verb phrase adds its means
        ("Kestrel starts a new runner using Pelican.", {("kestrel", "USES", "pelican")}),
        # handing work to a queue, watching a queue, listening to several queues
        ("Kestrel adds each job to the jobqueue.", {("kestrel", "PUBLISHES_TO", "jobqueue")}),
        ("Kestrel puts the record into Zorbis.", {("kestrel", "WRITES_TO", "zorbis")}),
        ("Pelican observes the jobqueue.", {("pelican", "CONSUMES_FROM", "jobqueue")}),
        (
            "Pelican listens to one or more jobqueues.",
            {("pelican", "CONSUMES_FROM", "jobqueue")},
        ),
        ("Pelican needs to have access to Zorbis.", {("pelican", "DEPENDS_ON", "zorbis")}),
        # a second verb of the opening subject, after "and" and maybe a time clause; the
        # numbered marker before the subject is no word ("[10][12] …")
        (
            "[2] **Kestrel** takes a job and when it finds one ready, sends it to Pelican.",
            {("kestrel", "FEEDS", "pelican")},
        ),
        (
            "[10][12] Kestrel takes the job and sends it to Pelican.",
            {("kestrel", "FEEDS", "pelican")},
        ),
        # a relative clause about the opening subject keeps it for its later verbs
        (
            "A :doc:`Kestrel <kestrel>`, which handles retries, and submitting jobs to Pelican.",
            {("kestrel", "CALLS", "pelican")},
        ),
        # one describing word after a determiner leaves the name the object
        ("Kestrel uses the configured Pelican.", {("kestrel", "USES", "pelican")}),
        ("Kestrel reads from the default Zorbis.", {("kestrel", "READS_FROM", "zorbis")}),
        # the purpose after "uses": its subject is the subject of "uses"
        (
            "Kestrel uses its own runner to read from Zorbis.",
            {("kestrel", "READS_FROM", "zorbis")},
        ),
        # … unless a name stands right before the purpose: it is the one who reads
        (
            "Kestrel lets Pelican to read from Zorbis.",
            {("pelican", "READS_FROM", "zorbis")},
        ),
        # a kind and its usual products: a hedged dependency
        (
            "Kestrel, usually Zorbis or Pelican, keeps the ledger.",
            {("kestrel", "DEPENDS_ON", "zorbis"), ("kestrel", "DEPENDS_ON", "pelican")},
        ),
    ],
)
def test_more_english_cues(text: str, expected: set[tuple[str, str, str]]) -> None:
    assert _edges(CUES, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        # a description with a subject of its own, or a clause of its own
        "Quillomat - its runner uses Pelican.",
        "Quillomat - a tool that uses Pelican.",
        # "such as" before a noun the name only modifies
        "Settings of Kestrel, such as the Zorbis namespace, are kept apart.",
        # "usually" as an adverb is no kind-and-product
        "Kestrel usually gets warm by noon.",
        # a relative clause that names another component breaks the subject link
        "Kestrel, which Pelican calls, reads from Zorbis.",
        # a participle after an agent belongs to the agent, not to the opening subject
        "Pelican is used by runners using Kestrel.",
        # a name that only modifies the library used is not what is used
        "Kestrel reads metrics using the Pelican Java client library.",
        # "adds" names where only after its preposition
        "Kestrel adds Pelican.",
        # after "and" a subject of its own
        "Kestrel stores data and the runner sends it to Pelican.",
        # a relative clause with an agent of its own
        "Kestrel, which is watched by the runner, and submitting jobs to Pelican.",
        # more than one describing word: the name may be a modifier, not the object
        "Kestrel reads from the very slow Zorbis.",
        # "own" after a possessive is no verb of ownership
        "Kestrel runs its own Pelican.",
    ],
)
def test_forms_that_state_nothing(text: str) -> None:
    assert _edges(CUES, text) == set()


def test_a_usual_product_is_hedged() -> None:
    sentence = Sentence("doc/x", "Kestrel, typically Zorbis, keeps it.", 0, 36)
    edges, _ = sentence_edges(sentence, CUES.bind(sentence), "rules")
    assert [(e.rel_type, e.hedged) for e in edges] == [("DEPENDS_ON", True)]


def test_gets_without_its_source_states_nothing() -> None:
    assert _edges(CUES, "Kestrel gets Zorbis running before noon.") == set()
    assert _edges(CUES, "Kestrel gets a request and Pelican waits.") == set()


def test_a_coordinated_negation_is_kept_on_the_edge() -> None:
    sentence = Sentence("doc/x", "Kestrel reads from Zorbis and never calls Pelican.", 0, 50)
    edges, _ = sentence_edges(sentence, CUES.bind(sentence), "rules")
    flags = {(e.rel_type, e.negated) for e in edges}
    assert flags == {("READS_FROM", False), ("CALLS", True)}


def test_rst_roles_and_targets_are_markup() -> None:
    assert plain("see :doc:`Kestrel <../kestrel>` and :py:class:`Zorbis`").split() == [
        "see",
        "Kestrel",
        "and",
        "Zorbis",
    ]
    assert plain("the <b> tag").split() == ["the", "<b>", "tag"]  # no backtick: not a target


# --- discovery ----------------------------------------------------------------------------------


def test_activities_and_plural_compounds_are_no_names_alone() -> None:
    docs = [
        _source("doc/a-md", "For fine-tuning, read on. Old allow-lists stay.", "A"),
        _source("doc/b-md", "Do the fine-tuning later. The allow-lists grow.", "B"),
        _source("doc/c-md", "We enjoy **Kestrel Serialization** a lot.", "C"),
    ]
    names = {e.name for e in discover_entities(docs)}
    assert not names & {"fine-tuning", "allow-lists", "allow-list", "Kestrel Serialization"}


def test_identifiers_used_twice_still_count() -> None:
    docs = [
        _source("doc/a-md", "Traffic goes to payment-gateway.", "A"),
        _source("doc/b-md", "Refunds reach payment-gateway.", "B"),
    ]
    assert "payment-gateway" in {e.name for e in discover_entities(docs)}


def test_a_file_name_title_is_no_identifier_but_confirms_the_page_subject() -> None:
    # a loader that found no title uses the file name: it names no entity on its own
    junk = _source("doc/guide/spool-tuning-rst", "spool-tuning\n\nSome words.", "spool-tuning")
    assert discover_entities([junk]) == ()
    # an emphasised term used on one page is confirmed by the page named after it
    intro = _source(
        "doc/intro-rst", "intro\n\nA *Quill relay* moves files. The *Quill relays* retry.", "intro"
    )
    page = _source("doc/quill-relays-rst", "quill-relays\n\nHow to run them.", "quill-relays")
    (entity,) = discover_entities([intro, page])
    assert name_key(entity.name) == name_key("Quill relay")
    assert "Quill relay" in entity.aliases


def test_a_name_ending_in_a_storage_word_is_a_datastore_when_nothing_else_says() -> None:
    assert store_kind("DAG files") == "datastore"
    assert store_kind("Result backend") == "datastore"
    assert store_kind("Kestrel") is None
    diagram = "```mermaid\ngraph LR\n  a[Zorbis files]\n  b --> a\n```\n"
    docs = [_source("doc/d-md", diagram, "D"), _source("doc/e-md", diagram, "E")]
    kinds = {e.name: e.kind for e in discover_entities(docs)}
    assert kinds.get("Zorbis files") == "datastore"


def test_a_camel_case_actor_in_bold_is_a_name() -> None:
    docs = [
        _source("doc/seq-md", "[1] **SpoolProcess** takes a job. [2] **SpoolProcess** ends.", "S"),
    ]
    assert "SpoolProcess" in {e.name for e in discover_entities(docs)}
    plain_docs = [_source("doc/p-md", "A SpoolProcess takes a job. SpoolProcess ends.", "P")]
    assert "SpoolProcess" not in {e.name for e in discover_entities(plain_docs)}


def test_an_emphasised_name_next_to_a_kind_word_counts_once() -> None:
    docs = [
        _source("doc/q-md", "Set up a message broker (**Zorbamq**, **Quillbus** …) first.", "Q")
    ]
    kinds = {e.name: e.kind for e in discover_entities(docs)}
    assert kinds.get("Zorbamq") == "component" and kinds.get("Quillbus") == "component"
    plain_docs = [_source("doc/r-md", "Set up **Zorbamq** first.", "R")]
    assert discover_entities(plain_docs) == ()
