"""Test-session isolation for everything pytest runs, notebooks included.

Every test and every notebook kernel (nbval) sees a fresh ``ZEHN_HOME`` in a
temporary directory, so the suite never touches a user's data; the managed
FalkorDB server started there is shut down (with a save) at the end. Every
server the suite starts, in any process, inherits a session marker in its
environment: one still running once the session's own server is stopped was
leaked by whatever started it, and fails the run (after it is ended).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from pathlib import Path

import pytest

_HOME_KEY = "_zehn_test_home"
SESSION_MARKER = "ZEHN_TEST_SESSION"


def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="zehn-test-home-"))
    setattr(config, _HOME_KEY, home)
    os.environ["ZEHN_HOME"] = str(home)
    os.environ[SESSION_MARKER] = uuid.uuid4().hex  # a nested pytest run marks its own
    for variable in ("FALKORDB_URL", "ZEHN_GRAPH", "ZEHN_POLICY", "ZEHN_MODEL"):
        os.environ.pop(variable, None)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the session's server, then fail the run if any server the suite started lives."""
    home = getattr(session.config, _HOME_KEY, None)
    if home is None or hasattr(session.config, "workerinput"):
        return
    from zehn.store import processes
    from zehn.store.server import ManagedServer

    ManagedServer(home).stop()
    leaked = processes.servers_marked(f"{SESSION_MARKER}={os.environ[SESSION_MARKER]}")
    if not leaked:
        return
    where = ", ".join(f"pid {pid} in {_cwd(pid)}" for pid in leaked)
    for pid in leaked:
        processes.end_process(pid)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    message = f"FalkorDB servers left running by the suite (now ended): {where}"
    if reporter is not None:
        reporter.write_line(message, red=True)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    home = getattr(config, _HOME_KEY, None)
    if home is None:
        return
    from zehn.store.server import ManagedServer

    ManagedServer(home).stop()
    shutil.rmtree(home, ignore_errors=True)


def _cwd(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return "an unknown directory"
