"""Discovery without a catalog, on invented documents: what the structure of a page says
(title, path, headings, tables), what prose says ("the X service", identifiers, a proper name
next to a kind word), how variants merge, and where an ordinary-word name may bind."""

from __future__ import annotations

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.lexicon import is_ordinary, is_ordinary_phrase
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder
from zehn.reading.names.catalog import Catalog
from zehn.reading.names.discover import discover_entities
from zehn.reading.names.marks import PAGE_SUBJECT
from zehn.reading.names.subjects import bind_corpus, document_subject, heading_entities
from zehn.reading.names.suggest import suggest_catalog
from zehn.reading.outline import code_spans, headings, path_subject, tables
from zehn.reading.split import chunk_sentences, split_sentences


def source(doc_id: str, text: str, title: str = "") -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, title or doc_id, text, tuple(chunks), tuple(sentences))


def found(*documents: SourceText) -> dict[str, Entity]:
    return {e.id: e for e in discover_entities(documents)}


def bound(binder: Binder, text: str, subjects: tuple[str, ...] = ()) -> list[str]:
    sentence = Sentence("doc/x", text, 0, len(text))
    about = dict.fromkeys(subjects, PAGE_SUBJECT)
    return [m.surface for m in binder.bind(sentence, subjects=about) if m.entity_id]


# --- the words ---------------------------------------------------------------------------------


def test_ordinary_words_are_common_english_with_their_inflections_not_product_names() -> None:
    assert all(is_ordinary(w) for w in ("cart", "Email", "quotes", "shipping", "submitted"))
    assert not any(is_ordinary(w) for w in ("Kafka", "valkey", "flagd", "k6", "Zorbadb"))
    assert is_ordinary_phrase("fraud detection")
    assert not is_ordinary_phrase("fraud-detection") and not is_ordinary_phrase("FraudCheck")


# --- a page's structure ------------------------------------------------------------------------


def test_general_english_comes_from_wordfreq_and_lemminflect_not_a_list() -> None:
    # frequent words with a word class, in no list, and their inflections
    assert all(is_ordinary(w) for w in ("department", "safety", "tomorrow"))
    # frequent in general English but a proper name: no word class, not ordinary
    assert not any(is_ordinary(w) for w in ("Microsoft", "john"))
    # documentation's everyday words general English rarely uses are listed
    assert all(is_ordinary(w) for w in ("sidecar", "scheduler", "backend"))


def test_the_path_of_a_text_document_is_read_from_its_id() -> None:
    assert path_subject("doc/site/services/billing-md") == ("billing", ("site", "services"))
    assert path_subject("doc/repo/src/invoicer/readme-md") == ("invoicer", ("repo", "src"))
    assert path_subject("confluence/billing-design") is None


def test_headings_code_blocks_and_tables_are_found_in_the_stored_text() -> None:
    text = (
        "Ledger Guide\n\n## Ledger Service\n\nThe ledger keeps balances.\n\n```\nledger-cli run\n"
        "```\n\nNotes\n=====\n\n| Service | Role |\n|---|---|\n| [ledger](ledger/) | books |\n"
    )
    doc = source("doc/guide-md", text, "Ledger Guide")
    assert [h.text for h in headings(doc)] == ["Ledger Guide", "Ledger Service", "Notes"]
    (code,) = code_spans(text)
    assert "ledger-cli" in text[code[0] : code[1]]
    (table,) = tables(text)
    assert [c.text for c in table.header] == ["Service", "Role"]
    assert table.rows[0][0].text == "[ledger](ledger/)"


def test_a_title_with_a_kind_word_names_the_pages_subject() -> None:
    doc = source("doc/notes/overview-md", "Ledger Service\n\nIt keeps balances.", "Ledger Service")
    entities = found(doc)
    ledger = entities["service:ledger"]
    assert ledger.origin == "discovered"
    assert any("page title 'Ledger Service'" in why for _, why in ledger.evidence)
    subject = document_subject(doc, list(entities.values()))
    assert subject is not None and subject[0] is ledger
    assert subject[1] == "page title 'Ledger Service'"


def test_a_path_under_a_services_or_src_folder_names_a_component() -> None:
    billing = source("doc/site/services/billing-md", "Billing\n\nIt charges orders.", "Billing")
    invoicer = source("doc/repo/src/invoicer/readme-md", "Invoicer\n\nIt renders PDFs.")
    entities = found(billing, invoicer)
    assert {"service:billing", "service:invoicer"} <= set(entities)
    subject = document_subject(invoicer, list(entities.values()))
    assert subject is not None and subject[0].name == "invoicer"
    assert subject[1] == "file path src/invoicer"


def test_a_page_about_a_topic_names_no_entity() -> None:
    doc = source("doc/site/deployment-md", "Deployment\n\nRun it on a server.", "Deployment")
    assert found(doc) == {}


