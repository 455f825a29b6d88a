"""Chinese prose writes Latin script for terms only: a discovered name that is also an English
word ("Anchor", "Sender") binds where it stands between Chinese characters or Chinese
punctuation, as it would after "the" in English; inside English words it stays a word."""

from __future__ import annotations

import pytest

from zehn.corpus.model import Sentence
from zehn.reading.model import Entity
from zehn.reading.names.binding import Binder

BINDER = Binder(
    [
        Entity(
            "anchor-server", "component", aliases=("AnchorServer", "Anchor"), origin="discovered"
        ),
        Entity(
            "sender-server", "component", aliases=("SenderServer", "Sender"), origin="discovered"
        ),
    ]
)


def _bound(text: str) -> list[str]:
    sentence = Sentence("doc/x", text, 0, len(text))
    return [m.entity_id or "" for m in BINDER.bind(sentence)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("执行线程定时向Anchor汇报任务的状态。", ["component:anchor-server"]),
        (
            "节点超时后，直接将Sender或Anchor停掉。",
            ["component:sender-server", "component:anchor-server"],
        ),
        ("任务先交给 Sender 处理，再写入日志。", ["component:sender-server"]),
    ],
)
def test_an_english_word_name_between_chinese_characters_binds(
    text: str, expected: list[str]
) -> None:
    assert _bound(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Anchor 在分发任务时先判断优先级。", ["component:anchor-server"]),  # no sentence capital
        (
            "任务会最先被 sender 分发给 anchor 执行。",
            ["component:sender-server", "component:anchor-server"],
        ),
        ("日志由anchor统一收集。", ["component:anchor-server"]),
    ],
)
def test_in_chinese_text_either_case_and_the_opening_word_bind(
    text: str, expected: list[str]
) -> None:
    assert _bound(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The ship lost its anchor last year.",  # an English word in English text
        "请阅读 Anchor Guide 一文。",  # part of an English title
    ],
)
def test_an_english_word_name_in_english_words_stays_a_word(text: str) -> None:
    assert _bound(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Sender/Anchor注册心跳到目录中。",
        "节点 Sender/Anchor 启动后先自检。",
        "任务由Sender/Anchor/Sender分别处理。",
    ],
)
def test_names_joined_by_a_slash_in_chinese_text_are_a_list(text: str) -> None:
    assert {"component:sender-server", "component:anchor-server"} <= set(_bound(text))


@pytest.mark.parametrize(
    "text",
    ["日志在 /opt/Sender/bin 目录下。", "Run it as Sender/Anchor in the test setup."],
)
def test_a_path_or_english_text_is_no_slash_list(text: str) -> None:
    assert _bound(text) == []
