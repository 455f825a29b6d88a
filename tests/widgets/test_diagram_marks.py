"""A citation that is a line of a diagram is marked as one in every view (invented text)."""

from __future__ import annotations

from widgets.audit import item_html
from widgets.html import diagram_mark
from zehn.review.audit import AuditItem


def _item(text: str) -> AuditItem:
    return AuditItem(
        key="k", graph="g", strategy="rules", subject_id="service:kite", subject_name="kite",
        subject_kind="service", rel_type="CALLS", object_id="service:gull", object_name="gull",
        object_kind="service", sentence_id="doc/x#0-10", text=text, sentence_start=0,
        subject_span=None, object_span=None, doc_id="doc/x",
    )  # fmt: skip


def test_the_audit_view_marks_a_diagram_line_and_not_a_sentence() -> None:
    assert 'class="zehn-diagram-line"' in item_html(_item("kite -->|gRPC| gull"))
    assert "zehn-diagram-line" not in item_html(_item("The kite service calls gull."))


def test_the_mark_says_what_it_is() -> None:
    assert "diagram line" in diagram_mark(True) and diagram_mark(False) == ""
