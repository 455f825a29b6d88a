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
    # ``zehn policy evaluate``: walk a predicate when the 95 % lower bound of its audited
    # precision reaches this, on at least this many audited edges
    min_audited_precision: float = 0.9
    min_audited_sample: int = 30
    evaluation: Mapping[str, Any] | None = None  # the last evaluation written to the file

    def evaluated(self, predicate: str) -> str | None:
        """What the recorded evaluation says of ``predicate`` ("audited 31/50 correct, 95 % CI
        0.48–0.74, graph X, 2026-12-04"), or None when it was not evaluated."""
        record = self.evaluation or {}
        row = (record.get("predicates") or {}).get(predicate)
        if not isinstance(row, Mapping):
            return None
        where = f"graph {record.get('graph')}, {record.get('date')}"
        ci = row.get("ci95")
        if not row.get("audited") or not isinstance(ci, list) or len(ci) != 2:
            return f"not audited ({where})"
        return (
            f"audited {row.get('correct')}/{row.get('audited')} correct, 95 % CI "
            f"{float(ci[0]):.2f}–{float(ci[1]):.2f}, {where}"
        )

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
    precision = data.get("min_audited_precision", 0.9)
    sample = data.get("min_audited_sample", 30)
    if not isinstance(precision, int | float) or not 0 < precision <= 1:
        raise PolicyError(f"{source}: min_audited_precision must be a number in (0, 1]")
    if not isinstance(sample, int) or sample < 1:
        raise PolicyError(f"{source}: min_audited_sample must be a positive whole number")
    evaluation = data.get("evaluation")
    if evaluation is not None and not isinstance(evaluation, Mapping):
        raise PolicyError(f"{source}: `evaluation` must be a mapping")
    return Policy(
        name=name,
        mode=mode,
        max_hops=max_hops,
        rules=tuple(rules),
        description=str(data.get("description") or ""),
        max_age_days=int(age) if isinstance(age, int) else None,
        source=source,
        min_audited_precision=float(precision),
        min_audited_sample=sample,
        evaluation=evaluation,
    )
