"""Words discovery and binding share: ordinary English words and the head nouns of kinds.

A discovered name that is also an ordinary word ("cart", "email", "quote") must not bind
wherever the word is used; ``is_ordinary`` says which names those are: a word general English
uses often (``wordfreq`` Zipf at least :data:`ORDINARY_ZIPF`, about 30 uses per million words)
whose lemma ``lemminflect`` inflects as a noun, verb, adjective or adverb (a proper name is
none), or one of the words listed below, which general English uses less but documentation
uses as ordinary words ("scheduler", "sidecar", "backend"). Rare words that are not listed ("envoy",
"celery", "tornado") are names: as names they are almost always the product.

A head noun says what kind of thing the name before it is ("the billing *service*", "the
Kafka *broker*", "Redis *注册中心*"). For some heads the head is part of the name ("Jaeger
Collector", "CeleryExecutor"); for others it only tells the kind ("the cart service" is cart).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lemminflect import getAllInflections  # type: ignore[import-untyped]
from wordfreq import zipf_frequency

from zehn.reading.vocabulary import EntityKind

# Zipf value from which ``wordfreq`` (general English) makes a word ordinary
ORDINARY_ZIPF = 4.5
# The ordinary words the two libraries do not give: the everyday words of software documentation
# that general English uses less often ("scheduler", "sidecar", "backend"), less frequent general
# words, and the closed classes and short forms outside lemminflect's dictionary ("the", "of",
# "five", "app", "ok").
_DOCUMENTATION_WORDS = frozenset(
    """
