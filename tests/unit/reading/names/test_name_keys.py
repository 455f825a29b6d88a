"""The name index's keys agree with the binder: every form the binder files is a key of its
entity, and every name the binder can bind in a text is among the text's keys."""

from __future__ import annotations

from zehn.corpus.model import Sentence
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.name_keys import FIND_TOKENS, form_key, name_fields, text_keys

ENTITIES = [
    Entity("ingest-svc", "service", ("ingest workers", "Ingest")),
    Entity("PigeonBroker", "component"),
    Entity("Node.js runtime", "component"),
    Entity("鹭鸶注册中心", "component"),
    Entity("tallow_db", "datastore", ("tallow database",)),
]


def test_the_keys_are_the_binders_forms() -> None:
    binder = Binder(ENTITIES)
    filed: dict[str, set[str]] = {}
    for key, forms in binder._forms.items():
        for form in forms:
            filed.setdefault(form.entity_id, set()).add(" ".join(key))
    for entity in ENTITIES:
        fields = name_fields(entity)
        assert filed[entity.id] <= set(fields["name_keys"]), entity.name
        assert fields["lname"] == entity.name.strip().lower()
    assert "ingest worker" in name_fields(ENTITIES[0])["name_keys"]  # either number
    assert name_fields(ENTITIES[1])["head"] == "broker"
    assert name_fields(ENTITIES[0])["code_forms"] == ["ingest-svc", "ingest-svcs"]
    assert name_fields(ENTITIES[0])["code_lengths"] == [10, 11]


def test_every_bound_name_is_among_the_texts_keys() -> None:
    binder = Binder(ENTITIES)
    texts = [
        "The ingest workers read from PigeonBroker, then ingest-svc calls the Node.js runtime.",
        "青苔服务依赖鹭鸶注册中心。",
        "tallow_db and the tallow  database are one store.",
    ]
    for text in texts:
        keys = text_keys(text)
        mentions = binder.bind(Sentence("d", text, 0, len(text)))
        assert mentions, text
        for mention in mentions:
            entity = next(e for e in ENTITIES if e.id == mention.candidates[0])
            assert set(name_fields(entity)["name_keys"]) & keys, (text, mention.surface)


def test_text_keys_are_contiguous_runs_up_to_a_length() -> None:
    keys = text_keys("Alpha beta,\ngamma-delta")
    assert {"alpha", "alpha beta", "alpha beta ,", "gamma delta"} <= keys
    assert "alpha beta , gamma" not in keys  # a line break ends a name
    assert form_key(["A", "B"]) == "a b"
    many = " ".join(f"w{i}" for i in range(FIND_TOKENS + 4))
    assert max(len(k.split()) for k in text_keys(many)) == FIND_TOKENS
    assert max(len(k.split()) for k in text_keys(many, longest=3)) == 3
