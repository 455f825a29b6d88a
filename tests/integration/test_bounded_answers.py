"""A walk larger than an answer shows: the nearest K entities are cited (supported first,
then shortest path), the rest counted exactly by distance and kind, never listed."""

from __future__ import annotations

import pytest

from benchmarks.run import raw_load
from benchmarks.synthetic import SynEdge, SynEntity, SynSentence, Synthetic
from zehn.engine import frontier
from zehn.engine.frontier import WalkLimits
from zehn.engine.loop import Engine
from zehn.engine.tools import ToolExecutor
from zehn.evidence.grade import SUPPORTED
from zehn.evidence.policy import load_policy
from zehn.models.offline import OfflineModel
from zehn.reading.model import entity_id
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

HUB = ("quartz-hub", "service")
# (dependent, its kind, what it depends on, the sentence): invented, never from a corpus
FACTS: list[tuple[str, str, str, str]] = [
    # distance 1: four stated, one only mentioned together (inferred, not supported)
    ("alder-a", "service", "quartz-hub", "alder-a depends on quartz-hub."),
    ("alder-b", "service", "quartz-hub", "alder-b depends on quartz-hub."),
    ("alder-c", "service", "quartz-hub", "alder-c depends on quartz-hub."),
    ("tarn-store", "datastore", "quartz-hub", "tarn-store depends on quartz-hub."),
    ("gorse-x", "service", "quartz-hub", "gorse-x and quartz-hub were reviewed on Monday."),
    # distance 2
    ("birch-1", "service", "alder-a", "birch-1 depends on alder-a."),
    ("birch-2", "service", "alder-a", "birch-2 depends on alder-a."),
    ("birch-3", "service", "alder-b", "birch-3 depends on alder-b."),
    ("birch-4", "service", "alder-b", "birch-4 depends on alder-b."),
    ("pipe-north", "pipeline", "alder-c", "pipe-north depends on alder-c."),
    ("pipe-south", "pipeline", "alder-c", "pipe-south depends on alder-c."),
    ("topic-dawn", "topic", "tarn-store", "topic-dawn depends on tarn-store."),
    # distance 3 (birch-1 also reached again from birch-2: counted once, at distance 2)
    ("comp-1", "component", "birch-1", "comp-1 depends on birch-1."),
    ("comp-2", "component", "birch-1", "comp-2 depends on birch-1."),
    ("comp-3", "component", "birch-2", "comp-3 depends on birch-2."),
    ("heron-team", "team", "birch-2", "heron-team depends on birch-2."),
    ("birch-1", "service", "birch-2", "birch-1 depends on birch-2."),
]
QUESTION = "If I change quartz-hub, what breaks?"
# an edge back to the start: a walk reading alder-a's edges on meets quartz-hub again
CYCLE = ("quartz-hub", "service", "alder-a", "quartz-hub depends on alder-a.")


def _graph(client: GraphClient, name: str, facts: list[tuple[str, str, str, str]] = FACTS) -> str:
    kinds = {HUB[0]: HUB[1]} | {d: k for d, k, _o, _s in facts}
    syn = Synthetic(seed=0)
    syn.entities = [SynEntity(entity_id(k, n), n, k) for n, k in kinds.items()]
    syn.documents = ["doc-bounded"]
    offset = 0
    for i, (dependent, _kind, obj, text) in enumerate(facts):
        sid = f"doc-bounded#s{i}"
        syn.sentences.append(SynSentence(sid, "doc-bounded", text, offset, offset + len(text)))
        offset += len(text) + 2
        subject, target = entity_id(kinds[dependent], dependent), entity_id(kinds[obj], obj)
        syn.edges.append(SynEdge(f"k{i:03d}", subject, "DEPENDS_ON", target, sid, "doc-bounded"))
    raw_load(client, name, syn)
    return name


