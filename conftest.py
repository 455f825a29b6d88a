"""Test-session isolation for everything pytest runs, notebooks included.

Every test and every notebook kernel (nbval) sees a fresh ``ZEHN_HOME`` in a
temporary directory, so the suite never touches a user's data; the managed
FalkorDB server started there is shut down (with a save) at the end.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

_HOME_KEY = "_zehn_test_home"


def pytest_configure(config: pytest.Config) -> None:
    home = Path(tempfile.mkdtemp(prefix="zehn-test-home-"))
    setattr(config, _HOME_KEY, home)
    os.environ["ZEHN_HOME"] = str(home)
    for variable in ("FALKORDB_URL", "ZEHN_GRAPH", "ZEHN_POLICY", "ZEHN_MODEL"):
        os.environ.pop(variable, None)


def pytest_unconfigure(config: pytest.Config) -> None:
    home = getattr(config, _HOME_KEY, None)
    if home is None:
        return
    from zehn.store.server import ManagedServer

    ManagedServer(home).stop()
    shutil.rmtree(home, ignore_errors=True)
