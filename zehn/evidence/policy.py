"""Traversal policies (``policies/*.yaml``): which predicates are walked, which way impact flows.

``impact: reverse`` means "if the object changes, the subject is at risk"
(A DEPENDS_ON B: changing B breaks A); ``forward`` means the subject's change
reaches the object (A FEEDS B). Any mode other than ``production`` is an
evaluation policy and must be shown with a badge wherever its results appear.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from zehn.errors import PolicyError
from zehn.reading.vocabulary import PREDICATES

POLICY_DIR = Path(__file__).resolve().parents[2] / "policies"
PRODUCTION = "production"
MAX_HOPS = 3
IMPACT_DIRECTIONS = ("reverse", "forward")


@dataclass(frozen=True)
class PredicateRule:
    predicate: str
    traverse: bool
    impact: str
    why: str = ""


@dataclass(frozen=True)
class Policy:
    """One traversal policy; immutable."""

    name: str
    mode: str
    max_hops: int
    rules: tuple[PredicateRule, ...]
    description: str = ""
    max_age_days: int | None = None
    source: str = ""

    @property
    def is_production(self) -> bool:
        return self.mode == PRODUCTION

    @property
    def badge(self) -> str | None:
        """The evaluation-mode badge text, or None for production."""
        return None if self.is_production else f"EVALUATION MODE · policy {self.name}"

    def traversable(self) -> tuple[str, ...]:
        return tuple(r.predicate for r in self.rules if r.traverse)

    def blocked(self) -> dict[str, str]:
        """Predicates the policy will not walk, with the reason it gives."""
        return {r.predicate: r.why or "not traversable" for r in self.rules if not r.traverse}

    def impact_predicates(self, direction: str) -> tuple[str, ...]:
        return tuple(r.predicate for r in self.rules if r.traverse and r.impact == direction)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mode": self.mode,
            "traversable": list(self.traversable()),
            "blocked": self.blocked(),
            "max_hops": self.max_hops,
            "badge": self.badge,
        }


def load_policy(name_or_path: str | Path, directory: Path = POLICY_DIR) -> Policy:
    """A policy by name (``production``) from ``directory``, or from a YAML path."""
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml"):
        path = directory / f"{name_or_path}.yaml"
    if not path.is_file():
        known = ", ".join(p.name for p in list_policies(directory)) or "none"
        raise PolicyError(f"policy {str(name_or_path)!r} not found in {directory} (have: {known})")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise PolicyError(f"{path}: cannot read policy: {e}") from e
    return _parse(data, str(path))


def list_policies(directory: Path = POLICY_DIR) -> list[Policy]:
    return [load_policy(p) for p in sorted(Path(directory).glob("*.yaml"))]


def _parse(data: Any, source: str) -> Policy:
    if not isinstance(data, Mapping):
        raise PolicyError(f"{source}: a policy is a mapping")
    name, mode = data.get("name"), data.get("mode")
    if not isinstance(name, str) or not isinstance(mode, str):
        raise PolicyError(f"{source}: `name` and `mode` are required strings")
    max_hops = data.get("max_hops", MAX_HOPS)
    if not isinstance(max_hops, int) or not 1 <= max_hops <= MAX_HOPS:
        raise PolicyError(f"{source}: max_hops must be 1..{MAX_HOPS}")
    predicates = data.get("predicates")
    if not isinstance(predicates, Mapping) or not predicates:
        raise PolicyError(f"{source}: `predicates` must map predicate names to rules")
    rules = []
    for predicate, rule in predicates.items():
        if predicate not in PREDICATES:
            raise PolicyError(f"{source}: unknown predicate {predicate!r}")
        if not isinstance(rule, Mapping) or rule.get("impact") not in IMPACT_DIRECTIONS:
            raise PolicyError(f"{source}: {predicate} needs impact: reverse|forward")
        traverse = rule.get("traverse")
        if not isinstance(traverse, bool):
            raise PolicyError(f"{source}: {predicate}.traverse must be true or false")
        rules.append(
            PredicateRule(predicate, traverse, str(rule["impact"]), str(rule.get("why") or ""))
        )
    age = data.get("max_age_days")
    return Policy(
        name=name,
        mode=mode,
        max_hops=max_hops,
        rules=tuple(rules),
        description=str(data.get("description") or ""),
        max_age_days=int(age) if isinstance(age, int) else None,
        source=source,
    )
