"""Words discovery and binding share: ordinary English words and the head nouns of kinds.

A discovered name that is also an ordinary word ("cart", "email", "quote") must not bind
wherever the word is used; ``is_ordinary`` says which names those are. The list below is a
curated list of about 3,000 common English nouns, verbs and adjectives (general vocabulary
plus the everyday words of software documentation), written for ZEHN, not taken from a
word-frequency package. Rare words ("envoy", "celery") are deliberately absent: as names
they are almost always the product.

A head noun says what kind of thing the name before it is ("the billing *service*", "the
Kafka *broker*", "Redis *注册中心*"). For some heads the head is part of the name ("Jaeger
Collector", "CeleryExecutor"); for others it only tells the kind ("the cart service" is cart).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from zehn.reading.vocabulary import EntityKind

_COMMON = frozenset(
    """
telemetry observability chore changelog roadmap throughput deprecation onboarding
a able abort about above absent absolute abstract abundant accept acceptable accepted
accepting access accessible accidental accomplish according account accounting accuracy
accurate achieve achievement acid acknowledge acknowledgement acquire across act action
activate active activity actual actually acute ad adapt adapter add added addition
additional address adequate adjacent adjust admin administration admit adopt adoption adult
advance advanced advantage advertisement advertising advice advise affect afford afraid
after afternoon again against age agency agenda agent aggregate aggregation aggressive ago
agree agreement ahead aim air airline airport alarm alert algorithm alias align alive all
allocate allocation allow allowance almost alone along alpha already also alter alternative
although always amazing ambition ambitious amend among amount analyse analysis analyst
analytics analyze anchor ancient and angle angry animal annotate annotation announcement
annual anonymous another answer anticipate anxious any anybody anyone anything apartment api
apologize apology app apparent appeal appear appearance append application apply appoint
appointment appreciate approach appropriate approve approximate arbitrary archive area argue
argument arise arm around arrange arrangement array arrival arrive art article artifact
artist as ask asleep aspect assemble assert assess assessment asset assign assignment assist
assistance assistant associate assume assumption async at atmosphere atomic attach attack
attempt attend attention attitude attract attractive attribute audience audit auth
authentication author authority authorization auto automatic automation availability
available average avoid await awake aware awareness away awful baby back backend background
backup bad bag bake balance balancer ball ban bandwidth bank banner bar bare base based
basic basis batch battery be beach bear beat beautiful because become bed bedroom before beg
begin beginning behave behavior behind belief believe belong bench bend beneficial benefit
best bet beta better between beyond bicycle big bill billing binary bind binding bird birth
birthday bit bite bitter black blame blank bless blind block blog blood blow blue board boat
body boil bold bone bonus book boolean boot border boring born borrow boss bot both bother
bottle bottom bounce bound boundary bow bowl box boy brain branch brand brave bread break
breakfast breath brick bridge brief bright brilliant bring broad broadcast broken broker
brother brown browse browser brush bucket budget buffer bug build builder building bulk
bundle burden burn burst bury bus business busy but button buy by byte cable cache cake
calculate calculation calendar call callback calm camera camp campaign can cancel cancer
candidate candle capable capacity capital captain capture car carbon card care career
careful carpet carry cart case cash castle casual cat catalog catalogue catch category cause
cease ceiling celebrate celebration cell center central century certain certainly chain
chair challenge champion chance change channel chapter character charge charity chart chase
chat chatbot cheap cheat check checkout checksum cheese chemical chest chicken chief child
childhood chip chocolate choice choose chunk church cigarette cinema circle circuit cite
citizen city civil claim clarify class classic classify clean cleanup clear clearly clever
click client climate climb cling clock clone close closed clothes cloud club cluster coach
coarse coast coat code coffee coin cold collapse colleague collect collection collector
college color column combination combine come comfort comfortable command comment commercial
commission commit commitment committee common communicate communication community compact
company comparable compare comparison compete competition competitive compile compiler
complain complaint complete complex comply component compose comprehensive comprise compute
computer conceal concentrate concept concern concert conclude conclusion concrete condition
conduct conference confess confidence confident config configuration confine confirm
confirmation conflict confront confuse confusion congress connect connection connector
conscious consequence conservative consider considerable consist consistent console constant
constitute construct construction consult consultant consume consumer contact contain
container content contest context continue continuous contract contribute contribution
control controller conventional conversation convert convey convince cook cookie cool
cooperate coordinator cope copy core corner correct correspond cost costly cotton could
count counter country county couple coupon courage course court cousin cover coverage cow
cpu crack craft crash crawl crazy cream create creative credential credit crew crime crisis
critical criticism cron cross crowd crown crucial crush cry cultural culture cup cure
curious currency current cursor curtain curve custom customer cut cute cycle daemon daily
damage dance danger dangerous dare dark dashboard data database dataset date daughter day
dead deadline deal dealer dear death debate debt debug decade decent decide decision decline
decode deep default defense defer define definite definition degree delay delete deliberate
delicate deliver delivery demand demo democrat democratic dense deny departure depend
dependent deploy deployment deposit deprecate depression depth derive describe description
deserve design desirable desk desperate despite destination destruction detail detailed
detect detection detective determine develop development device devote diagram dialog
dictionary die diet diff differ difference different difficult dig digest digital dimension
dine dinner direct direction director directory dirt dirty disable disappear disaster
discard discipline disclose discount discover discuss discussion disease disk dismiss
dispatch dispatcher display distance distant distinct distinguish distribute distribution
district dive divide dns do doc doctor document documentation dog dollar domain domestic
dominant door double doubt down download downstream draft drag drain drama dramatic draw
drawer dream dress drift drink drive driver drop drown drug dry due dull dumb dump duration
during duty dynamic each eager ear early earn earth ease east easy eat economic economy edge
edit editor education educational effect effective efficiency efficient effort egg eight
either elaborate elderly elect election electric electricity electronic elegant element
eligible eliminate else email embed embrace emerge emergency emit emotion emphasis emphasize
employ employee employer employment empty enable encode encounter encourage encouraging
encrypt end endorse endpoint energy enforce engage engine engineer engineering enhance enjoy
enormous enough ensure enter entertain entertainment enthusiasm entire entity entrance entry
environment environmental equal equip equipment erase error escape especially essay
essential establish estate estimate eternal ethical evaluate even evening event eventual
ever every everybody everyone everything evidence evident evil evolve exact exactly exam
examination examine example exceed excellent exception exceptional excessive exchange
excitement exclude exclusive execute execution executive executor exercise exhibit
exhibition exist existing exit exotic expand expansion expect expense expensive experience
expert expire explain explanation explicit explode explore export exporter expose express
expression extend extension extent external extra extract extreme eye face facilitate fact
factor fade fail fair faithful fall fallback false familiar family famous fan fancy
fantastic far farm fashion fast fatal father fault favor favorite fear feature federal fee
feed feedback feel feeling feminine fetch few fiction field fierce fight figure file fill
film filter final finally finance financial find finder fine finger finish fire firm first
fiscal fish fishing fit five fix flag flash flat flee flexible flight float floor flow
flower fluid flush fly focus fold folder follow font food foolish foot football footer for
forbid force forecast foreign forget forgive fork form formal format former formula
fortunate fortune forward foundation four frame framework frank fraud free freedom freeze
frequency frequent fresh friend friendly friendship frighten from front frontend frozen
fruit fuel fulfil full fun function functional fund fundamental funeral funny furniture
future gain game gap garden gas gate gateway gather gene general generate generation
generator generic gentle genuine get giant gift girl give glad glance glass global glove go
goal god gold golden golf good gorgeous government grab graceful grade gradual grain grand
grandfather grant graph grass grateful grave gray great greedy green greet grid grind gross
ground group grow growth guarantee guard guess guest guidance guide guilty guitar gun guy
habit hair half hall halt hand handle handler handsome handy hang happen happy hard harsh
hash hat hate have he head header heal health healthy hear heart heartbeat heat heavy height
help helper helpful helpless her here hero herself hesitate hidden hide high highlight
highway hill him himself hire his historic history hit hobby hold hole holiday holy home
honest honey honor hook hope horizontal horrible horror horse hospital host hostile hot
hotel hour house household housing how however huge human humble hundred hungry hunt hurry
hurt husband i ice idea ideal identical identifier identify identity idle if ignore ill
illegal illness illustrate image imagine immediate immense impact implement implicit imply
import important impose impossible impress impression impressive improve improvement in
inadequate inbox incident include including income increase incredible indeed independence
independent index indexer indicate indirect individual industrial industry inevitable
infinite inflation info inform informal information inherit init initial initiate initiative
inject injury inner innocent input insect insert inside insist inspect inspection inspector
inspire install instance instead institution instruct instruction instrument instrumentation
insurance insure integer integration intelligent intend intense intention interactive
interest interesting interface interim internal international internet interpret interrupt
interval interview intimate into introduce introduction invalid invent inventory invest
investigate investment invisible invitation invite invoice invoke involve iron irrelevant
island isolate isolated issue it item its itself jacket job join joint joke journal journey
json judge judgment juice junior jury just justice justify keen keep kernel key keyword kick
kid kill kind king kiss kitchen knee kneel knife knock know knowledge lab label ladder lady
lake lambda land language large last late latency later laugh launch launcher law lawn
lawyer lay layer layout lazy lead leader leadership leading league lean leap learn lease
least leave lecture ledger left leg legal legitimate lend length lengthy less lesson let
letter level liberal librarian library license lie life lifecycle lift light like likely
limit limited line linear link linter lip liquid list listen listener literal literary
literature little live lively load loader loan local locale locate location lock log logger
logging logical login logout lonely long look lookup loop loose lose loss lot loud love
lovely low loyal lucky lunch luxury machine mad magazine magic magnificent mail main
maintain major majority make male mall man manage management manager manifest manual many
map mapper mapping marginal marine mark market marketing marriage mass massive master match
material matter mature maximize maximum may maybe me meal mean measure meat media medical
medicine medium meet meeting member memory mental mention menu mere merge mesh mess message
metadata metal meter method metric metrics middle middleware midnight might migrate
migration mild military milk million mind mine minimal minimize minimum minister minor
minute mirror miss missing mission mistake mix mixture mobile mock mode model moderate
modern modest modify module moment money monitor monitoring month mood moon moral more
morning mortgage most mother motivate motor mount mountain mouse mouth move movement movie
mr mrs much multiple multiply muscle museum music must mutual my myself nail naked name
namespace narrow nasty nation national native natural nature naval navigation near nearly
neat necessary neck need negative negotiate negotiation nerve nervous network neutral never
new news newspaper next nice night no noble nobody nod node noise noisy none nor normal
north nose not notable note nothing notice notification notify novel now nuclear null number
numerous nurse obey object objective obligation oblige observe observer obtain obvious
occasion occasional occupy occur ocean odd of off offend offer office officer official
offline offset often oh oil ok old omit on once one online only onto open operate operation
operational operator opinion opportunity oppose opposite optimal optimize option optional or
oral orange orchestrator order ordinary organic organization organize origin original
originate other others our out outer output outside oven over overall overcome overview owe
own owner pace pack package packet page pain painful paint painting pair pale panel paper
parallel param parameter parent park parking parse parser part partial participant
participate particular particularly partition partner party pass passage passenger passion
passive password past patch path patience patient pattern pause pay payload payment peace
peaceful peak peer penalty pending pension people per perceive percentage perception perfect
perform performance perhaps period permanent permission permit persist persistent person
personal persuade phase philosophy phone photo phrase physical physics piano pick picture
pie piece pile pin pipe pipeline pitch place plain plan plane planned plant plastic plate
platform play player plead pleasant please pleasure plenty plug plugin plus pocket pod poem
poet poetry point police policy polish polite political politics poll pollution pool poor
pop popular population port portable portal pose position positive possess possession
possible post postal postpone pot potato potential pound pour poverty powder power powerful
practical practice pray precede precious precise predict prefer preference prefix pregnant
preliminary premium preparation prepare presence present presentation preserve president
pressure pretend pretty prevent preview previous price primary prime principal print prior
priority prison private probable probably probe problem procedure proceed process processor
proclaim produce producer product production productive profession professional professor
profile profiler profit profound program progress progressive project prominent promise
promising promote promotion prompt pronounce proof proper property proposal propose proposed
prosecute prospect protect protest protocol proud prove provide provider proxy psychology
pub public publish publisher pull punch punish punishment purchase pure purpose pursue push
put qualified qualify quality quantity quarter queen query question queue quick quickly
quiet quit quite quota quote race radical radio rain raise random range rank rapid rare rate
rather rating raw reach react reaction read reader ready real realistic reality realize
really reason reasonable rebuild recall receipt receive receiver recent recently recipe
recognition recognize recommendation recommender record recording recover recovery recruit
recycle red redirect reduce refer reference reflect reflection refresh refrigerator refund
refuse regard region regional register registry regret regular regulate reinforce reject
relate related relation relationship relative relax release relevant reliable relief
religious reluctant rely remain remarkable remember remind remote remove render renderer
renew rent repair repeat repeated replace replacement replica replication reply repo report
repository represent representative republican reputation request require required
requirement rescue research resemble reserve reset resident residential resign resist
resistant resolution resolve resolver resource respect respective respond response
responsibility responsible rest restaurant restore restrict result retain retire retrieve
retry return reveal revenue reverse review revise revision revolution reward rhythm rice
rich ride right rigid ring rip rise risk river road rock role roll romantic roof room root
rope rotate rough round route router routine row royal rub rubber rude rule run runner
runtime rural rush sacred sad safe sail salad salary sale salt same sample sampler sampling
sand satisfaction satisfied satisfy save savings say scale scan scare scared scatter scene
schedule scheduler schema scheme school science scientist scope score scratch scream screen
script sea search season seat second secondary secret secretary section sector secure
security see seek seem segment seize select selection selector self sell send sender senior
sense sensitive sensor sentence separate sequence serializer series serious serve server
service session set setting settings settle setup seven several severe sexual shake shallow
shape shard share sharp she shed sheer shell shelter shift shine shipment shipping shirt
shock shoe shoot shop shopping short shot should shoulder shout show shrink shut shy sick
side sidecar sigh sign signal significant signup silent silly silver similar simple simply
since sincere sing singer single sink sister sit site situation six size sketch ski skill
skin skip skirt sky sleep slice slide slight slim slip slot slow small smart smash smell
smile smoke smooth snapshot sniff snow so social society socket soft soil solar soldier sole
solid solution solve some somebody someone something sometimes son song soon sophisticated
sorry sort sound soup source south southern space span spare spatial speak speaker spec
special specific spectacular speech speed spell spend spill spin spirit spiritual splendid
split spoil spontaneous sport spot spread spring sql square squeeze stable stack staff stage
stand standard star stare start stat state statement static station status stay steady steal
steep steer step stick sticky stiff still stir stock stomach stop storage store story
straight strange stranger strategic strategy stream streaming street strength strengthen
stress stretch strict strike striking string strip strong structural structure struggle
student studio study stuff stupid style subject submit subscribe subscriber subscription
subsequent substance substantial substitute subtle succeed success successful such suck
sudden suddenly suffer sufficient suggest suggestion suit suitable summary summer super
superb superior supermarket supervisor supply support suppose supreme sure surface surgery
surprise surprising surround survey survive suspect suspend suspicious swallow swear sweep
sweet swift swim swing switch symbolic sympathetic sympathy sync syntax synthetic system
systematic table tackle tag take tale talk tall tank tap tape target task taste tax tea
teach teacher teaching team tear technical technology telephone television tell temperature
template temporary tempt ten tenant tend tender tennis tension term terminal terrible
territory test text than thank thanks that the their them theme themselves then theory
therapy there these they thick thin thing think third this thorough those though thought
thousand thread threat threaten three threshold through throughout throw thus ticket tie
tier tight time timeout timer timestamp tiny tip tired title to today together token
tolerate tone tongue tonight too tool tooth top topic total touch tough tour tourist toward
towel tower town toxic toy trace tracer tracing track tracker trade tradition traditional
traffic tragic train training transaction transfer transform transition translate
translation transparent transport trap trash travel treat treatment tree tremendous trial
trick trigger trip tropical trouble truck true trust truth try tune tunnel turn tv twist two
type typical ugly ultimate unable uncertain unchanged uncle uncomfortable under undergo
understand undertake unexpected unfair unhappy uniform union unique unit unite united
universal university unknown unlikely unlock unnecessary until unusual up update upgrade
upload upon upper upset upstairs upstream urban urge urgent url us usage use useful useless
user usual usually utility utilize vacation vague valid validate validation validator
valuable value vanish variable variation variety various vary vast vault vegetable vehicle
vendor verbal verify version vertical very viable victim video view viewer village violence
violent virtual virus visible visit visual vital vivid voice volume voluntary volunteer vote
vulnerable wage wait waiter walk wall wallet wander want war warehouse warm warn warning
wash waste watch watcher water wave way we weak wealth wealthy weapon wear weather web
webhook website wedding week weekend weekly weigh weight weird welcome well west western wet
what whatever wheel when where whether which while whisper white who whole whom whose why
wide widen widget wife wild will willing win wind window wing winner winter wipe wise wish
with withdraw within without witness wizard woman wonder wonderful wood wooden word work
worker workflow workload world worried worry worse worth worthy would wrap wrapper write writer
written wrong yard yeah year yell yellow yes yet yield you young your yourself youth zone
    """.split()
)


@lru_cache(maxsize=8192)
def is_ordinary(word: str) -> bool:
    """Whether ``word`` (any case) is a common English word, plurals and -ed/-ing forms included."""
    w = word.lower()
    if not w.isascii() or not w.isalpha():
        return False
    if w in _COMMON:
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
        if stem + replacement in _COMMON:
            return True
        if suffix in ("ed", "ing") and stem[-1] == stem[-2] and stem[:-1] in _COMMON:
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


def cjk_head(name: str) -> Head | None:
    """The Chinese head ending ``name`` ("Redis 注册中心" -> 注册中心), or None."""
    for noun, head in CJK_HEADS.items():
        if name.endswith(noun):
            return head
    return None


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
