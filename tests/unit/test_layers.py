"""The architecture as a test: layers import downward only, and nothing imports in a circle.

Reads every import statement (module level, in functions and under TYPE_CHECKING) with ``ast``;
docs/architecture.md draws the same layers.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from tests.conftest import REPO

# Lower number = lower layer. A module may import its own package and anything strictly lower.
LAYERS: dict[str, int] = {
    "zehn.errors": 0,
    "zehn.config": 1,
    "zehn.endpoint": 1,  # the openai boundary, below both of its clients (models, extract)
    "zehn.store": 2,
    "zehn.corpus": 3,
    "zehn.reading": 4,
    "zehn.extract": 5,
    "zehn.queries": 5,
    "zehn.evidence": 6,
    "zehn.models": 6,
    "zehn.engine": 7,
    "zehn.review": 8,
    "zehn.evaluate": 8,
    "zehn.api": 9,
    "zehn.cli": 11,
    "zehn": 10,  # the front door re-exports every layer
    "widgets": 11,  # beside the CLI: neither imports the other
}
# Beyond the layer order: pairs that must never meet even where the order would allow it.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "zehn.engine": ("zehn.extract", "zehn.review", "zehn.evaluate"),  # answers never build
    "zehn.evidence": ("zehn.extract",),  # the grader reads through zehn.reading, like extraction
    "zehn.models": ("zehn.extract", "zehn.evidence"),
    "zehn.queries": ("zehn.extract",),
}
UI_PACKAGES = ("widgets", "ipywidgets", "pyvis", "IPython", "traitlets")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            # ``from zehn.extract import pipeline`` imports the module zehn.extract.pipeline
            found.extend(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _package(module: str) -> str:
    """The layer key a module belongs to: its longest prefix in LAYERS."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in LAYERS:
            return ".".join(parts[:n])
    raise KeyError(module)


def _sources() -> dict[str, Path]:
    files = [*sorted((REPO / "zehn").rglob("*.py")), *sorted((REPO / "widgets").rglob("*.py"))]
    return {_module_name(p): p for p in files}


SOURCES = _sources()
MODULES = set(SOURCES)


def _internal_imports(module: str) -> set[str]:
    """The project modules ``module`` imports (names that are attributes, not modules, dropped)."""
    return {name for name in _imports(SOURCES[module]) if name in MODULES and name != module}


def test_every_module_has_a_layer() -> None:
    for module in MODULES:
        _package(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_downward_only(module: str) -> None:
    own = _package(module)
    for imported in _internal_imports(module):
        target = _package(imported)
        if target == own:
            continue
        assert LAYERS[target] < LAYERS[own], f"{module} imports {imported}: upward"
        assert not any(
            imported == f or imported.startswith(f + ".") for f in FORBIDDEN.get(own, ())
        ), f"{module} imports {imported}: forbidden between these layers"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.split(".")[0] == "zehn"))
def test_the_core_imports_no_ui(module: str) -> None:
    for name in _imports(SOURCES[module]):
        assert name.split(".")[0] not in UI_PACKAGES, f"{module} imports {name}"


def test_only_the_cli_and_the_widgets_go_through_the_front_door() -> None:
    """Inside the core, ``from zehn import x`` would run the front door half-initialised."""
    for module, path in SOURCES.items():
        if module.startswith("zehn") and module not in ("zehn", "zehn.cli"):
            assert "zehn" not in _imports(path), module


def test_no_module_level_getattr_re_exports() -> None:
    for module, path in SOURCES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert "__getattr__" not in names, f"{module}: lazy re-export"


def test_no_import_cycles() -> None:
    graph: dict[str, set[str]] = defaultdict(set)
    for module in MODULES:
        # a package's __init__ runs before its modules: importing zehn.x.y imports zehn.x
        graph[module] = {
            m for m in _internal_imports(module) if not module.startswith(m + ".") and m != "zehn"
        }
    if "zehn" in graph:
        graph.pop("zehn")  # the front door imports everything and nothing imports it back
    seen: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(node: str, stack: list[str]) -> None:
        seen[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if seen.get(nxt) == 1:
                cycle = [*stack[stack.index(nxt) :], nxt] if nxt in stack else [node, nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in seen:
                visit(nxt, [*stack, nxt])
        seen[node] = 2

    for module in sorted(graph):
        if module not in seen:
            visit(module, [module])


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The walker finds imports inside functions and under TYPE_CHECKING (so the tests can fail)."""
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from zehn.review.audit import AuditStore\n"
        "def f():\n    import widgets.ask\n    from zehn.extract import pipeline\n"
    )
    found = _imports(source)
    assert "zehn.review.audit" in found and "widgets.ask" in found
    assert "zehn.extract.pipeline" in found