def test_the_nearest_k_are_cited_and_the_rest_counted_exactly(
    client: GraphClient, graph_name: str
) -> None:
    graph = _graph(client, graph_name)
    engine = Engine(
        client, graph, load_policy("production"), OfflineModel(), walk_limits=WalkLimits(5)
    )
    answer = engine.ask(QUESTION)
    assert answer.status == "answered", answer.reason

    # supported first, then shortest: the four stated at distance 1, then the first at 2
    # (ties in the graph's node order: birch-1 was written first); gorse-x is nearer but only inferred, so it is counted, not shown
    shown = {p.nodes[-1] for p in answer.paths}
    assert shown == {
        "service:alder-a",
        "service:alder-b",
        "service:alder-c",
        "datastore:tarn-store",
        "service:birch-1",
    }
    assert all(p.label == SUPPORTED for p in answer.paths)
    assert len(answer.beyond) == 1
    beyond = answer.beyond[0]
    assert (beyond.reached, beyond.shown, beyond.more) == (16, 5, 11)
    assert beyond.counted == {
        1: {"service": 1},
        2: {"service": 3, "pipeline": 2, "topic": 1},
        3: {"component": 3, "team": 1},
    }
    assert answer.to_dict()["beyond"][0]["counted"]["3"] == {"component": 3, "team": 1}
    assert (
        "and 11 more at distance 1: 1 service; at distance 2: 3 services, 2 pipelines, 1 topic; "
        "at distance 3: 3 components, 1 team — name a kind or a team to narrow"
    ) in answer.answer
    # counted entities are never rows: no path, no citation names them
    cited_text = " ".join(c.quote for c in answer.citations)
    for counted in ("gorse-x", "birch-2", "pipe-north", "comp-1", "heron-team"):
        assert counted not in cited_text
        assert not any(counted in node for p in answer.paths for node in p.nodes)
    assert any("truncated:" in line and "16 entities" in line for line in answer.limitations)


def test_a_walk_within_k_lists_every_path_and_counts_nothing(
    client: GraphClient, graph_name: str
) -> None:
    graph = _graph(client, graph_name)
    answer = Engine(client, graph, load_policy("production"), OfflineModel()).ask(QUESTION)
    assert answer.status == "answered"
    assert answer.beyond == () and answer.to_dict()["beyond"] == []
    ends = {p.nodes[-1] for p in answer.paths}
    assert "service:gorse-x" in ends and "team:heron-team" in ends  # all 16, graded
    assert len(ends) == 16
    # birch-1 is reached at distance 2 and, through birch-2, at 3: every path is listed
    assert {len(p.hops) for p in answer.paths if p.nodes[-1] == "service:birch-1"} == {2, 3}
    assert "more at distance" not in answer.answer


def test_only_the_shown_paths_are_graded(client: GraphClient, graph_name: str) -> None:
    graph = _graph(client, graph_name)
    tools = ToolExecutor(client, graph, load_policy("production"), WalkLimits(5))
    outcome = tools.run("downstream_impact", {"entity_id": "service:quartz-hub", "depth": 3})
    assert outcome.payload["reached"] == 16 and outcome.payload["shown"] == 5
    graded = set(tools.snapshot().grades)
    # the first batch (five nearest) and the next (five at distance 2) were graded: the
    # edges of distance 3 and of the last two at distance 2 (pipe-south, topic-dawn) never were
    assert {"k010", "k011", "k012", "k013", "k014", "k015", "k016"}.isdisjoint(graded)
    assert len(graded) <= 10
    upstream = tools.run("upstream_dependencies", {"entity_id": "component:comp-3", "depth": 3})
    assert "counted" not in upstream.payload  # three entities: every path, nothing counted
    assert upstream.paths[0].nodes[:2] == ("component:comp-3", "service:birch-2")


