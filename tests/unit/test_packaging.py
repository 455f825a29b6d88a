"""A plain `pip install` is lean and every command works on it; graphrag-sdk (whose own
dependencies pull torch) is never a dependency, and every install path says the same
about it: pyproject, Makefile, environment.yml, scripts/install-llm.sh, the error message."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO
from zehn.errors import ExtractionError
from zehn.extract.llm_extra import GRAPHRAG_SDK, LLM_INSTALL
from zehn.extract.pipeline import get_strategy

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
PROJECT = PYPROJECT["project"]
HEAVY = {"graphrag-sdk", "gliner", "torch", "transformers", "sentence-transformers"}
NO_DEPS_LINE = f"pip install --quiet --no-deps '{GRAPHRAG_SDK}'"


def _names(requirements: list[str]) -> set[str]:
    return {canonicalize_name(Requirement(r).name) for r in requirements}


CORE = _names(PROJECT["dependencies"])
EXTRAS = {extra: _names(reqs) for extra, reqs in PROJECT["optional-dependencies"].items()}


def test_no_dependency_or_extra_pulls_graphrag_sdk_or_torch() -> None:
    assert not CORE & HEAVY
    for extra, names in EXTRAS.items():
        assert not names & HEAVY, extra


def test_the_llm_extra_holds_the_sdks_light_dependencies_and_the_core_does_not() -> None:
    light = {"pydantic", "scipy", "tiktoken", "hnswlib", "python-dotenv"}
    assert EXTRAS["llm"] == light
    assert not CORE & (light - {"pydantic"}) and "pydantic" not in CORE


def test_the_llm_extra_covers_what_graphrag_sdk_requires_except_gliner() -> None:
    """If a new graphrag-sdk needs another package, the extra must say so."""
    try:
        required = metadata.requires("graphrag-sdk") or []
    except metadata.PackageNotFoundError:
        pytest.skip("graphrag-sdk is not installed here")
    own = {
        canonicalize_name(r.name)
        for r in map(Requirement, required)
        if r.marker is None or r.marker.evaluate({"extra": ""})
    }
    # gliner is the torch one (its entity step is replaced by a catalog lookup); falkordb
    # and numpy come with the core dependencies (numpy through pandas)
    assert own - EXTRAS["llm"] - CORE == {"gliner", "numpy"}
    assert "numpy" in _closure(CORE)


def test_license_is_an_spdx_expression_that_the_build_backend_understands() -> None:
    assert PROJECT["license"] == "Apache-2.0"
    (backend,) = PYPROJECT["build-system"]["requires"]
    requirement = Requirement(backend)
    assert requirement.name == "setuptools" and "76.9" not in requirement.specifier
    assert "77" in requirement.specifier  # PEP 639 license expressions: setuptools 77


def test_every_install_path_installs_the_same_sdk_without_its_dependencies() -> None:
    makefile = (REPO / "Makefile").read_text("utf-8")
    assert "pip install --quiet -e '.[dev,llm]'" in makefile
    assert NO_DEPS_LINE in makefile
    script = (REPO / "scripts" / "install-llm.sh").read_text("utf-8")
    assert "pip install -e '.[llm]'" in script
    assert f"pip install --no-deps '{GRAPHRAG_SDK}'" in script
    assert f"pip install -e '.[llm]' && pip install --no-deps '{GRAPHRAG_SDK}'" == LLM_INSTALL
    environment = (REPO / "environment.yml").read_text("utf-8")
    assert re.search(r"^\s+- -e \.\[dev,llm\]$", environment, re.MULTILINE)
    assert "./scripts/install-llm.sh" in environment


def test_import_zehn_and_the_cli_need_no_graphrag_sdk() -> None:
    code = (
        "import sys; sys.modules['graphrag_sdk'] = None\n"
        "import zehn, zehn.cli, zehn.api, zehn.evaluate.compare\n"
        "assert 'zehn.extract.llm' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_llm_strategy_without_graphrag_sdk_is_an_extraction_error_that_says_how(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "graphrag_sdk", None)
    monkeypatch.delitem(sys.modules, "zehn.extract.llm", raising=False)
    with pytest.raises(ExtractionError, match="needs graphrag-sdk") as caught:
        get_strategy("llm")
    assert LLM_INSTALL in str(caught.value) and "scripts/install-llm.sh" in str(caught.value)


def test_a_missing_core_dependency_is_not_mistaken_for_the_optional_sdk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """openai is a core dependency: without it the install is broken, not incomplete."""
    monkeypatch.setitem(sys.modules, "openai", None)
    monkeypatch.delitem(sys.modules, "zehn.extract.llm", raising=False)
    with pytest.raises(ModuleNotFoundError, match="openai"):
        get_strategy("llm")


def test_everything_zehn_and_the_widgets_import_comes_with_a_plain_install() -> None:
    """Every third-party module imported anywhere in zehn/ and widgets/ (but the llm strategy)
    belongs to a core dependency or one of theirs: no command fails with ModuleNotFoundError."""
    provided = metadata.packages_distributions()
    closure = _closure(CORE)
    missing: dict[str, str] = {}
    for path in sorted([*(REPO / "zehn").rglob("*.py"), *(REPO / "widgets").rglob("*.py")]):
        if path == REPO / "zehn" / "extract" / "llm.py":
            continue
        for module in _imported(path):
            if module in sys.stdlib_module_names or module in ("zehn", "widgets"):
                continue
            dists = {canonicalize_name(d) for d in provided.get(module, [module])}
            if not dists & closure:
                missing[module] = str(path.relative_to(REPO))
    assert missing == {}


def _imported(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            modules.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules.add(node.module.partition(".")[0])
    return modules


def _closure(names: set[str]) -> set[str]:
    """The distributions a plain install of ``names`` brings (no extras), as installed here."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            required = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for requirement in map(Requirement, required):
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(canonicalize_name(requirement.name))
    return seen


def test_importing_the_llm_strategy_without_the_sdk_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['graphrag_sdk'] = None\n"
        "try:\n"
        "    import zehn.extract.llm\n"
        "except ImportError as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.startswith("ImportError the llm strategy needs graphrag-sdk"), done.stderr
    assert LLM_INSTALL in done.stdout  # the extra, and how to install the SDK without torch


def test_ingest_with_the_llm_strategy_and_no_sdk_starts_no_server(tmp_path: Path) -> None:
    home = tmp_path / "home"
    code = (
        "import sys; sys.modules['graphrag_sdk'] = None\n"
        "from zehn.cli import main\n"
        f"sys.exit(main(['ingest', {str(tmp_path)!r}, '--graph', 'x', '--strategy', 'llm']))\n"
    )
    env = {**os.environ, "ZEHN_HOME": str(home)}
    env.pop("FALKORDB_URL", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 1 and "needs graphrag-sdk" in done.stderr
    assert not (home / "falkordb").exists()  # the error came before any server was started
