"""Words that state a component failing, stopping or being taken away, one row per language:
read by the question reader (a scene of failure is a condition, ``questions.scenario``) and by
the relations reader (a failure's stated consequence is an AFFECTS, ``relations.consequences``).
"""

from __future__ import annotations

import re


def words_pattern(words: tuple[str, ...]) -> str:
    """A regular-expression alternation of ``words`` (rows of this module's tables): longest
    first, each escaped, any run of spaces inside one allowed to be any whitespace."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len)[::-1])


# a component failing, stopping or being taken away (any tense)
FAILURE_WORDS: dict[str, tuple[str, ...]] = {
    "en": (
        "go down", "goes down", "going down", "went down", "gone down", "is down", "are down",
        "down for", "unreachable", "unavailable", "offline", "outage", "crash", "crashes",
        "crashed", "crashing", "fails", "failed", "failing", "fail over", "fails over",
        "failed over", "paused", "pausing", "pause", "stopped", "stopping", "hangs", "hung",
        "stuck", "decommission", "decommissioning", "decommissioned", "taking down",
        "take down", "taken down", "shut down", "shutting down", "restart", "restarting",
        "restarted", "for maintenance", "replacing", "removing", "migrating", "upgrading",
    ),
    "zh": (
        "宕机", "宕掉", "挂了", "挂掉", "卡住", "下线", "停了", "停掉", "停止", "不可用", "故障",
        "连不上", "连接不上", "无法连接", "down 了", "down了", "重启", "出问题", "失效", "崩溃",
        "不响应", "升级", "替换", "迁移", "down",
    ),
}  # fmt: skip

# an outage of a running component, as a condition states it ("if X is down", "X 宕机后")
OUTAGE_WORDS: dict[str, tuple[str, ...]] = {
    "en": (
        "goes down", "go down", "went down", "is down", "are down", "unavailable",
        "unreachable", "offline", "crashes", "crashed", "crash", "dies", "died", "hangs",
        "is not running", "are not running", "not running", "is not available",
        "not available", "stops", "stopped", "is stopped", "fails", "failed",
        "not functioning", "is lost", "disconnected",
    ),
    "zh": (
        "宕机", "宕掉", "挂了", "挂掉", "下线", "不可用", "故障", "失效", "崩溃", "停止服务",
        "异常退出", "连不上", "无法连接", "断开",
    ),
}  # fmt: skip
# what an outage does to another component, as the main clause states it ("Y cannot …")
CONSEQUENCE_WORDS: dict[str, tuple[str, ...]] = {
    "en": (
        "cannot", "can't", "can not", "unable to", "will not work", "won't work", "not work",
        "does not work", "doesn't work", "will fail", "fails", "fail", "stop working",
        "stops working", "stops", "becomes unavailable", "become unavailable",
        "will be unavailable", "is unavailable", "are unavailable", "no longer", "loses",
        "will lose", "lose", "breaks", "will break", "is blocked", "are blocked", "hangs",
    ),
    "zh": (
        "无法", "不能", "会失败", "失败", "不可用", "停止", "中断", "受影响", "受到影响", "不再",
        "丢失", "阻塞",
    ),
}  # fmt: skip
