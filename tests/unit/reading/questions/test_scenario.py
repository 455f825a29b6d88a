"""A question framed by a scene of failure is read as the condition it states (invented
questions, three forms per language)."""

from __future__ import annotations

import pytest

from zehn.reading.questions.asking import Intent
from zehn.reading.questions.asking_zh import read_asked, split_question
from zehn.reading.questions.scenario import as_condition


@pytest.mark.parametrize(
    ("question", "names", "focus", "concerning"),
    [
        (
            "The ledger-db is going down for maintenance tonight. What stops working?",
            ["ledger-db"],
            ("ledger-db",),
            (),
        ),
        (
            "Our quota-api is unreachable. What happens to the invoice-worker?",
            ["quota-api", "invoice-worker"],
            ("quota-api", "invoice-worker"),
            ("invoice-worker",),
        ),
        (
            "We are pausing the mail-relay for an hour! Which services are affected?",
            ["mail-relay"],
            ("mail-relay",),
            (),
        ),
    ],
)
def test_an_english_scene_of_failure_is_the_impact_condition(
    question: str, names: list[str], focus: tuple[str, ...], concerning: tuple[str, ...]
) -> None:
    asked = read_asked(question, names, "en")
    assert asked.intent == Intent.IMPACT
    assert asked.focus == focus and asked.concerning == concerning


@pytest.mark.parametrize(
    ("question", "names", "concerning"),
    [
        ("账单库挂了的话，对账服务还能用吗？", ["账单库", "对账服务"], ("对账服务",)),
        ("鉴权服务宕机了，登录服务会怎样？", ["鉴权服务", "登录服务"], ("登录服务",)),
        ("有台 relay-node down 了，哪些服务会受影响？", ["relay-node"], ()),
    ],
)
def test_a_chinese_scene_of_failure_is_the_impact_condition(
    question: str, names: list[str], concerning: tuple[str, ...]
) -> None:
    asked = read_asked(question, names, "zh")
    assert asked.intent == Intent.IMPACT
    assert asked.focus[0] == names[0] and asked.concerning == concerning


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("The ledger-db is deployed in two regions. What does it read from?", "en"),
        ("Our quota-api went down yesterday. Who takes over its requests?", "en"),
        ("If the quota-api goes down, what breaks?", "en"),
        ("账单库宕机了，谁来接管它的任务？", "zh"),
        ("账单库部署在两个机房，它从哪里读取数据？", "zh"),
    ],
)
def test_a_scene_without_failure_or_a_question_not_about_impact_is_left_as_written(
    question: str, language: str
) -> None:
    """A scene that sets no failure, a question that asks who acts on the failure (a stated
    consequence, not the impact walk), and a question already conditional stay as written."""
    assert as_condition(question, language) == question


def test_the_scene_is_the_first_parts_condition() -> None:
    parts = split_question(
        "The ledger-db crashed at noon. Which services are affected, and who owns them?", "en"
    )
    assert parts[0].startswith("If The ledger-db crashed at noon, Which services are affected")
    assert len(parts) == 2
