"""Chinese prose cues: how real Chinese documentation states relations.

The first Chinese cues (依赖, 调用, 被/由 … 调用, 从 … 读取/消费, 向 … 发布/写入, 负责 …) are
:data:`ZH_CORE_CUES`; real manuals add the forms of :data:`ZH_PROSE_CUES`, below. One
predicate per form, chosen for what the sentence's subject does to the object:

- A 向 X 注册/登记; A 注册(…)到 X: WRITES_TO (registering adds an entry to X)
- A 向 X 订阅: CONSUMES_FROM (A receives what X pushes); A 监听 X (的变化): CONSUMES_FROM
- A 向 X 获取/查询/拉取/读取: READS_FROM (A pulls data from X)
- A 与/跟 X 交互/通信/通讯/对接/连接: CALLS (A talks to X; "与 X 之间"
  and "与 X 的交互" state no direction and make no edge)
- A 连接(到) X, A 直连 X, A 访问 X: CALLS (a connection A opens)
- A 通过/经由/借助/利用 X 调用/访问/… Y: A USES X (its means) and A CALLS Y
  (``relations`` finds A behind the instrument phrase)
- A 通过/经由 X 广播/发布; A 向 X 广播; A 广播 … 到 X: PUBLISHES_TO X
- A 把/将 … 写入/存储到/保存到/存入 X: WRITES_TO X (the 把 object is the data)
- A 发送/推送/汇报/上报/返回/通知/单播/下发 … 到/至/给 X, A 向 X 发送/汇报,
  A 通知 X: FEEDS X, or PUBLISHES_TO X when X is a topic (:data:`BY_OBJECT_KIND`)
- A 基于/依托 X 实现/构建/开发; 基于 X 实现的 A; A 构建在/运行在 X 上; A 内置于/集成在/
  嵌入到 X (中): DEPENDS_ON
- A 分发/派发/分配 … 给/至 X (work handed out): FEEDS X; A 通过 X 进行/实现/完成 …: USES X
- A 利用/借助 X (来做 …), A 选用/选择了 X (作为 …): USES X (the means as the verb's object)
- A 抛给/交给/丢给/提交给/移交给 X (work handed to X to do): FEEDS X, or PUBLISHES_TO a topic
- X 由 A 负责/维护 (OWNS) and A 使用/采用 X 的 … (USES) are core cues.

A hand-over verb, a registration, a write and a broadcast take their object
after the tail only ("返回 X 的地址列表给 Y": Y, never X, which is the data):
such a cue exists only when its tail follows in the clause (``_to``).

All Chinese cues are rows here (:class:`ZhCue`): ``zehn.reading.relations.cues`` builds them
into its ``Cue`` objects (this module cannot import it back: no import cycles). A cue
whose predicates are :data:`BY_OBJECT_KIND` takes one predicate by the object's
kind (:func:`predicates_for`); the older ``发送到/推送到`` cues follow the same rule.

The reader (``zehn.reading.relations.reader``) also takes from here what carries a
subject through Chinese prose: adverbs that may stand between subject and verb,
the openings of a coordinated clause (并/同时/然后 …) whose subject is the
previous clause's, list separators with markup, and the possessive 其.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from zehn.reading.scripts import HAN
from zehn.reading.vocabulary import Predicate


class ZhCue(NamedTuple):
    """One row of the table, built into a ``cues.Cue`` (``cjk=True``)."""

    verb: str
    predicates: tuple[Predicate, ...]
    tail: str | None = None
    passive: bool = False
    tail_only: bool = False  # the object only after the tail: "返回 X 的列表给 Y" is not about X


# "FEEDS or PUBLISHES_TO, by the object's kind": a topic is published to, anything else fed.
BY_OBJECT_KIND: tuple[Predicate, ...] = (Predicate.FEEDS, Predicate.PUBLISHES_TO)

# what may stand between a preposition and its verb in one clause; a code span
# (`Key:/app/orders`) counts as one character, however long the address in it
ZH_CLAUSE_REST = r"(?:`[^`\n]{1,120}`|[^，。；！？,;`]){1,40}?"
_CLAUSE_REST = ZH_CLAUSE_REST


def _then(verbs: str, rest: str = _CLAUSE_REST) -> str:
    """Look ahead for the verb that completes a preposition in the same clause."""
    return rf"(?={rest}(?:{verbs}))"


def _to(verbs: str) -> str:
    """A verb whose direct object is what is handed over ("返回地址列表给 X", "保存列表到 X"):
    a cue only when its tail (到/至/给 …) follows in the clause, and the object is read there."""
    return rf"(?:{verbs})(?=[^，。；！？,;]{{0,20}}?(?:到|至|给|进|在))"


# verbs that hand something over (the older 发送到/推送到 cues included)
_SEND = (
    r"(?:发送|转发)(?![^，。；！？,;]{0,12}?请求|方|者|端)|推送|汇报|上报|上传|回传|返回(?!值|码)"
    r"|通知|单播|下发|分发|派发|分配"
)
_SENT = re.compile(r"(?:发送|推送|汇报|上报|上传|回传|返回|通知|单播|下发|转发)(?:到|至|给)?$")
# An activity after the object of 负责/维护 ("负责任务队列的提交", "负责 DAG 任务切分"): what the
# subject is responsible for is the activity, not the thing it is done to.
ZH_ACTIVITY_AFTER = re.compile(
    r"\s*(?:的)?\s*(?:任务)?(?:提交|处理|执行|切分|拆分|监控|调度|分配|分发|启停|操作|解析|计算"
    r"|同步|清理|管理|注册|上报|容错|故障转移|恢复|备份|检测|监听)"
)
# nouns a cue may open with, taken by a disposal 将/把 before it ("将请求转发给 X")
ZH_CUE_OBJECTS = ("请求",)
# a request handed over is a call: "发送扣减请求到 X", "把请求转发给 X"
_REQUEST = r"请求(?:转发|发送)|(?:发送|转发)(?=[^，。；！？,;]{0,12}?请求)|发请求"
_REGISTER = r"注册(?!中心|表|码|信息)|登记"
_THROUGH = r"通过|经由|借助|利用"
_MEANS_VERBS = (
    r"调用|访问|连接|通信|通讯|交互|发送|获取|读取|查询|写入|注册|订阅|请求|推送|通知|同步"
    r"|感知|发现|进行|实现|完成"
)
_WITH = r"(?<![给参])(?:与|跟)"
_INTERACT = r"交互|通信|通讯|对接|建立连接|建立长连接|连接|握手"
_CALLS = Predicate.CALLS
_NOT_A_LINK = r"(?!数|池|串|器|方式|超时|失败|断开|的|和|与)"  # 连接数, 连接池 … are nouns
_WRITE = r"(?:存储|保存|存放|缓存|记录|落盘|同步)"
_BUILD = r"实现|构建|开发|搭建|封装|扩展|改造"
_NOT_A_STORE = r"(?!过程|引擎|层|空间|结构|方式)"

# a place inside the object ("向 `Key:/a` 下，添加 …"): the verb may follow a comma
_PLACE_REST = ZH_CLAUSE_REST + r"(?:(?:下|中|里|内|上)\s*[，,]\s*)?"
_ADD = r"添加|增加|插入|追加|加入|存入|写入"
# an outage and what it leaves unusable: "A 宕掉后，B 将无法使用" (A AFFECTS B)
_OUTAGE = r"(?:宕掉|宕机|挂掉|崩溃|故障|不可用)(?:了)?(?:后|时|之后|以后)?\s*[，,]?\s*"
_UNUSABLE = r"无法使用|不能使用|不可用|无法工作|无法访问|无法调用|无法提供服务"
# a host runs what it starts and loads: "A 负责启动，加载，运行 B" (A USES B)
_RUN = r"(?:启动|加载|运行|卸载|托管|重启)"  # not 停止: a negation word
# picking one instance to call: "选一台 B 进行调用", "对 B 发起调用"
_PICK = r"(?:选择|选出|挑选|选取|选)(?:其中)?(?:一|某|另一)?(?:台|个)?"
_CALL_MADE = r"进行调用|发起调用|发起请求|进行访问|调用"

# The first Chinese forms (the sample's): passive 被/由 … 调用, a preposition before its object
# and the verb after it (从 X 读取, 向 X 写入), and verbs before their objects.
ZH_CORE_CUES: tuple[ZhCue, ...] = (
    # --- passive ("search-api 被 web-frontend 调用" -> web-frontend CALLS search-api)
    ZhCue(r"(?:被|由(?!于))" + _then(r"调用|请求"), (Predicate.CALLS,), passive=True),
    ZhCue(r"被" + _then(r"依赖"), (Predicate.DEPENDS_ON,), passive=True),
    ZhCue(r"(?:被|由(?!于))" + _then(r"供给|提供数据|供数"), (Predicate.FEEDS,), passive=True),
    ZhCue(r"(?:受到|(?<![接感承])受|被)" + _then(r"影响|波及"), (Predicate.AFFECTS,), passive=True),
    ZhCue(r"被" + _then(r"使用|采用"), (Predicate.USES,), passive=True),
    ZhCue(r"被" + _then(r"读取|轮询|拉取"), (Predicate.READS_FROM,), passive=True),
    ZhCue(r"被" + _then(r"消费|订阅"), (Predicate.CONSUMES_FROM,), passive=True),
    ZhCue(r"由(?!于)" + _then(r"负责|维护|拥有") + r"|(?<!回)归" + _then(r"所有|管理") + r"|属于",
        (Predicate.OWNS,), passive=True),
    # --- preposition, object, verb ("indexer 从 event-bus 消费")
    ZhCue(r"从(?!未|不|而|前|来)" + _then(r"读取|读|拉取|轮询|获取"), (Predicate.READS_FROM,)),
    ZhCue(r"从(?!未|不|而|前|来)" + _then(r"消费|订阅|领取"), (Predicate.CONSUMES_FROM,)),
    ZhCue(r"(?:向|(?<!以)往)" + _then(r"发布|推送|发送事件"), (Predicate.PUBLISHES_TO,)),
    ZhCue(r"(?:向|(?<!以)往)" + _then(r"写入|写"), (Predicate.WRITES_TO,)),
    ZhCue(r"向" + _then(r"发送请求|发请求|请求"), (Predicate.CALLS,)),
    ZhCue(r"(?:(?<![因认作成以])为(?!了)|(?<![交发送])给|向)" + _then(r"提供数据|供数|提供"),
        (Predicate.FEEDS,)),
    # --- active voice
    ZhCue(r"读写|读取(?:和|并)写入", (Predicate.READS_FROM, Predicate.WRITES_TO)),
    ZhCue(r"依赖于|依赖(?!项|关系|图)|依靠|需要", (Predicate.DEPENDS_ON,)),
    ZhCue(r"迁移到|迁移至|切换到", (Predicate.DEPENDS_ON,)),
    ZhCue(r"调用(?!链|量|次数)|请求", (Predicate.CALLS,)),
    ZhCue(r"供给|提供给|输送给|馈送给|喂给", (Predicate.FEEDS,)),
    ZhCue(r"影响到|影响|波及", (Predicate.AFFECTS,)),
    ZhCue(r"使用(?!率|量)|采用|用到", (Predicate.USES,)),
    ZhCue(r"读取|拉取|轮询|扫描", (Predicate.READS_FROM,)),
    ZhCue(r"写入到|写入|写到|写进|存入|持久化到", (Predicate.WRITES_TO,)),
    ZhCue(r"发布到|发布至|推送到|发送到", (Predicate.PUBLISHES_TO,)),
    ZhCue(r"发布|推送", (Predicate.PUBLISHES_TO,), tail=r"到|至"),
    ZhCue(r"消费(?!者|组)|订阅", (Predicate.CONSUMES_FROM,)),
    ZhCue(r"负责(?!人)|拥有|维护", (Predicate.OWNS,)),
)  # fmt: skip

ZH_PROSE_CUES: tuple[ZhCue, ...] = (
    # --- a preposition, its object, then the verb (the nearest verb in the clause wins)
    ZhCue(r"向" + _then(_REGISTER), (Predicate.WRITES_TO,)),
    ZhCue(r"向" + _then(r"订阅"), (Predicate.CONSUMES_FROM,)),
    ZhCue(r"向" + _then(r"获取|查询|拉取|读取|索取"), (Predicate.READS_FROM,)),
    ZhCue(r"向" + _then(_SEND), BY_OBJECT_KIND),
    ZhCue(r"向" + _then(r"广播"), (Predicate.PUBLISHES_TO,)),
    ZhCue(r"(?:向|往)" + _then(_ADD, _PLACE_REST), (Predicate.WRITES_TO,)),
    ZhCue(_PICK + _then(_CALL_MADE), (Predicate.CALLS,)),
    ZhCue(r"对" + _then(r"进行调用|发起调用|发起请求|进行访问"), (Predicate.CALLS,)),
    ZhCue(r"在" + _then(_REGISTER), (Predicate.WRITES_TO,)),
    ZhCue(_WITH + _then(_INTERACT, r"[^，。；！？,;之与跟的]{1,40}?"), (Predicate.CALLS,)),
    ZhCue(r"(?:" + _THROUGH + r")" + _then(r"广播|发布"), (Predicate.PUBLISHES_TO,)),
    ZhCue(r"(?:" + _THROUGH + r")" + _then(_MEANS_VERBS), (Predicate.USES,)),
    ZhCue(r"(?:基于|依托于?)" + _then(_BUILD + r"|进行"), (Predicate.DEPENDS_ON,)),
    # --- verb, then object (or a short filler and the tail)
    ZhCue(r"(?:注册|登记)(?:到|至|在)", (Predicate.WRITES_TO,)),
    ZhCue(_to(_REGISTER), (Predicate.WRITES_TO,), tail=r"到|至", tail_only=True),
    ZhCue(r"(?:发送|推送|汇报|上报|上传|回传|转发|下发)(?:到|至|给)|返回给|通知给", BY_OBJECT_KIND),
    # work handed to X to do: "抛给 X 运行", "交给 X 处理", "提交给 X"
    ZhCue(r"(?:抛|交|丢|提交|移交)给", BY_OBJECT_KIND),
    ZhCue(_to(_SEND), BY_OBJECT_KIND, tail=r"到|至|给", tail_only=True),
    ZhCue(r"通知(?!给)", BY_OBJECT_KIND),
    ZhCue(_to(_REQUEST), (Predicate.CALLS,), tail=r"到|至|给", tail_only=True),
    ZhCue(r"广播(?:到|至|给)", (Predicate.PUBLISHES_TO,)),
    ZhCue(_to(r"广播"), (Predicate.PUBLISHES_TO,), tail=r"到|至|给", tail_only=True),
    ZhCue(_WRITE + r"(?:到|至|进)", (Predicate.WRITES_TO,)),  # not "X 保存在 Y": X is kept
    ZhCue(_to(_WRITE + _NOT_A_STORE), (Predicate.WRITES_TO,), tail=r"到|至|进|在", tail_only=True),
    ZhCue(r"(?<![长短])(?:连接|连)(?:到|至|上)|直连|(?<![长短])连接" + _NOT_A_LINK, (_CALLS,)),
    ZhCue(r"访问(?!量|权限|控制|日志|频率|压力|次数|地址|的)", (Predicate.CALLS,)),
    ZhCue(r"监听(?!端口|地址|器|的)", (Predicate.CONSUMES_FROM,)),  # "监听 X 的变化": X's events
    ZhCue(r"(?:构建|建立|运行|部署|搭建)(?:在|于)", (Predicate.DEPENDS_ON,)),
    ZhCue(r"(?:内置|内嵌|嵌入|集成)(?:在|于|到)", (Predicate.DEPENDS_ON,)),  # a part of X
    ZhCue(_OUTAGE + _then(_UNUSABLE), (Predicate.AFFECTS,)),
    ZhCue(r"负责" + _RUN + r"(?:\s*[，、,和及与或]\s*" + _RUN + r")*", (Predicate.USES,)),
    # the means as the verb's object: "A 利用 X 来做 …", "A 借助 X 实现 …", "A 选用了 X"
    ZhCue(r"利用|借助|选用|选择了|选取了", (Predicate.USES,)),
)  # fmt: skip


def predicates_for(predicates: tuple[str, ...], stated: str, object_id: str) -> tuple[str, ...]:
    """The predicates a cue states for one object. A hand-over verb (:data:`BY_OBJECT_KIND`, or
    an older PUBLISHES_TO cue whose ``stated`` text, the cue up to its verb, ends in 发送/推送 …)
    publishes to a topic and feeds anything else."""
    sends = predicates == BY_OBJECT_KIND or (
        predicates == (Predicate.PUBLISHES_TO,) and bool(_SENT.search(stated))
    )
    if not sends:
        return predicates
    return (Predicate.PUBLISHES_TO,) if object_id.startswith("topic:") else (Predicate.FEEDS,)


# Adverbs that may stand between a subject and its verb, beyond ``cues.ZH_SUBJECT_GLUE``:
# "注册中心将立即推送 …", "消费者定时每分钟发送 …", "它缺省配置为 …".
ZH_MORE_GLUE = re.compile(
    r"(?:在)?(?:启动|停止|关闭|重启|上线|下线|初始化|部署|宕机|恢复|退出)(?:时|后|前|之后|之前|以后|期间|过程中)"
    r"|[`*_“”‘’「」『』《》\"']"  # markup around names: "`A`、`B` 都依赖 `C`"
    # the entity itself: "订单服务实例都会连接到 …", "A 服务启动时向 B 注册"
    r"|实例|集群|节点|进程|服务器|服务端|服务(?=[在启停关重上下初部宕恢退]|$)"
    r"|把(?=\s*$)"  # "A 会把请求转发给 B"
    rf"|立即|立刻|马上|随即|自动|定时|定期|周期性地|持续地?|不断地?|不停地?|不时|经常|时常|实时地?|一直|始终|缺省|默认地|主动|能够|仍能|能|可(?=[{HAN}])"
    r"|首先|最后|接着|分别|各自|统一|共同|动态地|动态|批量|只在|仅在|也能|还能|均会|都会"
    r"|内部(?![的])"  # "X 内部并没有采用 Y": in house, X itself
    # "X 负责实时拉取 Y": what X is responsible for doing, X does
    r"|负责(?=\s*(?:实时|定期|周期性地)?\s*(?:拉取|读取|写入|调用|发送|推送|同步|上报|下发))"
)
# A kind noun an object is named after, in apposition: "转发给底层的存储节点 X", "存储引擎 X".
ZH_APPOSITION_NOUNS = r"节点|服务器|服务|组件|模块|引擎|数据库|集群|系统|工具|中间件"
# Capability modals ("能", "可"): hedged like 可以 (``cues.MODAL``).
ZH_MORE_MODAL = re.compile(r"能够|仍能|(?<![功性可])能(?!力|够)|(?<![许])可(?!以|选|用|靠|见|能)")
# How a clause whose subject is the previous clause's may open: "，并根据负载算法直接调用 …",
# "，同时汇报 …", "，然后写入 …", "，不影响 …" (a subjectless clause keeps the topic).
ZH_COORDINATOR = r"(?:而是|并且|并|同时|然后|随后|接着|之后|而且|且|再|又|也|还|就|便|则|以及|及)"
# A short adverbial phrase without a name in it: "根据负载算法", "基于长连接", "在内存中".
# A code span may be its object: "通过 `psubscribe` 功能".
ZH_MANNER = (
    r"(?:根据|基于|按照|依据|依照|按|通过|经由|借助|利用|使用|采用|以|在)"
    r"(?:\s*`[^`\n]{1,40}`\s*[^，。；！？,;\s`]{0,4}|[^，。；！？,;\s]{1,8}?)"
)
ZH_CLAUSE_PUNCTUATION = "，,；;：:"
# A Chinese list: 、 和 与 及 …, with the markup real docs put around names (`a`、`b`).
ZH_LIST_SEPARATOR = re.compile(
    r"^\s*[`'\"“”‘’「」『』《》*_]*\s*(?:、|和|与|及|以及|或|或者|跟|及其)\s*[`'\"“”‘’「」『』《》*_]*\s*$"
)
# "基于 Redis 实现的注册中心": after the preposition's verb, 的 and the head noun the clause
# describes; that head is the subject ("被 A 调用的 B": B is what A calls).
ZH_RELATIVE_HEAD = re.compile(r"\s*的\s*")
# "其可靠性依赖于 X": 其 (its) with a short possessed noun is still its entity speaking.
ZH_POSSESSIVE = "其"
ZH_POSSESSED_NOUN = re.compile(f"[{HAN}]{{1,4}}")
# Words that open a sentence to link it to the one before ("但是 A 没有 …，而是 …"): the
# sentence's topic is the name after them.
_ZH_CONNECTIVES = "但是|但|不过|然而|因此|所以|此外|另外|而且|并且|其次|首先|最后|总之|当然|那么"
# What may open a clause before its topic: list markers, markup, a connective.
ZH_TOPIC_OPENING = re.compile(
    r"[\s`'\"“”‘’「」『』《》*_\-•|]*(?:\d{1,3}[.)、]\s*|[（(]\d{1,3}[）)]\s*)?[\s`*_]*"
    rf"(?:(?:{_ZH_CONNECTIVES})\s*[，,]?[\s`*_]*)?"
)
