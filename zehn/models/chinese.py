"""The phrases the offline model writes, in English and in Chinese.

A question asked in Chinese is read by ``zehn.reading.questions.asking_zh`` into the same intents as
an English one and answered with the same logic, only in Chinese. Citations are never
translated: they are the stored sentences, in the language they were written in.
"""

from __future__ import annotations

from dataclasses import dataclass

from zehn.reading.lang import EN, KIND_ZH, ZH


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
    calls_head: str  # formatted with focus: a one-hop lookup of what it calls
    path_head: str  # formatted with focus, other
    not_modelled: str  # formatted with attribute
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
        calls_head=(
            "{focus} calls (a direct one-hop lookup: CALLS is not walked further by the policy):"
        ),
        path_head="From {focus} to {other} (source-supported paths only):",
        not_modelled=(
            "I don't know: the graph holds relations between components, not their "
            "{attribute}; the related sentences below are context, not an answer."
        ),
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
        calls_head="{focus} 调用以下各项（直接的一跳查询：策略不沿 CALLS 继续遍历）：",
        path_head="从 {focus} 到 {other}（只列出有来源支持的路径）：",
        not_modelled="我不知道：图中只有组件之间的关系，没有它们的{attribute}；下面的相关句子只是上下文，不是答案。",
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
