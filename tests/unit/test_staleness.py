"""Staleness rules, sentence by sentence: later negation, replacement, deprecation, age, dates."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from zehn.corpus.model import Sentence
from zehn.corpus.sample import SAMPLE_CATALOG
from zehn.evidence.staleness import (
    DEPRECATED,
    NEGATED,
    REPLACED,
    TOO_OLD,
    Edge,
    Statement,
    assess,
    effective_date,
    parse_date,
)
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog

BINDER = Binder(list(Catalog.load(SAMPLE_CATALOG).entities))
BILLING, V1, V2 = "service:billing", "datastore:ledger-v1", "datastore:ledger-v2"
DEPENDS: Edge = (BILLING, "DEPENDS_ON", V1)
FEB = "meeting/payments-review#100-135"


def statement(
    text: str,
    when: str | None,
    document: str = "doc/later",
    start: int = 0,
    negates: tuple[Edge, ...] = (),
) -> Statement:
    """A sentence bound with the sample catalog, as the graph would hold it."""
    sentence = Sentence(document, text, start, start + len(text))
    mentions: dict[str, list[tuple[int, int]]] = {}
    for m in BINDER.bind(sentence):
        if m.entity_id and not m.ambiguous:
            mentions.setdefault(m.entity_id, []).append((m.start - start, m.end - start))
    return Statement(
        f"{document}#{start}-{start + len(text)}",
        text,
        start,
        document,
        parse_date(when),
        {k: tuple(v) for k, v in mentions.items()},
        negates,
    )


CITED = statement(
    "Billing depends on ledger-v1 today.", "2024-02-22", "meeting/payments-review", 100
)


def check(*candidates: Statement, cited: Statement = CITED, edges: tuple[Edge, ...] = (DEPENDS,)):
    return assess(cited, edges, candidates)


# --- negation -------------------------------------------------------------------------------


def test_a_later_stored_negation_of_the_same_edge_makes_it_stale() -> None:
    later = statement(
        "billing no longer depends on ledger-v1; it was migrated to ledger-v2.",
        "2024-09-12T15:20:11+00:00",
        negates=(DEPENDS,),
    )
    result = check(later)
    assert result.stale and result.kind == NEGATED
    assert result.superseding_sentence_id == later.sentence_id
    assert result.superseding_quote == later.text
    assert (result.superseding_date or "").startswith("2024-09-12")
    assert "2024-09-12" in result.reason and later.sentence_id in result.reason


def test_an_earlier_negation_does_not_make_a_later_statement_stale() -> None:
    earlier = statement("Billing no longer depends on ledger-v1.", "2023-11-01", negates=(DEPENDS,))
    result = check(earlier)
    assert not result.stale and result.kind is None and result.superseding_sentence_id is None


def test_a_negation_on_the_same_day_is_not_later() -> None:
    same = statement("Billing no longer depends on ledger-v1.", "2024-02-22", negates=(DEPENDS,))
    assert not check(same).stale


def test_no_longer_between_subject_and_object_negates_without_a_flag() -> None:
    later = statement("Billing no longer depends on ledger-v1.", "2024-09-19")
    assert check(later).kind == NEGATED


def test_a_depends_on_negation_covers_other_predicates_but_not_the_reverse() -> None:
    reads: Edge = (BILLING, "READS_FROM", V1)
    negation = statement("x", "2024-09-19", negates=(DEPENDS,))
    assert check(negation, edges=(reads,)).kind == NEGATED
    calls = statement("x", "2024-09-19", negates=((BILLING, "CALLS", V1),))
    assert not check(calls).stale


def test_a_negation_of_another_pair_does_not_count() -> None:
    other = statement("x", "2024-09-19", negates=((BILLING, "DEPENDS_ON", V2),))
    assert not check(other).stale


# --- replacement --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Billing, which did not scale on ledger-v1, was migrated to ledger-v2.",
        "Billing used ledger-v1 until September; it was moved to ledger-v2.",
        "Billing dropped ledger-v1 and switched to ledger-v2.",
        "Billing now writes to ledger-v2 instead of ledger-v1.",
        "Billing was migrated from ledger-v1 to ledger-v2.",
        "ledger-v1 was replaced by ledger-v2.",
    ],
)
def test_replacement_wording_makes_it_stale(text: str) -> None:
    result = check(statement(text, "2024-09-12"))
    assert result.stale and result.kind == REPLACED, result.reason


@pytest.mark.parametrize(
    "text",
    [
        "Billing was migrated to ledger-v1 last year.",  # the object is the new thing
        "Billing will be migrated from ledger-v1 to ledger-v2.",  # a plan
        "If billing is moved off ledger-v1, what breaks?",  # a question
        "Billing was not migrated from ledger-v1.",  # negated
        "Billing switched to weekly invoices.",  # the object is not named
    ],
)
def test_replacement_wording_that_is_not_a_replacement_of_the_object(text: str) -> None:
    assert not check(statement(text, "2024-09-12")).stale


def test_a_move_to_the_subject_is_not_a_replacement_of_the_object() -> None:
    edge: Edge = (V2, "FEEDS", BILLING)
    cited = statement("ledger-v2 feeds billing.", "2024-02-01", "doc/cited")
    later = statement(
        "billing no longer depends on ledger-v1; it was migrated to ledger-v2.", "2024-09-12"
    )
    assert not check(later, cited=cited, edges=(edge,)).stale


# --- deprecation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "The ledger-v1 database was shut down this morning.",
        "ledger-v1 is deprecated.",
        "ledger-v1 has been decommissioned.",
        "Platform decommissioned ledger-v1 on October 1.",
        "The ledger-v1 client is removed from the billing service.",
    ],
)
def test_a_later_sentence_saying_the_object_is_gone_makes_it_stale(text: str) -> None:
    result = check(statement(text, "2024-10-01"))
    assert result.stale and result.kind == DEPRECATED, text
    assert V1 in result.reason


@pytest.mark.parametrize(
    "text",
    [
        "ledger-v1 will be switched to read-only on September 20 and shut down on October 1.",
        "ledger-v1 has not been decommissioned.",
        "Was ledger-v1 shut down?",
        "I think ledger-v1 was removed.",
        "The ledger-v1 decommission date moved twice.",
        "The ledger-v1 client is removed from the reporting job.",  # removed from something else
    ],
)
def test_plans_questions_and_negations_of_deprecation_do_not_count(text: str) -> None:
    assert not check(statement(text, "2024-10-01")).stale, text


def test_the_subject_being_gone_also_counts() -> None:
    assert check(statement("billing was retired in 2025.", "2025-01-10")).kind == DEPRECATED


# --- order, priority, the cited sentence itself ------------------------------------------------


def test_a_later_comment_in_the_same_ticket_supersedes_without_dates() -> None:
    description = statement("Billing reads from ledger-v1.", None, "ticket/PAY-231", 45)
    comment = statement(
        "billing no longer depends on ledger-v1; it was migrated to ledger-v2.",
        None,
        "ticket/PAY-231",
        494,
        negates=(DEPENDS,),
    )
    result = check(comment, cited=description, edges=((BILLING, "READS_FROM", V1),))
    assert result.stale and result.kind == NEGATED
    assert "same document" in result.reason
    # and the other way round: an earlier sentence of the same document supersedes nothing
    assert not check(description, cited=comment, edges=(DEPENDS,)).stale


def test_the_strongest_kind_then_the_earliest_later_sentence_is_reported() -> None:
    gone = statement("The ledger-v1 database was shut down this morning.", "2024-09-01")
    late = statement("x", "2024-09-19", "doc/retro", negates=(DEPENDS,))
    early = statement("y", "2024-09-12", "doc/email", negates=(DEPENDS,))
    result = check(gone, late, early)
    assert result.kind == NEGATED and result.superseding_sentence_id == early.sentence_id


def test_a_sentence_that_itself_states_the_supersession_is_not_superseded_by_a_restatement() -> (
    None
):
    text = "billing no longer depends on ledger-v1; it was migrated to ledger-v2."
    cited = statement(text, "2024-09-12", "email/decommission")
    restated = statement("Billing no longer depends on ledger-v1.", "2024-09-19", "meeting/retro")
    assert not check(cited, restated, cited=cited).stale


def test_undated_sources_in_other_documents_supersede_nothing() -> None:
    undated = statement("Billing no longer depends on ledger-v1.", None, negates=(DEPENDS,))
    assert not check(undated).stale
    cited = statement("Billing depends on ledger-v1.", None, "doc/undated")
    assert not check(statement("x", "2024-09-12", negates=(DEPENDS,)), cited=cited).stale


# --- age ---------------------------------------------------------------------------------------


def test_older_than_the_policy_allows_is_stale_with_a_fixed_today() -> None:
    today = date(2024, 12, 31)
    old = assess(CITED, (DEPENDS,), (), max_age_days=180, today=today, policy_name="strict")
    assert old.stale and old.kind == TOO_OLD and old.superseding_sentence_id is None
    assert "313 days" in old.reason and "strict" in old.reason and "180" in old.reason
    fresh = assess(CITED, (DEPENDS,), (), max_age_days=365, today=today)
    assert not fresh.stale
    assert not assess(CITED, (DEPENDS,), (), max_age_days=None, today=today).stale


def test_supersession_is_reported_before_age() -> None:
    later = statement("x", "2024-09-12", negates=(DEPENDS,))
    result = assess(CITED, (DEPENDS,), (later,), max_age_days=1, today=date(2025, 1, 1))
    assert result.kind == NEGATED


def test_an_undated_sentence_is_never_too_old() -> None:
    cited = statement("Billing depends on ledger-v1.", None, "doc/undated")
    assert not assess(cited, (), (), max_age_days=1, today=date(2030, 1, 1)).stale


def test_a_sentence_backing_no_edge_can_still_be_too_old() -> None:
    result = assess(CITED, (), (), max_age_days=30, today=date(2024, 6, 1))
    assert result.kind == TOO_OLD


# --- dates -------------------------------------------------------------------------------------


def test_pages_are_dated_by_their_last_update_and_tickets_by_their_creation() -> None:
    page = {
        "source_type": "confluence",
        "created_at": "2024-01-01T00:00:00+00:00",
        "updated_at": "2024-03-01T00:00:00+00:00",
    }
    assert effective_date(page) == datetime(2024, 3, 1, tzinfo=UTC)
    assert effective_date(
        {"source_type": "confluence", "created_at": "2024-01-01T00:00:00+00:00"}
    ) == datetime(2024, 1, 1, tzinfo=UTC)
    ticket = {
        "source_type": "ticket",
        "created_at": "2024-02-23T09:30:00+00:00",
        "updated_at": "2024-09-12T15:25:40+00:00",
        "resolved_at": "2024-10-01T08:40:12+01:00",
    }
    # A ticket updated or resolved later still said in February what its description says;
    # its comments and resolution come later in the same document and count by offset.
    assert effective_date(ticket) == datetime(2024, 2, 23, 9, 30, tzinfo=UTC)
    for kind in ("email", "pull_request", "meeting"):
        assert effective_date({**ticket, "source_type": kind}) == datetime(
            2024, 2, 23, 9, 30, tzinfo=UTC
        )
    assert effective_date({}) is None
    assert effective_date({"updated_at": "not a date"}) is None


def test_a_ticket_comment_dated_by_itself_supersedes_an_earlier_page() -> None:
    page = statement("Billing depends on ledger-v1.", "2024-09-20", "confluence/billing")
    resolved = effective_date(
        {
            "source_type": "ticket",
            "created_at": "2024-02-23T09:30:00+00:00",
            "stated_at": "2024-10-01T00:00:00+00:00",  # "Comment by … on 2024-10-01:" at ingest
        }
    )
    comment = statement("Billing no longer depends on ledger-v1.", None, "ticket/PAY-231", 494)
    comment = Statement(**{**comment.__dict__, "date": resolved})
    assert check(comment, cited=page).kind == NEGATED
