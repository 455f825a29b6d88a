"""The Ask view says how far a bounded walk reached and what it counted without showing:
counts of the walk, never rows; escaped like everything from the corpus."""

from __future__ import annotations

from widgets.answer_extras import beyond_html
from zehn.engine.answer import Beyond, CitedAnswer, Identity


def _answer(status: str, name: str = "quartz-hub") -> CitedAnswer:
    walk = Beyond(
        "downstream_impact", "service:quartz-hub", 1240, 25, {3: {"service": 1180, "team": 35}}
    )
    return CitedAnswer(
        question="If I change quartz-hub, what breaks?",
        status=status,
        answer="I don't know",
        reason=None,
        graph="g",
        policy={},
        model="offline",
        identities=(Identity("service:quartz-hub", name, "service"),),
        beyond=(walk,),
    )


def test_an_abstained_walk_shows_its_reach_and_counts() -> None:
    page = beyond_html(_answer("abstained"))
    assert 'data-reached="1240"' in page and 'data-shown="25"' in page
    assert "reached 1,240 entities; the nearest 25 are shown and graded" in page
    assert "1,215 more at distance 3: 1,180 services, 35 teams" in page


def test_an_answered_walk_shows_its_reach_only_and_names_are_escaped() -> None:
    page = beyond_html(_answer("answered", "<img src=x onerror=alert(1)>"))
    assert "reached 1,240 entities" in page and "more at distance" not in page
    assert "<img" not in page and "&lt;img" in page


def test_a_walk_shown_whole_adds_nothing() -> None:
    answer = _answer("answered")
    assert beyond_html(CitedAnswer(**{**answer.__dict__, "beyond": ()})) == ""
