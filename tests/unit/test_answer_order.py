"""The same graph answers the same way whatever order its rows come in: a rebuild gives the
graph's nodes new internal ids, and FalkorDB returns rows in id order. The sentence a hop cites
among equally close ones, and the order of the entities reached, are decided by content."""

from __future__ import annotations

import random
from typing import Any

from zehn.models.admit import closest
from zehn.models.offline import _path_order
from zehn.models.plan import Plan


def _hop(source: str, target: str, *sentences: str) -> dict[str, Any]:
    supported = [{"sentence_id": s, "quote": f"{source} reads from {target}."} for s in sentences]
    return {
        "source": source,
        "rel_type": "READS_FROM",
        "target": target,
        "sentence_id": sentences[0],
        "supported": supported,
    }


def test_a_hop_cites_the_graders_best_then_the_same_one_of_equally_close_sentences() -> None:
    plan = Plan("lookup_out", (), words=frozenset({"reads"}))
    chosen = set()
    for seed in range(6):
        others = ["doc/b#9-20", "doc/a#5-30", "doc/c#1-9"]
        random.Random(seed).shuffle(others)
        path = {
            "nodes": ["service:x", "datastore:y"],
            "hops": [_hop("x", "y", "doc/z#0-4", *others)],
        }
        hop = closest(path, plan)["hops"][0]
        chosen.add(tuple(s["sentence_id"] for s in hop["supported"]))
    assert chosen == {("doc/z#0-4", "doc/a#5-30", "doc/b#9-20", "doc/c#1-9")}


def test_paths_are_ordered_by_length_then_what_they_reach_then_what_they_state() -> None:
    paths = [
        {"nodes": ["s:a", "s:c"], "hops": [_hop("a", "c", "d#2")]},
        {"nodes": ["s:a", "s:b", "s:d"], "hops": [_hop("a", "b", "d#3"), _hop("b", "d", "d#4")]},
        {"nodes": ["s:a", "s:b"], "hops": [_hop("a", "b", "d#1")]},
    ]
    orders = set()
    for seed in range(6):
        shuffled = list(paths)
        random.Random(seed).shuffle(shuffled)
        orders.add(tuple(p["nodes"][-1] for p in sorted(shuffled, key=_path_order)))
    assert orders == {("s:b", "s:c", "s:d")}
