"""Discovery measured against labelled components (zehn.evaluate.components), on a graph
written by hand: name and alias matches, the most-mentioned entities, and bad gold files."""

from __future__ import annotations

from pathlib import Path

import pytest

from zehn.evaluate.components import GoldComponent, component_figures, load_components
from zehn.evaluate.gold import GoldError
from zehn.store.client import GraphClient

pytestmark = pytest.mark.integration

GRAPH = """
CREATE (a:Entity {name: 'ledger-api', aliases: ['Ledger API']}),
       (b:Entity {name: 'the queue', aliases: ['billing_events']}),
       (c:Entity {name: 'font-weight', aliases: []}),
       (s1:Sentence {id: 's1'}), (s2:Sentence {id: 's2'}), (s3:Sentence {id: 's3'}),
       (a)-[:MENTIONED_IN]->(s1), (a)-[:MENTIONED_IN]->(s2), (a)-[:MENTIONED_IN]->(s3),
       (c)-[:MENTIONED_IN]->(s1), (c)-[:MENTIONED_IN]->(s2),
       (b)-[:MENTIONED_IN]->(s3)
"""
COMPONENTS = (
    GoldComponent("Ledger API", "service", ()),
    GoldComponent("billing-events", "topic", ("the billing topic",)),
    GoldComponent("fraud service", "service", ("fraud",)),
)


def test_components_are_found_by_name_or_alias_and_the_top_is_judged(
    client: GraphClient, graph_name: str
) -> None:
    client.write(graph_name, GRAPH)
    figures = component_figures(client, graph_name, COMPONENTS, top_n=2)
    assert figures.discovered == ("Ledger API", "billing-events")  # alias billing_events
    assert figures.missed == ("fraud service",)
    assert figures.top == (("ledger-api", 3, "Ledger API"), ("font-weight", 2, None))
    assert figures.top_real == 1
    row = figures.to_dict()
    assert (row["components_discovered"], row["top_not_components"]) == (2, ["font-weight"])


def test_components_files_are_read_and_checked(tmp_path: Path) -> None:
    assert load_components(tmp_path) == ()
    (tmp_path / "components.yaml").write_text(
        "components:\n  - {name: Tornado, kind: service, aliases: [event queue server]}\n"
    )
    assert load_components(tmp_path) == (
        GoldComponent("Tornado", "service", ("event queue server",)),
    )
    (tmp_path / "components.yaml").write_text("components:\n  - {name: X, kind: gadget}\n")
    with pytest.raises(GoldError, match="unknown kind 'gadget'"):
        load_components(tmp_path)
