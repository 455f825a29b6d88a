"""A strategy comparison as terminal text (``zehn compare`` without ``--json``).

Kept out of the CLI so that the command stays a thin shell and the same text can be
printed from a notebook or a script.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

from zehn.reading.vocabulary import PREDICATES

COLUMNS = (
    "strategy", "status", "edges", "edges_in_scope", "precision", "recall", "f1",
    "fact_verbatim_rate", "binding_error_rate", "flag_agreement", "kind_agreement",
    "ambiguous_mentions", "extraction_s",
)  # fmt: skip
_HEADINGS = {"unmatched edge": "unmatched edges in scope", "missed gold": "missed gold relations"}
_TEXT_WIDTH = 200


def render_comparison(frame: pd.DataFrame, *, details: bool = False) -> str:
    """The figures, recall per gold predicate, edges per predicate and, with ``details``,
    every unmatched in-scope edge and missed gold relation (the ``details`` column)."""
    shown = frame[[c for c in COLUMNS if c in frame]].copy()
    shown["status"] = shown["status"].str.slice(0, 70)
    parts = [shown.to_string(index=False, float_format=lambda v: f"{v:.3f}", na_rep="-")]
    by_strategy = frame.set_index("strategy")
    parts += _table("recall per gold predicate:", by_strategy, "recall_", "{:.3f}")
    parts += _table("edges per predicate:", by_strategy, "edges_", "{:.0f}", PREDICATES)
    missing = frame["gold_quotes_missing"].max() if "gold_quotes_missing" in frame else 0
    if missing and missing > 0:
        parts.append(
            f"note: {missing:.0f} gold quotes are not in their file's loaded text any more"
        )
    if details and "details" in frame:
        for strategy, rows in by_strategy["details"].items():
            if isinstance(rows, list):
                parts += _details(str(strategy), rows)
    return "\n\n".join(parts)


def _table(
    title: str, frame: pd.DataFrame, prefix: str, number: str, names: Sequence[str] = ()
) -> list[str]:
    """Columns ``<prefix><NAME>`` of a strategy-indexed frame, one line per NAME."""
    present = [c for c in frame.columns if str(c).startswith(prefix) and c != "edges_in_scope"]
    columns = [c for c in (f"{prefix}{n}" for n in names) if c in present] if names else present
    if not columns:
        return []
    table = frame[columns].rename(columns=lambda c: str(c).removeprefix(prefix)).T
    return [f"{title}\n" + table.to_string(float_format=number.format, na_rep="-")]


def _details(strategy: str, details: list[dict[str, Any]]) -> list[str]:
    """Unmatched edges and missed gold relations, by document, for a developer to read."""
    parts = []
    for outcome, heading in _HEADINGS.items():
        rows = [d for d in details if d["outcome"] == outcome]
        lines = [f"{strategy}: {len(rows)} {heading}"]
        for d in sorted(rows, key=lambda d: (str(d["document"]), str(d["sentence"]))):
            text = " ".join(str(d["text"]).split())
            cut = text[:_TEXT_WIDTH] + ("…" if len(text) > _TEXT_WIDTH else "")
            lines += [
                f"  {d['document']}  {d['sentence']}",
                f"    {d['subject']} {d['predicate']} {d['object']}  [{d['why']}]",
                f"    | {cut}",
            ]
        parts.append("\n".join(lines))
    return parts
