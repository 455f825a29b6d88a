from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from zehn.corpus.model import parse_sentence_id, sentence_id
from zehn.reading.split import chunk_sentences, split_sentences


def texts(doc: str) -> list[str]:
    return [s.text for s in split_sentences("doc/x", doc)]


def test_paragraph_wraps_are_soft_and_blank_lines_hard() -> None:
    doc = "The indexer feeds\nsearch-api. It is fast.\n\nNew paragraph without stop"
    assert texts(doc) == [
        "The indexer feeds\nsearch-api.",
        "It is fast.",
        "New paragraph without stop",
    ]


def test_abbreviations_versions_and_initials_do_not_end_sentences() -> None:
    doc = "Use v2.1 of origin-mapper, e.g. the blue build. J. Doe agreed. Then we ship."
    assert texts(doc) == [
        "Use v2.1 of origin-mapper, e.g. the blue build.",
        "J. Doe agreed.",
        "Then we ship.",
    ]


def test_list_items_headings_and_tables_are_blocks_without_their_markers() -> None:
    doc = (
        "# Design\n- billing depends on ledger-v2\n- second item\n1. third\n| a | b |\n|---|---|\n"
    )
    assert texts(doc) == ["Design", "billing depends on ledger-v2", "second item", "third", "a | b"]


def test_questions_and_exclamations_end_sentences() -> None:
    assert texts("Does query-planner call indexer? Nobody knows! Ok.") == [
        "Does query-planner call indexer?",
        "Nobody knows!",
        "Ok.",
    ]


def test_chinese_terminators_need_no_space() -> None:
    doc = "origin-mapper 依赖 indexer 的 v2 索引。我们计划迁移！“好的。”然后呢"
    assert texts(doc) == [
        "origin-mapper 依赖 indexer 的 v2 索引。",
        "我们计划迁移！",
        "“好的。”",
        "然后呢",
    ]


def test_run_on_text_is_capped() -> None:
    doc = "word " * 1000
    sentences = split_sentences("doc/x", doc, max_chars=200)
    assert len(sentences) > 5
    assert all(len(s.text) <= 200 for s in sentences)


def test_sentence_ids_round_trip() -> None:
    assert sentence_id("confluence/indexer-design", 812, 901) == "confluence/indexer-design#812-901"
    assert parse_sentence_id("pr/search-api-12#3-40") == ("pr/search-api-12", 3, 40)


def test_chunks_cover_sentences_in_order() -> None:
    doc = " ".join(f"Sentence number {i} is here." for i in range(50))
    sentences = split_sentences("doc/x", doc)
    chunks, stamped = chunk_sentences("doc/x", sentences, max_chars=120)
    assert len(chunks) > 5
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    for s in stamped:
        chunk = chunks[s.chunk_ordinal]
        assert chunk.start <= s.start and s.end <= chunk.end


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_every_sentence_is_an_exact_slice(doc: str) -> None:
    previous_end = 0
    for s in split_sentences("doc/x", doc):
        assert doc[s.start : s.end] == s.text
        assert s.text == s.text.strip()
        assert s.start >= previous_end
        previous_end = s.end


def test_a_code_like_identifier_can_start_a_sentence() -> None:
    doc = "The indexer feeds search-api. origin-mapper affects indexer. but a plain word does not."
    assert texts(doc) == [
        "The indexer feeds search-api.",
        "origin-mapper affects indexer. but a plain word does not.",
    ]


def test_full_width_quotes_and_brackets_stay_with_their_chinese_sentence() -> None:
    doc = "他说：「indexer 依赖 event-bus。」然后（据说）离开了？对！"
    assert texts(doc) == ["他说：「indexer 依赖 event-bus。」", "然后（据说）离开了？", "对！"]


def test_mixed_english_and_chinese_sentences_split_at_either_terminator() -> None:
    doc = "The indexer feeds search-api. 然后 billing 依赖 ledger-v2；search-api.下一句 v2.1 版本。"
    assert texts(doc) == [
        "The indexer feeds search-api.",
        "然后 billing 依赖 ledger-v2；",
        "search-api.",
        "下一句 v2.1 版本。",
    ]


def test_chinese_list_markers_open_items_and_are_not_part_of_the_sentence() -> None:
    doc = "待办事项\n1、indexer 读取 ledger-v2\n二、billing 写入 ledger-v2\n（3）收尾\n"
    assert texts(doc) == ["待办事项", "indexer 读取 ledger-v2", "billing 写入 ledger-v2", "收尾"]


