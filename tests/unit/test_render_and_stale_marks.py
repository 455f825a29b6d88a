"""Stale citations are marked wherever a citation is shown: terminal and reopened history."""

from __future__ import annotations

from widgets.history import _stale
from zehn.engine.answer import Citation, CitedAnswer
from zehn.engine.render import render_answer

STALE = Citation(
    n=1, id="confluence/billing#10-40", document="confluence/billing", source_type="confluence",
    title="Billing", quote="Billing depends on ledger-v1.", span=(10, 40), date="2024-02-14",
    stale=True, superseded_by="email/x#0-50", superseded_quote="billing no longer depends on ledger-v1.",
)  # fmt: skip


def test_the_terminal_shows_what_superseded_a_citation() -> None:
    answer = CitedAnswer(
        question="q", status="answered", answer="billing [1]", reason=None, graph="g",
        policy={"name": "production", "mode": "production", "badge": None}, model="offline",
        citations=(STALE,),
    )  # fmt: skip
    text = render_answer(answer)
    assert 'STALE: superseded by "billing no longer depends on ledger-v1." (email/x#0-50)' in text


def test_reopened_history_marks_stale_citations_escaped() -> None:
    mark = _stale(STALE.to_dict() | {"superseded_quote": "<b>later</b>"})
    assert "zehn-stale" in mark and "&lt;b&gt;later&lt;/b&gt;" in mark
    assert _stale({"stale": False}) == ""
