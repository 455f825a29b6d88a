"""Real-corpus questions in the browser: the workbench over ``otel-demo__rules``.

The graph is built from the shared OpenTelemetry demo docs (the corpus the otel-demo
gold names), so these answers are the ones a person gets on real documents, not on the
hand-written sample. Two views of the Ask tab are checked, by what a person sees:

* a two-part question whose first part is answered and second abstained on: each part
  as ``li.zehn-part[data-status]`` with its own status, the overall status badge, the
  numbered citations, and the abstained part's reason;
* an attribute question the graph cannot answer (a port): "I don't know", the reason,
  and the ``Related`` context with its quotes, those found by sentence search marked
  ``found by search`` and the one found by a graph edge left unmarked.

The full-page screenshot of each test lands in the artifacts folder (see conftest);
``docs/img/two-part-answer.png`` is a copy of the first one.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.test_workbench import ASK_BUTTON, open_workbench

if TYPE_CHECKING:
    from tests.browser.conftest import VoilaServer, Watch

pytestmark = pytest.mark.browser

GRAPH = "otel-demo__rules"
# On otel-demo__rules: part 1 follows checkout's CALLS edges (answered, cited); part 2 asks
# for a port, an attribute the graph does not hold (abstained, with its reason).
TWO_PART_QUESTION = (
    "What does the checkout service call, and what port does the email service listen on?"
)
FIRST_PART = "What does the checkout service call?"
SECOND_PART = "what port does the email service listen on?"
# Abstained on (a port); the related context holds one graph edge (flagd FEEDS
# otel-collector) and sentences found by full-text search, one of them the OFREP port row.
ATTRIBUTE_QUESTION = "What port does flagd listen on?"
SEARCH_FOUND_QUOTE = "FLAGD_OFREP_PORT"


def _visible(page: Page, selector: str) -> Locator:
    """Elements a person can see: the workbench's hidden tabs hold the same classes."""
    return page.locator(selector).filter(visible=True)


def _ask(page: Page, question: str, timings: dict[str, float], key: str) -> Locator:
    """Ask ``question`` on a fresh page; return the visible answer once it is shown."""
    box = page.get_by_placeholder("If I change origin-mapper")
    expect(box).to_be_visible()
    box.fill(question)
    asked = time.monotonic()
    page.get_by_role("button", name=ASK_BUTTON).click()
    answer = _visible(page, ".zehn-answer")
    expect(answer).to_have_count(1)
    timings[key] = time.monotonic() - asked
    return answer


def test_two_part_question_shows_each_part_with_its_status_and_citations(
    otel_page: Page, otel_voila: VoilaServer, timings: dict[str, float], watch: Watch
) -> None:
    page = otel_page
    open_workbench(page, otel_voila, timings)
    expect(page.get_by_text(GRAPH).first).to_be_visible()
    answer = _ask(page, TWO_PART_QUESTION, timings, "otel-demo: ask two-part -> answer shown")

    status = answer.locator(".zehn-status[data-status]")  # one part answered: answered overall
    expect(status).to_have_attribute("data-status", "answered")
    expect(status).to_have_text("Answered")

    parts = answer.locator("li.zehn-part")
    expect(parts).to_have_count(2)
    statuses = parts.evaluate_all("items => items.map(i => i.dataset.status)")
    assert statuses == ["answered", "abstained"], statuses
    expect(parts.locator(".zehn-part-status")).to_have_text(["answered", "abstained"])
    expect(parts.locator(".zehn-part-question")).to_have_text([FIRST_PART, SECOND_PART])

    first, second = parts.nth(0), parts.nth(1)
    expect(first.locator(".zehn-part-answer")).to_contain_text("checkout CALLS")
    expect(first.locator(".zehn-part-reason")).to_have_count(0)
    markers = first.locator(".zehn-part-answer .zehn-marker")
    expect(markers.first).to_be_visible()
    expect(second.locator(".zehn-part-answer")).to_have_text("I don't know")
    reason = second.locator(".zehn-part-reason")
    expect(reason).to_be_visible()
    expect(reason).to_contain_text("port")
    expect(reason).to_contain_text("email")

    citations = answer.locator(".zehn-citations .zehn-citation")
    expect(citations.first).to_be_visible()
    numbers = citations.evaluate_all("items => items.map(i => i.getAttribute('data-n'))")
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)], numbers
    marked = markers.evaluate_all("items => items.map(i => i.getAttribute('data-n'))")
    assert set(marked) <= set(numbers) and len(marked) == len(numbers), (marked, numbers)
    quotes = [q.strip() for q in citations.locator(".zehn-quote").all_inner_texts()]
    # Each quote is a stored source line that names checkout (a diagram line or a row of
    # the services table), never a paraphrase of the edge.
    assert quotes and all("checkout" in q for q in quotes), quotes
    assert not any(" CALLS " in q for q in quotes), quotes
    watch.assert_no_script_ran(page)


def test_attribute_question_says_i_dont_know_and_shows_related_context_marked(
    otel_page: Page, otel_voila: VoilaServer, timings: dict[str, float], watch: Watch
) -> None:
    page = otel_page
    open_workbench(page, otel_voila, timings)
    answer = _ask(page, ATTRIBUTE_QUESTION, timings, "otel-demo: ask attribute -> answer shown")

    expect(answer.locator(".zehn-status[data-status]")).to_have_attribute(
        "data-status", "abstained"
    )
    expect(answer.locator(".zehn-idk")).to_have_text("I don't know")
    reason = answer.locator(".zehn-reason")
    expect(reason).to_contain_text("Why:")
    expect(reason).to_contain_text("port of flagd")
    expect(reason).to_contain_text("related sentences are listed as context")
    expect(answer.locator(".zehn-citations")).to_have_count(0)  # nothing shown as the answer

    related = answer.locator("details.zehn-related")
    expect(related).to_be_visible()
    expect(related.locator("summary")).to_contain_text("not the answer")
    items = related.locator(".zehn-related-item")
    expect(items.first).to_be_visible()
    expect(items.filter(has_text="flagd FEEDS otel-collector")).to_have_count(1)
    quotes = related.locator("ol.zehn-related-citations .zehn-citation")
    expect(quotes.first).to_be_visible()
    assert quotes.count() >= 2, quotes.all_inner_texts()
    numbers = quotes.evaluate_all("items => items.map(i => i.getAttribute('data-n'))")
    assert numbers == [str(n) for n in range(1, len(numbers) + 1)], numbers
    for item in items.all_inner_texts():  # every line of context cites a shown quote
        cited = re.findall(r"\[(\d+)\]", item)
        assert cited and set(cited) <= set(numbers), (item, numbers)

    searched = quotes.filter(has=page.locator('.zehn-found-by[data-found-by="search"]'))
    by_search = searched.filter(has_text=SEARCH_FOUND_QUOTE)
    expect(by_search).to_have_count(1)
    mark = by_search.locator(".zehn-found-by")
    expect(mark).to_be_visible()
    expect(mark).to_have_text("found by search")
    edge_quote = quotes.filter(has_text="export flagd traces to otel collector")
    expect(edge_quote).to_have_count(1)  # found by the graph edge: no mark
    expect(edge_quote.locator(".zehn-found-by")).to_have_count(0)
    watch.assert_no_script_ran(page)
