"""Counting what a bounded walk does not show, and the limits that bound it."""

from __future__ import annotations

import pytest

from zehn.engine.answer import Beyond
from zehn.engine.frontier import WalkLimits, beyond_text, walk_text, with_beyond
from zehn.errors import InvalidParameters
from zehn.queries import get_query


def test_beyond_text_counts_by_distance_and_kind() -> None:
    counted = {2: {"service": 1}, 3: {"service": 4900, "team": 280}}
    text = beyond_text(counted)
    assert text == (
        "and 5,181 more at distance 2: 1 service; at distance 3: 4,900 services, 280 teams"
        " — name a kind or a team to narrow"
    )
    assert beyond_text({}) == ""
    assert "5,181" in beyond_text(counted, "zh") and "距离 3" in beyond_text(counted, "zh")


def test_with_beyond_adds_one_line_per_walk_and_nothing_for_a_whole_walk() -> None:
    walk = Beyond(
        "downstream_impact", "service:quartz-hub", 30, 25, {1: {"datastore": 5}}, 3, 3, 2000
    )
    assert with_beyond("answer", [walk]).splitlines() == [
        "answer",
        "and 5 more at distance 1: 5 datastores — name a kind or a team to narrow",
    ]
    assert with_beyond("answer", []) == "answer"
    assert walk.more == 5 and walk.to_dict()["counted"] == {"1": {"datastore": 5}}
    assert walk.complete and walk.to_dict()["complete"] is True


def test_a_walk_that_stopped_counting_never_reads_as_a_complete_count() -> None:
    counted = {1: {"service": 900}, 2: {"service": 3100, "team": 40}}
    walk = Beyond("downstream_impact", "service:quartz-hub", 4065, 25, counted, 3, 2, 2000)
    assert not walk.complete and walk.more == 4040
    assert walk.to_dict() | {"counted": None} == {
        "query": "downstream_impact",
        "entity_id": "service:quartz-hub",
        "reached": 4065,
        "shown": 25,
        "counted": None,
        "depth": 3,
        "counted_depth": 2,
        "complete": False,
        "count_limit": 2000,
    }
    assert walk_text(walk) == (
        "and at least 4,040 more at distance 1: 900 services; at distance 2: 3,100 services, "
        "40 teams; not counted beyond distance 2 (the walk stops counting at 2,000 entities)"
        " — name a kind or a team to narrow"
    )
    zh = walk_text(walk, "zh")
    assert zh.startswith("另有至少 4,040 个未列出") and "距离 2 以外未计数" in zh and "2,000" in zh
    assert with_beyond("answer", [walk]).splitlines()[1] == walk_text(walk)
    # a partial count with nothing left over still says that it stopped
    nothing = Beyond("downstream_impact", "service:quartz-hub", 2000, 25, {}, 3, 1, 2000)
    assert walk_text(nothing) == (
        "and not counted beyond distance 1 (the walk stops counting at 2,000 entities)"
        " — name a kind or a team to narrow"
    )


def test_walk_limits_refuse_nonsense() -> None:
    assert WalkLimits().nearest == 25 and WalkLimits().count_limit == 2000
    for bad in ((0,), (5, 0), (30, 3, 10), (25, 3, 100, 99), (25, 3, 25, 25)):
        with pytest.raises(ValueError, match="WalkLimits"):
            WalkLimits(*bad)
    assert WalkLimits(5, 3, 5, 6).count_limit == 6  # examine <= count_limit > nearest


def test_a_frontier_is_checked_like_any_list_parameter() -> None:
    layer = get_query("impact_layer")
    nodes = list(range(3000))
    assert layer.validate({"frontier": nodes})["frontier"] == nodes  # larger than other lists
    for bad in ([1, "2"], [1, -1], [True], [1.5], "1,2"):
        with pytest.raises(InvalidParameters, match=r"impact_layer\.frontier"):
            layer.validate({"frontier": bad})
    with pytest.raises(InvalidParameters, match="at most 50000"):
        layer.validate({"frontier": list(range(50_001))})


def test_a_list_of_names_is_checked_at_once_and_still_refuses_bad_values() -> None:
    keys = get_query("edges_by_keys")
    ok = [f"k{i:05d}" for i in range(400)]
    assert keys.validate({"keys": ok})["keys"] == ok
    for bad in (["ok", "bad\x01"], ["ok", "  "], ["ok", 3], ["\ud800"]):
        with pytest.raises(InvalidParameters, match=r"edges_by_keys\.keys"):
            keys.validate({"keys": bad})
