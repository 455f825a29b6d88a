"""What a Chinese question asks ("如果我修改 indexer，哪些服务会受影响？"), read into the same
:class:`~zehn.reading.asking.Asked` as an English one, so that one planner answers both.

The words around the focus name decide the direction: "X 调用了哪些服务" asks for targets,
"哪些服务调用了 X" for sources.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.reading.asking import REFERS_BACK, Asked, Intent, read_question, split_parts
from zehn.reading.lang import ZH
from zehn.reading.questions import ASKS_WHAT_IS_ZH
from zehn.reading.vocabulary import EntityKind, Predicate

# Chinese verbs of a question -> predicate (longest first when matching).
VERBS_ZH: dict[str, Predicate] = {
    "依赖于": Predicate.DEPENDS_ON, "依赖": Predicate.DEPENDS_ON, "调用": Predicate.CALLS,
    "请求": Predicate.CALLS, "提供给": Predicate.FEEDS, "供给": Predicate.FEEDS,
    "提供数据": Predicate.FEEDS, "影响": Predicate.AFFECTS, "使用": Predicate.USES,
    "用到": Predicate.USES, "读取": Predicate.READS_FROM, "读": Predicate.READS_FROM,
    "拉取": Predicate.READS_FROM, "轮询": Predicate.READS_FROM, "写入": Predicate.WRITES_TO,
    "写": Predicate.WRITES_TO, "注册": Predicate.WRITES_TO, "发布": Predicate.PUBLISHES_TO,
    "推送": Predicate.PUBLISHES_TO, "消费": Predicate.CONSUMES_FROM,
    "订阅": Predicate.CONSUMES_FROM, "负责": Predicate.OWNS, "拥有": Predicate.OWNS,
    "维护": Predicate.OWNS,
}  # fmt: skip
_VERB_ZH = re.compile("|".join(sorted(VERBS_ZH, key=len, reverse=True)))
_WH = r"(?:什么|哪些|哪个|哪里|哪儿|谁|何处)"
_IMPACT_ZH = re.compile(
    r"(?:如果|假如|要是|若).{0,12}?(?:修改|改动|更改|变更|改变|升级|下线|删除|重启|替换|动了|出问题|宕机|宕掉|挂了|不可用|故障)"
    r"|(?:修改|改动|更改|变更|升级|下线)[^，。？?]{0,20}?(?:影响|坏|出问题|波及)"
    r"|会?受(?:到)?(?:什么|哪些)?影响|影响(?:哪些|什么|到谁|谁)|会坏|影响范围|爆炸半径"
    r"|(?:宕机|宕掉|挂了|不可用|故障)[^，。？?]{0,6}?(?:后|时)"
    rf"|{_WH}[^，。？?]{{0,6}}?依赖(?:于)?"
)
_UPSTREAM_ZH = re.compile(
    rf"依赖(?:于)?[^，。？?]{{0,4}}?{_WH}|{_WH}[^，。？?]{{0,4}}?被.{{0,20}}?依赖"
)
_YES_NO_ZH = re.compile(r"吗\s*[？?]?\s*$|是否|有没有|会不会|是不是")
_PATH_ZH = re.compile(r"链路|路径|调用链|怎么到达|如何到达|从.+?到")
_KINDS_ZH: dict[str, tuple[EntityKind, ...]] = {
    "客户": (EntityKind.CUSTOMER,), "团队": (EntityKind.TEAM,),
    "数据库": (EntityKind.DATASTORE,), "缓存": (EntityKind.DATASTORE,),
    "存储": (EntityKind.DATASTORE,), "队列": (EntityKind.TOPIC, EntityKind.COMPONENT),
    "主题": (EntityKind.TOPIC,), "服务": (EntityKind.SERVICE,),
}  # fmt: skip
_WHICH_KIND_ZH = re.compile(rf"(?:哪些|哪个|哪种|什么)({'|'.join(_KINDS_ZH)})")
_ATTRIBUTES_ZH: dict[str, str] = {
    "端口": "port", "地址": "address", "URL": "address", "url": "address", "域名": "address",
    "环境变量": "environment variable", "配置项": "configuration", "配置": "configuration",
    "参数": "configuration", "版本": "version", "超时": "timing", "多久": "timing",
    "频率": "timing", "间隔": "timing", "重试": "failure semantics", "幂等": "failure semantics",
    "内存": "resources", "副本": "resources", "协议": "protocol or format",
    "格式": "protocol or format",
}  # fmt: skip
_ATTRIBUTE_ZH = re.compile("|".join(sorted(_ATTRIBUTES_ZH, key=len, reverse=True)))


def read_question_zh(text: str, focus_surface: str = "", has_other: bool = False) -> Asked:
    """Read a Chinese question about the entity written ``focus_surface`` (as it appears)."""
    at = text.find(focus_surface) if focus_surface else -1
    before, after = (text[:at], text[at + len(focus_surface) :]) if at >= 0 else ("", text)
    kinds = _KINDS_ZH[m.group(1)] if (m := _WHICH_KIND_ZH.search(text)) else ()
    if attribute := _ATTRIBUTE_ZH.search(text):
        name = _ATTRIBUTES_ZH[attribute.group(0)]
        return Asked(Intent.ATTRIBUTE, (), kinds, name, f"asks for a {name}")
    verbs = tuple(VERBS_ZH[v] for v in _VERB_ZH.findall(text))
    conditional_change = re.match(r"\s*(?:如果|假如|要是|若)", text) is not None
    if _YES_NO_ZH.search(text) and has_other and verbs and not conditional_change:
        return Asked(Intent.YES_NO, verbs[:1], kinds, why="a yes/no relation")
    if has_other and _PATH_ZH.search(text):
        return Asked(Intent.PATH, verbs, kinds, why="asks for a path")
    if _IMPACT_ZH.search(text):
        return Asked(Intent.IMPACT, (), kinds, why="impact")
    if _UPSTREAM_ZH.search(after):
        return Asked(Intent.UPSTREAM, (), kinds, why="dependencies")
    after_verbs = tuple(dict.fromkeys(VERBS_ZH[v] for v in _VERB_ZH.findall(after)))
    if after_verbs and re.search(_WH, after) and "被" not in after and "由" not in after:
        return Asked(Intent.LOOKUP_OUT, after_verbs, kinds, why="direct relations")
    if after_verbs and re.search(rf"(?:被|由){_WH}", after):  # "X 由谁负责？"
        return Asked(Intent.LOOKUP_IN, after_verbs[:1], kinds, why="direct relations")
    before_verbs = [VERBS_ZH[v] for v in _VERB_ZH.findall(before)]
    if before_verbs and re.search(_WH, before):  # "谁负责 X？", "哪些服务调用了 X？"
        return Asked(Intent.LOOKUP_IN, (before_verbs[-1],), kinds, why="direct relations")
    if ASKS_WHAT_IS_ZH.search(text):
        return Asked(Intent.WHAT_IS, why="what is")
    return Asked(Intent.UNKNOWN, (), kinds)


_SPLIT_ZH = re.compile(r"[？?]\s*(?=\S)|[，,；;]\s*(?:以及|并且|还有|另外|同时)\s*|[；;]\s*")


def split_parts_zh(text: str) -> list[str]:
    """The parts of a multi-part Chinese question ("…受影响？由谁负责？", "…，以及谁负责它们？")."""
    parts = [p.strip(" ，,；;？?") for p in _SPLIT_ZH.split(text.strip())]
    parts = [p for p in parts if p]
    if len(parts) < 2 or not all(re.search(_WH, p) or _YES_NO_ZH.search(p) for p in parts):
        return [text.strip()]
    return [f"{p}？" for p in parts]


def read_asked(text: str, names: Sequence[str], language: str) -> Asked:
    """What ``text`` asks, in either language; ``names`` are the entity names bound in it."""
    if language == ZH:
        return read_question_zh(text, names[0] if names else "", len(names) > 1)
    return read_question(text, names)


def split_question(text: str, language: str) -> list[str]:
    """The parts of a multi-part question, in either language (one part when it has one)."""
    return split_parts_zh(text) if language == ZH else split_parts(text)


_REFERS_BACK_ZH = re.compile(r"它们|他们|它|这些|那些|其")


def refers_back(text: str) -> bool:
    """A part that refers to what came before ("and who owns them?", "由谁负责它们？")."""
    return REFERS_BACK.search(text) is not None or _REFERS_BACK_ZH.search(text) is not None
