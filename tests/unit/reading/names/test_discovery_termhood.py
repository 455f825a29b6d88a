"""Discovery by termhood, on invented text: general-language frequency (``wordfreq``) against
the corpus's, and a name stated once in a clear "the X service" form."""

from __future__ import annotations

from pathlib import Path

from zehn.corpus.model import SourceText
from zehn.reading.names.clues import name_key
from zehn.reading.names.discover import discover_entities
from zehn.reading.names.suggest import suggest_for_path
from zehn.reading.names.termhood import general_zipf, is_general, is_term, termhood
from zehn.reading.references.reader import read_corpus
from zehn.reading.relations.reader import sentence_edges
from zehn.reading.split import chunk_sentences, split_sentences

SIX_EN = {
    "checkout.md": "# Checkout Service\n\nThe checkout service calls the payment service over "
    "gRPC.\nThe checkout service reads from the cart database.\n",
    "fraud.md": "# Fraud Service\n\nThe fraud service depends on the risk-model service for "
    "scores.\nThe ledger service consumes from the billing-events topic.\n",
    "payment.md": "# Payment Service\n\nThe payment service calls the fraud service before "
    "every charge.\nThe payment service publishes to the billing-events topic.\n",
}
SEVEN_EN = {
    ("checkout", "service"),
    ("payment", "service"),
    ("fraud", "service"),
    ("risk-model", "service"),
    ("ledger", "service"),
    ("cart database", "datastore"),
    ("billing-events", "topic"),
}


def source(doc_id: str, text: str, title: str = "Notes") -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, title, text, tuple(chunks), tuple(sentences))


def kinds(*texts: str) -> dict[str, str]:
    """name key -> kind of what is discovered in ``texts``, one document each."""
    documents = [source(f"doc/n{i}-md", text) for i, text in enumerate(texts)]
    return {name_key(e.name): e.kind for e in discover_entities(documents)}


def suggested(root: Path, files: dict[str, str]) -> set[tuple[str, str]]:
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    found = suggest_for_path(root).suggestions
    return {(name_key(s.entity.name), s.entity.kind) for s in found}


def test_general_language_words_are_not_terms_and_rare_ones_used_often_are() -> None:
    assert is_general("new") and is_general("main") and not is_general("ledger")
    assert general_zipf("zorbadb") == 0.0 and general_zipf("the") > 6
    assert is_term("zorbadb", 3, 10_000) and not is_term("model", 3, 10_000)
    assert termhood("ledger", 5, 10_000) > termhood("ledger", 1, 10_000)
    assert is_general("服务", "zh") and not is_general("风控", "zh")


def test_the_six_sentences_give_the_seven_components_with_their_kinds(tmp_path: Path) -> None:
    wanted = {(name_key(n), k) for n, k in SEVEN_EN}
    assert suggested(tmp_path, SIX_EN) >= wanted


def test_a_name_stated_once_as_the_subject_of_its_sentence() -> None:
    assert kinds("The tally service stores counts in Postgres.")[name_key("tally")] == "service"
    assert kinds("The invoices queue must never block.")[name_key("invoices queue")] == "topic"


def test_a_name_stated_once_as_a_complement_ending_its_noun_phrase() -> None:
    found = kinds("Orders are written to the stock database before shipping.")
    assert found[name_key("stock database")] == "datastore"
    assert (
        kinds("Each charge is checked by the fee-rules service.")[name_key("fee-rules")]
        == "service"
    )


def test_what_is_not_a_clear_statement_of_a_name_needs_more() -> None:
    assert name_key("ledger") not in kinds("Invoices reach the ledger service queue first.")
    assert name_key("remote") not in kinds("The remote service replies with a token.")
    assert name_key("main") not in kinds("The main service starts first.")
    assert name_key("external") not in kinds("It calls the external service over HTTP.")
    assert name_key("ledger") not in kinds("A ledger service would help here.")


SIX_ZH = {
    "jiesuan.md": "# 结算服务\n\n结算服务通过 gRPC 调用支付服务。结算服务从购物车数据库读取数据。\n",
    "fengkong.md": "# 风控服务\n\n风控服务依赖 risk-model 服务提供评分。"
    "账本服务从 billing-events 主题消费消息。\n",
    "zhifu.md": "# 支付服务\n\n支付服务在每次扣款前调用风控服务。支付服务向 billing-events 主题发布消息。\n",
}
SEVEN_ZH = {
    ("结算服务", "service"),
    ("支付服务", "service"),
    ("风控服务", "service"),
    ("risk-model", "service"),
    ("账本服务", "service"),
    ("购物车数据库", "datastore"),
    ("billing-events", "topic"),
}


def test_the_six_chinese_sentences_give_the_seven_components(tmp_path: Path) -> None:
    wanted = {(name_key(n), k) for n, k in SEVEN_ZH}
    assert suggested(tmp_path, SIX_ZH) >= wanted


def test_a_chinese_term_as_the_subject_or_a_prepositions_object_is_a_name() -> None:
    assert kinds("库存服务会定期清理过期记录。")[name_key("库存服务")] == "service"
    assert kinds("订单写入后存入账单数据库。")[name_key("账单数据库")] == "datastore"
    assert kinds("消息先发送到 order-events 主题。")[name_key("order-events")] == "topic"


def test_chinese_terms_that_are_verbs_descriptions_or_general_words_are_not_names() -> None:
    found = kinds("提供者启动时暴露服务。", "消费者调用远程服务。", "其他服务会调用该服务。")
    assert not {name_key(n) for n in ("暴露服务", "远程服务", "其他服务", "该服务")} & set(found)


def test_a_chinese_term_whose_words_the_corpus_uses_everywhere_only_confirms() -> None:
    text = "统计服务每天运行一次。统计报表很长。统计方法很多。统计结果很准。"
    assert name_key("统计服务") not in kinds(text)


def _read_edges(files: dict[str, str]) -> set[tuple[str, str, str]]:
    documents = [
        source(f"doc/{name.replace('.', '-')}", text, text.split("\n")[0].lstrip("# "))
        for name, text in files.items()
    ]
    _, read = read_corpus(documents, None)
    return {
        (e.subject, str(e.rel_type), e.object)
        for sentence, mentions in read
        for e in sentence_edges(sentence, mentions, "rules")[0]
        if not e.negated
    }


def test_the_six_sentences_give_six_edges_in_english_and_in_chinese() -> None:
    assert _read_edges(SIX_EN) == {
        ("service:checkout", "CALLS", "service:payment"),
        ("service:checkout", "READS_FROM", "datastore:cart-database"),
        ("service:fraud", "DEPENDS_ON", "service:risk-model"),
        ("service:ledger", "CONSUMES_FROM", "topic:billing-events"),
        ("service:payment", "CALLS", "service:fraud"),
        ("service:payment", "PUBLISHES_TO", "topic:billing-events"),
    }
    assert _read_edges(SIX_ZH) == {
        ("service:结算服务", "CALLS", "service:支付服务"),
        ("service:结算服务", "READS_FROM", "datastore:购物车数据库"),
        ("service:风控服务", "DEPENDS_ON", "service:risk-model"),
        ("service:账本服务", "CONSUMES_FROM", "topic:billing-events"),
        ("service:支付服务", "CALLS", "service:风控服务"),
        ("service:支付服务", "PUBLISHES_TO", "topic:billing-events"),
    }
