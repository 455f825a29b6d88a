"""Each fixture format loads into the exact ids, metadata and text layout of the spec."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from zehn.corpus.loaders import load_file
from zehn.corpus.model import Document, SourceType

FIXTURES = Path(__file__).parents[1] / "fixtures" / "sources"


def load(relative: str) -> list[Document]:
    return load_file(FIXTURES / relative, FIXTURES)


def test_confluence_html_export_uses_metadata_and_main_content_only() -> None:
    [doc] = load("confluence/indexer-design.html")
    assert doc.id == "confluence/indexer-design"
    assert doc.source_type is SourceType.CONFLUENCE
    assert doc.title == "Indexer Design"
    assert doc.author == "Alice Chen"
    assert doc.created_at is None
    assert doc.updated_at == datetime(2024, 3, 2, tzinfo=UTC)
    assert doc.attrs["last_modified_by"] == "Bob Li"
    assert doc.text == (
        "Indexer Design\n\n"
        "Overview\n\n"
        "The indexer consumes change events from the event bus and writes documents"
        " to the search cluster.\n\n"
        "We chose Kafka over SQS because ordering per tenant matters.\n\n"
        "Batches are flushed every 5 seconds.\n\n"
        "Retries use exponential backoff, capped at 10 minutes.\n\n"
        "Setting | Value\n\n"
        "batch.size | 500\n\n"
        "indexer --batch-size 500\n\n"
        "indexer --dry-run\n\n"
        "Reindexing a tenant takes about 40 minutes."
    )
    assert "Attachments" not in doc.text and "Document generated" not in doc.text


def test_confluence_rest_json_flattens_storage_macros() -> None:
    [doc] = load("confluence/release-pipeline.json")
    assert doc.id == "confluence/release-pipeline"
    assert doc.title == "Release Pipeline"
    assert doc.author == "Carol Diaz"
    assert doc.created_at == datetime(2024, 1, 15, 9, 30, tzinfo=UTC)
    assert doc.updated_at == datetime(2024, 2, 20, 16, 45, 12, tzinfo=timezone(timedelta(hours=1)))
    assert doc.uri == "https://example.atlassian.net/wiki/spaces/ENG/pages/4456789/Release+Pipeline"
    assert dict(doc.attrs) == {
        "path": "confluence/release-pipeline.json",
        "page_id": "4456789",
        "space_key": "ENG",
        "last_modified_by": "Dan Evans",
    }
    assert doc.text == (
        "Release Pipeline\n\n"
        "Releases are cut from main every Tuesday by dan.evans.\n\n"
        "Freeze starts Monday at 18:00 UTC.\n\n"
        "Steps\n\n"
        "Tag the release.\n\n"
        "Run the smoke suite described in Smoke Tests.\n\n"
        'git tag -a v2.4.0 -m "release"\n\n'
        "make deploy ENV=prod && echo <done>\n\n"
        "Rollback is tracked in REL-42."
    )
    assert "bash" not in doc.text  # macro parameters are not prose


def test_pull_request_orders_review_comments_by_date() -> None:
    [doc] = load("pull_requests/search-412.json")
    assert doc.id == "pr/search-service-412"
    assert doc.source_type is SourceType.PULL_REQUEST
    assert doc.author == "alice-chen"
    assert doc.uri == "https://github.com/acme/search-service/pull/412"
    assert doc.created_at == datetime(2024, 3, 4, 10, 0, tzinfo=UTC)
    assert doc.updated_at == datetime(2024, 3, 6, 15, 30, tzinfo=UTC)
    assert doc.attrs["number"] == "412"
    assert doc.attrs["repo"] == "acme/search-service"
    assert doc.attrs["state"] == "closed"
    assert doc.attrs["merged_at"] == "2024-03-06T15:30:00Z"
    assert doc.text == (
        "Switch indexer to incremental snapshots\n\n"
        "Full snapshots took 40 minutes per tenant.\n"
        "This PR switches to incremental snapshots.\n\n"
        "- Adds a `snapshot_mode` setting.\n"
        "- Keeps full snapshots behind a flag.\n\n"
        "Review comment by carol-diaz on indexer/snapshot.py:\n\n"
        "Does this handle deleted documents?\n\n"
        "Tombstones must be written too.\n\n"
        "Review comment by bob-li on indexer/config.py:\n\n"
        "Default should stay `full` until the backfill finishes.\n\n"
        "Comment by alice-chen:\n\n"
        "Benchmarks: incremental snapshots finish in 3 minutes."
    )


def test_meeting_recognised_by_front_matter() -> None:
    [doc] = load("notes/indexer-sync.md")
    assert doc.id == "meeting/indexer-sync"
    assert doc.source_type is SourceType.MEETING
    assert doc.title == "Indexer sync"
    assert doc.author == "Alice Chen"
    assert doc.created_at == datetime(2024, 3, 5, tzinfo=UTC)
    assert doc.attrs["attendees"] == "Alice Chen, Bob Li, Carol Diaz"
    assert doc.text == (
        "Indexer sync\n\n"
        "## Decisions\n\n"
        "- Incremental snapshots ship on March 12.\n"
        "- Bob owns the backfill.\n\n"
        "## Notes\n\n"
        "The backfill needs about two days.\n"
        "Carol will check tombstones first."
    )


def test_email_drops_quote_attribution_and_signature() -> None:
    [doc] = load("email/reply.eml")
    assert doc.id == "email/caf8s1a2b3c4-reply"
    assert doc.source_type is SourceType.EMAIL
    assert doc.title == "Re: Backfill plan"
    assert doc.author == "Bob Li"
    assert doc.created_at == datetime(2024, 3, 5, 14, 22, 5, tzinfo=timezone(timedelta(hours=1)))
    assert doc.attrs["message_id"] == "<CAF8s1a2b3c4.reply@mail.example.com>"
    assert doc.attrs["in_reply_to"] == "<CAF8s0z9y8x7@mail.example.com>"
    assert doc.attrs["to"] == "Alice Chen <alice.chen@example.com>, search-team@example.com"
    assert doc.text == (
        "Re: Backfill plan\n\n"
        "Hi Alice,\n\n"
        "The backfill can start on Thursday. It should take about two days\n"
        "for all tenants.\n\n"
        "Thanks,\nBob"
    )


def test_html_only_email_decodes_declared_latin1_charset() -> None:
    [doc] = load("email/html-only.eml")
    assert doc.id == "email/20240307-0815-newsletter"
    assert doc.title == "Café outage report"
    assert doc.author == "Ops Bulletin"
    assert doc.text == (
        "Café outage report\n\n"
        "The café ordering service was down for 12 minutes.\n\n"
        "Root cause:\nan expired certificate."
    )


def test_mbox_yields_each_message_and_unescapes_from_lines() -> None:
    first, second = load("email/archive.mbox")
    assert first.id == "email/caf8s0z9y8x7"
    assert first.author == "Alice Chen"
    assert first.text == (
        "Backfill plan\n\nWhen can the backfill start?\nWe need it before the March 12 release."
    )
    assert second.id == "email/re-backfill-plan-20240305"  # no Message-ID: subject and day
    assert second.author == "bob.li@example.com"
    assert second.attrs["in_reply_to"] == "<CAF8s0z9y8x7@mail.example.com>"
    assert "message_id" not in second.attrs
    assert second.text == (
        "Re: Backfill plan\n\nThursday works.\nFrom now on I will post updates in the channel."
    )


def test_jira_json_export_handles_wiki_markup_and_adf() -> None:
    wiki, adf = load("tickets/jira-export.json")
    assert wiki.id == "ticket/SRCH-101"
    assert wiki.source_type is SourceType.TICKET
    assert wiki.title == "Search results stale after reindex"
    assert wiki.author == "Erin Fox"
    assert wiki.uri == "https://example.atlassian.net/browse/SRCH-101"
    assert wiki.created_at == datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    assert wiki.updated_at == datetime(2024, 3, 8, 12, 0, tzinfo=UTC)
    assert dict(wiki.attrs) == {
        "key": "SRCH-101",
        "status": "Done",
        "resolution": "Fixed",
        "resolved_at": "2024-03-08T12:00:00+00:00",
        "issue_type": "Bug",
        "priority": "High",
        "path": "tickets/jira-export.json",
    }
    assert wiki.text == (
        "Search results stale after reindex\n\n"
        "Steps\n\n"
        "Reindex tenant *acme*.\nSearch for a deleted page.\n\n"
        "Logs\n\n"
        "WARN tombstone missing for doc 42\n\n"
        "The deleted page still shows up.\n\n"
        "Comment by Bob Li on 2024-03-07:\n\n"
        "Fixed by writing tombstones during incremental snapshots."
    )
    assert adf.id == "ticket/SRCH-102"
    assert "resolution" not in adf.attrs and "resolved_at" not in adf.attrs
    assert adf.attrs["status"] == "In Progress"
    assert adf.text == (
        "Add snapshot_mode setting\n\n"
        "Goal\n\n"
        "Let operators choose full or incremental snapshots.\n\n"
        "Default stays full.\n\n"
        "Owner: @Bob Li\n\n"
        "snapshot_mode: full\n\n"
        "batch_size: 500\n\n"
        "Comment by Carol Diaz on 2024-03-04:\n\n"
        "Please document the flag."
    )


def test_jira_csv_export_reads_repeated_comment_columns() -> None:
    first, second = load("tickets/jira-export.csv")
    assert first.id == "ticket/PAY-7"
    assert first.title == "Checkout times out under load"
    assert first.author == "dana.kim"
    assert first.created_at == datetime(2024, 10, 1, 9, 5, tzinfo=UTC)
    assert first.updated_at == datetime(2024, 10, 3, 16, 40, tzinfo=UTC)
    assert first.attrs["resolved_at"] == "2024-10-03T16:40:00+00:00"
    assert first.attrs["issue_type"] == "Bug"
    assert first.attrs["priority"] == "Highest"
    assert first.text == (
        "Checkout times out under load\n\n"
        "Symptom\n\n"
        "Checkout requests time out after 30 seconds.\n\n"
        "The payment gateway pool is exhausted.\n\n"
        "Comment by erin.fox on 2024-10-02:\n\n"
        "Raised the pool size to 50; latency is back to normal.\n\n"
        "Comment by dana.kim on 2024-10-03:\n\n"
        "Confirmed in production."
    )
    assert second.id == "ticket/PAY-8"
    assert second.created_at == datetime(2024, 10, 4, 6, 0, tzinfo=UTC)
    assert "resolution" not in second.attrs
    assert second.text == "Document retry policy\n\nRetries must be idempotent."