def test_headings_that_name_an_entity_are_listed_with_their_span() -> None:
    text = "Ledger Service\n\n## Ledger\n\nIt keeps balances.\n\n## Metrics\n\nCounters."
    doc = source("doc/site/services/ledger-md", text, "Ledger Service")
    entities = list(found(doc).values())
    spans = heading_entities(doc, entities)
    assert [(text[s:e], entity.name, why) for s, e, entity, why in spans] == [
        ("Ledger Service", "ledger", "heading 'Ledger Service'"),
        ("Ledger", "ledger", "heading 'Ledger'"),
    ]


def test_a_table_under_a_kind_header_names_one_entity_per_row() -> None:
    text = "| Service | Role |\n|---|---|\n| `quillpad` | notes |\n| [inkwell](inkwell/) | ink |\n"
    entities = found(source("doc/overview-md", text, "Overview"))
    assert {"service:quillpad", "service:inkwell"} <= set(entities)


def test_a_chinese_title_with_a_kind_word_and_a_definition_table() -> None:
    registry = source(
        "doc/ref/registry/etcd-md", "Etcd 注册中心\n\n基于 Etcd 实现。", "Etcd 注册中心"
    )
    roles = source(
        "doc/ref/roles-md", "节点 | 角色说明\n--- | ---\n`Keeper` | 保存配置的配置中心\n", "角色"
    )
    entities = found(registry, roles)
    assert entities["component:etcd-注册中心"].kind == "component"
    keeper = entities["component:keeper"]
    assert "配置中心" in keeper.aliases


# --- what prose says ---------------------------------------------------------------------------


def test_the_x_service_in_lowercase_inside_a_longer_noun_needs_a_second_clue() -> None:
    # stated whole ("The ledger service persists …") it is enough: test_discovery_termhood.py
    prose = source("doc/a-md", "Invoices reach the ledger service queue first.", "Notes")
    assert "service:ledger" not in found(prose)
    page = source("doc/site/services/ledger-md", "Ledger\n\nIt keeps balances.", "Ledger")
    ledger = found(prose, page)["service:ledger"]
    assert "ledger service" in ledger.aliases


def test_a_proper_name_with_a_kind_word_counts_when_repeated_across_pages() -> None:
    one = source("doc/a-md", "Orders go through the Quarkle service.", "A")
    two = source("doc/b-md", "Refunds also reach the Quarkle service.", "B")
    assert "service:quarkle" not in found(one)
    assert found(one, two)["service:quarkle"].kind == "service"


def test_camel_case_identifiers_with_a_kind_word_name_services_and_components() -> None:
    docs = [
        source("doc/a-md", "BillingService hands jobs to the QuillExecutor.", "A"),
        source("doc/b-md", "When BillingService restarts, QuillExecutor drains.", "B"),
    ]
    entities = found(*docs)
    billing = entities["service:billing"]
    assert "BillingService" in billing.aliases
    assert entities["component:quillexecutor"].name == "QuillExecutor"


def test_kebab_case_identifiers_take_the_kind_of_their_last_word() -> None:
    """English words hyphenated ("edge-proxy") count where the identifier ends a phrase."""
    docs = [
        source("doc/a-md", "Traffic enters through edge-proxy. It retries on ledger-db.", "A"),
        source(
            "doc/b-md", "Writes go to ledger-db. Checkout reads orders-queue via edge-proxy.", "B"
        ),
        source("doc/c-md", "Refunds reach orders-queue.", "C"),
    ]
    kinds = {e.name: e.kind for e in discover_entities(docs)}
    assert kinds == {"edge-proxy": "component", "orders-queue": "topic", "ledger-db": "datastore"}


def test_hyphenated_english_before_a_noun_is_not_a_name() -> None:
    docs = [
        source("doc/a-md", "It uses an in-process transport and fine-grained locks.", "A"),
        source("doc/b-md", "The in-process transport skips fine-grained checks.", "B"),
    ]
    assert found(*docs) == {}


def test_an_infrastructure_name_takes_its_kind_from_the_words_next_to_it() -> None:
    docs = [
        source("doc/a-md", "Invoices live in a database, usually Zorbadb.", "A"),
        source("doc/b-md", "Nightly jobs compact Zorbadb. Carts sit in Quokkache, a cache.", "B"),
        source("doc/c-md", "Sessions also use Quokkache.", "C"),
    ]
    kinds = {e.name: e.kind for e in discover_entities(docs)}
    assert kinds == {"Zorbadb": "datastore", "Quokkache": "datastore"}


def test_a_qualifier_before_many_heads_names_the_system_not_a_component() -> None:
    text = (
        "The Brightly scheduler starts runs. A Brightly worker executes them. "
        "The Brightly database stores them."
    )
    docs = [source("doc/site/scheduler-md", text, "Scheduler"), source("doc/b-md", text, "B")]
    entities = found(*docs)
    assert "component:brightly" not in entities and "datastore:brightly" not in entities
    assert "datastore:brightly-database" in entities


# --- variants and kinds ------------------------------------------------------------------------


