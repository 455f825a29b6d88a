"""Citation verification: cited IDs must be a non-empty subset of the IDs tools returned.

One fabricated ID rejects the whole answer: a real citation cannot vouch for a
fake one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Verification:
    ok: bool
    fabricated: tuple[str, ...]
    reason: str | None


def verify_citations(cited: Iterable[str], returned: Iterable[str]) -> Verification:
    cited_ids = list(dict.fromkeys(cited))
    known = set(returned)
    if not cited_ids:
        return Verification(False, (), "the model cited no sentence")
    fabricated = tuple(c for c in cited_ids if c not in known)
    if fabricated:
        shown = ", ".join(repr(f[:80]) for f in fabricated[:3])
        return Verification(
            False,
            fabricated,
            f"the model cited {len(fabricated)} ID(s) that no tool returned in this "
            f"investigation ({shown}); the whole answer is rejected",
        )
    return Verification(True, (), None)
