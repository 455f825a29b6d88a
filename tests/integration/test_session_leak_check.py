"""The suite's own guard: a FalkorDB server a test leaves running fails the run.

A nested pytest session (in a folder of its own under the repository, so the root
conftest.py applies) runs one test that starts a managed server and never stops it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.conftest import REPO
from zehn.store import processes

pytestmark = pytest.mark.integration

LEAKY_TEST = """\
import os
from pathlib import Path
from zehn.store.server import ManagedServer

def test_starts_a_server_and_forgets_it(tmp_path):
    info = ManagedServer(tmp_path).ensure()
    Path(os.environ["LEAK_REPORT"]).write_text(info.data_dir)
"""


def test_a_server_left_running_fails_the_run_and_is_ended(tmp_path: Path) -> None:
    folder = REPO / f".leak-check-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    report = tmp_path / "data_dir.txt"
    env = {key: value for key, value in os.environ.items() if key != "ZEHN_TEST_SESSION"}
    env["LEAK_REPORT"] = str(report)
    try:
        (folder / "test_leaky.py").write_text(LEAKY_TEST)
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert "1 passed" in run.stdout, run.stdout + run.stderr
    assert run.returncode == pytest.ExitCode.TESTS_FAILED
    data_dir = report.read_text()
    assert "FalkorDB servers left running by the suite (now ended): pid" in run.stdout
    assert data_dir in run.stdout
    assert processes.servers_in(Path(data_dir)) == []