def test_variants_of_one_name_are_one_entity_with_a_reason_for_each_alias() -> None:
    docs = [
        source("doc/site/services/billing-md", "Billing Service\n\nIt charges.", "Billing Service"),
        source("doc/a-md", "* [billingservice] Retry charges. BillingService logs them.", "A"),
        source("doc/b-md", "BillingService is called by the Billing Service client.", "B"),
    ]
    billing = [e for e in discover_entities(docs) if e.name.lower() == "billing"]
    assert len(billing) == 1
    (entity,) = billing
    assert {"Billing Service", "BillingService"} <= set(entity.aliases)
    reasons = dict(entity.evidence)
    assert "page title 'Billing Service'" in reasons["Billing Service"]
    # "billingservice" binds as "BillingService" does: one alias keeps both reasons
    assert "identifier 'BillingService'" in reasons["BillingService"]
    assert "changelog tag [billingservice]" in reasons["BillingService"]


def test_a_team_and_a_service_of_one_name_stay_two_entities() -> None:
    doc = source(
        "doc/a-md", "The Payments team owns the Payments Service. Ask the Payments team.", "A"
    )
    entities = found(doc)
    assert entities["team:payments"].kind == "team"
    assert entities["service:payments"].kind == "service"


def test_a_title_alias_in_parentheses_joins_the_name_it_explains() -> None:
    docs = [
        source(
            "doc/site/services/edge-gate-md",
            "Edge Gate (Envoyx)\n\nIt routes.",
            "Edge Gate (Envoyx)",
        ),
        source("doc/a-md", "Requests pass the Envoyx proxy first. Envoyx logs them.", "A"),
    ]
    (entity,) = [e for e in discover_entities(docs) if "Envoyx" in (e.name, *e.aliases)]
    assert entity.name == "edge-gate"


def test_license_files_name_nothing() -> None:
    doc = source("doc/license", "Sui Generis Database Rights apply. The Sui Generis Database.", "L")
    assert found(doc) == {}


# --- where an ordinary-word name binds ---------------------------------------------------------


CART = Entity("cart", "service", ("Cart Service",), origin="discovered")
SCHEDULER = Entity("scheduler", "component", origin="discovered")


def test_an_ordinary_word_name_binds_only_where_the_text_marks_it() -> None:
    binder = Binder([CART])
    assert bound(binder, "Users add items to the shopping cart.") == []
    assert bound(binder, "Add to cart and pay.") == []
    assert bound(binder, "The checkout calls the cart service.") == ["cart service"]
    assert bound(binder, "The checkout calls cart, a service.") == []
    assert bound(binder, "The checkout calls `cart` directly.") == ["cart"]
    assert bound(binder, "Cart") == ["Cart"]  # a heading or a label: a line of its own
    assert bound(binder, "The checkout calls cart-svc.") == []
    assert bound(binder, "Ask the Cart Service first.") == ["Cart Service"]


def test_the_page_subject_binds_by_its_plain_name_after_a_definite_word() -> None:
    binder = Binder([CART])
    assert bound(binder, "The cart stores items in Quokkache.", (CART.id,)) == ["cart"]
    assert bound(binder, "Shoppers fill a shopping cart.", (CART.id,)) == []
    assert bound(binder, "It is not a cart.", (CART.id,)) == []


def test_a_name_that_is_a_kind_word_binds_after_the() -> None:
    binder = Binder([SCHEDULER])
    assert bound(binder, "The scheduler queues tasks.") == ["scheduler"]
    assert bound(binder, "Pick a scheduler that fits.") == []


def test_a_mention_says_what_marked_it() -> None:
    sentence = Sentence("doc/x", "The checkout calls `cart`.", 0, 26)
    (mention,) = Binder([CART]).bind(sentence)
    assert mention.reason == "name, marked by markup"


def test_catalog_names_bind_everywhere_as_before() -> None:
    catalog = Catalog.from_entries([{"name": "cart", "kind": "service"}])
    assert bound(Binder(catalog.entities), "Users add items to the shopping cart.") == ["cart"]


def test_bind_corpus_binds_each_pages_subject_and_prefers_a_catalog() -> None:
    page = source(
        "doc/site/services/cart-md", "Cart Service\n\nThe cart keeps items.", "Cart Service"
    )
    entities, sentences = bind_corpus([page], None)
    assert [e.name for e in entities] == ["cart"]
    assert [[m.surface for m in ms] for _, ms in sentences] == [["Cart Service"], ["cart"]]
    catalog = Catalog.from_entries([{"name": "ledger", "kind": "service"}])
    assert [e.name for e in bind_corpus([page], catalog)[0]] == ["ledger"]


def test_suggestions_count_mentions_and_keep_the_first_sentence() -> None:
    page = source(
        "doc/site/services/cart-md", "Cart Service\n\nThe cart keeps items.", "Cart Service"
    )
    (suggestion,) = suggest_catalog([page])
    entry = suggestion.to_entry()
    assert (entry["name"], entry["kind"], entry["mentions"]) == ("cart", "service", 2)
    assert entry["first_sentence"] == {
        "id": "doc/site/services/cart-md#0-12",
        "text": "Cart Service",
    }
    assert entry["origin"] == "discovered" and entry["reasons"]
