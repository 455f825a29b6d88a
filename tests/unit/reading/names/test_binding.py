from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence
from zehn.corpus.sample import SAMPLE_CATALOG
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder, find_name
from zehn.reading.names.catalog import Catalog

BINDER = Binder(Catalog.load(SAMPLE_CATALOG).entities)


def bind(text: str, offset: int = 100) -> list[Mention]:
    sentence = Sentence("doc/x", text, offset, offset + len(text))
    return BINDER.bind(sentence)


def bound(text: str) -> list[tuple[str, str | None]]:
    return [(m.surface, m.entity_id) for m in bind(text)]


def test_names_and_aliases_bind_with_document_offsets_and_reasons() -> None:
    mentions = bind("The indexer feeds search-api.", offset=40)
    assert [(m.surface, m.entity_id, m.start, m.end) for m in mentions] == [
        ("The indexer", "service:indexer", 40, 51),
        ("search-api", "service:search-api", 58, 68),
    ]
    assert mentions[0].reason == "alias 'the indexer'"
    assert mentions[1].reason == "name"


def test_matching_ignores_case_and_separators() -> None:
    assert bound("Search API and Origin Mapper") == [
        ("Search API", "service:search-api"),
        ("Origin Mapper", "service:origin-mapper"),
    ]


def test_longest_match_wins_and_identifiers_are_not_cut() -> None:
    assert bound("the billing team and billing-events but not new-search-api-v2") == [
        ("billing team", "team:payments-team"),
        ("billing-events", "topic:billing-events"),
    ]


def test_single_capitalised_aliases_need_their_case_and_not_the_sentence_start() -> None:
    assert bound("Search results improved for the web.") == []
    assert bound("Ask Search about it.") == [("Search", "team:search-team")]


def test_a_name_with_three_kinds_stays_ambiguous_without_a_cue() -> None:
    (mention,) = bind("Redwood Inference asked for a heads-up.")
    assert mention.ambiguous and mention.entity_id is None
    assert set(mention.candidates) == {
        "team:redwood-inference",
        "service:redwood-inference",
        "customer:redwood-inference",
    }
    assert mention.reason.startswith("ambiguous")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Redwood Inference team owns it.", "team:redwood-inference"),
        ("Redwood Inference Ltd. renewed.", "customer:redwood-inference"),
        ("search-api calls redwood-inference.", "service:redwood-inference"),
        ("Our customer Redwood Inference renewed.", "customer:redwood-inference"),
    ],
)
def test_aliases_and_kind_cues_decide_between_identities(text: str, expected: str) -> None:
    assert expected in [m.entity_id for m in bind(text)]


def test_fuzzy_binding_of_a_misspelt_identifier_keeps_its_reason() -> None:
    (mention,) = bind("The orgin-mapper is slow.")
    assert mention.entity_id == "service:origin-mapper"
    assert mention.reason.startswith("fuzzy")


def test_names_inside_chinese_text_bind_without_word_boundaries() -> None:
    assert bound("origin-mapper依赖indexer的索引。") == [
        ("origin-mapper", "service:origin-mapper"),
        ("indexer", "service:indexer"),
    ]


@pytest.mark.parametrize(
    ("text", "name", "span"),
    [
        ("支付网关调用风控引擎完成校验。", "风控引擎", (6, 10)),  # inside CJK text, both sides
        ("风控引擎已上线", "风控引擎", (0, 4)),
        ("由blue-sky服务处理", "blue-sky", (1, 9)),  # a Latin name between CJK characters
        ("The Cart team ships cart fixes.", "cart", (4, 8)),  # first whole-word match
        ("cartography and minecart", "cart", None),  # no word boundary: not the name
        ("the new-cart-api is live", "cart", None),  # inside a longer identifier
        ("cart_id is unset", "cart", None),
        ("CART。", "cart", (0, 4)),
        ("", "cart", None),
        ("cart", "", None),
    ],
)
def test_find_name_needs_word_boundaries_only_at_latin_edges(
    text: str, name: str, span: tuple[int, int] | None
) -> None:
    assert find_name(text, name) == span


def test_spans_slice_the_sentence() -> None:
    text = "Billing reads from ledger-v2 and writes to ledger-v2."
    for mention in bind(text, offset=7):
        assert text[mention.start - 7 : mention.end - 7] == mention.surface


# --- a CamelCase identifier written as its words ---------------------------------------------


@pytest.mark.parametrize(
    ("text", "surface"),
    [
        ("Each querier talks to the Ledger API of every region.", "Ledger API"),
        ("Queriers fan out to all Ledger APIs they know.", "Ledger APIs"),
        ("Rows are read through *ledger api* calls.", "ledger api"),
    ],
)
def test_a_camel_case_name_binds_where_prose_writes_its_words_apart(
    text: str, surface: str
) -> None:
    binder = Binder([Entity("LedgerAPI", "service", origin="discovered")])
    mentions = binder.bind(Sentence("doc/x", text, 0, len(text)))
    assert [(m.surface, m.candidates) for m in mentions] == [(surface, ("service:ledgerapi",))]


def test_a_word_of_a_camel_case_name_alone_is_not_the_name() -> None:
    binder = Binder([Entity("LedgerAPI", "service", origin="discovered")])
    text = "The ledger keeps every API key."
    assert binder.bind(Sentence("doc/x", text, 0, len(text))) == []
