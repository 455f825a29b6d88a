"""Discovery's data rows on invented text: more head nouns that make a name a component, and
template slots that never do."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.reading.names.clues import name_key
from zehn.reading.names.discover import discover_entities
from zehn.reading.split import chunk_sentences, split_sentences


def _found(*texts: str) -> dict[str, str]:
    documents = []
    for i, text in enumerate(texts):
        doc_id = f"doc/h{i}-md"
        chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
        documents.append(SourceText(doc_id, "Notes", text, tuple(chunks), tuple(sentences)))
    return {name_key(e.name): e.kind for e in discover_entities(documents)}


def test_a_name_before_a_daemon_gateway_or_indexer_head_is_discovered_with_its_kind() -> None:
    found = _found(
        "The quorra daemon renews every lease.\nThe ledger gateway forwards each request.\n",
        "Operators restart the quorra daemon after an upgrade.\n"
        "The shard indexer reads every block that the ledger gateway accepts.\n",
        "The shard indexer writes its output to disk.\n",
    )
    assert found.get(name_key("quorra daemon")) == "service"
    assert found.get(name_key("ledger gateway")) == "service"
    assert found.get(name_key("shard indexer")) == "component"


def test_an_identifier_filling_a_template_slot_is_no_entity() -> None:
    flags = "Pass --config-file=<vault-path> to the process.\n"
    helm = "Set the name to {{ release-tag }} in the chart.\n"
    shell = "Export the folder as ${spool-dir} before you start.\n"
    found = _found(flags * 3, helm * 3, shell * 3, flags + helm + shell)
    for slot in ("vault-path", "release-tag", "spool-dir"):
        assert name_key(slot) not in found, slot


def test_the_same_identifier_outside_a_slot_is_still_read() -> None:
    text = "The `vault-path` service signs tokens.\nThe `vault-path` service rotates keys.\n"
    assert name_key("vault-path") in _found(text, text)


def test_link_targets_and_urls_name_nothing() -> None:
    anchor = "See [the standby notes](deploy.md#quiet-standby) before you fail over.\n"
    label = "Read [how to front it][spare-relay] first.\n"
    definition = "\n[spare-relay]: deploy.md#spare\n"
    url = "Fetch it from https://example.org/tools/pocket-tracer/ and install it.\n"
    found = _found(anchor * 2, label * 3 + definition, url * 2, anchor + url + label)
    for slug in ("quiet-standby", "pocket-tracer"):
        assert name_key(slug) not in found, slug
    # a reference's definition keeps its label once: used once, it is no name
    assert name_key("spare-relay") not in found


def test_an_identifier_in_the_link_text_is_still_read() -> None:
    text = "The [`quiet-relay`](relay.md) service signs tokens.\nThe `quiet-relay` service rotates keys.\n"
    assert name_key("quiet-relay") in _found(text, text)


_ZORBLE = (
    "Zorble keeps every row in three copies.\nWe run Zorble on each host.\n"
    "Data lands in Zorble within a second.\n"
)


def test_a_proper_name_with_capitalised_words_after_it_is_one_name() -> None:
    english = "You import files with Zorble Lightning before you start.\n"
    headed = "Open Zorble Dashboard to see each Zorble HTAP query.\n"
    chinese = "使用 Zorble Operator 部署集群，Zorble 会自动扩容。\n"
    found = _found(
        _ZORBLE + english + headed + chinese,
        _ZORBLE + english * 2 + headed * 2 + chinese * 2,
    )
    for name in ("Zorble", "Zorble Lightning", "Zorble Dashboard", "Zorble Operator"):
        assert name_key(name) in found, name
    assert name_key("Zorble HTAP") not in found  # an all-capital word: a concept of it


def test_a_compound_used_in_one_document_or_once_is_not_a_name() -> None:
    once = "Zorble Beacon restarted once.\n"
    found = _found(_ZORBLE * 2 + once * 3, _ZORBLE * 2 + "We saw Zorble Lantern once.\n")
    assert name_key("Zorble") in found
    assert name_key("Zorble Beacon") not in found and name_key("Zorble Lantern") not in found


def test_ordinary_words_before_storage_name_a_store() -> None:
    found = _found(
        "Every block goes to the ledger storage once a day.\n"
        "The compactor reads the ledger storage at night.\n",
        "Readers fetch blocks from the ledger storage on demand.\n"
        "Operators size the ledger storage for a year of data.\n",
    )
    assert found.get(name_key("ledger storage")) == "datastore"


def test_a_proper_name_before_storage_is_that_products_own_storage() -> None:
    found = _found(
        "The Quorvane storage keeps two hours of data. Quorvane serves queries.\n" * 3,
        "Queries reach Quorvane first; the Quorvane storage is local.\n" * 3,
    )
    assert name_key("Quorvane storage") not in found
    assert found.get(name_key("Quorvane")) is not None


def test_a_describing_word_before_storage_names_nothing() -> None:
    found = _found(
        "Blocks stay in the local storage until the upload ends.\n" * 3,
        "The local storage is wiped after a restart.\n" * 3,
    )
    assert name_key("local storage") not in found


def test_a_name_before_node_is_a_component_kept_whole() -> None:
    found = _found(
        "Quorra nodes fan out every query.\nThe Brisket Compute Node caches results.\n",
        "Each Quorra node keeps a copy.\nScale the Brisket Compute Node with the load.\n",
        "A Quorra node restarts quickly.\n",
    )
    assert found.get(name_key("Quorra node")) == "component"
    assert found.get(name_key("Brisket Compute Node")) == "component"
    assert name_key("Brisket Compute") not in found


def test_a_camel_case_identifier_as_a_bold_list_label_is_a_name_even_once() -> None:
    found = _found(
        "- **QuorbManagerThread**主要负责任务队列的提交。\n",
        "1. **SpoolFetchRunnable** pulls the next job from the queue.\n",
        "* **LedgerRetryThread**: retries failed writes.\n",
        "Nothing else is said here.\n",
    )
    for name in ("QuorbManagerThread", "SpoolFetchRunnable", "LedgerRetryThread"):
        assert name_key(name) in found, name


def test_a_camel_case_word_once_without_markup_is_no_name() -> None:
    found = _found("- QuorbManagerThread is mentioned once.\n", "Nothing else here.\n")
    assert name_key("QuorbManagerThread") not in found


def _role_corpus(server: str, bare_uses: int, after: str = "") -> dict[str, list[str]]:
    from zehn.reading.names.discover import discover_entities as discover

    lines = [f"Then Keeper{after} hands job {i} to the workers.\n" for i in range(bare_uses)]
    named = f"The {server} hands job 0 to the workers.\n"
    pages = (
        f"# {server}\n\n{named}" + "".join(lines[::2]),
        f"# Notes\n\n{named}" + "".join(lines[1::2]),
    )
    documents = []
    for i, (text, title) in enumerate(zip(pages, (server, "Notes"), strict=True)):
        doc_id = f"doc/r{i}-md"
        chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
        documents.append(SourceText(doc_id, title, text, tuple(chunks), tuple(sentences)))
    return {e.name: list(e.aliases) for e in discover(documents)}


@pytest.mark.parametrize("server", ["keeper-server", "KeeperServer", "Keeper Server"])
def test_the_bare_word_of_a_server_name_used_alone_often_is_its_alias(server: str) -> None:
    found = _role_corpus(server, 12)
    assert any("Keeper" in aliases for aliases in found.values()), found


def test_a_bare_word_used_rarely_or_only_in_compounds_is_no_alias() -> None:
    for found in (_role_corpus("keeper-server", 3), _role_corpus("keeper-server", 12, " UI")):
        assert not any("Keeper" in aliases for aliases in found.values()), found
