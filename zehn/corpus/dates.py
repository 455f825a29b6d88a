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
from datetime import UTC, datetime

from zehn.corpus.model import Document, Sentence, SourceType

EDITED_IN_PLACE = (SourceType.CONFLUENCE, SourceType.TEXT)
_COMMENT_HEADER = re.compile(r"^Comment by .+? on (\d{4}-\d{2}-\d{2}):$", re.MULTILINE)


def stated_dates(doc: Document, sentences: Sequence[Sentence]) -> list[str | None]:
    """ISO 8601 UTC date of each sentence (None when the document has no date)."""
    if doc.source_type in EDITED_IN_PLACE:
        base = doc.updated_at or doc.created_at
    else:
        base = doc.created_at or doc.updated_at
    base_iso = iso_utc(base)
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
