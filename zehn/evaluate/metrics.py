"""Arithmetic every evaluation report shares."""

from __future__ import annotations


def ratio(part: int, whole: int) -> float:
    """``part / whole``; NaN when there is nothing to divide by: "no data", never a made-up 0."""
    return part / whole if whole else float("nan")