def test_long_chinese_runs_are_cut_at_chinese_commas() -> None:
    doc = "，".join(["索引服务读取特征库的数据"] * 40)
    sentences = split_sentences("doc/x", doc, max_chars=100)
    assert len(sentences) > 4 and all(len(s.text) <= 100 for s in sentences)
    assert all(s.text.endswith("，") for s in sentences[:-1])
    assert all(doc[s.start : s.end] == s.text for s in sentences)


@given(
    st.lists(
        st.sampled_from(
            ["indexer", " 依赖 ", "event-bus", "。", "！", "？", "；", "“", "”", "「", "」",
             "（", "）", ". ", "v2.1", "\n", "\n\n", "1、", "- ", "，", "The ", "计划"]
        ),
        max_size=60,
    ).map("".join)
)  # fmt: skip
def test_mixed_chinese_text_sentences_are_exact_slices(doc: str) -> None:
    previous_end = 0
    for s in split_sentences("doc/x", doc, max_chars=40):
        assert doc[s.start : s.end] == s.text and s.text == s.text.strip()
        assert s.start >= previous_end
        previous_end = s.end


def test_each_line_of_a_graphviz_directive_is_its_own_sentence() -> None:
    doc = (
        "Design notes. The ledger is old.\n\n"
        ".. graphviz::\n\n"
        "   digraph {\n"
        '       api -> ledger [label="charges. Then"]\n'
        '       ledger [label="Ledger"]\n'
        "   }\n\n"
        "After the diagram\nwrapped line.\n"
    )
    assert texts(doc) == [
        "Design notes.",
        "The ledger is old.",
        ".. graphviz::",
        "digraph {",
        'api -> ledger [label="charges. Then"]',  # a diagram line is never cut inside
        'ledger [label="Ledger"]',
        "After the diagram\nwrapped line.",
    ]


def test_mermaid_and_plantuml_lines_keep_their_markers() -> None:
    doc = "```mermaid\ngraph TD\n  a[Start. Then go] --> b\n```\n\n@startuml\n- x\n@enduml\n"
    assert texts(doc) == [
        "```mermaid",
        "graph TD",
        "a[Start. Then go] --> b",
        "@startuml",
        "- x",  # a list marker outside a diagram, a diagram line's text inside one
        "@enduml",
    ]


@given(
    st.lists(
        st.sampled_from(
            [".. graphviz::\n", ".. mermaid::\n", "```mermaid\n", "```\n", "@startuml\n",
             "@enduml\n", "   a -> b\n", "\ta --> b. C\n", "  ", "\n", "- item\n", "x. Y\n",
             "\r\n", "\u2028", "digraph {\n", "}\n", "# H\n"]
        ),
        max_size=40,
    ).map("".join)
)  # fmt: skip
def test_texts_with_diagrams_split_into_exact_slices(doc: str) -> None:
    previous_end = 0
    for s in split_sentences("doc/x", doc):
        assert doc[s.start : s.end] == s.text and s.text == s.text.strip()
        assert s.start >= previous_end
        previous_end = s.end


def _sentences_in_char_by_char(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The splitter's earlier loop over every character, kept to compare against."""
    from zehn.reading import split

    out, sentence_start, i = [], start, start
    while i < end:
        char = text[i]
        if char in split._CJK_TERMINATORS or (
            char in split._LATIN_TERMINATORS and split._ends_latin_sentence(text, i, end)
        ):
            stop = split._skip_closers(text, i + 1, end)
            out.append((sentence_start, stop))
            sentence_start = i = stop
            continue
        i += 1
    if sentence_start < end:
        out.append((sentence_start, end))
    return out


def test_jumping_between_terminators_cuts_where_the_character_loop_cut() -> None:
    import random

    from zehn.reading import split

    pieces = ["a", "B", "7", " ", "  ", "\n", ".", "!", "?", "。", "；", "！", "”", ")", "e.g.",
              "Mr.", "J.", "v2.1", "search-api", "然后", "服务", "“", "`x`", "...", "x.Y"]  # fmt: skip
    rng = random.Random(11)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        start = rng.randint(0, len(text))
        end = rng.randint(start, len(text))
        assert list(split._sentences_in(text, start, end)) == _sentences_in_char_by_char(
            text, start, end
        ), (text, start, end)
