"""Every notebook opens with a short markdown cell: what it is for and what to do first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def test_the_notebooks_are_found() -> None:
    assert len(NOTEBOOKS) >= 8 and (REPO / "notebooks" / "07_your_corpus.ipynb") in NOTEBOOKS


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_opens_with_what_it_is_for_and_what_to_do_first(notebook: Path) -> None:
    first = json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]
    text = "".join(first["source"])
    assert first["cell_type"] == "markdown"
    assert text.startswith("# "), "a title first"
    assert "**What to do first:**" in text
    assert len(text) < 1200, "short: the notebook itself follows"
    number = notebook.name[:2]
    if number != "00":
        assert text.startswith(f"# {number} · "), "the title carries the notebook's number"
