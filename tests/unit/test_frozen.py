"""The cheaper frozen dataclasses behave exactly as plain frozen dataclasses do."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from zehn.corpus.frozen import computed_once, dict_init
from zehn.corpus.model import Sentence
from zehn.reading.model import Edge, Entity, Mention


def _twin(cls: type) -> Any:
    """The same fields as ``cls`` in a plain frozen dataclass (its generated ``__init__``)."""
    fields = [(f.name, f.type, field(default=f.default, compare=f.compare)) for f in
              dataclasses.fields(cls)]  # fmt: skip
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True)


SAMPLES: list[tuple[type, tuple[Any, ...], dict[str, Any]]] = [
    (Sentence, ("ticket/quill-9", "Quill stores rows.", 4, 22), {}),
    (Sentence, ("ticket/quill-9", "Quill stores rows.", 4, 22), {"chunk_ordinal": 3}),
    (Mention, ("ticket/quill-9#4-22", 4, 9, "Quill", ("datastore:quill",), "name"), {}),
    (Mention, ("s#0-1", 0, 0, "", ("a:b", "a:c"), "alias 'x'"), {"reference": True}),
    (Entity, ("Quill Store", "datastore"), {"aliases": ("Quill",), "owner": "Team Ink"}),
    (Entity, ("Quill", "service"), {"evidence": (("Quill", "page title 'Quill'"),)}),
    (Edge, ("service:a", "WRITES_TO", "datastore:b", "d/x#0-9", "d/x", 0, 9, "f", "rules"), {}),
    (
        Edge,
        ("service:a", "READS_FROM", "datastore:b", "d/x#0-9", "d/x", 0, 9, "f", "rules"),
        {"negated": True, "cue": "reads", "subject_span": (0, 1), "object_reference": "it"},
    ),
]


@pytest.mark.parametrize(("cls", "args", "kwargs"), SAMPLES)
def test_objects_equal_print_hash_and_pickle_as_plain_dataclasses(
    cls: type, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    made, plain = cls(*args, **kwargs), _twin(cls)(*args, **kwargs)
    assert repr(made) == repr(plain)
    assert dataclasses.astuple(made) == dataclasses.astuple(plain)
    assert list(vars(made)) == [f.name for f in dataclasses.fields(cls)]  # field order
    assert made == cls(*args, **kwargs) and hash(made) == hash(cls(*args, **kwargs))
    assert pickle.loads(pickle.dumps(made)) == made
    assert copy.copy(made) == made
    first = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, first, "changed")
    changed = dataclasses.replace(made, **{first: "other"})
    assert getattr(changed, first) == "other" and changed != made


@pytest.mark.parametrize("cls", [Sentence, Mention, Entity, Edge])
def test_the_init_keeps_the_dataclass_signature(cls: type) -> None:
    ours = inspect.signature(vars(cls)["__init__"]).parameters.values()
    plain = inspect.signature(_twin(cls).__init__).parameters.values()
    assert [(p.name, p.default, p.kind) for p in ours] == [
        (p.name, p.default, p.kind) for p in plain
    ]


def test_missing_arguments_fail_as_they_would() -> None:
    with pytest.raises(TypeError, match="missing"):
        Mention("s#0-1", 0, 1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword"):
        Sentence("a/b", "x", 0, 1, colour="red")  # type: ignore[call-arg]


_CALLS: list[int] = []


@dataclass(frozen=True)
class _Span:
    start: int
    end: int

    @computed_once
    def label(self) -> str:
        _CALLS.append(1)
        return f"{self.start}-{self.end}"


def test_a_computed_attribute_is_computed_once_and_is_no_field() -> None:
    _CALLS.clear()
    span = _Span(3, 8)
    assert (span.label, span.label, span.label) == ("3-8", "3-8", "3-8")
    assert len(_CALLS) == 1
    assert span == _Span(3, 8) and hash(span) == hash(_Span(3, 8))
    assert repr(span) == "_Span(start=3, end=8)"
    again = pickle.loads(pickle.dumps(span))
    assert again == span and again.label == "3-8" and len(_CALLS) == 1  # carried, not redone
    assert dataclasses.replace(span, end=9).label == "3-9"
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.label = "x"


def test_ids_are_what_they_were() -> None:
    assert Sentence("ticket/quill-9", "x", 4, 22).id == "ticket/quill-9#4-22"
    assert Entity("Quill Store", "datastore").id == "datastore:quill-store"
    assert Mention("s", 0, 1, "Q", ("a:q",), "name").entity_id == "a:q"
    assert Mention("s", 0, 1, "Q", ("a:q", "b:q"), "name").entity_id is None
    edge = Edge("a:x", "WRITES_TO", "b:y", "d/x#0-9", "d/x", 0, 9, "f", "rules")
    assert edge.key == dataclasses.replace(edge, fact="other").key
    assert edge.key != dataclasses.replace(edge, object="b:z").key


def test_dict_init_refuses_what_it_cannot_reproduce() -> None:
    @dataclass(frozen=True)
    class Checked:
        value: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True)
    class Collected:
        items: list[int] = field(default_factory=list)

    @dataclass
    class Mutable:
        value: int

    @dataclass(frozen=True)
    class Shadowing:
        self: int

    for cls in (Checked, Collected, Mutable, Shadowing):
        with pytest.raises(TypeError, match="dict_init"):
            dict_init(cls)
