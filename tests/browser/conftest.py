"""Real-browser fixtures: the workbench notebook served by Voila, driven by headless Chromium.

Chromium is Debian's ``/usr/bin/chromium`` (``scripts/install-browser.sh``), never a
``playwright install`` download. The graphs live in the session's temporary
``ZEHN_HOME`` (root conftest.py); Voila and its kernels inherit it, so the notebook's
``Settings.from_env()`` finds them. Jupyter's own directories point into a temporary
folder too, so a user's Jupyter configuration or kernels never leak in.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from zehn.config import Settings
from zehn.evaluate.gold import load_gold
from zehn.extract.pipeline import build_graph
from zehn.store.client import GraphClient

REPO = Path(__file__).resolve().parents[2]
SAMPLE_DIR = REPO / "data" / "sample"
OTEL_GOLD = REPO / "data" / "gold" / "otel-demo" / "relations.yaml"  # its `corpus:` names the docs
NOTEBOOK = "notebooks/00_workbench.ipynb"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PAGE_TIMEOUT_MS = 60_000  # the first kernel start (imports, server connect) is slow
SERVER_START_S = 120
SERVER_STOP_S = 20
HOSTILE_TEXT = (
    'The indexer feeds search-api. <script>alert(1)</script> "><img src=x onerror=alert(2)> '
    "[x](javascript:alert(3))"
)
# A co-mention that states nothing: the co-occurrence strategy still makes it an edge,
# which the grader labels inferred, so this graph's answers draw a dashed edge too.
CO_MENTION = (
    "The origin-mapper and indexer dashboards were reviewed together during the January "
    "reliability week."
)
HOSTILE_GRAPH = "hostile__cooccurrence"
SCREENSHOT_MAX_HEIGHT = 8000
# How much of the page's tallest scrolling container lies beyond the viewport.
_HIDDEN_HEIGHT = """() => {
  let hidden = 0;
  for (const el of document.querySelectorAll("*")) {
    const overflow = getComputedStyle(el).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && el.scrollHeight > el.clientHeight) {
      hidden = Math.max(hidden, el.scrollHeight - el.clientHeight);
    }
  }
  return hidden;
}"""
# Installed in every frame (the graph iframe is sandboxed without allow-modals, so an
# alert() there would be swallowed silently instead of raising a dialog event).
_ALERT_TRAP = """(() => {
  window.__zehnAlerts = [];
  for (const name of ["alert", "confirm", "prompt"]) {
    const original = window[name];
    window[name] = function (message) {
      window.__zehnAlerts.push(name + ":" + String(message));
      try { return original.apply(window, arguments); } catch (e) { return undefined; }
    };
  }
})();"""
expect.set_options(timeout=PAGE_TIMEOUT_MS)  # expect() has its own 5 s default


@pytest.fixture(scope="package", autouse=True)
def _needs_chromium() -> None:
    """Skip, saying why, only when Debian's Chromium is not installed (CI installs it)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: run scripts/install-browser.sh")


# --- artifacts --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Screenshots go to ``$ZEHN_ARTIFACTS`` if set, else ``<repo>/.artifacts/browser``."""
    configured = os.environ.get("ZEHN_ARTIFACTS")
    directory = Path(configured) if configured else REPO / ".artifacts" / "browser"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


# --- graphs -----------------------------------------------------------------------------


@pytest.fixture(scope="package")
def sample_graph(settings: Settings) -> Iterator[str]:
    """``sample__rules`` in the session's ZEHN_HOME: the notebook's default graph."""
    yield from _built(settings, "sample", SAMPLE_DIR, "rules")


