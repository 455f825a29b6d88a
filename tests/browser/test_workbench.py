"""The workbench notebook in a real browser: Voila serves it, headless Chromium shows it.

Every assertion is on what a person sees (visible text and elements), through the
selectors the views promise: ``.zehn-status[data-status]``, ``.zehn-citation``,
``.zehn-identity``, ``.zehn-log``, ``.zehn-badge`` and ``iframe.zehn-graph``.
A full-page screenshot of each test lands in the artifacts folder (see conftest).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Frame, Locator, Page, expect

from zehn.evidence.grade import INFERRED, SUPPORTED

if TYPE_CHECKING:
    from tests.browser.conftest import VoilaServer, Watch

pytestmark = pytest.mark.browser

IMPACT_QUESTION = "If I change origin-mapper, what breaks?"
REDWOOD_QUESTION = "What does Redwood Inference depend on?"
CHINESE_QUESTION = "如果我修改 indexer，哪些服务会受影响？"
HOSTILE_QUESTION = "If I change indexer, what breaks?"
EVALUATION_BADGE = "EVALUATION MODE · policy evaluation"
ASK_BUTTON = re.compile(r"^\W*Ask$")  # the button's icon adds a glyph before its text


def _visible(page: Page, selector: str) -> Locator:
    """Elements a person can see: the workbench's hidden tabs hold the same classes."""
    return page.locator(selector).filter(visible=True)


def open_workbench(page: Page, server: VoilaServer, timings: dict[str, float]) -> None:
    """Wait until the rendered workbench shows its Ask button; note how long that took."""
    loading = time.monotonic()
    button = page.get_by_role("button", name=ASK_BUTTON)
    traceback = page.locator(
        '[data-mime-type="application/vnd.jupyter.stderr"]', has_text="Traceback"
    ).first  # a cell that raised: fail now, with what the page shows, not after a timeout
    expect(button.or_(traceback).first).to_be_visible()
    if not button.is_visible():
        pytest.fail(
            f"the notebook raised instead of showing the workbench:\n{traceback.inner_text()}\n"
            f"--- voila log ---\n{server.log_tail()}",
            pytrace=False,
        )
    now = time.monotonic()
    first = f"{server.name}: voila start -> Ask button visible (first page)"
    timings.setdefault(first, now - server.started_at)
    timings[f"{server.name}: page.goto returned -> Ask button visible (last page)"] = now - loading


def ask(page: Page, question: str) -> Locator:
    """Type the question into the Ask view, click Ask, and return the visible status."""
    box = page.get_by_placeholder("If I change origin-mapper")
    expect(box).to_be_visible()
    box.fill(question)
    page.get_by_role("button", name=ASK_BUTTON).click()
    status = _visible(page, ".zehn-status[data-status]")
    expect(status).to_have_count(1)
    return status


def choose_policy(page: Page, name: str) -> None:
    dropdown = page.locator(".widget-dropdown", has_text="Policy").locator("select")
    expect(dropdown).to_be_visible()
    dropdown.select_option(name)


def graph_frame(page: Page) -> Frame:
    """The pyvis page inside the answer's ``iframe.zehn-graph``, once its network is drawn."""
    iframe = _visible(page, "iframe.zehn-graph")
    expect(iframe).to_have_count(1)
    frame = iframe.element_handle().content_frame()
    assert frame is not None, "iframe.zehn-graph has no content frame"
    frame.wait_for_function("typeof network !== 'undefined' && network && network.body")
    return frame


def graph_edges(frame: Frame) -> list[dict[str, Any]]:
    edges: list[dict[str, Any]] = frame.evaluate("network.body.data.edges.get()")
    return edges


def test_impact_question_is_answered_with_citations_and_a_streamed_log(
    page: Page, voila: VoilaServer, timings: dict[str, float], watch: Watch
) -> None:
    open_workbench(page, voila, timings)
    asked = time.monotonic()
    status = ask(page, IMPACT_QUESTION)
    expect(status).to_have_attribute("data-status", "answered")
    expect(status).to_have_text("Answered")
    timings["ask impact question -> answer shown"] = time.monotonic() - asked

    citations = _visible(page, ".zehn-citation")
    expect(citations.first).to_be_visible()
    assert citations.count() >= 1
    quotes = [q.strip() for q in citations.locator(".zehn-quote").all_inner_texts()]
    assert any("origin-mapper" in q or "feeds search-api" in q for q in quotes), quotes
    numbers = citations.evaluate_all("items => items.map(i => i.getAttribute('data-n'))")
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)], numbers
    markers = _visible(page, ".zehn-answer-text .zehn-marker")
    assert markers.count() >= 1, "the answer text carries no [n] citation markers"

    log = _visible(page, ".zehn-log")
    expect(log).to_contain_text("downstream_impact")
    expect(log.locator('li[data-query="downstream_impact"]').first).to_be_visible()
    watch.assert_no_script_ran(page)


