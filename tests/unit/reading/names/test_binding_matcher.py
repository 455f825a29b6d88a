"""The binder's kept matcher (Aho-Corasick) binds exactly as the per-token probe it replaced.

``probe_bind`` below is the binder's former loop, kept here as the reference: at every token,
every length up to the longest name starting with that word, and every code-like near miss
scored against every code-like name. Entities and sentences are invented.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz, process

from zehn.corpus.model import Sentence
from zehn.reading.model import Entity, Mention, entity_id
from zehn.reading.names.binding import (
    _CODE_LIKE,
    NO_SUBJECTS,
    PAGE_SUBJECT,
    Binder,
    _Split,
    tokens,
)
from zehn.reading.names.matcher import TokenMatcher
from zehn.reading.names.near_names import FUZZY_CUTOFF


def _entity(name: str, kind: str, *aliases: str, origin: str = "catalog") -> Entity:
    return Entity(name, kind, tuple(aliases), origin=origin)


ENTITIES = [
    _entity("order-router", "service", "Router"),
    _entity("order service", "service", "orders"),
    _entity("order service api", "component"),
    _entity("service api", "component"),
    _entity("Quill Ledger", "team", "Quill"),
    _entity("Quill Ledger", "service"),
    _entity("Quill Ledger", "customer"),
    _entity("blob-vault", "datastore", "BlobVault"),
    _entity("blob-vault-v2", "datastore"),
    _entity("ingest-queue", "topic"),
    _entity("ingest-queue-dlq", "topic"),
    _entity("订单服务", "service", "订单中心"),
    _entity("库存", "datastore"),
    _entity("scheduler", "component", origin="discovered"),
    _entity("cart", "service", origin="discovered"),
    _entity("Pixel Forge", "service", "pixel-forge", origin="discovered"),
]
BINDER = Binder(ENTITIES)

SENTENCES = [
    "order-router calls the order service API and the service api.",
    "The Order Service depends on ORDER-ROUTER and on order_router.",
    "new-order-router-v2 is not order-router; blob-vault-v2 is not blob-vault.",
    "See https://example.invalid/blob-vault/docs and config.blob-vault.yaml first.",
    "Router sends retries to ingest-queue-dlq, then to ingest-queue.",
    "Quill Ledger team owns it; the Quill Ledger service reads from blob-vault.",
    "Quill Ledger asked about Quill Ledger Ltd renewals.",
    "Quill said the ordr-router and the ingest-qeue lag.",
    "订单服务调用库存服务，订单中心写入库存。",
    "新的订单服务API依赖库存。",
    "Pixel Forge's scheduler writes to `cart` and the cart service.",
    "The scheduler restarts; a shopping cart is not the cart.",
    "BlobVault feeds Orders, orders feed blob vault.",
    "order\nservice is split across lines, order  service by spaces.",
    "Blob-vault and blob_vault and BLOB VAULT are one store.",
    "order service api service api order service",
]


def probe_bind(
    binder: Binder, sentence: Sentence, subjects: Mapping[str, str] = NO_SUBJECTS
) -> list[Mention]:
    """The former ``Binder.bind``: a probe at every token, a full fuzzy scan per near miss."""
    text = sentence.text
    split = _Split(text)
    toks = tokens(text)
    mentions: list[Mention] = []
    taken: list[tuple[int, int]] = []
    i = 0
    while i < len(toks):
        found = binder._longest_at(text, split, i, subjects)
        if found is None:
            i += 1
            continue
        n, forms, mark = found
        start, end = toks[i].start, toks[i + n - 1].end
        mentions.append(binder._mention(sentence, start, end, forms, mark))
        taken.append((start, end))
        i += n
    for match in _CODE_LIKE.finditer(text):
        start, end = match.span()
        owner = binder._code_names.owner
        if any(s < end and start < e for s, e in taken) or not owner:
            continue
        best = process.extractOne(
            match.group(), list(owner), scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF
        )
        if best is None:
            continue
        form = str(best[0])
        eid = owner[form]
        mentions.append(
            Mention(sentence.id, sentence.start + start, sentence.start + end, match.group(),
                    (eid,), f"fuzzy {float(best[1]):.0f} to {form!r}")
        )  # fmt: skip
    return binder._possessed(sentence, split, sorted(mentions, key=lambda m: m.start), subjects)


def _sentence(text: str, offset: int = 40) -> Sentence:
    return Sentence("doc/invented", text, offset, offset + len(text))


def test_the_matcher_binds_every_invented_sentence_as_the_probe_did() -> None:
    subjects = {entity_id("service", "cart"): PAGE_SUBJECT}
    bound = 0
    for text in SENTENCES:
        sentence = _sentence(text)
        for about in (NO_SUBJECTS, subjects):
            new = BINDER.bind(sentence, about)
            assert new == probe_bind(BINDER, sentence, about), text
            bound += len(new)
    assert bound > 60  # the sentences do bind: the comparison is not between two empties


def test_the_cases_the_comparison_covers_bind_as_the_rules_say() -> None:
    def surfaces(text: str) -> list[tuple[str, tuple[str, ...]]]:
        return [(m.surface, m.candidates) for m in BINDER.bind(_sentence(text))]

    # the longest name wins where names overlap, and it binds once
    assert surfaces("order service api service api order service") == [
        ("order service api", (entity_id("component", "order service api"),)),
        ("service api", (entity_id("component", "service api"),)),
        ("order service", (entity_id("service", "order service"),)),
    ]
    # names inside identifiers, paths and dotted names are not mentions
    assert [s for s, _ in surfaces(SENTENCES[2])] == ["order-router", "blob-vault-v2", "blob-vault"]
    assert surfaces(SENTENCES[3]) == []
    # case and separator variants are one name; names inside Chinese text bind
    assert len(surfaces(SENTENCES[14])) == 3
    assert [s for s, _ in surfaces(SENTENCES[8])] == ["订单服务", "库存", "订单中心", "库存"]
    # near misses bind by their closest code-like name
    reasons = [m.reason for m in BINDER.bind(_sentence(SENTENCES[7]))]
    assert reasons == ["fuzzy 96 to 'order-router'", "fuzzy 96 to 'ingest-queue'"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "order",
                "Order",
                "service",
                "api",
                "API",
                "router",
                "-",
                "_",
                " ",
                "  ",
                "\n",
                "quill",
                "Quill",
                "ledger",
                "Ledger",
                "team",
                "blob",
                "vault",
                "v2",
                "orders",
                "ingest",
                "queue",
                "dlq",
                ".",
                "/",
                "'s",
                "the",
                "The",
                "订单",
                "服务",
                "库存",
                "中心",
                "cart",
                "`",
                "scheduler",
                "Pixel",
                "Forge",
                "ordr",
                "qeue",
                "Router",
            ]
        ),
        max_size=24,
    )
)
def test_any_sentence_of_name_pieces_binds_as_the_probe_did(pieces: list[str]) -> None:
    text = "".join(pieces)
    sentence = _sentence(text)
    assert BINDER.bind(sentence) == probe_bind(BINDER, sentence)


def test_the_matcher_finds_every_key_at_token_boundaries_only() -> None:
    matcher = TokenMatcher([("a", "b"), ("b",), ("a", "b", "c"), ("bc",)])
    assert matcher.starts(["x", "a", "b", "c", "ab", "bc", "b"]) == {
        1: [3, 2],
        2: [1],
        5: [1],
        6: [1],
    }
    assert TokenMatcher([]).starts(["a"]) == {}


def test_the_near_miss_shortcut_scores_as_a_full_scan() -> None:
    names = [
        f"{a}-{b}"
        for a in ("pay", "payment", "ledger", "ledgr", "lgr")
        for b in ("svc", "api", "gateway", "gw")
    ]
    binder = Binder([_entity(name, "service", origin="catalog") for name in names])
    words = {w for n in names for w in (n, n[:-1], n + "s", n.replace("-", ""), "x" + n, n[1:])}
    for word in [*sorted(words), "pay-sv", "ledger-ap", "payment-gatewy", "paymnt-api"]:
        if not re.fullmatch(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)+", word):
            continue
        owner = binder._code_names.owner
        full = process.extractOne(word, list(owner), scorer=fuzz.ratio,
                                  score_cutoff=FUZZY_CUTOFF)  # fmt: skip
        expected = None if full is None else (str(full[0]), owner[str(full[0])], float(full[1]))
        assert binder._code_names.closest(word) == expected, word
