"""The analyst's path on a real corpus, in a real browser: the OpenTelemetry demo docs.

A copy of ``../shared/corpora/otel-demo`` (the folder the otel-demo gold names; the
test is skipped, saying why, where it is not checked out) is built from the Corpus
tab; in the curation tab one entity gets another kind and an alias (the discovered
``topic:kafka`` becomes the component ``component:kafka``, also called "Kafka broker");
Rebuild saves ``<folder>.catalog.yaml`` beside the copy and shows what changed; then a question
about the Kafka broker is answered and its graph draws every node in its kind's colour,
with the asked entity ringed. The copy keeps the shared corpus untouched (the curation
view writes the catalog beside the corpus). Screenshots of each step land in the
artifacts folder, and in ``docs/img/`` with ``ZEHN_DOCS_IMG=1`` (see docs/your-corpus.md).
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import OTEL_GOLD
from tests.browser.test_corpus_build import keep_screenshot
from tests.browser.test_workbench import ask, graph_frame, open_workbench
from widgets.graph_style import KIND_STYLES
from zehn.evaluate.gold import load_gold
from zehn.store.client import GraphClient

if TYPE_CHECKING:
    from tests.browser.conftest import VoilaServer, Watch

pytestmark = pytest.mark.browser

CORPUS = "otel-curated"  # not otel-demo: the real-corpus question tests share that graph
GRAPH = f"{CORPUS}__rules"
BEFORE, AFTER = "topic:kafka", "component:kafka"
ALIAS = "Kafka broker"
QUESTION = "If I change the Kafka broker, what breaks?"
BUILD_TIMEOUT_MS = 180_000  # the real corpus: 60-odd files, built on a busy machine


def _visible(page: Page, selector: str) -> Locator:
    return page.locator(selector).filter(visible=True)


@pytest.fixture
def otel_copy(tmp_path: Path, client: GraphClient) -> Iterator[Path]:
    """A copy of the otel-demo docs folder, so the curated catalog is written beside the copy."""
    if not OTEL_GOLD.is_file():
        pytest.skip(f"{OTEL_GOLD} is missing")
    root = load_gold(OTEL_GOLD).corpus_root
    if root is None or not root.is_dir():
        pytest.skip(f"the otel-demo corpus ({root}, named by {OTEL_GOLD.name}) is not here")
    copy = tmp_path / "otel-demo" / root.name
    shutil.copytree(root, copy)
    if client.graph_exists(GRAPH):
        client.delete_graph(GRAPH)
    yield copy
    if client.graph_exists(GRAPH):
        client.delete_graph(GRAPH)


def test_build_curate_rebuild_and_ask_the_otel_demo_docs(
    page: Page,
    voila: VoilaServer,
    timings: dict[str, float],
    watch: Watch,
    client: GraphClient,
    otel_copy: Path,
    artifacts_dir: Path,
) -> None:
    open_workbench(page, voila, timings)

    # 1 · build from the Corpus tab
    page.get_by_role("tab", name="Corpus", exact=True).click()
    _visible(page, ".zehn-corpus-folder input").fill(str(otel_copy))
    _visible(page, ".zehn-corpus-name input").fill(CORPUS)
    clicked = time.monotonic()
    _visible(page, "button.zehn-corpus-build").click()
    done = _visible(page, ".zehn-build-status[data-state='done']")
    expect(done).to_contain_text(f"built {GRAPH}", timeout=BUILD_TIMEOUT_MS)
    timings["otel-demo: Build clicked -> health shown"] = time.monotonic() - clicked
    expect(_visible(page, f".zehn-health[data-graph='{GRAPH}']")).to_contain_text("CONSUMES_FROM")
    expect(_visible(page, ".zehn-active-graph")).to_have_text(GRAPH)
    keep_screenshot(page, artifacts_dir, "your-corpus-1-build")
    kinds = dict(client.read(GRAPH, "MATCH (e:Entity) RETURN e.id, e.kind").rows)
    assert kinds.get(BEFORE) == "topic" and AFTER not in kinds

    # 2 · curate: the corpus just built is open in the curation tab
    page.get_by_role("tab", name="Curate entities").click()
    _visible(page, ".zehn-curation-filter input").fill("kafka")
    row = _visible(page, f".zehn-curation-row--{BEFORE.replace(':', '-')}")
    expect(row).to_have_count(1)
    row.locator(".zehn-curation-kind select").select_option("component")
    row = _visible(page, f".zehn-curation-row--{AFTER.replace(':', '-')}")
    expect(row).to_have_count(1)  # redrawn under its new id
    row.locator(".zehn-curation-new-alias input").fill(ALIAS)
    row.locator("button.zehn-curation-add-alias").click()
    expect(row.locator(".zehn-curation-alias-pick option", has_text=ALIAS)).to_have_count(1)
    clicked = time.monotonic()
    _visible(page, "button.zehn-curation-rebuild").click()
    changes = _visible(page, ".zehn-curation-changes")
    expect(changes).to_contain_text(f"What changed in {GRAPH}", timeout=BUILD_TIMEOUT_MS)
    timings["otel-demo: Rebuild clicked -> changes shown"] = time.monotonic() - clicked
    expect(changes).to_contain_text(AFTER)
    # the one entity re-kinded is all that is lost: every other row came from this graph
    expect(changes).to_contain_text("entities lost: 1")
    keep_screenshot(page, artifacts_dir, "your-corpus-2-curate")
    catalog = otel_copy.parent / f"{otel_copy.name}.catalog.yaml"
    assert catalog.is_file() and ALIAS in catalog.read_text(encoding="utf-8")
    stored = client.read(
        GRAPH, "MATCH (e:Entity {id: $id}) RETURN e.kind, e.aliases", {"id": AFTER}
    ).rows
    assert stored and stored[0][0] == "component" and ALIAS in stored[0][1]
    assert not client.read(GRAPH, "MATCH (e:Entity {id: $id}) RETURN e", {"id": BEFORE}).rows

    # 3 · ask: the answer's graph is coloured by kind, the asked entity ringed
    page.get_by_role("tab", name="Ask").click()
    expect(ask(page, QUESTION)).to_have_attribute("data-status", "answered")
    expect(_visible(page, ".zehn-answer-text")).to_contain_text("kafka")
    frame = graph_frame(page)
    nodes: list[dict[str, Any]] = frame.evaluate("network.body.data.nodes.get()")
    by_id = {node["id"]: node for node in nodes}
    assert AFTER in by_id, sorted(by_id)
    focused = [node["id"] for node in nodes if node.get("zehn_focus")]
    assert focused == [AFTER], focused
    for node in nodes:  # every node in the colour and shape of its kind
        colour, shape = KIND_STYLES[node["zehn_kind"]]
        assert node["color"]["background"] == colour and node["shape"] == shape, node
    assert by_id[AFTER]["zehn_kind"] == "component"
    assert by_id[AFTER]["size"] > max(n["size"] for n in nodes if n["id"] != AFTER)
    assert len({node["zehn_kind"] for node in nodes}) >= 2, "one kind only: nothing to tell apart"
    legend = _visible(page, ".zehn-legend")
    expect(legend.first).to_contain_text("component")
    expect(legend.first).to_contain_text(re.compile("kafka", re.IGNORECASE))
    keep_screenshot(page, artifacts_dir, "your-corpus-3-ask")
    watch.assert_no_script_ran(page)
