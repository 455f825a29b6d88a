"""What a Chinese question asks ("如果我修改 indexer，哪些服务会受影响？"), read into the same
:class:`~zehn.reading.questions.asking.Asked` as an English one, so that one planner answers both.

The words around the focus name decide the direction: "X 调用了哪些服务" asks for targets,
"哪些服务调用了 X" for sources.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from zehn.reading.lang import ZH
from zehn.reading.questions.asking import REFERS_BACK, Asked, Intent, read_question, split_parts
from zehn.reading.questions.scenario import CONSEQUENCE_ZH, FAILURE_ZH, as_condition
from zehn.reading.questions.wording import ASKS_WHAT_IS_ZH
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
    # reporting and notifying send data to the other side; getting takes it from there
    "上报": Predicate.FEEDS, "汇报": Predicate.FEEDS, "报告": Predicate.FEEDS,
    "发送": Predicate.FEEDS, "通知": Predicate.FEEDS, "拿到": Predicate.READS_FROM,
    "获取": Predicate.READS_FROM, "获得": Predicate.READS_FROM, "取得": Predicate.READS_FROM,
    # a host is responsible for starting what it runs ("A 负责启动 B": A USES B), not its owner
    "负责启动": Predicate.USES, "负责加载": Predicate.USES, "负责运行": Predicate.USES,
}  # fmt: skip
_VERB_ZH = re.compile("|".join(sorted(VERBS_ZH, key=len, reverse=True)))
FOCUS_MARK = "甲"  # the focus name, masked: a name is never read for its words ("服务消费者")
OTHER_MARK = "乙"
_WH = r"(?:什么|哪些|哪个|哪里|哪儿|谁|何处)"
_IMPACT_ZH = re.compile(
    r"(?:如果|假如|要是|若).{0,12}?(?:修改|改动|更改|变更|改变|升级|下线|删除|重启|替换|动了|出问题|宕机|宕掉|挂了|不可用|故障)"
    r"|(?:修改|改动|更改|变更|升级|下线)[^，。？?]{0,20}?(?:影响|坏|出问题|波及)"
    r"|会?受(?:到)?(?:什么|哪些)?影响|影响(?:哪些|什么|到谁|谁)|会坏|影响范围|爆炸半径"
    rf"|(?:{FAILURE_ZH.pattern})[^，。？?]{{0,6}}?(?:后|时|的话)"
    rf"|{_WH}[^，。？?]{{0,6}}?依赖(?:于)?"
)
_UPSTREAM_ZH = re.compile(
    rf"依赖(?:于)?[^，。？?]{{0,4}}?{_WH}|{_WH}[^，。？?]{{0,4}}?被.{{0,20}}?依赖"
)
_YES_NO_ZH = re.compile(r"吗\s*[？?]?\s*$|是否|有没有|会不会|是不是")
_PATH_ZH = re.compile(r"链路|路径|调用链|怎么到达|如何到达|从(?!哪|何).+?到")
_THROUGH_ZH = re.compile(r"经过|中间|途经|链路|路径")
# a verb used as a noun ("调用时间", "调用请求", "注册信息") names a thing, not the relation
_AS_NOUN_ZH = re.compile(r"\s*(?:时间|次数|请求|链|记录|结果|者|方|中心|量)")


def _verbs(text: str) -> tuple[Predicate, ...]:
    """The relation verbs of ``text``, in order, leaving out verbs used as nouns."""
    return tuple(
        VERBS_ZH[m.group(0)]
        for m in _VERB_ZH.finditer(text)
        if not _AS_NOUN_ZH.match(text, m.end())
    )


_FROM_WHERE_ZH = re.compile(r"从(?:哪里|哪儿|何处|哪个\w{0,4}|哪些\w{0,4})")
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
    if has_other and _PATH_ZH.search(text) and _THROUGH_ZH.search(text):
        # "从 A 启动注册，到 B 拿到它的地址，中间经过哪些节点？": the path, not the address
        verbs = _verbs(text)
        return Asked(Intent.PATH, verbs, kinds, why="asks for a path")
    if (attribute := _ATTRIBUTE_ZH.search(text)) and not _FROM_WHERE_ZH.search(text):
        # "从哪里拿到 X 的地址列表" asks where from (a component), not the address itself
        name = _ATTRIBUTES_ZH[attribute.group(0)]
        return Asked(Intent.ATTRIBUTE, (), kinds, name, f"asks for a {name}")
    verbs = _verbs(text)
    conditional_change = re.match(r"\s*(?:如果|假如|要是|若)", text) is not None
    if _YES_NO_ZH.search(text) and has_other and verbs and not conditional_change:
        return Asked(Intent.YES_NO, verbs[:1], kinds, why="a yes/no relation")
    if has_other and _PATH_ZH.search(text):
        return Asked(Intent.PATH, verbs, kinds, why="asks for a path")
    if _IMPACT_ZH.search(text):
        return Asked(Intent.IMPACT, (), kinds, why="impact")
    if _UPSTREAM_ZH.search(after):
        return Asked(Intent.UPSTREAM, (), kinds, why="dependencies")
    after_verbs = tuple(dict.fromkeys(_verbs(after)))
    if (towards := re.search(rf"(?:向|给|对|往|到){_WH}\s*(?:{_VERB_ZH.pattern})", after)) and (
        verb_to := _verbs(towards.group(0))
    ):  # "（它启动的服务）又向谁注册？": the focus does it, to whom
        return Asked(Intent.LOOKUP_OUT, verb_to[:1], kinds, why="direct relations")
    # a wh-word as the subject ("谁会订阅"), not a place the verb goes from or to ("从哪里读取")
    wh_first = (wh := re.search(rf"(?<![从在向到往给对]){_WH}", after)) is not None and (
        (verb := _VERB_ZH.search(after)) is not None and wh.start() < verb.start()
    )
    if after_verbs and wh_first and "被" not in after and "由" not in after:
        # "使用 X 时，谁会订阅 …？": who does it, about X
        return Asked(Intent.LOOKUP_IN, after_verbs[:1], kinds, why="direct relations")
    if after_verbs and re.search(_WH, after) and "被" not in after and "由" not in after:
        return Asked(Intent.LOOKUP_OUT, after_verbs, kinds, why="direct relations")
    if after_verbs and re.search(rf"(?:被|由){_WH}", after):  # "X 由谁负责？"
        return Asked(Intent.LOOKUP_IN, after_verbs[:1], kinds, why="direct relations")
    before_verbs = list(_verbs(before))
    if after_verbs and re.search(_WH, before) and re.search(r"(?:向|给|对|往|到)\s*$", before):
        # "哪些节点会向 X 上报统计数据？": who sends to X
        return Asked(Intent.LOOKUP_IN, after_verbs[:1], kinds, why="direct relations")
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


_CONDITION_ZH = re.compile(r"^[^，,。？?]{1,60}?(?:时|后|的话|之后|以后|期间|情况下|时候)[，,]")
_CONTEXT_ZH = re.compile(r"^\s*(?:在)?(?:使用|用|采用|基于|选用)")
_DOWN_ZH = FAILURE_ZH
_EFFECT_ZH = re.compile(r"宕机|挂|" + "|".join(CONSEQUENCE_ZH))


def read_zh(text: str, names: Sequence[str]) -> Asked:
    """Read a Chinese question with all the names bound in it (as written): a leading clause
    ("X 宕机时，…", "使用 X 时，…") is a condition or a context; the names of the main clause
    are asked about, and a name the condition takes down is no answer."""
    names = [n for n in dict.fromkeys(names) if n and n in text]
    clause = _CONDITION_ZH.match(text)
    if clause and names:
        head, main = clause.group(0), text[clause.end() :]
        inside = [n for n in names if n in head]
        rest = [n for n in names if n not in inside and n in main]
        context = _CONTEXT_ZH.match(head) is not None
        if inside and rest and (context or not _EFFECT_ZH.search(main)):
            asked = _read_zh(main, rest)
            if asked.intent not in (Intent.IMPACT, Intent.UNKNOWN):
                down = not context and _DOWN_ZH.search(head) is not None
                return replace(
                    asked,
                    condition=tuple(inside) if down else (),
                    context=tuple(inside) if context else (),
                )
        if inside and not context:
            asked = _read_zh(text, names)
            if asked.intent == Intent.IMPACT:  # the condition's names are what goes down
                others = tuple(n for n in names if n not in inside)
                return replace(asked, focus=(*inside, *others), concerning=others)
            return asked
    return _read_zh(text, names)


def _read_zh(text: str, names: Sequence[str]) -> Asked:
    """The first name written is the focus; every name is masked before the words are read."""
    order = sorted(names, key=lambda n: (text.find(n), -len(n)))
    masked = text
    for name in sorted(order, key=len, reverse=True):
        mark = FOCUS_MARK if name == order[0] else OTHER_MARK
        masked = masked.replace(name, mark)
    if order and FOCUS_MARK not in masked:  # the focus was inside a longer name
        return replace(read_question_zh(text, order[0], len(order) > 1), focus=tuple(order))
    asked = read_question_zh(masked, FOCUS_MARK if order else "", len(order) > 1)
    return replace(asked, focus=tuple(order))


def read_asked(text: str, names: Sequence[str], language: str) -> Asked:
    """What ``text`` asks, in either language; ``names`` are the entity names bound in it.
    A leading scene of failure is read as the question's condition (``scenario``)."""
    text = as_condition(text, language)
    if language == ZH:
        return read_zh(text, names)
    return read_question(text, names)


def split_question(text: str, language: str) -> list[str]:
    """The parts of a multi-part question, in either language (one part when it has one);
    a leading scene is the first part's condition."""
    text = as_condition(text, language)
    return split_parts_zh(text) if language == ZH else split_parts(text)


_REFERS_BACK_ZH = re.compile(r"它们|他们|它|这些|那些|其")


def refers_back(text: str) -> bool:
    """A part that refers to what came before ("and who owns them?", "由谁负责它们？")."""
    return REFERS_BACK.search(text) is not None or _REFERS_BACK_ZH.search(text) is not None
