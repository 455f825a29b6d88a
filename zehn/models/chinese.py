"""The offline model in two languages: how it reads a Chinese question, and the phrases it writes.

A question asked in Chinese (or mixed: "如果我修改 indexer，哪些服务会受影响？")
is parsed into the same intents as an English one — change impact,
dependencies, direct relations in either direction, yes/no relations, "what is
X?" — and answered with the same logic, only in Chinese. Citations are never
translated: they are the stored sentences, in the language they were written in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zehn.reading.lang import EN, KIND_ZH, ZH
from zehn.reading.questions import ASKS_WHAT_IS_ZH as _WHAT_IS_ZH

# Chinese verbs of a question -> predicate (longest first when matching).
VERBS_ZH: dict[str, str] = {
    "依赖于": "DEPENDS_ON", "依赖": "DEPENDS_ON", "调用": "CALLS", "请求": "CALLS",
    "提供给": "FEEDS", "供给": "FEEDS", "提供数据": "FEEDS", "影响": "AFFECTS",
    "使用": "USES", "用到": "USES", "读取": "READS_FROM", "读": "READS_FROM",
    "拉取": "READS_FROM", "轮询": "READS_FROM", "写入": "WRITES_TO", "写": "WRITES_TO",
    "发布": "PUBLISHES_TO", "推送": "PUBLISHES_TO", "消费": "CONSUMES_FROM",
    "订阅": "CONSUMES_FROM", "负责": "OWNS", "拥有": "OWNS", "维护": "OWNS",
}  # fmt: skip
_VERB_ZH = re.compile("|".join(sorted(VERBS_ZH, key=len, reverse=True)))
_WH = r"(?:什么|哪些|哪个|哪里|哪儿|谁|何处)"
_IMPACT_ZH = re.compile(
    r"(?:如果|假如|要是|若).{0,12}?(?:修改|改动|更改|变更|改变|升级|下线|删除|重启|替换|动了|出问题|宕机|挂了)"
    r"|(?:修改|改动|更改|变更|升级|下线)[^，。？?]{0,20}?(?:影响|坏|出问题|波及)"
    r"|会?受(?:到)?(?:什么|哪些)?影响|影响(?:哪些|什么|到谁|谁)|会坏|影响范围|爆炸半径"
    rf"|{_WH}[^，。？?]{{0,6}}?依赖(?:于)?"
)
_UPSTREAM_ZH = re.compile(
    rf"依赖(?:于)?[^，。？?]{{0,4}}?{_WH}|{_WH}[^，。？?]{{0,4}}?被.{{0,20}}?依赖"
)
_YES_NO_ZH = re.compile(r"吗\s*[？?]?\s*$|是否|有没有|会不会|是不是")
_KIND_WORDS_ZH = {"客户": "customer", "团队": "team"}


@dataclass(frozen=True)
class ChineseQuestion:
    """What a Chinese question asks: an intent, and for lookups the verbs and their direction."""

    intent: str  # impact | upstream | yes_no | lookup_out | lookup_in | what_is | unknown
    predicates: tuple[str, ...] = ()
    direction: str = "out"
    kind: str | None = None


def parse_chinese(text: str, focus_surface: str, has_other: bool) -> ChineseQuestion:
    """Read a Chinese question about the entity written ``focus_surface`` (as it appears)."""
    at = text.find(focus_surface) if focus_surface else -1
    before, after = (text[:at], text[at + len(focus_surface) :]) if at >= 0 else ("", text)
    kind = next((k for w, k in _KIND_WORDS_ZH.items() if w in text), None)
    verbs = [VERBS_ZH[v] for v in _VERB_ZH.findall(text)]
    conditional_change = re.match(r"\s*(?:如果|假如|要是|若)", text) is not None
    if _YES_NO_ZH.search(text) and has_other and verbs and not conditional_change:
        return ChineseQuestion("yes_no", (verbs[0],))
    if _IMPACT_ZH.search(text):
        return ChineseQuestion("impact")
    if _UPSTREAM_ZH.search(after):
        return ChineseQuestion("upstream")
    after_verbs = [VERBS_ZH[v] for v in _VERB_ZH.findall(after)]
    if after_verbs and re.search(_WH, after) and "被" not in after and "由" not in after:
        return ChineseQuestion("lookup_out", tuple(dict.fromkeys(after_verbs)), "out", kind)
    if after_verbs and re.search(rf"(?:被|由){_WH}", after):  # "X 由谁负责？"
        return ChineseQuestion("lookup_in", (after_verbs[0],), "in", kind)
    before_verbs = [VERBS_ZH[v] for v in _VERB_ZH.findall(before)]
    if before_verbs and re.search(_WH, before):  # "谁负责 X？", "哪些服务调用了 X？"
        return ChineseQuestion("lookup_in", (before_verbs[-1],), "in", kind)
    if _WHAT_IS_ZH.search(text):
        return ChineseQuestion("what_is")
    return ChineseQuestion("unknown")


@dataclass(frozen=True)
class Phrases:
    """Everything the offline model writes, in one language."""

    nothing_named: str
    handled: str
    unhandled: str  # formatted with handled
    no_source: str
    no_sentence: str
    yes: str
    impact_head: str  # formatted with focus
    upstream_head: str  # formatted with focus
    via: str  # formatted with names
    list_sep: str
    step_sep: str
    line: str  # formatted with node, via, steps
    others: str  # formatted with n
    predicates: dict[str, str]
    namesake: str  # an entity named with its kind: formatted with name, kind
    kinds: dict[str, str]

    def hop(self, source: str, rel_type: str, target: str) -> str:
        return f"{source} {self.predicates.get(rel_type, rel_type)} {target}"

    def named(self, name: str, kind: str) -> str:
        """``name`` with its kind, for an entity whose name another kind shares."""
        return self.namesake.format(name=name, kind=self.kinds.get(kind, kind))


PREDICATES_ZH = {
    "DEPENDS_ON": "依赖", "CALLS": "调用", "FEEDS": "供给", "AFFECTS": "影响",
    "USES": "使用", "READS_FROM": "读取", "WRITES_TO": "写入",
    "PUBLISHES_TO": "发布到", "CONSUMES_FROM": "消费", "OWNS": "负责",
}  # fmt: skip
PHRASES: dict[str, Phrases] = {
    EN: Phrases(
        nothing_named="I don't know: the question names nothing that is in the graph.",
        handled=(
            "change impact (if I change X, what breaks?), dependencies (what does X depend on?), "
            "direct relations (who owns X? what does X call? does X read from Y?) and what is X?"
        ),
        unhandled="I don't know: I can answer {handled}.",
        no_source="I don't know: no source states it.",
        no_sentence="I don't know: no sentence mentions it.",
        yes="Yes. ",
        impact_head="If {focus} changes, these are at risk (source-supported paths only):",
        upstream_head="{focus} depends on (source-supported paths only):",
        via=" (via {names})",
        list_sep=", ",
        step_sep="; ",
        line="- {node}{via}: {steps}",
        others=(
            "{n} other path(s) are only inferred or insufficiently evidenced and are not claimed."
        ),
        predicates={},
        namesake="{name} ({kind})",
        kinds={},
    ),
    ZH: Phrases(
        nothing_named="我不知道：问题里没有提到图中的任何实体。",
        handled=(
            "变更影响（如果我修改 X，哪些服务会受影响？）、依赖（X 依赖什么？）、"
            "直接关系（谁负责 X？X 调用什么？X 是否读取 Y？）以及 X 是什么？"
        ),
        unhandled="我不知道：我能回答的问题有{handled}",
        no_source="我不知道：没有来源说明这一点。",
        no_sentence="我不知道：没有句子提到它。",
        yes="是的，",
        impact_head="如果 {focus} 发生变更，以下各项有风险（只列出有来源支持的路径）：",
        upstream_head="{focus} 依赖以下各项（只列出有来源支持的路径）：",
        via="（经由 {names}）",
        list_sep="、",
        step_sep="；",
        line="- {node}{via}：{steps}",
        others="另有 {n} 条路径只是推断或证据不足，不作结论。",
        predicates=PREDICATES_ZH,
        namesake="{name}（{kind}）",
        kinds=KIND_ZH,
    ),
}
