"""English prose cues on invented sentences: voice, prepositions, middle components,
apposition, carried subjects, reference and zero-width subjects, and precision guards."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence
from zehn.evidence.grade import SUPPORTED, Evidence, Grader
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder
from zehn.reading.relations.reader import sentence_edges

ENTITIES = (
    Entity("ledger", "service", aliases=("ledger service", "Ledger Service")),
    Entity("billing", "service"),
    Entity("payouts", "service"),
    Entity("Vaultstore", "datastore"),
    Entity("Keeper", "datastore"),
    Entity("eventhub", "topic"),
    Entity("spool", "component"),
    Entity("gatekeeper", "component"),
    Entity("Tallyman", "component"),
    Entity("Telemetry Sink", "component"),
)
BINDER = Binder(ENTITIES)
OFFSET = 40  # sentences start inside their document: spans are document offsets
Triple = tuple[str, str, str, str]  # subject, predicate, object, flags


def _sentence(text: str) -> Sentence:
    return Sentence("doc/prose", text, OFFSET, OFFSET + len(text))


def _triples(sentence: Sentence, mentions: list[Mention]) -> set[Triple]:
    edges, _ = sentence_edges(sentence, mentions, "rules")
    for edge in edges:
        assert edge.fact == sentence.text  # the quote is always the verbatim sentence
    return {
        (
            e.subject.split(":")[1],
            e.rel_type,
            e.object.split(":")[1],
            ("negated " if e.negated else "") + ("hedged" if e.hedged else ""),
        )
        for e in edges
    }


def extract(text: str) -> set[Triple]:
    sentence = _sentence(text)
    return _triples(sentence, BINDER.bind(sentence))


def _reference(text: str, surface: str, entity: str, at: int | None = None) -> Mention:
    """A reference mention as the document reader makes it: ``surface`` at the sentence start
    (or ``at``), or a zero-width implicit subject when ``surface`` is empty."""
    start = OFFSET + (text.index(surface) if at is None else at)
    reason = (
        f"{surface!r} = {entity}, from the page title"
        if surface
        else f"implicit subject = {entity}, from the table row's first cell"
    )
    return Mention(
        "doc/prose#x", start, start + len(surface), surface, (f"service:{entity}",), reason, True
    )


def _with_references(text: str, *refs: Mention) -> set[Triple]:
    sentence = _sentence(text)
    # the reader appends references after the names: mentions need not come in order
    return _triples(sentence, [*BINDER.bind(sentence), *refs])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # passive with a place and an agent: the agent reads, the place is read from
        (
            "Invoice records are retrieved from Vaultstore by the ledger service.",
            {("ledger", "READS_FROM", "vaultstore", "")},
        ),
        (
            "The nightly snapshot is loaded from Vaultstore by billing.",
            {("billing", "READS_FROM", "vaultstore", "")},
        ),
        ("The ledger service is read from Keeper.", {("ledger", "READS_FROM", "keeper", "")}),
        (
            "Invoices are written to Vaultstore by billing.",
            {("billing", "WRITES_TO", "vaultstore", "")},
        ),
        # plain passive: the agent is the subject
        ("Vaultstore is scraped by Tallyman.", {("tallyman", "READS_FROM", "vaultstore", "")}),
        (
            "Vaultstore is written by the ledger service only.",
            {("ledger", "WRITES_TO", "vaultstore", "")},
        ),
        ("billing is proxied by gatekeeper.", {("gatekeeper", "CALLS", "billing", "")}),
        ("Vaultstore is queried by billing.", {("billing", "READS_FROM", "vaultstore", "")}),
        # passive in form, X stays the subject
        (
            "The ledger service is backed by Vaultstore.",
            {("ledger", "DEPENDS_ON", "vaultstore", "")},
        ),
        ("billing is exposed through gatekeeper.", {("billing", "DEPENDS_ON", "gatekeeper", "")}),
        ("billing is built on top of ledger.", {("billing", "DEPENDS_ON", "ledger", "")}),
        # active voice
        ("Tallyman scrapes billing every 30 seconds.", {("tallyman", "READS_FROM", "billing", "")}),
        ("billing queries ledger for balances.", {("billing", "CALLS", "ledger", "")}),
        ("billing queries Vaultstore for balances.", {("billing", "READS_FROM", "vaultstore", "")}),
    ],
)
def test_voice(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "billing fetches exchange rates from ledger.",
            {("billing", "READS_FROM", "ledger", "")},
        ),
        (
            "The ledger service loads its snapshots from Vaultstore.",
            {("ledger", "READS_FROM", "vaultstore", "")},
        ),
        (
            "billing reads ledger entries from Vaultstore.",
            {("billing", "READS_FROM", "vaultstore", "")},
        ),
        ("billing reads ledger from Vaultstore.", {("billing", "READS_FROM", "vaultstore", "")}),
        # what is read is named, the place is not anything known: no edge to the data
        ("billing reads ledger entries from the archive.", set()),
        (
            "The ledger service persists postings to Vaultstore.",
            {("ledger", "WRITES_TO", "vaultstore", "")},
        ),
        (
            "billing saves every invoice in Vaultstore.",
            {("billing", "WRITES_TO", "vaultstore", "")},
        ),
        (
            "billing stores the items of the customer's basket in Keeper.",
            {("billing", "WRITES_TO", "keeper", "")},
        ),
        (
            "gatekeeper forwards incoming requests to billing.",
            {("gatekeeper", "CALLS", "billing", "")},
        ),
        ("billing talks to ledger over gRPC.", {("billing", "CALLS", "ledger", "")}),
        ("billing interacts with ledger.", {("billing", "CALLS", "ledger", "")}),
        ("billing communicates with ledger.", {("billing", "CALLS", "ledger", "")}),
        ("gatekeeper connects to ledger.", {("gatekeeper", "CALLS", "ledger", "")}),
        ("billing sends a request to ledger.", {("billing", "CALLS", "ledger", "")}),
        # who is asked is called, not what is asked for
        ("billing requests ledger entries from payouts.", {("billing", "CALLS", "payouts", "")}),
        ("gatekeeper submits batches to payouts.", {("gatekeeper", "CALLS", "payouts", "")}),
        # sends … to: a topic is published to, anything else fed
        (
            "billing sends usage reports to eventhub.",
            {("billing", "PUBLISHES_TO", "eventhub", "")},
        ),
        ("billing sends usage reports to ledger.", {("billing", "FEEDS", "ledger", "")}),
        (
            "billing exports traces to the Telemetry Sink.",
            {("billing", "FEEDS", "telemetry-sink", "")},
        ),
        ("payouts listens to eventhub.", {("payouts", "CONSUMES_FROM", "eventhub", "")}),
        (
            "billing needs direct access to Vaultstore.",
            {("billing", "DEPENDS_ON", "vaultstore", "")},
        ),
        (
            "The ledger service does not have access to Vaultstore.",
            {("ledger", "DEPENDS_ON", "vaultstore", "negated ")},
        ),
    ],
)
def test_prepositional_forms(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "billing loads ledger.",  # "loads" names its source only after "from"
        "billing caches ledger balances.",  # what is cached is not where it is cached
        "billing forwards ledger.",
    ],
)
def test_verbs_that_need_their_preposition(text: str) -> None:
    assert extract(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "spool is a queue that connects billing with ledger and payouts.",
            {
                ("billing", "PUBLISHES_TO", "spool", ""),
                ("ledger", "CONSUMES_FROM", "spool", ""),
                ("payouts", "CONSUMES_FROM", "spool", ""),
            },
        ),
        (
            "eventhub connects billing with ledger.",  # a topic is a messaging middle
            {
                ("billing", "PUBLISHES_TO", "eventhub", ""),
                ("ledger", "CONSUMES_FROM", "eventhub", ""),
            },
        ),
        (
            "gatekeeper sits between billing and ledger.",  # anything else is called through
            {("billing", "CALLS", "gatekeeper", ""), ("gatekeeper", "CALLS", "ledger", "")},
        ),
        (
            "gatekeeper connects billing to ledger.",
            {("billing", "CALLS", "gatekeeper", ""), ("gatekeeper", "CALLS", "ledger", "")},
        ),
        (
            "eventhub no longer connects billing with ledger.",
            {
                ("billing", "PUBLISHES_TO", "eventhub", "negated "),
                ("ledger", "CONSUMES_FROM", "eventhub", "negated "),
            },
        ),
    ],
)
def test_a_middle_component_joins_its_two_ends(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


def test_a_middle_with_an_unbound_subject_makes_nothing() -> None:
    assert extract("A queue connects billing with ledger.") == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "billing saves every invoice to the database (Vaultstore).",
            {("billing", "WRITES_TO", "vaultstore", "")},
        ),
        (
            "The ledger service stores postings in its cache, Keeper, for an hour.",
            {("ledger", "WRITES_TO", "keeper", "")},
        ),
        (
            "billing writes to the main store, Vaultstore.",
            {("billing", "WRITES_TO", "vaultstore", "")},
        ),
        # a name after a comma that does not close the apposition is another clause's subject
        ("billing writes to the database, ledger reads it later.", set()),
    ],
)
def test_an_object_named_in_apposition(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "billing, which stores orders in Vaultstore, calls ledger.",
            {("billing", "WRITES_TO", "vaultstore", ""), ("billing", "CALLS", "ledger", "")},
        ),
        (
            "billing uses ledger, retrieving balances from Vaultstore.",
            {("billing", "USES", "ledger", ""), ("billing", "READS_FROM", "vaultstore", "")},
        ),
        (
            "billing calls ledger using gatekeeper.",
            {("billing", "CALLS", "ledger", ""), ("billing", "USES", "gatekeeper", "")},
        ),
        (
            "billing connects to ledger through gatekeeper.",
            {("billing", "CALLS", "ledger", ""), ("billing", "USES", "gatekeeper", "")},
        ),
        (
            "billing runs nightly, reads balances from Vaultstore and writes invoices to Keeper.",
            {("billing", "READS_FROM", "vaultstore", ""), ("billing", "WRITES_TO", "keeper", "")},
        ),
        (
            "billing periodically queries ledger.",
            {("billing", "CALLS", "ledger", "")},
        ),
        (
            "Keeper is a cache that is read by billing.",
            {("billing", "READS_FROM", "keeper", "")},
        ),
        # a clause of its own in between: the opening subject does not carry
        ("When ledger restarts, reads from Vaultstore fail.", set()),
        (
            "billing reads from Vaultstore when traffic flows through gatekeeper.",
            {("billing", "READS_FROM", "vaultstore", "")},
        ),
        ("ledger is called by billing via gatekeeper.", {("billing", "CALLS", "ledger", "")}),
    ],
)
def test_subjects_carried_through_relative_and_participle_clauses(
    text: str, expected: set[Triple]
) -> None:
    assert extract(text) == expected


def test_a_zero_width_mention_is_the_subject_of_its_clause() -> None:
    text = "Stores the items in Keeper and reads balances from Vaultstore."
    found = _with_references(text, _reference(text, "", "ledger", at=0))
    assert found == {
        ("ledger", "WRITES_TO", "keeper", ""),
        ("ledger", "READS_FROM", "vaultstore", ""),
    }


def test_a_zero_width_mention_after_a_cell_border() -> None:
    text = "ledger | Go | Publishes postings to eventhub."
    found = _with_references(text, _reference(text, "", "ledger", at=text.index("Publishes")))
    assert found == {("ledger", "PUBLISHES_TO", "eventhub", "")}


def test_a_zero_width_mention_is_never_an_object() -> None:
    text = "billing writes to Vaultstore."
    zero = _reference(text, "", "ledger", at=text.index("Vaultstore"))
    assert _with_references(text, zero) == {("billing", "WRITES_TO", "vaultstore", "")}
    text = "billing calls the service."
    assert _with_references(text, _reference(text, "", "ledger", at=len(text) - 1)) == set()


def test_a_zero_width_subject_of_a_passive_clause_is_what_the_agent_acts_on() -> None:
    text = "Is called by billing every minute."
    assert _with_references(text, _reference(text, "", "ledger", at=0)) == {
        ("billing", "CALLS", "ledger", "")
    }


def test_a_zero_width_subject_does_not_join_a_list() -> None:
    text = "billing and writes to Vaultstore."
    zero = _reference(text, "", "ledger", at=text.index("writes"))
    assert _with_references(text, zero) == {("ledger", "WRITES_TO", "vaultstore", "")}


@pytest.mark.parametrize(("surface", "text"), [
    ("This service", "This service publishes postings to eventhub."),
    ("It", "It no longer publishes postings to eventhub."),
])  # fmt: skip
def test_a_reference_mention_is_read_like_a_name(surface: str, text: str) -> None:
    sentence = _sentence(text)
    mentions = [*BINDER.bind(sentence), _reference(text, surface, "ledger")]
    edges, _ = sentence_edges(sentence, mentions, "rules")
    (edge,) = edges
    assert (edge.subject, edge.rel_type, edge.object) == (
        "service:ledger",
        "PUBLISHES_TO",
        "topic:eventhub",
    )
    assert edge.subject_span == (OFFSET, OFFSET + len(surface))
    assert edge.negated is text.startswith("It")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("billing `reads from` Vaultstore.", set()),  # a cue in a code span
        ("billing, see https://wiki.example/uses/ledger for details.", set()),  # in a URL
        ("billing uses [Keeper](https://keeper.example/calls) for sessions.",
         {("billing", "USES", "keeper", "")}),
        ("The *billing* and *ledger* services read from **Vaultstore**.",
         {("billing", "READS_FROM", "vaultstore", ""), ("ledger", "READS_FROM", "vaultstore", "")}),
        ("billing uses ledger.", {("billing", "USES", "ledger", "")}),
        ("billing is used to call ledger.", set()),  # purpose, not use
        ("billing sends an email.", set()),
        ("billing sends an email when ledger fails.", set()),
        ("Will billing send usage reports to eventhub?",
         {("billing", "PUBLISHES_TO", "eventhub", "hedged")}),
        ("billing plans to export traces to Telemetry Sink.",
         {("billing", "FEEDS", "telemetry-sink", "hedged")}),
        ("If gatekeeper sits between billing and ledger, latency doubles.",
         {("billing", "CALLS", "gatekeeper", "hedged"), ("gatekeeper", "CALLS", "ledger", "hedged")}),
        ("billing does not talk to ledger.", {("billing", "CALLS", "ledger", "negated ")}),
        ("billing writes to Keeper instead of sending reports to ledger.",
         {("billing", "WRITES_TO", "keeper", ""), ("billing", "FEEDS", "ledger", "negated ")}),
    ],
)  # fmt: skip
def test_precision_guards(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected


def test_edges_rest_on_the_spans_of_their_own_mentions() -> None:
    text = "spool is a queue that connects billing with ledger."
    sentence = _sentence(text)
    edges, _ = sentence_edges(sentence, BINDER.bind(sentence), "rules")
    spans = {
        (e.rel_type, text[e.subject_span[0] - OFFSET : e.subject_span[1] - OFFSET],
         text[e.object_span[0] - OFFSET : e.object_span[1] - OFFSET])
        for e in edges if e.subject_span and e.object_span
    }  # fmt: skip
    assert spans == {("PUBLISHES_TO", "billing", "spool"), ("CONSUMES_FROM", "ledger", "spool")}
    assert {e.cue for e in edges} == {"connects"}


def test_the_grader_reads_a_middle_and_an_implicit_subject_the_same_way() -> None:
    grader = Grader(ENTITIES)
    text = "spool is a queue that connects billing with ledger."
    middle = Evidence(
        key="k",
        source="service:billing",
        rel_type="PUBLISHES_TO",
        target="component:spool",
        sentence_id=f"doc/prose#100-{100 + len(text)}",
        text=text,
        start=100,
        document="doc/prose",
    )
    assert grader.grade(middle).label == SUPPORTED
    text = "Stores the items in Keeper."
    why = "implicit subject = ledger, from the table row's first cell 'ledger'"
    implicit = Evidence(
        key="k",
        source="service:ledger",
        rel_type="WRITES_TO",
        target="datastore:keeper",
        sentence_id=f"doc/prose#100-{100 + len(text)}",
        text=text,
        start=100,
        document="doc/prose",
        subject_ref=why,
        subject_span=(100, 100),
    )
    grade = grader.grade(implicit)
    assert grade.label == SUPPORTED and grade.reason.endswith(why)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the one who stores is no entity: what is stored is written to the place, as the
        # passive "eventhub records are stored in Vaultstore" reads
        (
            "The default archiver, BlobKeeper, stores eventhub records in the Vaultstore, "
            "which suits small values.",
            {("eventhub", "WRITES_TO", "vaultstore", "")},
        ),
        ("Our archiver persists spool in Keeper.", {("spool", "WRITES_TO", "keeper", "")}),
        # an entity that stores keeps its own edge; what it stores is no subject
        ("ledger stores spool in Keeper.", {("ledger", "WRITES_TO", "keeper", "")}),
    ],
)
def test_what_is_stored_is_written_when_the_storer_is_no_entity(
    text: str, expected: set[Triple]
) -> None:
    assert extract(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Store spool in Keeper before the upgrade.",  # an instruction states nothing
        "The archiver reads spool from Keeper.",  # reading is not storing
        "The archiver stores spool data and metrics in the Keeper.",  # spool only modifies
    ],
)
def test_nothing_stored_is_read_without_a_write_statement(text: str) -> None:
    assert extract(text) == set()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The ledger service is used as a reverse proxy for user-facing web interfaces such "
            "as billing, payouts, and the spool.",
            {("ledger", "CALLS", o, "") for o in ("billing", "payouts", "spool")},
        ),
        (
            "Tallyman acts as a gateway in front of billing and payouts.",
            {("tallyman", "CALLS", "billing", ""), ("tallyman", "CALLS", "payouts", "")},
        ),
        # the role without what it fronts, or what it fronts without a name: nothing
        ("The ledger service is used as a reverse proxy.", set()),
        ("The ledger service is used as a reverse proxy for many things billing owns.", set()),
        ("The ledger service needs a reverse proxy for billing.", set()),
    ],
)
def test_a_proxy_or_gateway_for_named_services_calls_them(text: str, expected: set[Triple]) -> None:
    assert extract(text) == expected
