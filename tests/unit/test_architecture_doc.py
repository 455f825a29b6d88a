"""docs/architecture.md names every module of ``zehn/`` and ``widgets/`` (issue 30, item 7): a
module added without a place in the layer table fails here."""

from __future__ import annotations

from tests.conftest import REPO

ARCHITECTURE = REPO / "docs" / "architecture.md"


def test_every_module_is_named_in_the_architecture() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    modules = [
        path.relative_to(REPO)
        for root in ("zehn", "widgets")
        for path in sorted((REPO / root).rglob("*.py"))
        if path.name != "__init__.py"
    ]
    missing = [str(m) for m in modules if f"`{m.name}`" not in text and f"`{m}`" not in text]
    assert not missing, f"docs/architecture.md does not name: {', '.join(missing)}"
