"""The Corpus tab in a real browser: a folder with broken files built into a graph.

The folder holds invented notes that read fine and files that cannot be read (bad
UTF-8, empty, malformed JSON, a name carrying markup). A person types the folder's
path, names the corpus and presses Build; the build finishes, every broken file is
listed with its reason, every other file is in the new graph, the sample graph the
page started on is untouched, and the new graph answers in the Ask tab. A build of a
graph another build holds is refused on the page, naming that build, without a
traceback. With ``ZEHN_DOCS_IMG=1`` the screenshots also go to ``docs/img/``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.conftest import (
    PAGE_TIMEOUT_MS,
    SERVER_START_S,
    _free_port,
    _screenshot,
    isolated_jupyter_env,
)
from tests.browser.test_workbench import ASK_BUTTON, ask, open_workbench
from zehn.config import Settings
from zehn.store.client import GraphClient
from zehn.store.lock import BuildLock

if TYPE_CHECKING:
    from tests.browser.conftest import VoilaServer, Watch

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
DOCS_IMG = REPO / "docs" / "img"
CORPUS = "broken-docs"
GRAPH = f"{CORPUS}__rules"
GOOD = {
    "notes/ledger.md": "# Ledger\n\nThe abacus-api service reads from the tally-store database.\n",
    "notes/coins.md": "# Coins\n\nThe abacus-api service publishes to the coins topic.\n",
    "notes/quill.md": "# Quill\n\nThe quill-worker service depends on the abacus-api service.\n",
}
BROKEN = {
    "notes/latin1.md": b"caf\xe9 \xff\xfe not utf-8",
    "notes/empty.md": b"",
    "tickets/export.json": b'{"issues": [ {"key": "X-1", ',
    "notes/<img src=x onerror=alert(7)>.md": b"",
}
QUESTION = "If I change abacus-api, what breaks?"


def _visible(page: Page, selector: str) -> Locator:
    return page.locator(selector).filter(visible=True)


@pytest.fixture
def broken_folder(tmp_path: Path, client: GraphClient) -> Iterator[Path]:
    for name, text in GOOD.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    for name, data in BROKEN.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    if client.graph_exists(GRAPH):
        client.delete_graph(GRAPH)
    yield tmp_path
    if client.graph_exists(GRAPH):
        client.delete_graph(GRAPH)


def _fill_corpus_form(page: Page, folder: Path) -> None:
    page.get_by_role("tab", name="Corpus").click()
    _visible(page, ".zehn-corpus-folder input").fill(str(folder))
    name = _visible(page, ".zehn-corpus-name input")
    name.fill(CORPUS)
    expect(name).to_have_value(CORPUS)


def keep_screenshot(page: Page, artifacts_dir: Path, stem: str) -> None:
    """The whole page into the artifacts folder, and into docs/img with ``ZEHN_DOCS_IMG=1``."""
    _screenshot(page, artifacts_dir, stem)
    if os.environ.get("ZEHN_DOCS_IMG") == "1":
        shutil.copy(artifacts_dir / f"{stem}.png", DOCS_IMG / f"{stem}.png")


def test_a_folder_with_broken_files_builds_and_lists_them_with_reasons(
    page: Page,
    voila: VoilaServer,
    sample_graph: str,
    timings: dict[str, float],
    watch: Watch,
    settings: Settings,
    client: GraphClient,
    broken_folder: Path,
    artifacts_dir: Path,
) -> None:
    sample_documents = client.read(sample_graph, "MATCH (d:Document) RETURN count(d)").scalar()
    open_workbench(page, voila, timings)
    _fill_corpus_form(page, broken_folder)

    # another build holds the graph: the page names it, shows no traceback, builds nothing
    with BuildLock(client, GRAPH).held(wait_s=0) as running:
        _visible(page, "button.zehn-corpus-build").click()
        error = _visible(page, ".zehn-error")
        expect(error).to_contain_text("BuildInProgress")
        expect(error).to_contain_text(f"pid {running.me.pid}")
    expect(page.get_by_text("Traceback")).to_have_count(0)
    assert not client.graph_exists(GRAPH)

    _visible(page, "button.zehn-corpus-build").click()  # free now: the same click builds
    done = _visible(page, ".zehn-build-status[data-state='done']")
    expect(done).to_contain_text(f"built {GRAPH}")
    skipped = _visible(page, ".zehn-skipped")
    expect(skipped).to_have_attribute("data-count", str(len(BROKEN)))
    rows = _visible(page, ".zehn-skipped-file")
    expect(rows).to_have_count(len(BROKEN))
    listed = {row.locator("td").first.inner_text().strip(): row for row in rows.all()}
    assert set(listed) == set(BROKEN), listed.keys()
    for name, row in listed.items():
        reason = row.locator("td").nth(1).inner_text().strip()
        assert reason, f"{name} is listed without a reason"
    assert "UTF-8" in listed["notes/latin1.md"].inner_text() or "utf-8" in (
        listed["notes/latin1.md"].inner_text().lower()
    )
    health = _visible(page, f".zehn-health[data-graph='{GRAPH}']")
    expect(health).to_contain_text(f"{len(GOOD)} documents from {len(GOOD) + len(BROKEN)} files")
    expect(health).to_contain_text("READS_FROM")
    expect(_visible(page, ".zehn-active-graph")).to_have_text(GRAPH)
    bars = page.locator(".zehn-stage .progress-bar-success").filter(visible=True)
    expect(bars).to_have_count(4)  # files, sentences, extraction, swap: all complete
    keep_screenshot(page, artifacts_dir, "corpus-build")

    # nothing else is lost: every readable file is in the new graph, the sample untouched
    titles = client.read(GRAPH, "MATCH (d:Document) RETURN d.title ORDER BY d.title").rows
    assert [t for (t,) in titles] == ["Coins", "Ledger", "Quill"]
    assert client.read(sample_graph, "MATCH (d:Document) RETURN count(d)").scalar() == (
        sample_documents
    )

    page.get_by_role("tab", name="Ask").click()  # the new graph is the one Ask asks
    status = ask(page, QUESTION)
    expect(status).to_have_attribute("data-status", re.compile("answered|abstained"))
    expect(_visible(page, ".zehn-log")).to_contain_text("find_entities")
    for frame in page.frames:
        assert frame.locator("img[src='x']").count() == 0, "the file name's markup ran"
    watch.assert_no_script_ran(page)


def test_make_demo_lands_on_the_working_workbench_with_the_notebooks_a_link_away(
    browser: Browser,
    sample_graph: str,
    tmp_path: Path,
    timings: dict[str, float],
    artifacts_dir: Path,
) -> None:
    """What ``make demo`` starts after the terminal demo (``zehn lab --app``, headless): the
    URL it prints opens the workbench already rendered, and its link opens JupyterLab."""
    port = _free_port()
    env = isolated_jupyter_env(tmp_path / "jupyter")
    log = tmp_path / "lab.log"
    started = time.monotonic()
    with log.open("wb") as out:
        lab = subprocess.Popen(
            [sys.executable, "-m", "zehn.cli", "lab", "--app", "--no-browser", f"--port={port}"],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        url = _printed_url(lab, log, port)
        assert "/voila/render/00_workbench.ipynb" in url, url
        page = context.new_page()
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        page.goto(url)
        expect(page.get_by_role("button", name=ASK_BUTTON)).to_be_visible()
        timings["zehn lab --app: start -> workbench rendered"] = time.monotonic() - started
        expect(page.get_by_text("What to do first:")).to_be_visible()
        expect(page.get_by_text("open_session()")).to_have_count(0)  # no code cell shown
        keep_screenshot(page, artifacts_dir, "first-screen")
        page.get_by_role("link", name="open them in JupyterLab").click()
        expect(page).to_have_url(re.compile(r"/lab/tree/07_your_corpus\.ipynb"))
        expect(page.locator(".jp-Notebook").first).to_be_visible()
        title = page.locator(".jp-RenderedMarkdown h1").filter(has_text="Your corpus")
        expect(title.filter(visible=True).first).to_be_visible()
    finally:
        context.close()
        lab.send_signal(signal.SIGTERM)  # JupyterLab shuts its kernels down on SIGTERM
        try:
            lab.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(lab.pid, signal.SIGKILL)
            lab.wait(20)


def _printed_url(lab: subprocess.Popen[bytes], log: Path, port: int) -> str:
    """The URL (with its token) JupyterLab prints once it serves, as a newcomer would copy it."""
    deadline = time.monotonic() + SERVER_START_S
    pattern = re.compile(rf"http://127\.0\.0\.1:{port}/\S+")
    while time.monotonic() < deadline:
        found = pattern.search(log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return found.group(0)
        if lab.poll() is not None:
            break
        time.sleep(0.25)
    pytest.fail(f"zehn lab --app printed no URL:\n{log.read_text()[-3000:]}", pytrace=False)


def test_uploaded_files_are_built_and_a_bad_name_stores_nothing(
    page: Page,
    voila: VoilaServer,
    timings: dict[str, float],
    watch: Watch,
    settings: Settings,
    client: GraphClient,
    tmp_path: Path,
) -> None:
    corpus = "uploaded-notes"
    graph = f"{corpus}__rules"
    stored = Path(settings.home) / "uploads" / corpus
    good = tmp_path / "ledger.md"
    good.write_text(GOOD["notes/ledger.md"], encoding="utf-8")
    bad = tmp_path / "ledger..old.md"
    bad.write_text(GOOD["notes/coins.md"], encoding="utf-8")
    open_workbench(page, voila, timings)
    page.get_by_role("tab", name="Corpus", exact=True).click()
    _visible(page, "button.widget-toggle-button").filter(has_text="Upload files").click()
    _visible(page, ".zehn-corpus-name input").fill(corpus)

    def choose(*files: Path) -> None:
        with page.expect_file_chooser() as chooser:
            _visible(page, ".zehn-corpus-upload").click()
        chooser.value.set_files([str(f) for f in files])

    try:
        choose(good, bad)
        _visible(page, "button.zehn-corpus-build").click()
        error = _visible(page, ".zehn-error")
        expect(error).to_contain_text("ledger..old.md")
        expect(error).to_contain_text("may not contain")
        assert not stored.exists() or not any(stored.iterdir()), "a refused upload was stored"

        choose(good)
        _visible(page, "button.zehn-corpus-build").click()
        expect(_visible(page, ".zehn-build-status[data-state='done']")).to_contain_text(graph)
        assert (stored / "ledger.md").read_text(encoding="utf-8") == GOOD["notes/ledger.md"]
        assert client.read(graph, "MATCH (d:Document) RETURN count(d)").scalar() == 1
        watch.assert_no_script_ran(page)
    finally:
        if client.graph_exists(graph):
            client.delete_graph(graph)
        shutil.rmtree(stored, ignore_errors=True)


OTEL_DOCS = REPO.parent / "shared" / "corpora" / "otel-demo" / "docs"


@pytest.mark.skipif(not OTEL_DOCS.is_dir(), reason="../shared/corpora/otel-demo is absent")
def test_a_question_is_answered_while_the_otel_demo_docs_build(
    page: Page,
    voila: VoilaServer,
    sample_graph: str,
    timings: dict[str, float],
    client: GraphClient,
    tmp_path: Path,
) -> None:
    """The build runs in a child process (the CLI's own ingest): the kernel answers in the Ask
    tab meanwhile. The otel-demo docs are copied four times so that the build outlasts a
    question (one copy builds in about two seconds here)."""
    folder = tmp_path / "otel-x4"
    for n in range(4):
        shutil.copytree(OTEL_DOCS, folder / f"copy-{n}")
    graph = "otel-x4__rules"
    if client.graph_exists(graph):
        client.delete_graph(graph)
    open_workbench(page, voila, timings)
    page.get_by_role("tab", name="Corpus").click()
    _visible(page, ".zehn-corpus-folder input").fill(str(folder))
    _visible(page, ".zehn-corpus-name input").fill("otel-x4")
    _visible(page, "button.zehn-corpus-build").click()
    running = _visible(page, ".zehn-build-status[data-state='running']")
    expect(running).to_have_count(1)
    page.get_by_role("tab", name="Ask").click()
    status = ask(page, "If I change origin-mapper, what breaks?")  # the sample graph, active
    expect(status).to_have_attribute("data-status", "answered")
    page.get_by_role("tab", name="Corpus").click()
    # the answer came while the build still ran: its status had not turned to done yet
    assert _visible(page, ".zehn-build-status[data-state='done']").count() == 0, (
        "the build finished before the question was answered: make the corpus larger"
    )
    done = _visible(page, ".zehn-build-status[data-state='done']")
    expect(done).to_contain_text(f"built {graph}", timeout=120_000)
    expect(page.get_by_text("Traceback")).to_have_count(0)
    client.delete_graph(graph)
