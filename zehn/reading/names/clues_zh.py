"""Chinese name morphology: the spellings one Chinese role name takes in real prose.

Chinese manuals name a role with a verb and an agent suffix, and drop or add the
domain prefix at will: a table defines 服务提供方 ("the service's providing side"),
the prose then says 服务提供者, 提供者 and 提供方 for the same thing. Nothing marks
these as one word (no capitals, no spaces), so ``discover`` asks here which
spellings are variants of a form it found, and keeps those the corpus actually
uses. Only three rules, all general Chinese morphology:

- the agent suffixes 者 and 方 ("one who", "the party that") are interchangeable
  after a verb of at least two characters (提供者 = 提供方, 消费者 = 消费方);
- the domain prefix 服务 ("service") is optional before a word of at least three
  characters, so the bare word keeps a verb and its suffix (服务提供者 = 提供者;
  监控中心 = 服务监控中心), and never stands alone;
- a compound of three two-character words (domain, modifier, head) is also written
  without its middle modifier (服务运行容器 = 服务容器).
"""

from __future__ import annotations

import re

from zehn.reading.scripts import HAN_SPAN_COMPAT

_CJK = HAN_SPAN_COMPAT
_ALL_CJK = re.compile(rf"[{_CJK}]+")
AGENT_SUFFIXES = ("者", "方")
DOMAIN_PREFIX = "服务"
MIN_STEM = 2  # the verb before an agent suffix: 提供, 消费
MIN_BARE = 3  # what is left without the prefix: a verb and its suffix, or a noun compound
COMPOUND = 6  # three two-character words: domain, modifier, head


def is_cjk_word(form: str) -> bool:
    """A form written in Chinese characters only ("服务提供方", not "Redis 注册中心")."""
    return bool(_ALL_CJK.fullmatch(form))


def role_variants(form: str) -> tuple[str, ...]:
    """The other spellings of the Chinese role name ``form`` (``form`` itself excluded):
    服务提供方 → 服务提供者, 提供方, 提供者."""
    if not is_cjk_word(form):
        return ()
    bare = form[len(DOMAIN_PREFIX) :] if form.startswith(DOMAIN_PREFIX) else form
    stems = {bare}
    if len(bare) >= MIN_BARE:
        stems.add(DOMAIN_PREFIX + bare)
    forms: set[str] = set()
    for stem in stems:
        forms.add(stem)
        if stem.endswith(AGENT_SUFFIXES) and len(stem) - 1 >= MIN_STEM:
            forms.update(stem[:-1] + suffix for suffix in AGENT_SUFFIXES)
    if len(form) == COMPOUND:  # 服务运行容器: also 服务容器, the middle modifier dropped
        forms.add(form[:2] + form[4:])
    return tuple(
        sorted(f for f in forms if f != form and len(f) >= MIN_BARE and f != DOMAIN_PREFIX)
    )


# --- organisations: "阿里内部" -------------------------------------------------------------

# "X 内部" (inside X, in-house) after a clause boundary or 在: X is an organisation when it is
# not one of the system's own nouns ("服务内部", "系统内部")
_IN_HOUSE = re.compile(rf"(?:^|(?<=[，。；：、,;:\s在由被]))(?P<name>[{_CJK}]{{2,4}}?)内部")
_NOT_ORGANISATIONS = (
    "服务 系统 程序 框架 模块 集群 进程 线程 应用 组件 代码 方法 函数 类库 网络 机器 节点 "
    "容器 项目 产品 平台 引擎 接口 协议 中心 数据库 缓存 队列 主题 代理 实现 版本 文件 目录 "
    "对象 方 者 端"
).split()


def in_house_names(text: str) -> list[str]:
    """Names written as organisations that do things in house: "阿里内部并没有采用 X" (阿里)."""
    return [
        match["name"]
        for match in _IN_HOUSE.finditer(text)
        if not match["name"].endswith(tuple(_NOT_ORGANISATIONS))
    ]