@pytest.fixture(scope="package")
def hostile_graph(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A tmp corpus (the sample catalog) whose cited sentence carries script, markup, a js: link.

    Built with the co-occurrence strategy, so asking what breaks if the indexer changes
    draws one supported edge (the hostile sentence) and one inferred edge (the co-mention).
    """
    corpus = tmp_path_factory.mktemp("hostile-corpus")
    shutil.copy(SAMPLE_DIR / "catalog.yaml", corpus / "catalog.yaml")
    (corpus / "sources").mkdir()
    (corpus / "sources" / "evil.md").write_text(HOSTILE_TEXT + "\n", encoding="utf-8")
    (corpus / "sources" / "dashboards.md").write_text(CO_MENTION + "\n", encoding="utf-8")
    for graph in _built(settings, "hostile", corpus, "cooccurrence"):
        assert graph == HOSTILE_GRAPH
        yield graph


@pytest.fixture(scope="package")
def otel_graph(settings: Settings) -> Iterator[str]:
    """``otel-demo__rules``: the real shared corpus that the otel-demo gold names under
    ``corpus:``; skipped, saying why, where that corpus is not checked out."""
    if not OTEL_GOLD.is_file():
        pytest.skip(f"{OTEL_GOLD} is missing")
    root = load_gold(OTEL_GOLD).corpus_root
    if root is None or not root.is_dir():
        pytest.skip(f"the otel-demo corpus ({root}, named by {OTEL_GOLD.name}) is not here")
    yield from _built(settings, "otel-demo", root, "rules")


def _built(settings: Settings, corpus: str, path: Path, strategy: str) -> Iterator[str]:
    """Build ``<corpus>__<strategy>``; delete it afterwards unless it was there before."""
    client = GraphClient.connect(settings)
    try:
        existed = client.graph_exists(f"{corpus}__{strategy}")
        graph = build_graph(client, corpus, path, strategy, settings).graph
        yield graph
        if not existed and client.graph_exists(graph):
            client.delete_graph(graph)
    finally:
        client.close()


# --- Voila ------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` (the kernels Voila launched in their own sessions)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...; comm may contain spaces and parentheses
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def isolated_jupyter_env(folder: Path) -> dict[str, str]:
    """The environment with Jupyter's and IPython's config, data and runtime folders under
    ``folder``: a server started by a test never reads or writes the user's own."""
    return {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(folder / "config"),
        "JUPYTER_DATA_DIR": str(folder / "data"),
        "JUPYTER_RUNTIME_DIR": str(folder / "runtime"),
        "IPYTHONDIR": str(folder / "ipython"),
        "JUPYTER_PLATFORM_DIRS": "1",
    }


@dataclass
class VoilaServer:
    """One ``voila`` process serving the workbench notebook on a loopback port."""

    name: str
    workdir: Path
    env_overrides: dict[str, str] = field(default_factory=dict)
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    ready_s: float = 0.0
    _kernels: set[int] = field(default_factory=set)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def log_path(self) -> Path:
        return self.workdir / f"voila-{self.name}.log"

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def start(self) -> None:
        env = {
            **isolated_jupyter_env(self.workdir / f"jupyter-{self.name}"),
            "PYTHONUNBUFFERED": "1",
            **self.env_overrides,
        }
        self.port = _free_port()
        command = [
            sys.executable,
            "-m",
            "voila",
            NOTEBOOK,
            "--no-browser",
            f"--port={self.port}",
            "--Voila.ip=127.0.0.1",
            "--Voila.port_retries=0",  # fail loudly rather than serve on another port
            "--Voila.token=",
            "--show_tracebacks=True",
        ]
        self.started_at = time.monotonic()
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                command,
                cwd=REPO,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = self.started_at + SERVER_START_S
        while True:
            if self.process.poll() is not None:
                pytest.fail(
                    f"voila exited with {self.process.returncode} before answering:\n"
                    f"{self.log_tail()}",
                    pytrace=False,
                )
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail(
                    f"voila did not answer HTTP within {SERVER_START_S} s:\n{self.log_tail()}",
                    pytrace=False,
                )
            if self._answers():
                break
            time.sleep(0.25)
        self.ready_s = time.monotonic() - self.started_at

    def _answers(self) -> bool:
        # not "/": that would render the notebook and start a kernel just to probe
        try:
            urllib.request.urlopen(self.url + "voila/static/", timeout=2).close()
        except urllib.error.HTTPError:
            return True  # any HTTP status means the server is up
        except OSError:
            return False
        return True

    def note_kernels(self) -> None:
        """Remember the kernels now running, to be sure they die with the server."""
        if self.process is not None and self.process.poll() is None:
            self._kernels.update(_children(self.process.pid))

    def stop(self) -> None:
        process = self.process
        if process is None:
            return
        self.note_kernels()
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)  # voila shuts its kernels down on SIGTERM
            try:
                process.wait(SERVER_STOP_S)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(SERVER_STOP_S)
        for pid in self._kernels:
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue  # already gone
            if b"ipykernel" in cmdline:  # still our kernel, not a reused pid
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    os.kill(pid, signal.SIGKILL)
        self.process = None


def _serve(
    name: str, workdir: Path, env: dict[str, str], timings: dict[str, float]
) -> Iterator[VoilaServer]:
    server = VoilaServer(name, workdir, env)
    try:
        server.start()
        timings[f"{name}: voila answering HTTP"] = server.ready_s
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="package")
def timings(artifacts_dir: Path) -> Iterator[dict[str, float]]:
    """Wall times (seconds) the tests note; printed and saved as timings.json at the end."""
    noted: dict[str, float] = {}
    started = time.monotonic()
    yield noted
    noted["browser fixtures + tests, total"] = time.monotonic() - started
    (artifacts_dir / "timings.json").write_text(json.dumps(noted, indent=2) + "\n")
    report = "\n".join(f"  {key}: {value:.1f} s" for key, value in noted.items())
    print(f"\nbrowser timings:\n{report}", file=sys.__stderr__)


@pytest.fixture(scope="package")
def voila(
    sample_graph: str, tmp_path_factory: pytest.TempPathFactory, timings: dict[str, float]
) -> Iterator[VoilaServer]:
    """The workbench notebook on the sample graph (the notebook's default settings)."""
    yield from _serve("workbench", tmp_path_factory.mktemp("voila"), {}, timings)


