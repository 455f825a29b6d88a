"""A build run off the kernel: the CLI's own ingest in a child process.

A large corpus takes minutes to read; built in the kernel's thread it froze the notebook. The
workbench runs ``zehn ingest PATH --graph NAME --json --events --no-wait`` instead, with the
session's ``ZEHN_HOME`` (and ``FALKORDB_URL``), so the child builds on the same server under the
same build lock. Its stage and file events (JSON lines on stderr, ``zehn.cli_review``) arrive
in a reader thread; the report (the CLI's JSON on stdout) is read back into a ``BuildReport``
when it exits. The kernel stays free to answer questions meanwhile.

``cancel`` interrupts the child as Ctrl-C would: the build deletes its staging graph and
releases the lock on the way out, and the live graph, swapped only at the very end, is
untouched. A child that does not stop within ``CANCEL_GRACE_S`` is terminated; the lock then
expires by itself (``zehn.store.lock``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zehn import BuildReport, Settings
from zehn.extract.pipeline import report_from_dict

CANCEL_GRACE_S = 20.0
_MAIN = "import sys; from zehn.cli import main; sys.exit(main())"

Event = dict[str, Any]


@dataclass(frozen=True)
class BuildOutcome:
    """How a build in a child process ended: its report, or the error it named."""

    report: BuildReport | None
    kind: str = ""  # the error's kind as the CLI named it ("BuildInProgress" …)
    reason: str = ""
    cancelled: bool = False

    @property
    def ok(self) -> bool:
        return self.report is not None and self.report.swapped


class BuildProcess:
    """One ``zehn ingest`` child; ``on_event`` hears its stage and file events, ``on_done`` its
    outcome (both from a reader thread)."""

    def __init__(
        self,
        settings: Settings,
        path: Path,
        corpus: str,
        strategy: str,
        catalog: Path | None = None,
        *,
        on_event: Callable[[Event], None] | None = None,
        on_done: Callable[[BuildOutcome], None] | None = None,
    ) -> None:
        self.argv = [
            sys.executable, "-c", _MAIN, "ingest", str(path), "--graph", corpus,
            "--strategy", strategy, "--json", "--events", "--no-wait",
            *(["--catalog", str(catalog)] if catalog else []),
        ]  # fmt: skip
        self.env = {**os.environ, "ZEHN_HOME": str(settings.home)}
        if settings.falkordb_url:
            self.env["FALKORDB_URL"] = settings.falkordb_url
        self.on_event = on_event
        self.on_done = on_done
        self.outcome: BuildOutcome | None = None
        self.log: list[str] = []  # stderr lines that are no event (warnings, a traceback)
        self._cancelled = False
        self._done = threading.Event()
        self._process: subprocess.Popen[str] | None = None

    def start(self) -> BuildProcess:
        self._process = subprocess.Popen(
            self.argv,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            env=self.env,
        )
        threading.Thread(target=self._run, name="zehn-build", daemon=True).start()
        return self

    @property
    def running(self) -> bool:
        return self._process is not None and not self._done.is_set()

    def wait(self, timeout_s: float | None = None) -> BuildOutcome | None:
        """The outcome, once the child has ended (None if it has not within ``timeout_s``)."""
        self._done.wait(timeout_s)
        return self.outcome

    def cancel(self) -> BuildOutcome | None:
        """Stop the build as Ctrl-C would; the live graph stays as it was."""
        process = self._process
        if process is None or self._done.is_set():
            return self.outcome
        self._cancelled = True
        process.send_signal(signal.SIGINT)
        try:
            process.wait(CANCEL_GRACE_S)
        except subprocess.TimeoutExpired:
            process.terminate()
        return self.wait(CANCEL_GRACE_S)

    def _run(self) -> None:
        process = self._process
        assert process is not None and process.stdout is not None and process.stderr is not None
        for line in process.stderr:
            event = _event(line)
            if event is None:
                self.log.append(line.rstrip("\n"))
            elif self.on_event is not None:
                self.on_event(event)
        output = process.stdout.read()
        process.wait()
        self.outcome = self._outcome(output)
        try:
            if self.on_done is not None:  # heard before ``wait`` returns: the view is updated
                self.on_done(self.outcome)
        finally:
            self._done.set()

    def _outcome(self, output: str) -> BuildOutcome:
        try:
            data = json.loads(output) if output.strip() else {}
        except json.JSONDecodeError:
            data = {}
        if data.get("status") == "ok":  # it finished before the interrupt reached it
            return BuildOutcome(report_from_dict(data))
        if self._cancelled:
            return BuildOutcome(None, "Cancelled", "the build was cancelled", cancelled=True)
        if "build" in data:  # nothing could be ingested: the report says what was skipped
            return BuildOutcome(report_from_dict(data["build"]), data.get("error", ""), "")
        kind = str(data.get("error") or "BuildError")
        reason = str(data.get("reason") or "\n".join(self.log[-5:]) or "the build failed")
        return BuildOutcome(None, kind, reason.removeprefix(f"{kind}: "))


def _event(line: str) -> Event | None:
    if not line.startswith('{"event"'):
        return None
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        return None
    return event if isinstance(event, dict) else None