def test_a_walk_that_reaches_the_count_limit_stops_counting_and_says_so(
    client: GraphClient, graph_name: str
) -> None:
    graph = _graph(client, graph_name)
    limits = WalkLimits(nearest=5, examine=6, count_limit=6)  # 5 at distance 1, then 12
    answer = Engine(
        client, graph, load_policy("production"), OfflineModel(), walk_limits=limits
    ).ask(QUESTION)
    assert answer.status == "answered", answer.reason
    # the nearest shown are the same as when every distance is counted
    assert {p.nodes[-1] for p in answer.paths} == {
        "service:alder-a",
        "service:alder-b",
        "service:alder-c",
        "datastore:tarn-store",
        "service:birch-1",
    }
    (beyond,) = answer.beyond
    assert (beyond.reached, beyond.shown, beyond.more) == (12, 5, 7)
    assert (beyond.depth, beyond.counted_depth, beyond.complete) == (3, 2, False)
    assert beyond.counted == {1: {"service": 1}, 2: {"service": 3, "pipeline": 2, "topic": 1}}
    assert answer.to_dict()["beyond"][0] | {"counted": {}} == {
        "query": "downstream_impact",
        "entity_id": "service:quartz-hub",
        "reached": 12,
        "shown": 5,
        "counted": {},
        "depth": 3,
        "counted_depth": 2,
        "complete": False,
        "count_limit": 6,
    }
    # a partial count never reads as a total: "at least", and what was not counted
    assert (
        "and at least 7 more at distance 1: 1 service; at distance 2: 3 services, 2 pipelines, "
        "1 topic; not counted beyond distance 2 (the walk stops counting at 6 entities) — name "
        "a kind or a team to narrow"
    ) in answer.answer
    (note,) = [line for line in answer.limitations if line.startswith("truncated:")]
    assert "at least 12 entities" in note and "distance 3 was not walked or counted" in note
    for uncounted in ("comp-1", "heron-team"):  # distance 3: never walked, never named
        assert uncounted not in answer.answer
        assert not any(uncounted in node for p in answer.paths for node in p.nodes)


@pytest.mark.parametrize("ratio", [0, 3, 1000])  # always backward, the default, always forward
def test_parent_edges_read_either_way_give_the_same_paths(
    client: GraphClient, graph_name: str, monkeypatch: pytest.MonkeyPatch, ratio: int
) -> None:
    """Forward reads the nearer layer's edges on (here also the edge back to the start:
    quartz-hub depends on alder-a), backward the wanted entities' edges back."""
    graph = _graph(client, graph_name, [*FACTS, CYCLE])
    monkeypatch.setattr(frontier, "FORWARD_RATIO", ratio)
    tools = ToolExecutor(client, graph, load_policy("production"), WalkLimits(8))
    outcome = tools.run("downstream_impact", {"entity_id": "service:quartz-hub", "depth": 3})
    assert outcome.payload["reached"] == 16 and outcome.payload["complete"] is True
    assert sorted(p.nodes for p in outcome.paths) == [
        ("service:quartz-hub", "datastore:tarn-store"),
        ("service:quartz-hub", "service:alder-a"),
        ("service:quartz-hub", "service:alder-a", "service:birch-1"),
        ("service:quartz-hub", "service:alder-a", "service:birch-2"),
        ("service:quartz-hub", "service:alder-b"),
        ("service:quartz-hub", "service:alder-b", "service:birch-3"),
        ("service:quartz-hub", "service:alder-b", "service:birch-4"),
        ("service:quartz-hub", "service:alder-c"),
    ]
    tools = ToolExecutor(client, graph, load_policy("production"), WalkLimits(2, 3, 2, 10))
    upstream = tools.run("upstream_dependencies", {"entity_id": "component:comp-1", "depth": 3})
    assert upstream.payload["reached"] == 4 and upstream.payload["shown"] == 2
    assert sorted(p.nodes for p in upstream.paths) == [
        ("component:comp-1", "service:birch-1"),
        ("component:comp-1", "service:birch-1", "service:alder-a"),
    ]