etc telemetry observability chore changelog roadmap throughput deprecation onboarding a abort
absent abstract abundant acceptable accepting accessible accidental accomplish according
accounting accuracy achievement acid acknowledge acknowledgement acquire activate acute ad
adapt adapter added adequate adjacent adjust admin adopt adoption advertisement advise
against agenda aggregate aggregation aggressive airline alarm alert algorithm alias align
all allocate allocation allowance alpha alter although ambition ambitious amend among
analyse analyst analytics analyze anchor and angle annotate annotation announcement
anonymous another anticipate anxious any anybody anyone anything api apologize apology app
apparent append appoint appointment approve approximate arbitrary archive argue arise
arrange arrangement array arrival arrive artifact asleep aspect assemble assert assess
assessment asset assign assignment assist associate assumption async at atmosphere atomic
attach attract attribute audit auth authentication authorization auto automatic automation
availability await awake awareness awful backend backup bake balancer bandwidth banner bare
batch because bedroom beg behave belief belong bench bend beneficial beta bicycle billing
binary bind binding bite bitter blank bless boil bold bone bonus boolean boot boring borrow
bot both bother bounce bound boundary bow brave brick broadcast broker browse browser brush
bucket buffer bug builder bulk bundle burden burst bury but byte cache calculate calculation
calendar callback cancel candle capture carpet cart castle casual catalog catalogue cease
ceiling celebrate celebration charity chart chase chatbot cheat checkout checksum chip
chocolate chunk cigarette cinema circuit cite citizen clarify classify cleanup clever climb
cling clock clone cloud cluster coarse coat coin collapse colleague collect collector column
combine comfort commit commitment communicate compact comparable compare compete compile
compiler complain complaint comply component compose comprehensive comprise compute conceal
concentrate conclude conclusion concrete confess confident config configuration confine
confirm confirmation confront confuse confusion connect connector conscious consequence
considerable consist consistent console constitute construct consult consultant consume
container continuous contribute contribution controller conventional convert convey convince
cookie cooperate coordinator cope correspond costly cotton could county coupon courage
cousin cow cpu crack craft crawl credential criticism cron crucial crush cure curious
currency cursor curtain curve custom daemon dare dashboard database dataset deadline dealer
debug decent decline decode default defer define definite delay delete deliberate delicate
demo democrat dense deny departure depend dependent deploy deployment deposit deprecate
derive desirable desk desperate despite destination destruction detect detection detective
devote diagram dialog dictionary diff differ dig digest dimension dine directory dirt
disable disappear disaster discard discipline disclose discount discover disk dismiss
dispatch dispatcher distant distinct distinguish distribute dive divide dns doc
documentation domain dominant downstream drag drain dramatic drawer drift drown dull dump
duration during dynamic each eager ear earn ease edit efficiency efficient egg eight
elaborate elderly elect electricity elegant element eligible eliminate embed embrace emerge
emit emotion emphasis emphasize employ employer enable encode encounter encourage
encouraging encrypt endorse endpoint enforce engage enhance enormous entertain enthusiasm
entity entrance equip erase essay establish estimate eternal ethical evaluate eventual every
everybody everyone everything evident evolve exam examination examine exceed exception
exceptional excessive excitement exclude execute execution executor exhibit exhibition exit
exotic expand expense expire explanation explicit explode explore export exporter expose
extend extension extent extract facilitate fade faithful fallback fancy fatal feedback
feminine fetch fiction fierce filter finder finger fiscal fishing five flash flee flexible
float flower fluid flush fold folder font foolish footer for forbid forecast forgive fork
formal format formula fortunate fortune four framework fraud freeze frequency frequent
friendship frighten from frontend frozen fulfil functional fundamental funeral furniture gap
gate gateway gather gene generate generator generic gentle genuine glance glove gorgeous
graceful gradual grain grandfather graph grass grateful grave gray greedy greet grid grind
gross guarantee guidance guitar habit halt handler handsome handy harsh hash he header heal
heartbeat helper helpful helpless her herself hesitate hidden highlight highway him himself
hire his historic hobby honey hook horizontal horrible horror hostile household humble
hungry hunt hurry ideal identical identifier idle if ignore illness illustrate immense
implement implicit imply import impose impress impression impressive improvement inadequate
inbox including indexer indicate indirect inevitable infinite inflation info inform informal
inherit init initiate initiative inject innocent input insect insert insist inspect
inspection inspector inspire install institution instruct instruction instrument
instrumentation insure integer integration intelligent intend intense intention interactive
interface interim interpret interrupt interval intimate into introduce invalid invent
inventory invest investigate invisible invitation invite invoice invoke involve irrelevant
isolate isolated it its itself jacket json judgment juice junior jury justify keen kernel
keyword knee kneel knife knock lab label ladder lambda latency launcher lawn layer layout
lazy leading lean leap lease least lecture ledger legitimate lend lengthy lesson librarian
lifecycle linear linter lip liquid listener literal literary lively loader locale locate log
logger logging logical login logout lonely lookup loop loose loyal luxury magnificent mall
manifest manual many mapper mapping marginal mature maximize me meal menu mere merge mesh
metadata meter metric metrics middleware midnight might migrate migration mild minimal
minimize mirror mixture mock moderate modest modify module monitor monitoring mood moral
mortgage motivate mount mouse mr mrs multiply muscle mutual my myself nail naked namespace
narrow nasty naval navigation neat negotiate negotiation nerve nervous neutral noble nod
node noisy none nor notable notification notify null nurse obey objective obligation oblige
observe observer obtain occasion occasional occupy occur odd of offend offline offset oh ok
omit onto operational operator oppose optimal optimize optional oral orchestrator ordinary
organic organize originate others our outer output oven overcome overview owe pace package
packet painful pale parallel param parameter parking parse parser partial participant
participate partition passage passenger passion passive password patch patience pause
payload peaceful peer penalty pending pension per perceive percentage perception permit
persist persistent persuade philosophy phrase physics piano pie pile pin pipe pipeline pitch
plain planned plead pleasant plug plugin pocket pod poem poet poetry polish polite poll
pollution portable portal pose possess possession postal postpone pot potato pound pour
poverty powder practical pray precede precious precise predict preference prefix preliminary
premium preparation presentation preserve pretend preview priority probable probe procedure
proceed processor proclaim producer productive profession profiler profound progressive
prominent promising promotion prompt pronounce proposal propose proposed prosecute prospect
protest protocol provider proxy psychology pub publish publisher punch punish punishment
pursue qualified qualify quantity query queue quota radical rank rapid rating react reader
realistic rebuild recall receipt receiver recipe recognition recommendation recommender
recover recruit recycle redirect refer reflect reflection refresh refrigerator refund refuse
regard registry regret regulate reinforce reject relate relation relative relax reliable
reluctant rely remarkable remind remote render renderer renew repair repeat repeated
replacement replica replication repo repository reputation required requirement rescue
resemble reset resident residential resign resist resistant resolve resolver resource
respective restore restrict retain retire retrieve retry reveal reverse revise revision
reward rhythm rigid rip romantic root rope rotate rough router routine rub rubber rude
runner runtime rush sacred sail salad salary sampler sampling sand satisfaction satisfied
satisfy savings scan scare scared scatter scheduler schema scientist scope scratch scream
script segment seize select selector sender sensitive sensor sequence serializer server
settings settle setup seven shake shallow shard sharp she shed sheer shell shelter shine
shipment shipping shock shoe should shout shrink shy sidecar sigh signup silent silly
sincere sink six sketch ski skill skip skirt slice slide slight slim slip slot smash smell
smooth snapshot sniff socket soil soldier sole solve some somebody someone something
sophisticated soup span spare spatial speaker spec spectacular spell spill spin spiritual
splendid spoil spontaneous sql squeeze stable stack stare stat static steady steal steep
steer sticky stiff stir stomach stranger strategic streaming strengthen stretch strict
striking string strip structural submit subscribe subscriber subscription subsequent
substance substantial substitute subtle succeed such suck sudden suffer sufficient
suggestion suitable summary superb superior supermarket supervisor surprising surround
suspend suspicious swallow sweep swift swim swing symbolic sympathetic sympathy sync syntax
synthetic systematic tackle tag tale tap tape tear telephone template temporary tempt ten
tenant tender tennis tension terminal than thanks that the their them themselves these they
thick thin this thorough those thread threaten three threshold tier timeout timer timestamp
token tolerate tone tongue tooth topic tourist toward towel toxic toy trace tracer tracing
tracker tragic transaction transform transition translate translation transparent trap trash
tremendous trick trigger tropical tune tunnel tv twist ugly uncertain unchanged uncle
uncomfortable undergo undertake unexpected unfair unhappy uniform unite universal unlikely
unlock unnecessary until unusual upgrade upload upon upstairs upstream urge urgent url us
usage useless utility utilize vacation vague valid validate validation validator vanish
variable variation vary vast vault vegetable vendor verbal verify vertical viable viewer
violent virtual virus visible vital vivid voluntary volunteer vulnerable wage waiter wallet
wander warehouse warn wash watcher we wealthy webhook website weigh what whatever whether
which whisper who whom whose widen widget wipe with withdraw wizard wooden worker workflow
workload worthy would wrap wrapper written yeah yell yield you your yourself
    """.split()
)


@lru_cache(maxsize=32768)
def _listed_or_frequent(word: str) -> bool:
    """Listed, or frequent in general English and the lemma of a noun, verb, adjective or
    adverb that ``lemminflect`` inflects, which a proper name ("john", "microsoft") is not.
    (Its inflection table, which the cue lexicon loads anyway; ``is_ordinary`` strips the
    suffixes of inflected forms.)"""
    if word in _DOCUMENTATION_WORDS:
        return True
    return zipf_frequency(word, "en") >= ORDINARY_ZIPF and bool(getAllInflections(word))


@lru_cache(maxsize=8192)
def is_ordinary(word: str) -> bool:
    """Whether ``word`` (any case) is a common English word, plurals and -ed/-ing forms included."""
    w = word.lower()
    if not w.isascii() or not w.isalpha():
        return False
    if _listed_or_frequent(w):
        return True
    for suffix, replacement in (
        ("ly", ""),
        ("ally", ""),
        ("ies", "y"),
        ("ied", "y"),
        ("es", ""),
        ("s", ""),
        ("ed", ""),
        ("ed", "e"),
        ("ing", ""),
        ("ing", "e"),
    ):
        stem = w[: len(w) - len(suffix)]
        if not w.endswith(suffix) or len(stem) < 2:
            continue
        if _listed_or_frequent(stem + replacement):
            return True
        if suffix in ("ed", "ing") and stem[-1] == stem[-2] and _listed_or_frequent(stem[:-1]):
            return True  # "submitted", "shipping"
    return False


_WORD = re.compile(r"[A-Za-z]+|[0-9]+|[^\sA-Za-z0-9]")


def is_ordinary_phrase(text: str) -> bool:
    """Every word of ``text`` is ordinary English and it is written as words, not as an
    identifier: "fraud detection" is, "fraud-detection", "FraudDetection" and "k6" are not."""
    if re.search(r"[-_./]|[a-z][A-Z]|[0-9]", text):
        return False
    words = _WORD.findall(text)
    return bool(words) and all(is_ordinary(w) for w in words)


@dataclass(frozen=True)
class Head:
    """A head noun: the kind it gives, and whether it belongs to the name it follows."""

    noun: str
    kind: str
    part_of_name: bool
    # a head that names a thing only after ordinary words ("the object storage"); after a
    # proper name it is that product's own part ("Prometheus storage"), not a new name
    after_words_only: bool = False


def _heads(kind: str, part_of_name: bool, nouns: str) -> dict[str, Head]:
    return {n: Head(n, kind, part_of_name) for n in nouns.split()}


SERVICE, DATASTORE, TOPIC = EntityKind.SERVICE, EntityKind.DATASTORE, EntityKind.TOPIC
COMPONENT, TEAM, PIPELINE = EntityKind.COMPONENT, EntityKind.TEAM, EntityKind.PIPELINE

# English heads, singular; a plural ("services", "queues", "proxies") is read as its singular.
HEADS: dict[str, Head] = {
    **_heads(SERVICE, False, "service microservice svc"),
    **_heads(DATASTORE, False, "database db datastore cache"),
    **_heads(TOPIC, True, "queue topic"),
    **_heads(COMPONENT, False, "broker proxy"),
    **_heads(
        COMPONENT,
        True,
        "collector server scheduler executor worker registry exporter receiver connector processor"
        " indexer controller monitor coordinator dispatcher balancer node",
    ),
    **_heads(SERVICE, True, "daemon gateway"),
    "storage": Head("storage", DATASTORE, True, after_words_only=True),
    **_heads(TEAM, False, "team"),
    **_heads(PIPELINE, True, "pipeline"),
}
# Words before a head that tell the kind better than the head ("a Valkey *caching* service").
MODIFIERS: dict[str, str] = {
    "caching": DATASTORE,
    "storage": DATASTORE,
    "queue": TOPIC,
    "queuing": TOPIC,
    "messaging": COMPONENT,
    "proxy": COMPONENT,
}
# Chinese heads end the name they belong to ("订单服务", "Redis 注册中心"); longest first.
CJK_HEADS: dict[str, Head] = {
    **_heads(COMPONENT, True, "注册中心 监控中心 配置中心 调度中心"),
    **_heads(SERVICE, False, "微服务 服务"),
    **_heads(DATASTORE, False, "数据库 缓存"),
    **_heads(TOPIC, False, "消息队列 队列 主题"),
    **_heads(COMPONENT, False, "代理"),
    **_heads(TEAM, False, "团队 小组"),
}
# Words near a proper name that say what it is, though it is not the name's head ("a metadata
# database, usually PostgreSQL"; "Redis 是一个高效的 KV 存储服务器").
CONTEXT_KINDS: dict[str, str] = {
    **{h.noun: h.kind for h in HEADS.values() if h.kind not in (SERVICE, TEAM, PIPELINE)},
    "storage": DATASTORE,
    "store": DATASTORE,
    "backend": DATASTORE,
    "message broker": COMPONENT,
    "存储": DATASTORE,
    "数据库": DATASTORE,
    "缓存": DATASTORE,
    "消息队列": TOPIC,
    "队列": TOPIC,
    "代理": COMPONENT,
    "注册中心": COMPONENT,
}


# Last words that make a name a place data is kept in, when nothing else gives its kind
# ("DAG files", "Result backend", "artifact bucket"); not heads: "the X files" is no name.
_STORE_LAST_WORDS = frozenset(
    "file folder directory backend storage store bucket volume filesystem".split()
)


def store_kind(name: str) -> str | None:
    """``datastore`` when the last word of ``name`` says it keeps data ("DAG files"), else None."""
    words = re.findall(r"[A-Za-z]+", name)
    return DATASTORE if words and number_stem(words[-1].lower()) in _STORE_LAST_WORDS else None


# Never a component's name on their own, though written like proper names: programming
# languages and protocols ("the Go services", "the gRPC server", "an HTTP server").
NOT_NAMES = frozenset(
    """go golang python java javascript typescript ruby rust php kotlin elixir scala swift perl
    c cpp c++ c# csharp net dotnet node nodejs js ts http https grpc tcp udp rest sftp ftp smtp
    ssh dns wsgi asgi json xml yaml html sql jdbc odbc ssl tls url uri""".split()
)


def singular(noun: str) -> str:
    """ "proxies" -> "proxy", "services" -> "service", "caches" -> "cache"."""
    n = noun.lower()
    if n.endswith("ies") and len(n) > 4:
        return n[:-3] + "y"
    if n.endswith("ses") and n[:-2] in HEADS:
        return n[:-2]
    if n.endswith("es") and n[:-2] in HEADS:
        return n[:-2]
    if n.endswith("s") and n[:-1] in HEADS:
        return n[:-1]
    return n


_SIBILANT_PLURAL = re.compile(r"(?:x|z|ss)es$", re.IGNORECASE)
_NOT_PLURAL_S = re.compile(r"(?:ss|us|is)$", re.IGNORECASE)
MIN_NUMBER_CHARS = 3


def number_stem(word: str) -> str:
    """The singular a plural-looking word would have ("workers" -> "worker", "queries" ->
    "query", "caches" -> "cache", "boxes" -> "box"); any other word as it is ("Redis",
    "status", "class"). A name and its plural differ only in number ("the workers" are the
    worker component), so discovery and binding compare names by this stem."""
    if len(word) <= MIN_NUMBER_CHARS or not word.isalpha() or word[-1] not in "sS":
        return word
    if word.lower().endswith("ies") and len(word) > 4:
        return word[:-3] + ("Y" if word[-1].isupper() else "y")
    if _SIBILANT_PLURAL.search(word):
        return word[:-2]
    if _NOT_PLURAL_S.search(word):
        return word
    return word[:-1]


def number_variants(word: str) -> tuple[str, ...]:
    """The other grammatical number of a name's last word, in its case ("worker" ->
    "workers", "workers" -> "worker", "proxy" -> "proxies", "XCom" -> "XComs"); none for
    words that are not plain letters or too short to tell."""
    if len(word) < MIN_NUMBER_CHARS or not word.isalpha():
        return ()
    stem = number_stem(word)
    if stem != word:
        return (stem,)
    if word[-1] in "sS":
        return ()  # "status", "Redis": neither a plural nor one to make
    upper = word.isupper()
    if word[-1] in "yY" and word[-2].lower() not in "aeiou":
        plural = word[:-1] + ("IES" if upper else "ies")
    elif word.lower().endswith(("x", "z", "ch", "sh")):
        plural = word + ("ES" if upper else "es")
    else:
        plural = word + "s"  # "API" -> "APIs": an acronym's plural is written lowercase
    return (plural,)


# What a component exposes or keeps, read as the component itself after a possessive: "reads
# Y's data", "calls Y's API", "on top of Y's remote-read API" (Y is the other end).
OWNER_FACES = frozenset(
    """api apis endpoint endpoints interface interfaces port ports data metrics logs state
    config configuration output events http grpc rest remote-read remote-write""".split()
)


def head_of(noun: str) -> Head | None:
    """The head ``noun`` is (either number, any case), or None."""
    return HEADS.get(singular(noun))


_FUNCTION_PARTS = frozenset("of to the in on for and or by at a an per out off up".split())
_HYPHENATED_WORDS = frozenset(
    """trade-off trade-offs built-in read-only on-call follow-up re-index re-indexed e-mail
    opt-in opt-out end-to-end real-time long-running short-lived up-to-date well-known so-called
    non-blocking high-level low-level open-source third-party cross-cutting
    multi-tenant single-tenant""".split()
)
# Hyphenated words that describe rather than name ("web-based", "low-criticality").
_DESCRIPTIVE_PREFIXES = frozenset(
    "non no multi single pre post self auto semi high low real re co cross un unless your my "
    "start port run".split()
)
_DESCRIPTIVE_SUFFIXES = frozenset(
    "based side facing world free exclusive time line stopped criticality level like ready "
    "aware specific driven wide only disable enable forward instrumented instrumentation native "
    "party compatible".split()
)


def names_a_thing(identifier: str) -> bool:
    """ "product-catalog" names a thing; "web-based", "gr-b" and "on-call" do not."""
    parts = identifier.split("-")
    return (
        identifier not in _HYPHENATED_WORDS
        and not _FUNCTION_PARTS.intersection(parts)  # "proof-of-concept", "in-process"
        and parts[0] not in _DESCRIPTIVE_PREFIXES
        and parts[-1] not in _DESCRIPTIVE_SUFFIXES
        and max(len(p) for p in parts) >= 4
        and min(len(p) for p in parts) >= 2
    )