def test_evaluation_policy_shows_its_badge(
    page: Page, voila: VoilaServer, timings: dict[str, float], watch: Watch
) -> None:
    open_workbench(page, voila, timings)
    expect(_visible(page, ".zehn-badge")).to_have_count(0)  # production carries no badge
    choose_policy(page, "evaluation")
    badges = _visible(page, ".zehn-badge")
    expect(badges.first).to_have_text(EVALUATION_BADGE)
    for text in badges.all_inner_texts():
        assert text.strip() == EVALUATION_BADGE

    status = ask(page, IMPACT_QUESTION)  # and the answer itself carries the badge
    expect(status).to_have_attribute("data-status", "answered")
    expect(_visible(page, ".zehn-answer .zehn-badge")).to_have_text(EVALUATION_BADGE)
    watch.assert_no_script_ran(page)


@pytest.mark.parametrize(
    ("where", "question", "must_draw"),
    [
        # sample__rules under production: supported paths, and insufficient ones drawn too
        ("page", IMPACT_QUESTION, {SUPPORTED}),
        # the tmp co-occurrence graph: the hostile sentence (supported), a co-mention (inferred)
        ("hostile_page", HOSTILE_QUESTION, {SUPPORTED, INFERRED}),
    ],
    ids=["sample", "cooccurrence"],
)
def test_graph_draws_inferred_edges_dashed_and_supported_edges_solid(
    request: pytest.FixtureRequest,
    timings: dict[str, float],
    watch: Watch,
    where: str,
    question: str,
    must_draw: set[str],
) -> None:
    page: Page = request.getfixturevalue(where)
    server: VoilaServer = request.getfixturevalue("voila" if where == "page" else "hostile_voila")
    open_workbench(page, server, timings)
    expect(ask(page, question)).to_have_attribute("data-status", "answered")
    frame = graph_frame(page)
    expect(frame.locator("canvas").first).to_be_visible()
    edges = graph_edges(frame)
    by_label: dict[str, list[dict[str, Any]]] = {}
    for edge in edges:
        by_label.setdefault(edge.get("zehn_label", "?"), []).append(edge)
    assert must_draw <= by_label.keys(), f"drawn: {sorted(by_label)}, expected {must_draw}"
    for edge in by_label.get(SUPPORTED, []):
        assert not edge.get("dashes"), f"supported edge drawn dashed: {edge}"
    for edge in by_label.get(INFERRED, []):
        assert edge.get("dashes"), f"inferred edge drawn solid: {edge}"
        assert "⚠" in edge.get("label", ""), f"inferred edge label lacks its mark: {edge}"
    for label, drawn in by_label.items():
        if label != SUPPORTED:
            assert all(edge.get("dashes") for edge in drawn), f"{label} drawn solid: {drawn}"
    watch.assert_no_script_ran(page)


def test_ambiguous_name_shows_each_identity(
    page: Page, voila: VoilaServer, timings: dict[str, float], watch: Watch
) -> None:
    open_workbench(page, voila, timings)
    status = ask(page, REDWOOD_QUESTION)
    expect(status).to_have_attribute("data-status", "ambiguous")
    identities = _visible(page, ".zehn-identity")
    expect(identities).to_have_count(3)
    kinds = sorted(identities.evaluate_all("items => items.map(i => i.dataset.kind)"))
    assert kinds == ["customer", "service", "team"], kinds
    for text in identities.all_inner_texts():
        assert "Redwood" in text, text
    watch.assert_no_script_ran(page)


