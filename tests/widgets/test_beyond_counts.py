"""The Ask view says how far a bounded walk reached and what it counted without showing:
counts of the walk, never rows; escaped like everything from the corpus."""

from __future__ import annotations

from widgets.answer_extras import beyond_html
from zehn.engine.answer import Beyond, CitedAnswer, Identity


def _answer(status: str, name: str = "quartz-hub", counted_depth: int = 3) -> CitedAnswer:
    counted = {3: {"service": 1180, "team": 35}} if counted_depth == 3 else {2: {"team": 1215}}
    walk = Beyond(
        "downstream_impact", "service:quartz-hub", 1240, 25, counted, 3, counted_depth, 1000
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


def test_a_walk_that_stopped_counting_says_so_whatever_the_status() -> None:
    for status in ("answered", "abstained"):
        page = beyond_html(_answer(status, counted_depth=2))
        assert 'data-complete="false"' in page and 'data-counted-depth="2"' in page
        assert "reached at least 1,240 entities within distance 2" in page
        assert "the walk stops counting at 1,000 entities" in page
    abstained = beyond_html(_answer("abstained", counted_depth=2))
    assert "and at least 1,215 more at distance 2: 1,215 teams; not counted beyond distance 2" in (
        abstained
    )
    whole = beyond_html(_answer("abstained"))
    assert 'data-complete="true"' in whole and "at least" not in whole
    assert "not counted" not in whole


def test_a_walk_shown_whole_adds_nothing() -> None:
    answer = _answer("answered")
    assert beyond_html(CitedAnswer(**{**answer.__dict__, "beyond": ()})) == ""
