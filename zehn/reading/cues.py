"""The cue lexicon of the ``rules`` strategy: how each predicate is phrased.

A cue is a verb phrase; ``tail`` is a preposition that may follow a short
filler ("publishes an invoice.created event **to** billing-events"), after
which the object is read. Passive cues swap subject and object ("search-api
is called by web-frontend" means web-frontend CALLS search-api).

Chinese cues need no word boundaries. Chinese often puts a preposition before
the object and the verb after it ("indexer 从 event-bus 消费", "search-api 被
web-frontend 调用", "indexer 由 Search team 负责"): such a cue is the
preposition, with a look-ahead for its verb in the same clause; a mention right
after a preposition is never a subject (see ``ZH_PREPOSITION_BEFORE``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from zehn.reading.vocabulary import Predicate


@dataclass(frozen=True)
class Cue:
    pattern: re.Pattern[str]
    predicates: tuple[str, ...]
    tail: re.Pattern[str] | None = None
    passive: bool = False
    cjk: bool = False  # a Chinese cue: its tail may follow a filler without spaces


def _cue(verb: str, *predicates: Predicate, tail: str | None = None, passive: bool = False) -> Cue:
    return Cue(
        re.compile(rf"\b(?:{verb})\b", re.IGNORECASE),
        predicates,
        re.compile(rf"\b(?:{tail})\b", re.IGNORECASE) if tail else None,
        passive,
    )


def _zh(verb: str, *predicates: Predicate, tail: str | None = None, passive: bool = False) -> Cue:
    return Cue(re.compile(verb), predicates, re.compile(tail) if tail else None, passive, True)


CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
CLAUSE_PUNCTUATION = "，。；！？,;"
_CLAUSE_REST = r"[^，。；！？,;]{1,40}?"


def _then(verbs: str) -> str:
    """Look ahead for the verb that completes a preposition in the same clause."""
    return rf"(?={_CLAUSE_REST}(?:{verbs}))"


_BE = r"(?:is|are|was|were|be|been|being|gets|get)\s+(?:\w+ly\s+|also\s+|only\s+|still\s+)?"

CUES: tuple[Cue, ...] = (
    # passive voice first: "X is called by Y" -> Y CALLS X
    _cue(_BE + r"(?:called|invoked|requested|queried)\s+(?:by|from)", Predicate.CALLS,
         passive=True),
    _cue(_BE + r"fed\s+by", Predicate.FEEDS, passive=True),
    _cue(_BE + r"(?:affected|impacted)\s+by", Predicate.AFFECTS, passive=True),
    _cue(_BE + r"used\s+by", Predicate.USES, passive=True),
    _cue(r"(?:" + _BE + r")?owned\s+by|" + _BE + r"maintained\s+by", Predicate.OWNS, passive=True),
    _cue(_BE + r"(?:read|polled)\s+by", Predicate.READS_FROM, passive=True),
    _cue(_BE + r"consumed\s+by", Predicate.CONSUMES_FROM, passive=True),
    _cue(_BE + r"depended\s+on\s+by", Predicate.DEPENDS_ON, passive=True),
    # active voice
    _cue(r"reads?\s+and\s+writes?", Predicate.READS_FROM, Predicate.WRITES_TO,
         tail=r"in|to|from|into"),
    _cue(r"depends?\s+on|depended\s+on|depending\s+on|relies\s+on|rely\s+on", Predicate.DEPENDS_ON,
         tail=r"from"),
    _cue(r"(?:is|are)\s+blocked\s+on|requires?|needs?", Predicate.DEPENDS_ON, tail=r"from"),
    _cue(r"(?:moves?|moved|moving|migrates?|migrated)\s+to", Predicate.DEPENDS_ON),
    _cue(r"calls?|called|calling|invokes?|invoked", Predicate.CALLS),
    _cue(r"sends?\s+(?:an?\s+)?requests?|requests?", Predicate.CALLS, tail=r"to|from"),
    _cue(r"feeds?|feeding", Predicate.FEEDS, tail=r"to|into"),
    _cue(r"affects?|affected|affecting|impacts?", Predicate.AFFECTS),
    _cue(r"uses?|using|go(?:es)?\s+through|move\s+off", Predicate.USES),
    _cue(r"reads?|reading|polls?|polling|pulls?|fetch(?:es)?", Predicate.READS_FROM, tail=r"from"),
    _cue(r"writes?|writing|persists?|stores?", Predicate.WRITES_TO, tail=r"to|into|in"),
    _cue(r"publish(?:es|ed|ing)?|emits?|produces?", Predicate.PUBLISHES_TO, tail=r"to|on|into"),
    _cue(r"consumes?|consuming|subscribes?\s+to", Predicate.CONSUMES_FROM, tail=r"from"),
    _cue(r"owns?|maintains?|(?:is|are)\s+responsible\s+for", Predicate.OWNS),
    # --- Chinese: passive ("search-api 被 web-frontend 调用" -> web-frontend CALLS search-api)
    _zh(r"(?:被|由(?!于))" + _then(r"调用|请求"), Predicate.CALLS, passive=True),
    _zh(r"被" + _then(r"依赖"), Predicate.DEPENDS_ON, passive=True),
    _zh(r"(?:被|由(?!于))" + _then(r"供给|提供数据|供数"), Predicate.FEEDS, passive=True),
    _zh(r"(?:受到|(?<![接感承])受|被)" + _then(r"影响|波及"), Predicate.AFFECTS, passive=True),
    _zh(r"被" + _then(r"使用|采用"), Predicate.USES, passive=True),
    _zh(r"被" + _then(r"读取|轮询|拉取"), Predicate.READS_FROM, passive=True),
    _zh(r"被" + _then(r"消费|订阅"), Predicate.CONSUMES_FROM, passive=True),
    _zh(r"由(?!于)" + _then(r"负责|维护|拥有") + r"|(?<!回)归" + _then(r"所有|管理") + r"|属于",
        Predicate.OWNS, passive=True),
    # --- Chinese: preposition, object, verb ("indexer 从 event-bus 消费")
    _zh(r"从(?!未|不|而|前|来)" + _then(r"读取|读|拉取|轮询|获取"), Predicate.READS_FROM),
    _zh(r"从(?!未|不|而|前|来)" + _then(r"消费|订阅"), Predicate.CONSUMES_FROM),
    _zh(r"(?:向|(?<!以)往)" + _then(r"发布|推送|发送事件"), Predicate.PUBLISHES_TO),
    _zh(r"(?:向|(?<!以)往)" + _then(r"写入|写"), Predicate.WRITES_TO),
    _zh(r"向" + _then(r"发送请求|发请求|请求"), Predicate.CALLS),
    _zh(r"(?:(?<![因认作成以])为(?!了)|(?<![交发送])给|向)" + _then(r"提供数据|供数|提供"),
        Predicate.FEEDS),
    # --- Chinese: active voice
    _zh(r"读写|读取(?:和|并)写入", Predicate.READS_FROM, Predicate.WRITES_TO),
    _zh(r"依赖于|依赖(?!项|关系|图)|依靠|需要", Predicate.DEPENDS_ON),
    _zh(r"迁移到|迁移至|切换到", Predicate.DEPENDS_ON),
    _zh(r"调用(?!链|量|次数)|请求", Predicate.CALLS),
    _zh(r"供给|提供给|输送给|馈送给|喂给", Predicate.FEEDS),
    _zh(r"影响到|影响|波及", Predicate.AFFECTS),
    _zh(r"使用(?!率|量)|采用|用到", Predicate.USES),
    _zh(r"读取|拉取|轮询", Predicate.READS_FROM),
    _zh(r"写入到|写入|写到|写进|存入|持久化到", Predicate.WRITES_TO),
    _zh(r"发布到|发布至|推送到|发送到", Predicate.PUBLISHES_TO),
    _zh(r"发布|推送", Predicate.PUBLISHES_TO, tail=r"到|至"),
    _zh(r"消费(?!者|组)|订阅", Predicate.CONSUMES_FROM),
    _zh(r"负责(?!人)|拥有|维护", Predicate.OWNS),
)  # fmt: skip

# Words that may stand between a subject and its verb without breaking the link.
SUBJECT_GLUE = frozenset(
    """also now still directly already only today currently no longer not does do did
    doesn't don't didn't never will would might may could should can cannot must which that
    who then ever actually really typically usually always mostly partly heavily both all
    therefore again once first is are was were be been has have had to going plans plan
    planned start starts started soon eventually later probably possibly too itself
    in turn""".split()
)
# Words that may stand between a verb (or its tail) and the object.
OBJECT_GLUE = frozenset("the a an its their our both directly only also all every each".split())
LIST_SEPARATOR = re.compile(
    r"^\s*(?:,\s*(?:and|or)?|and|or|&|as\s+well\s+as|plus|、|和|与|及|以及|或|或者|跟)\s*"
    r"(?:the\s+)?$",
    re.IGNORECASE,
)
COORDINATION = re.compile(
    r"(?:,\s*)?\b(?:and|but)\s*$|[，,]?\s*(?:并且|并|而且|且|同时|但是|但|然后)\s*$", re.IGNORECASE
)
# "consumes from X instead of polling Y"; in Chinese the verb's own object may come first:
# "从 index-events 消费分段就绪消息，而不是轮询 indexer".
INSTEAD_OF = re.compile(
    r"^\s*instead\s+of\s*$|^[^，,。；！？]*[，,]?\s*(?:而不是|而非|不再)\s*$", re.IGNORECASE
)
FILLER_MAX_WORDS = 4

# Chinese words that may stand between a subject and its verb (adverbs, modals, negations,
# time phrases): "indexer 现在不再从 …", "billing 计划在 Q3 之前迁移到 …".
_ZH_GLUE_WORDS = """也 现在 目前 当前 如今 仍然 仍 依然 还是 还 已经 已 直接 间接 只 仅 仅仅 都 均
    亦 一直 今天 今后 以后 主要 同时 则 就 再 又 会 将会 将要 将 可能 也许 或许 大概 计划 打算 准备
    想要 希望 应该 可以 需要 不再 不 没有 没 并不 并没有 并未 从不 从未 未 不会 是否 正在 开始 曾经
    曾 原来 原先 以前 之前 过去 总是 通常 确实 实际上 其实 本身 始终 全部 全都 只会 还会 也会 实时
    同步 异步 默认 必须 最终 随后 然后 才 另外 先 每天 每小时 每分钟 每秒""".split()
ZH_SUBJECT_GLUE = re.compile(
    r"在[^，。；！？,;]{1,10}?(?:之前|之后|以前|以后|期间|前|后|时|内)"
    r"|(?:于|自|从)?\s*\d{4}\s*年(?:\s*\d{1,2}\s*月)?(?:\s*\d{1,2}\s*日)?(?:起|开始|以来)?"
    r"|(?:下|本|上)个?(?:周|月|季度)|明年|今年|去年|第[一二三四]季度"
    r"|(?:把|将)[^，。；！？,;]{1,8}$|"  # "web-frontend 把点击发布到 …": the 把 object is glue
    + "|".join(sorted(_ZH_GLUE_WORDS, key=len, reverse=True))
)
ZH_OBJECT_GLUE = re.compile(
    r"所有的|全部的|所有|全部|整个|每个|各个|这个|那个|一个|了|着|过|到|于|该|其"
)
# A mention right after one of these is the preposition's object, never the verb's subject.
ZH_PREPOSITION_BEFORE = re.compile(
    r"(?:从|向|(?<!以)往|(?<![因认作成以])为|(?<![交发送])给|被|(?<![理自])由|受到|(?<![接感承])受"
    r"|(?<![绝相面针])对|把|将|(?<![现正存实])在|经由|通过)\s*$"
)
# "会不会", "是不是", "有没有": a question form, not a negation.
ZH_A_NOT_A = re.compile(r"(\w)[不没]\1")

NEGATION = re.compile(
    r"\b(?:not|no\s+longer|never|cannot|stopped|no)\b|n't\b"
    r"|不再|没有|没|并不|并未|从不|从未|未|不|停止|无需",
    re.IGNORECASE,
)
MODAL = re.compile(
    r"\b(?:will|would|might|may|could|should|can|plans?\s+to|planning\s+to|going\s+to|"
    r"wants?\s+to|intends?\s+to|ever)\b"
    r"|将会|将要|将(?=\s*$|\s*(?:在|于|从|会|要|开始|逐步|全面|正式))|会|可能|也许|或许|计划|打算|准备"
    r"|想要|希望|应该|可以|是否|如果|假如",
    re.IGNORECASE,
)
CONDITIONAL_PREFIX = re.compile(
    r"\b(?:if|whether|unless|assuming|suppose|once|considering|proposed?|proposal|later\s+phase|"
    r"plan|as\s+far\s+as\s+i\s+know|it\s+is\s+possible|someone|somebody)\b"
    r"|如果|假如|假设|要是|倘若|万一|是否|一旦|除非|提议|建议|提案|计划|方案|据我所知|有人",
    re.IGNORECASE,
)
EPISTEMIC = re.compile(
    r"\b(?:i\s+think|i\s+believe|i\s+suspect|i\s+guess|possibly|probably|maybe|perhaps|"
    r"apparently|reportedly|rumou?red|told\s+me)\b"
    r"|我认为|我觉得|我猜|我怀疑|我估计|也许|或许|大概|可能|据说|听说|好像|似乎|据我所知|有人说|传言",
    re.IGNORECASE,
)
