"""Load: four processes asking questions against one server for 60 s; nothing fails, nothing is lost.

Runs the load generator exactly as a person would (``python -m benchmarks.load``)
against the session's server, and keeps its figures (throughput, p95, history
records written and found) in the reliability tally for docs/reliability.md.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO
from tests.reliability.conftest import TALLY
from zehn.store.server import ServerInfo

pytestmark = pytest.mark.integration

PROCESSES = 4
SECONDS = 60


def test_four_processes_for_sixty_seconds_lose_nothing(falkordb_server: ServerInfo) -> None:
    command = [sys.executable, "-m", "benchmarks.load", "--processes", str(PROCESSES),
               "--seconds", str(SECONDS), "--json"]  # fmt: skip
    done = subprocess.run(
        command, cwd=REPO, env=dict(os.environ), capture_output=True, text=True, timeout=400
    )
    assert done.stdout.strip(), f"no report (exit {done.returncode}):\n{done.stderr[-3000:]}"
    report = json.loads(done.stdout)
    figures = (
        f"{report['asked']} questions, {report['throughput_per_s']:.1f}/s, "
        f"p50 {report['p50_ms']:.0f} ms, p95 {report['p95_ms']:.0f} ms"
    )
    print(f"\nload: {figures}", file=sys.__stderr__)
    TALLY["load: processes"] = report["processes"]
    TALLY["load: seconds"] = int(report["seconds"])
    TALLY["load: questions asked"] = report["asked"]
    TALLY["load: throughput (questions/s x100)"] = round(report["throughput_per_s"] * 100)
    TALLY["load: p50 (ms)"] = round(report["p50_ms"])
    TALLY["load: p95 (ms)"] = round(report["p95_ms"])
    TALLY["load: errors"] = report["errors"]
    TALLY["load: history records written"] = report["history_written"]
    TALLY["load: history records found"] = report["history_found"]
    TALLY["lost: history records under load"] = report["lost"]
    assert report["errors"] == 0, report["error_samples"]
    assert report["asked"] >= PROCESSES, report
    assert report["history_written"] == report["asked"] + PROCESSES  # + one warm-up each
    assert report["lost"] == 0 and report["history_found"] == report["history_written"]
    assert done.returncode == 0, done.stderr[-3000:]