@pytest.fixture(scope="package")
def hostile_voila(
    hostile_graph: str, tmp_path_factory: pytest.TempPathFactory, timings: dict[str, float]
) -> Iterator[VoilaServer]:
    """The same notebook on the hostile graph, chosen the way a user would: ``ZEHN_GRAPH``."""
    env = {"ZEHN_GRAPH": hostile_graph}
    yield from _serve("hostile", tmp_path_factory.mktemp("voila"), env, timings)


@pytest.fixture(scope="package")
def otel_voila(
    otel_graph: str, tmp_path_factory: pytest.TempPathFactory, timings: dict[str, float]
) -> Iterator[VoilaServer]:
    """The notebook on the real otel-demo graph, chosen like the hostile one: ``ZEHN_GRAPH``."""
    env = {"ZEHN_GRAPH": otel_graph}
    yield from _serve("otel-demo", tmp_path_factory.mktemp("voila"), env, timings)


# --- the browser ------------------------------------------------------------------------


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@dataclass
class Watch:
    """What a page did besides rendering: dialogs, trapped alert() calls, uncaught JS errors."""

    dialogs: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def alerts_in_frames(self, page: Page) -> list[str]:
        calls: list[str] = []
        for frame in page.frames:
            try:
                calls.extend(frame.evaluate("window.__zehnAlerts || []"))
            except Exception:  # a frame that navigated away or closed meanwhile
                continue
        return calls

    def assert_no_script_ran(self, page: Page) -> None:
        trapped = self.alerts_in_frames(page)
        assert not self.dialogs, f"a dialog opened: {self.dialogs}"
        assert not trapped, f"alert/confirm/prompt was called in a frame: {trapped}"
        assert not self.page_errors, f"uncaught errors in the page: {self.page_errors}"


@pytest.fixture(scope="package")
def all_dialogs() -> list[str]:
    """Every dialog any page of the session opened (test e asserts this stays empty)."""
    return []


def _open_page(browser: Browser, watch: Watch, all_dialogs: list[str]) -> tuple[Any, Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.add_init_script(_ALERT_TRAP)
    page = context.new_page()
    page.set_default_timeout(PAGE_TIMEOUT_MS)

    def on_dialog(dialog: Any) -> None:
        text = f"{dialog.type}: {dialog.message}"
        watch.dialogs.append(text)
        all_dialogs.append(text)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.on("pageerror", lambda error: watch.page_errors.append(str(error)))
    return context, page


def _screenshot(page: Page, directory: Path, node_name: str) -> None:
    """Full page: Voila scrolls inside a container, so grow the viewport to show all of it."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", node_name)
    try:
        for _ in range(4):  # an iframe laid out late can add height after the first grow
            hidden = int(page.evaluate(_HIDDEN_HEIGHT))
            size = page.viewport_size or {"width": 1280, "height": 1000}
            height = min(size["height"] + hidden, SCREENSHOT_MAX_HEIGHT)
            if hidden <= 0 or height == size["height"]:
                break
            page.set_viewport_size({"width": size["width"], "height": height})
            page.wait_for_timeout(500)  # let the layout settle at the new size
        page.screenshot(path=str(directory / f"{stem}.png"), full_page=True)
    except Exception as e:  # a screenshot must never hide the test's own outcome
        print(f"screenshot of {node_name} failed: {e}", file=sys.__stderr__)


@pytest.fixture
def watch() -> Watch:
    """What this test's page did (dialogs, page errors); ``page`` and ``hostile_page`` fill it."""
    return Watch()


@pytest.fixture
def page(
    request: pytest.FixtureRequest,
    browser: Browser,
    voila: VoilaServer,
    artifacts_dir: Path,
    all_dialogs: list[str],
    watch: Watch,
) -> Iterator[Page]:
    """A fresh page (and kernel) on the workbench; a full-page screenshot after the test."""
    yield from _page_on(voila, request, browser, artifacts_dir, all_dialogs, watch)


@pytest.fixture
def hostile_page(
    request: pytest.FixtureRequest,
    browser: Browser,
    hostile_voila: VoilaServer,
    artifacts_dir: Path,
    all_dialogs: list[str],
    watch: Watch,
) -> Iterator[Page]:
    """A fresh page on the workbench served over the hostile graph."""
    yield from _page_on(hostile_voila, request, browser, artifacts_dir, all_dialogs, watch)


@pytest.fixture
def otel_page(
    request: pytest.FixtureRequest,
    browser: Browser,
    otel_voila: VoilaServer,
    artifacts_dir: Path,
    all_dialogs: list[str],
    watch: Watch,
) -> Iterator[Page]:
    """A fresh page on the workbench served over the real otel-demo graph."""
    yield from _page_on(otel_voila, request, browser, artifacts_dir, all_dialogs, watch)


def _page_on(
    server: VoilaServer,
    request: pytest.FixtureRequest,
    browser: Browser,
    artifacts_dir: Path,
    all_dialogs: list[str],
    watch: Watch,
) -> Iterator[Page]:
    context, opened = _open_page(browser, watch, all_dialogs)
    try:
        opened.goto(server.url)
        yield opened
    finally:
        server.note_kernels()
        _screenshot(opened, artifacts_dir, request.node.name)
        context.close()
