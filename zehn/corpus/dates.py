"""When each sentence was stated: the date staleness and supersession compare.

A Confluence page or plain document is edited in place, so its sentences
date from its last update. Tickets, emails, pull requests and meeting notes
accumulate: their body dates from their creation, and a ticket comment from
its own date ("Comment by X on 2024-10-01:", as the ticket loader writes it).
A ticket updated or resolved in April still said in February what its
description says.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from datetime import UTC, date, datetime

from dateutil import parser as date_parser

from zehn.corpus.model import Document, Sentence, SourceType

EDITED_IN_PLACE = (SourceType.CONFLUENCE, SourceType.TEXT)
_COMMENT_HEADER = re.compile(r"^Comment by .+? on (\d{4}-\d{2}-\d{2}):$", re.MULTILINE)
_JIRA_DATE_FORMATS = ("%d/%b/%y %I:%M %p", "%d/%b/%Y %I:%M %p", "%d/%b/%y %H:%M", "%d/%b/%y")


def stated_at(
    source_type: str, created: datetime | None, updated: datetime | None
) -> datetime | None:
    """When a document's body was stated: a page edited in place by its last update,
    anything that accumulates (ticket, email, pull request, meeting note) by its creation;
    the other date only when that one is missing."""
    if source_type in EDITED_IN_PLACE:
        return updated or created
    return created or updated


def stated_at_cypher(doc: str) -> str:
    """:func:`stated_at` as a Cypher expression over the Document node named ``doc``."""
    kinds = ", ".join(f"'{kind}'" for kind in EDITED_IN_PLACE)
    created, updated = f"{doc}.created_at", f"{doc}.updated_at"
    return (
        f"CASE WHEN {doc}.source_type IN [{kinds}] THEN coalesce({updated}, {created}) "
        f"ELSE coalesce({created}, {updated}) END"
    )


def stated_dates(doc: Document, sentences: Sequence[Sentence]) -> list[str | None]:
    """ISO 8601 UTC date of each sentence (None when the document has no date)."""
    base_iso = iso_utc(stated_at(doc.source_type, doc.created_at, doc.updated_at))
    if doc.source_type is not SourceType.TICKET:
        return [base_iso] * len(sentences)
    headers = [(m.start(), m.group(1)) for m in _COMMENT_HEADER.finditer(doc.text)]
    starts = [start for start, _ in headers]
    dates: list[str | None] = []
    for sentence in sentences:
        index = bisect_right(starts, sentence.start) - 1
        dates.append(f"{headers[index][1]}T00:00:00+00:00" if index >= 0 else base_iso)
    return dates


def iso_utc(value: datetime | None) -> str | None:
    """ISO 8601 in UTC (naive values are taken as UTC), as the graph stores dates."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat()


def parse_date(value: object) -> datetime | None:
    """A tz-aware datetime from ISO 8601, Jira, RFC or epoch-millis values; naive means UTC.

    Loaders read source metadata with it and staleness reads stored dates back:
    one reading of a date for both. None when absent or unreadable.
    """
    if value is None or value == "":
        return None
    parsed: datetime | None = None
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, date):
        parsed = datetime(value.year, value.month, value.day)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        parsed = _from_epoch(value)
    elif isinstance(value, str):
        parsed = _parse_date_string(value.strip())
    if parsed is not None and parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def _from_epoch(value: float) -> datetime | None:
    """Epoch seconds, or milliseconds when that large; None when no date can be that far out."""
    try:
        return datetime.fromtimestamp(value / 1000 if value > 1e11 else value, UTC)
    except (OverflowError, OSError, ValueError):  # NaN, infinities, years beyond 9999
        return None


def _parse_date_string(value: str) -> datetime | None:
    try:  # the stored form (iso_utc), read back on every staleness check: the fast path
        return datetime.fromisoformat(value)
    except ValueError:
        pass
    for fmt in _JIRA_DATE_FORMATS:
        try:
            return datetime.strptime(value, fmt)
        except ValueError:
            continue
    try:
        return date_parser.parse(value)
    except (ValueError, OverflowError):
        return None
