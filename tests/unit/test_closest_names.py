"""A hop backed by several sentences is cited by the one that names what the question names,
as the question writes it (invented sentences)."""

from __future__ import annotations

from zehn.models.admit import closest
from zehn.models.plan import Plan


def _path(*quotes: str) -> dict[str, object]:
    supported = [{"sentence_id": f"doc/a#{i}-{i + 1}", "quote": q} for i, q in enumerate(quotes)]
    hop = {"source": "s", "rel_type": "READS_FROM", "target": "t", "supported": supported}
    return {"hops": [{**hop, "sentence_id": supported[0]["sentence_id"]}]}


def test_a_tie_goes_to_the_sentence_that_writes_the_asked_name() -> None:
    plan = Plan("lookup_out", (), words=frozenset({"read"}), names=("grebe",))
    path = _path(
        "When **GrebeProcess** asks the **TernStore**, it gets the status.",
        "[4] **Grebe** --> **Tern store** - Gets the status",
    )
    (hop,) = closest(path, plan)["hops"]
    assert hop["sentence_id"] == "doc/a#1-2"


def test_shared_words_still_come_first() -> None:
    plan = Plan("lookup_out", (), words=frozenset({"read"}), names=("grebe",))
    path = _path(
        "[4] **Grebe** --> **Tern store** - Gets the status",
        "The GrebeProcess will read the status from TernStore.",
    )
    (hop,) = closest(path, plan)["hops"]
    assert hop["sentence_id"] == "doc/a#1-2"


def test_a_name_inside_another_word_is_not_written() -> None:
    plan = Plan("lookup_out", (), names=("grebe",))
    path = _path("The GrebeProcess asks TernStore.", "The grebe-relay asks TernStore.")
    (hop,) = closest(path, plan)["hops"]
    assert hop["sentence_id"] == "doc/a#0-1"  # neither writes "grebe" alone: the order stands