def test_a_chinese_question_is_answered_in_chinese_with_marked_mentions(
    page: Page, voila: VoilaServer, timings: dict[str, float], watch: Watch, artifacts_dir: Path
) -> None:
    open_workbench(page, voila, timings)
    status = ask(page, CHINESE_QUESTION)
    expect(status).to_have_attribute("data-status", "answered")
    answer = _visible(page, ".zehn-answer[lang='zh-Hans'] .zehn-answer-text")
    expect(answer).to_contain_text("如果 indexer 发生变更，以下各项有风险")
    expect(answer).to_contain_text("feed-builder 依赖 search-api")
    quote = _visible(page, ".zehn-quote[lang='zh-Hans']").filter(
        has_text="feed-builder 依赖 search-api 获取候选文档。"
    )
    expect(quote.first).to_be_visible()
    marks = [m.strip() for m in quote.first.locator("mark").all_inner_texts()]
    assert marks == ["feed-builder", "search-api"], marks
    # what a person sees, for reading by eye: the Chinese answer and its citations
    _visible(page, ".zehn-answer").first.screenshot(path=str(artifacts_dir / "chinese_answer.png"))
    watch.assert_no_script_ran(page)


def test_hostile_source_text_is_shown_as_text_and_never_runs(
    hostile_page: Page,
    hostile_voila: VoilaServer,
    timings: dict[str, float],
    watch: Watch,
    all_dialogs: list[str],
) -> None:
    page = hostile_page
    open_workbench(page, hostile_voila, timings)
    expect(page.get_by_text("hostile__cooccurrence").first).to_be_visible()
    expect(ask(page, HOSTILE_QUESTION)).to_have_attribute("data-status", "answered")

    quote = _visible(page, ".zehn-citation .zehn-quote").first
    expect(quote).to_contain_text("<script>alert(1)</script>")  # shown, literally, as text
    expect(quote).to_contain_text('"><img src=x onerror=alert(2)>')
    expect(quote).to_contain_text("[x](javascript:alert(3))")

    frame = graph_frame(page)
    assert frame.evaluate("Array.isArray(window.__zehnAlerts)"), "alert trap missing in iframe"
    edge_id = graph_edges(frame)[0]["id"]
    frame.evaluate(f"network.emit('click', {{edges: ['{edge_id}'], nodes: []}})")
    evidence = frame.locator("#zehn-evidence")
    expect(evidence).to_contain_text("<script>alert(1)</script>")

    visit_every_other_view(page, "indexer")  # radar, explorer, history, observatory

    for where in page.frames:
        assert where.locator("img[src='x']").count() == 0, f"an injected <img> in {where.url}"
        assert where.locator("a[href^='javascript:']").count() == 0, "a javascript: link"
        assert where.locator("[onerror], [onload]").count() == 0, "an event handler attribute"
    page.wait_for_timeout(500)  # give an onerror handler time to fire, if one existed
    watch.assert_no_script_ran(page)
    assert not all_dialogs, f"a dialog opened during the session: {all_dialogs}"


def visit_every_other_view(page: Page, name: str) -> None:
    """Radar and explorer on ``name``, the saved answer reopened in history, the observatory;
    each view that shows sentences must show the hostile one, literally."""
    payload = "<script>alert(1)</script>"
    page.get_by_role("tab", name="Impact radar").click()
    _find_and_pick(page, "input[placeholder='a name, e.g. origin-mapper']", "Find", name)
    expect(_visible(page, ".zehn-sentence").filter(has_text=payload).first).to_be_visible()

    page.get_by_role("tab", name="Explorer").click()
    box = "input[placeholder='text naming entities, e.g. Redwood Inference']"
    _find_and_pick(page, box, "Search", name)
    expect(_visible(page, "td").filter(has_text=payload).first).to_be_visible()

    page.get_by_role("tab", name="History").click()
    page.get_by_role("button", name=re.compile(r"Reopen$")).click()
    expect(_visible(page, ".zehn-reopened q").filter(has_text=payload).first).to_be_visible()

    page.get_by_role("tab", name="Observatory").click()
    expect(_visible(page, ".zehn-panel").first).to_be_visible()


def _find_and_pick(page: Page, box: str, button: str, name: str) -> None:
    """Type ``name``, press the view's find button, choose the entity it offers."""
    _visible(page, box).fill(name)
    _visible(page, "button").filter(has_text=re.compile(rf"^\W*{button}$")).click()
    picker = page.locator(".widget-dropdown", has_text="Entity").filter(visible=True)
    option = picker.locator("option", has_text=f"{name} (")
    expect(option).to_have_count(1)
    picker.locator("select").select_option(label=option.inner_text())
