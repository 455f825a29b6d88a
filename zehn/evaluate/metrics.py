"""Arithmetic every evaluation report shares."""

from __future__ import annotations

import math


def ratio(part: int, whole: int) -> float:
    """``part / whole``; NaN when there is nothing to divide by: "no data", never a made-up 0."""
    return part / whole if whole else float("nan")


def f1_score(precision: float, recall: float) -> float:
    """The harmonic mean; 0.0 when both are 0 or either is NaN (nothing judged or nothing to
    find), as the sample comparison has always reported it."""
    if math.isnan(precision + recall) or precision + recall <= 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)
