"""Proper names by corpus termhood, on invented text: a capitalised name (English) or a
Latin-script name inside Chinese sentences, repeated across documents and rare in general
language, is discovered with no kind word beside it; capitals, units, files, plurals and
names the corpus writes as commands are not."""

from __future__ import annotations

import pytest

from zehn.corpus.model import SourceText
from zehn.reading.names.clues import name_key
from zehn.reading.names.discover import discover_entities
from zehn.reading.names.proper_names import corpus_names, name_shape
from zehn.reading.split import chunk_sentences, split_sentences


def _doc(doc_id: str, text: str) -> SourceText:
    chunks, sentences = chunk_sentences(doc_id, split_sentences(doc_id, text))
    return SourceText(doc_id, doc_id, text, tuple(chunks), tuple(sentences))


EN = [
    _doc(
        "a.md",
        "Every request first reaches the Vornexa and waits there.\n\n"
        "When a query arrives, Vornexa fans it out to each shard.\n\n"
        "Results are merged by Vornexa before they return.\n\n"
        "Each node keeps 4 GiB of memory for the GiB-sized caches.\n",
    ),
    _doc(
        "b.md",
        "Operators can scale Vornexa horizontally.\n\n"
        "If a shard is slow, Vornexa waits for it, and the Vornexas share no state.\n\n"
        "Logs of the build go to the Plinkfile and to the ZQXW store.\n\n"
        "Run it with `zarbot start` or zarbot restart; zarbot stop ends it, as Zarbot says.\n",
    ),
]

ZH = [
    _doc("c.md", "任务由 Quorbit 分配给执行节点。\n\n执行节点启动后向Quorbit注册。\n"),
    _doc("d.md", "Quorbit 挂掉后, 备用节点接替它。\n\n监控 ABC 指标。\n"),
]


def test_a_repeated_rare_capitalised_name_alone_is_discovered() -> None:
    names = {name for name, *_ in corpus_names(EN)}
    assert names == {"Vornexa"}
    found = {name_key(e.name) for e in discover_entities(EN)}
    assert name_key("Vornexa") in found


def test_a_latin_name_inside_chinese_sentences_is_discovered() -> None:
    names = {name for name, *_ in corpus_names(ZH)}
    assert names == {"Quorbit"}
    (entry,) = [n for n in corpus_names(ZH) if n[0] == "Quorbit"]
    assert "in Chinese text" in entry[3]


def test_shapes_that_are_not_names() -> None:
    assert name_shape("Vornexa", "en")
    assert name_shape("MasterServer", "zh")
    assert not name_shape("MasterServer", "en")  # English CamelCase: an identifier
    for word in ("ZQXW", "GiB", "Plinkfile", "TableID", "Compaction", "vornexa"):
        assert not name_shape(word, "zh"), word


# --- a product and the team of the same name ---------------------------------------------------


def _product_corpus(bare_uses: int, team_sentences: list[str]) -> list[SourceText]:
    bare = [
        f"Traffic reaches Quelvane {i} times before the shard answers." for i in range(bare_uses)
    ]
    half = len(bare) // 2
    return [
        _doc("p.md", "\n\n".join(bare[:half] + team_sentences)),
        _doc("q.md", "\n\n".join(bare[half:])),
    ]


def _kinds(documents: list[SourceText]) -> dict[str, str]:
    return {e.name: str(e.kind) for e in discover_entities(documents) if "Quelvane" in e.name}


def test_a_name_used_alone_far_more_than_with_its_team_word_is_the_product() -> None:
    kinds = _kinds(_product_corpus(24, ["Ask the Quelvane team before upgrading."]))
    assert kinds["Quelvane"] == "service"
    assert kinds["Quelvane team"] == "team"


def test_the_team_sentence_may_open_with_the_name() -> None:
    kinds = _kinds(_product_corpus(30, ["The Quelvane team owns it.", "Quelvane team on-call."]))
    assert kinds == {"Quelvane": "service", "Quelvane team": "team"}


def test_a_team_named_about_as_often_as_alone_stays_one_team() -> None:
    team = [f"The Quelvane team reviews change {i}." for i in range(4)]
    kinds = _kinds(_product_corpus(6, team))
    assert kinds == {"Quelvane": "team"}


# --- a name also written in lower case as a common noun ------------------------------------------


def _noun_corpus(lower_sentence: str) -> list[SourceText]:
    named = [f"At noon the planner asks Vexlor to merge shard {i}." for i in range(6)]
    lower = [lower_sentence.format(i=i) for i in range(8)]
    return [
        _doc("n1.md", "\n\n".join(named[:3] + lower[:4])),
        _doc("n2.md", "\n\n".join(named[3:] + lower[4:])),
    ]


def _discovered(documents: list[SourceText]) -> set[str]:
    return {name_key(e.name) for e in discover_entities(documents)}


