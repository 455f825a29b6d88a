"""Screenshot of the workbench for the README: docs/img/workbench.png.

Builds the sample graph in a temporary ZEHN_HOME (with the sample's hand audit labels, as
``zehn demo`` does), serves notebooks/00_workbench.ipynb with Voila on 127.0.0.1 the way
tests/browser/ does, asks "If I change origin-mapper, what breaks?" in the Ask view with
Debian's headless Chromium (``/usr/bin/chromium``; never ``playwright install``), and saves
a PNG. Run from the repository root::

    .venv/bin/python scripts/screenshot_workbench.py [--out docs/img/workbench.png]

The temporary ZEHN_HOME, its FalkorDB server and the Voila server are removed at the end.
"""

from __future__ import annotations

import argparse
import io
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/00_workbench.ipynb"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-sync",
    "--disable-background-networking",
    "--disable-component-update",
]
QUESTION = "If I change origin-mapper, what breaks?"
TIMEOUT_MS = 120_000
MAX_BYTES = 400_000
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


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _build_sample(env: dict[str, str]) -> None:
    """The sample graph and its hand audit, in the temporary ZEHN_HOME (a child process)."""
    code = (
        "import zehn\n"
        "from zehn.corpus.sample import SAMPLE_AUDIT_LABELS\n"
        "from zehn.review.audit import AuditStore\n"
        "print(zehn.ingest('data/sample', 'sample').graph)\n"
        "AuditStore(zehn.connect()).import_csv(SAMPLE_AUDIT_LABELS)\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, check=True)


def _start_voila(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "voila",
        NOTEBOOK,
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        "--Voila.token=",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"voila exited with {process.returncode}:\n{log.read_text()}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/", timeout=2).close()
            return process
        except urllib.error.HTTPError:
            return process  # any HTTP status: the server is up
        except OSError:
            time.sleep(0.25)
    raise SystemExit(f"voila did not answer within 120 s:\n{log.read_text()}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)  # voila shuts its kernels down on SIGTERM
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(20)


def _stop_server(env: dict[str, str]) -> None:
    code = "from zehn.store.server import ManagedServer; import os, pathlib\n"
    code += "ManagedServer(pathlib.Path(os.environ['ZEHN_HOME'])).stop()\n"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, check=False)


def _shoot(url: str, out: Path, max_height: int) -> None:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(url)
            box = page.get_by_placeholder("If I change origin-mapper")
            expect(box).to_be_visible()
            box.fill(QUESTION)
            page.get_by_role("button", name="Ask").filter(visible=True).first.click()
            status = page.locator(".zehn-status[data-status]").filter(visible=True)
            expect(status).to_have_attribute("data-status", "answered")
            iframe = page.locator("iframe.zehn-graph").filter(visible=True)
            expect(iframe).to_have_count(1)
            frame = iframe.element_handle().content_frame()
            if frame is not None:
                frame.wait_for_function("typeof network !== 'undefined' && network && network.body")
            for _ in range(4):  # Voila scrolls inside a container: grow the viewport instead
                hidden = int(page.evaluate(_HIDDEN_HEIGHT))
                size = page.viewport_size or {"width": 1280, "height": 1000}
                height = min(size["height"] + hidden, max_height)
                if hidden <= 0 or height == size["height"]:
                    break
                page.set_viewport_size({"width": size["width"], "height": height})
                page.wait_for_timeout(500)
            page.wait_for_timeout(3000)  # let the graph's physics settle
            page.screenshot(path=str(out), full_page=False)
        finally:
            browser.close()


def _shrink(path: Path) -> None:
    """Keep the PNG small: an adaptive palette (text and the graph survive it well)."""
    from PIL import Image

    image = Image.open(path).convert("RGB")
    for colours in (256, 128, 64):
        buffer = io.BytesIO()
        image.quantize(colours, method=Image.Quantize.MEDIANCUT).save(buffer, "PNG", optimize=True)
        if buffer.tell() <= MAX_BYTES or colours == 64:
            path.write_bytes(buffer.getvalue())
            return


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img" / "workbench.png")
    parser.add_argument("--max-height", type=int, default=2400, help="pixels (width 1280)")
    args = parser.parse_args()
    out = args.out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="zehn-shot-") as tmp:
        home = Path(tmp) / "home"
        jupyter = Path(tmp) / "jupyter"
        env = {
            **os.environ,
            "ZEHN_HOME": str(home),
            "JUPYTER_CONFIG_DIR": str(jupyter / "config"),
            "JUPYTER_DATA_DIR": str(jupyter / "data"),
            "JUPYTER_RUNTIME_DIR": str(jupyter / "runtime"),
            "IPYTHONDIR": str(jupyter / "ipython"),
            "JUPYTER_PLATFORM_DIRS": "1",
        }
        env.pop("FALKORDB_URL", None)  # always the managed server in the temporary home
        env.pop("ZEHN_GRAPH", None)
        try:
            _build_sample(env)
            port = _free_port()
            voila = _start_voila(env, port, Path(tmp) / "voila.log")
            try:
                _shoot(f"http://127.0.0.1:{port}/", out, args.max_height)
            finally:
                _stop(voila)
        finally:
            _stop_server(env)
    _shrink(out)
    print(f"saved {out} ({out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