@pytest.mark.parametrize(
    "sentence",
    [
        "Shard {i} waits for the vexlor.",
        "Blocks are merged by vexlor in round {i}.",
        "Round {i} runs the planner and vexlor together.",
        "In round {i} vexlor is still merging.",  # the subject of a verb: a noun
        "If shard {i} is late, vexlor will wait.",
        "After round {i} vexlor needs more disk.",
    ],
)
def test_lower_case_uses_after_a_determiner_or_before_a_verb_are_the_name_as_a_noun(
    sentence: str,
) -> None:
    assert name_key("Vexlor") in _discovered(_noun_corpus(sentence))


@pytest.mark.parametrize(
    "sentence",
    [
        "Run `vexlor start --round {i}` first.",
        "Then vexlor stop {i} ends it.",
        "Install vexlor/{i} from the mirror.",
    ],
)
def test_lower_case_uses_as_a_command_still_make_it_a_tool(sentence: str) -> None:
    assert name_key("Vexlor") not in _discovered(_noun_corpus(sentence))


# --- names general language knows a little, and abbreviations written like words ------------

KNOWN_A_LITTLE = [
    _doc(
        "e.md",
        "Every alert first reaches Pegasus, which forwards it to the pager.\n\n"
        "Operators restart Pegasus after an upgrade.\n\n"
        "The scrape targets are listed by Pegasus in its own page.\n",
    ),
    _doc(
        "f.md",
        "When the queue fills, Pegasus drops the oldest alerts.\n\n"
        "Dashboards read what Pegasus stored, and Mercury shows them.\n\n"
        "Mercury has a dark theme; Mercury is optional; ask Mercury.\n",
    ),
]


def test_a_name_general_language_knows_a_little_is_a_name_where_the_corpus_repeats_it() -> None:
    names = {name for name, *_ in corpus_names(KNOWN_A_LITTLE)}
    assert "Pegasus" in names  # Zipf 3.2: a myth in general English, a component here
    assert "Mercury" not in names  # Zipf 4.0: a word everyone uses, whatever the corpus does


def test_a_latin_name_general_language_knows_a_little_inside_chinese_text() -> None:
    docs = [
        _doc("g.md", "查询先发给 Nebula，再由 Nebula 分发到各节点。\n"),
        _doc("h.md", "Nebula 挂掉后，备用节点接替它。\n"),
    ]
    assert {name for name, *_ in corpus_names(docs)} == {"Nebula"}


def test_a_word_the_corpus_also_writes_alone_in_capitals_is_an_abbreviation() -> None:
    written_both_ways = [
        _doc("i.md", "Each Osiris has tasks.\n\nAn Osiris runs daily; the OSIRIS is a graph.\n"),
        _doc("j.md", "Write one Osiris per file, and test the Osiris before Osiris ships.\n"),
    ]
    assert "Osiris" not in {name for name, *_ in corpus_names(written_both_ways)}
    in_constants = [
        _doc("k.md", "Each Osiris has tasks.\n\nAn Osiris runs daily; set OSIRIS_HOME first.\n"),
        _doc("l.md", "Write one Osiris per file, and test the Osiris before Osiris ships.\n"),
    ]
    assert "Osiris" in {name for name, *_ in corpus_names(in_constants)}


# --- lower-case spellings inside Chinese text: settings and paths, commands, the product --------


def _zh_corpus(extra: str) -> list[SourceText]:
    return [
        _doc("z1.md", "任务由 Quorbit 分配。\n\n执行节点向 Quorbit 注册。\n\n" + extra),
        _doc("z2.md", "Quorbit 挂掉后，备用节点接替它。\n\n监控页面。\n"),
        *(_doc(f"u{i}.md", "升级说明。\n\n先备份数据。\n") for i in range(3)),
    ]


@pytest.mark.parametrize(
    "spelled",
    [
        "配置 `quorbit.port`、`quorbit.host`、`quorbit.user`、`quorbit.timeout` 后重启。\n",
        "日志在 /data/quorbit/log、/data/quorbit/tmp、/opt/quorbit/bin、/opt/quorbit/lib 下。\n",
        "修改 quorbit.toml、quorbit.yaml、quorbit-env.sh 和 quorbit-site.xml 即可。\n",
    ],
)
def test_lower_case_settings_and_paths_in_chinese_text_say_nothing_of_a_tool(spelled: str) -> None:
    assert {name for name, *_ in corpus_names(_zh_corpus(spelled))} == {"Quorbit"}


def test_a_latin_name_invoked_as_a_command_in_chinese_docs_is_a_tool() -> None:
    invoked = "执行：\n\n```shell\nquorbit start\nquorbit status\nquorbit stop\n```\n"
    assert "Quorbit" not in {name for name, *_ in corpus_names(_zh_corpus(invoked))}


def test_the_product_on_most_pages_and_in_its_own_paths_is_not_one_of_its_parts() -> None:
    docs = [
        _doc(
            f"p{i}.md",
            f"Zendaro 的第 {i} 页：Zendaro 负责调度。\n\n路径 /opt/zendaro/{i} 与 zendaro.conf。\n",
        )
        for i in range(3)
    ]
    assert "Zendaro" not in {name for name, *_ in corpus_names(docs)}
