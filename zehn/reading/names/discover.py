"""Entity discovery for corpora without a catalog.

Real documentation names its components in its structure more than in its prose: the page
title ("Cart Service"), the file path (``services/cart.md``, ``src/cart/README.md``), a
table of services, "the checkout service", identifiers (``CeleryExecutor``,
``frontend-proxy``), a proper name next to a kind word ("a database, usually PostgreSQL").
``zehn.reading.names.clues`` gathers those clues per document; this module weighs them over the
corpus. Variants that normalise to one name ("Billing Service", "billingservice",
"BillingService", "billing") are one entity whose aliases keep the reason each was taken
(``Entity.evidence``); different kinds never merge. Precision comes first: a clue that is
weak alone (a lowercase "the quote service") needs a second one. A name that is also an
ordinary English word binds only where the text marks it (``zehn.reading.names.binding``).
Everything found is marked ``origin="discovered"``; a catalog, where there is one, wins.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from zehn.corpus.model import SourceText
from zehn.reading.lexicon import head_of
from zehn.reading.model import Entity
from zehn.reading.names.clues import (
    CORROBORATED,
    EVIDENCE,
    REPEATED,
    STRONG,
    Clue,
    name_key,
    proper_uses,
    prose_clues,
)
from zehn.reading.names.clues_zh import in_house_names, is_cjk_word, role_variants
from zehn.reading.names.list_mates import listed_with_names
from zehn.reading.names.page_clues import is_boilerplate, page_clues
from zehn.reading.names.proper_names import corpus_compounds, corpus_names
from zehn.reading.names.termhood_zh import bound_to_head
from zehn.reading.names.variants import fold_instances
from zehn.reading.outline import path_subject
from zehn.reading.vocabulary import EntityKind

MIN_CODE_LIKE_USES = 2
MIN_PROPER_USES = 2
MAX_ALIASES = 12
MIN_FAMILY = 3
MAX_REASONS = 3
_REASON_ORDER = (
    "title", "path", "table", "diagram", "phrase", "camel", "code-like", "proper", "emphasis",
    "tag", "artifact", "variant",
)  # fmt: skip
MIN_QUALIFIED_HEADS = 3
# which clue's spelling becomes the name: identifiers as written first, prose last
_NAME_PRIORITY = {
    "code-like": 0, "path": 2, "table": 3, "diagram": 3, "camel": 4, "tag": 5, "title": 6,
    "phrase": 7, "proper": 8,
}  # fmt: skip
# kinds a proper name's repeated use may confirm ("a Valkey caching service"): infrastructure
_INFRA = frozenset({EntityKind.DATASTORE, EntityKind.TOPIC, EntityKind.COMPONENT})
_OWNERS = frozenset({EntityKind.TEAM, EntityKind.CUSTOMER})
# a name used alone this many times as often as with its team word is a product, not the team
BARE_OVER_OWNER = 10


def discover_entities(documents: Sequence[SourceText]) -> tuple[Entity, ...]:
    """Entities named in ``documents``, best supported first; one per (name, kind)."""
    clues: list[Clue] = []
    for document in documents:
        if not is_boilerplate(document):  # a license names nothing of the system
            clues.extend(page_clues(document))
            clues.extend(prose_clues(document))
            clues.extend(_organisation_clues(document))
    clues.extend(_proper_clues(documents))
    clues.extend(_corpus_name_clues(documents))
    clues = _chinese_terms_bound(clues, documents)
    families = _package_families(clues)
    clues = _requalified(clues)
    root = _stated_aliases(clues)
    by_key: dict[str, list[Clue]] = defaultdict(list)
    for clue in clues:
        key = name_key(clue.name)
        if key:
            by_key[root.get(key, key)].append(clue)
    _add_variants(by_key, documents)
    entities = [
        e
        for group in by_key.values()
        if _accepted(group) and not _artifact(group, families)
        for e in _entities(group)
    ]
    entities.sort(key=lambda e: -len(e.evidence))
    unique: dict[str, Entity] = {}
    for entity in entities:
        unique.setdefault(entity.id, entity)
    served = _served(fold_instances(_folded(list(unique.values()))))
    named = _role_names(served, documents)
    return (*named, *listed_with_names(named, documents))


def _folded(entities: list[Entity]) -> list[Entity]:
    """ "a Kafka topic" where Kafka is a topic already: the name described by its own kind's
    head noun is that entity, one more alias with its reason (never across kinds: "Jaeger
    Collector" is not the Jaeger store)."""
    by_name = {(name_key(e.name), e.kind): e for e in entities}
    by_form: dict[str, list[Entity]] = defaultdict(list)
    for entity in entities:
        for key in dict.fromkeys(name_key(f) for f in (entity.name, *entity.aliases)):
            by_form[key].append(entity)
    folded: dict[str, list[Entity]] = defaultdict(list)
    for entity in entities:
        words = entity.name.split()
        head = head_of(words[-1]) if len(words) > 1 else None
        base = by_name.get((name_key(" ".join(words[:-1])), entity.kind))
        if head is not None and head.kind == entity.kind and base is not None:
            folded[base.id].append(entity)
        elif (runner := _runs_as(entity, by_form)) is not None:
            folded[runner.id].append(entity)
    gone = {e.id for found in folded.values() for e in found}
    out = []
    for entity in entities:
        if entity.id in gone:
            continue
        extra = folded.get(entity.id, [])
        forms = [f for e in extra for f in (e.name, *e.aliases) if f not in entity.aliases]
        notes = [(e.name, f"{entity.name!r} described by its kind ({e.name!r})") for e in extra]
        out.append(
            replace(
                entity,
                aliases=(*entity.aliases, *dict.fromkeys(forms)),
                evidence=(*entity.evidence, *notes),
            )
            if extra
            else entity
        )
    return out


# The last hump of a CamelCase identifier that names how a component runs, not a thing of
# its own: "SchedulerProcess" is the scheduler at run time.
_RUNS_AS = re.compile(r"^((?:[A-Z][a-z0-9]+)+)(?:Process|Daemon)$")


def _runs_as(entity: Entity, by_form: dict[str, list[Entity]]) -> Entity | None:
    """The one entity a "<Name>Process" identifier runs: its humps before the suffix are that
    entity's name or alias; none when they name nothing or several entities."""
    match = _RUNS_AS.match(entity.name)
    if match is None:
        return None
    found = [e for e in by_form.get(name_key(match.group(1)), []) if e.id != entity.id]
    return found[0] if len(found) == 1 else None


def _served(entities: list[Entity]) -> list[Entity]:
    """ "Execution API Server" serves the Execution API: prose that names what a server serves
    ("talks to the Execution API") names the server. The served name (two words at least, so a
    bare "API" is never one) becomes an alias unless another entity already has it."""
    taken = {name_key(f) for e in entities for f in (e.name, *e.aliases)}
    out = []
    for entity in entities:
        words = re.split(r"[\s_-]+", entity.name.strip())
        served = " ".join(words[:-1])
        if (
            len(words) >= 3
            and words[-1].lower() == "server"
            and name_key(served) not in taken
            and all(w[:1].isalpha() for w in words[:-1])
        ):
            why = f"{entity.name!r} serves {served!r}"
            entity = replace(
                entity,
                aliases=(*entity.aliases, served),
                evidence=(*entity.evidence, (served, why)),
            )
        out.append(entity)
    return out


_CAPITALISED_ALONE = re.compile(r"(?<![\w./-])([A-Z][a-z]{2,})(?![\w-]|\s+[A-Z])")
_SERVER_PARTS = re.compile(r"^([A-Za-z][a-z]+)[-_ ]?[Ss]erver$")
ROLE_NAME_USES = 10  # the bare word, capitalised and alone, this often: a role name


def _role_names(entities: list[Entity], documents: Sequence[SourceText]) -> list[Entity]:
    """ "MasterServer" is the master: where the corpus writes the bare word of a two-part
    server name capitalised and alone often ("Master 分配任务给 Worker"), it is an alias,
    unless another entity already has it."""
    counts = Counter(m for d in documents for m in _CAPITALISED_ALONE.findall(d.text))
    taken = {name_key(f) for e in entities for f in (e.name, *e.aliases)}
    out = []
    for entity in entities:
        bare = next(
            (
                p[1].capitalize()
                for f in (entity.name, *entity.aliases)
                if (p := _SERVER_PARTS.match(f))
            ),
            None,
        )
        if bare and counts[bare] >= ROLE_NAME_USES and name_key(bare) not in taken:
            taken.add(name_key(bare))
            why = f"{bare!r} alone, {counts[bare]} times, for {entity.name!r}"
            entity = replace(
                entity, aliases=(*entity.aliases, bare), evidence=(*entity.evidence, (bare, why))
            )
        out.append(entity)
    return out


def _chinese_terms_bound(clues: list[Clue], documents: Sequence[SourceText]) -> list[Clue]:
    """A Chinese term stated once counts alone only when the corpus uses its words before the
    head mostly with that head (``termhood_zh.bound_to_head``); else it only confirms."""
    text = ""
    out: list[Clue] = []
    for clue in clues:
        if clue.source == "phrase" and clue.alone == STRONG and is_cjk_word(clue.name):
            text = text or "\n".join(d.text for d in documents)
            if not bound_to_head(text, clue.name, clue.head):
                clue = replace(clue, alone=CORROBORATED)
        out.append(clue)
    return out


def _organisation_clues(document: SourceText) -> Iterator[Clue]:
    """ "阿里内部并没有采用 X": an organisation, named where it does something in house
    (``zehn.reading.names.clues_zh``); like any phrase it needs repeating."""
    for sentence in document.sentences:
        for name in in_house_names(sentence.text):
            why = f"organisation {name!r} ('{name}内部', in house)"
            yield Clue(name, EntityKind.TEAM, "phrase", why, document.doc_id, REPEATED)


def _add_variants(by_key: dict[str, list[Clue]], documents: Sequence[SourceText]) -> None:
    """Each Chinese role name's other spellings that the corpus uses (服务提供方: 提供者 …,
    ``zehn.reading.names.clues_zh``), as evidence of its entity; a spelling another name already
    owns stays with that one."""
    text = "\n".join(d.text for d in documents if not is_boilerplate(d))
    for group in list(by_key.values()):
        seen = {form for c in group for form in (c.name, c.written) if form}
        for clue in list(group):
            for form in (clue.name, clue.written):
                for variant in role_variants(form) if is_cjk_word(form) else ():
                    uses = _own_uses(text, variant, seen)
                    if variant in seen or not uses or name_key(variant) in by_key:
                        continue
                    seen.add(variant)
                    why = f"variant of {form!r} used {uses} times"
                    group.append(
                        Clue(clue.name, clue.kind, "variant", why, clue.doc_id, EVIDENCE, variant)
                    )


def _own_uses(text: str, form: str, longer: set[str]) -> int:
    """How often ``form`` is written on its own, not as part of a known longer form (运行容器
    inside 服务运行容器 is not a use of 运行容器)."""
    inside = sum(text.count(f) * f.count(form) for f in longer if form in f and f != form)
    return text.count(form) - inside


def _requalified(clues: list[Clue]) -> list[Clue]:
    """A proper name written before several different heads ("the Airflow scheduler", "an
    Airflow worker", "the Airflow database") names the system, not a component: each such
    phrase names its head ("scheduler"), where that is an entity already, else the whole
    phrase ("Airflow database"), and needs repeating like any phrase."""
    heads: dict[str, set[str]] = defaultdict(set)
    for clue in clues:
        if clue.source == "phrase" and clue.bare and " " not in clue.bare:
            heads[clue.bare.lower()].add(clue.head)
    qualifiers = {q for q, nouns in heads.items() if len(nouns) >= MIN_QUALIFIED_HEADS}
    if not qualifiers:
        return clues
    keys = {
        name_key(c.name)
        for c in clues
        if c.alone > CORROBORATED and not (c.source == "phrase" and c.bare.lower() in qualifiers)
    }
    out: list[Clue] = []
    for clue in clues:
        if clue.source != "phrase" or clue.bare.lower() not in qualifiers:
            out.append(clue)
            continue
        full = clue.written or clue.name
        rest = full[len(clue.bare) :].strip()
        if name_key(full) in keys:  # "Celery Executor" is CeleryExecutor
            out.append(replace(clue, name=full, written="", alone=min(clue.alone, REPEATED)))
        elif name_key(rest) in keys:
            out.append(replace(clue, name=rest, written=full, alone=min(clue.alone, REPEATED)))
        else:
            out.append(replace(clue, name=full, written="", alone=REPEATED))
    return out


def _stated_aliases(clues: list[Clue]) -> dict[str, str]:
    """Keys the documents' structure says are one thing ("Frontend Proxy (Envoy)" in a title,
    a table row's definition), mapped to one of them."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.get(key, key) != key:
            key = parent[key]
        return key

    def union(one: str, other: str) -> None:
        a, b = find(one), find(other)
        if a and b and a != b:
            parent[b] = a

    titles: dict[str, str] = {}
    for clue in clues:
        if clue.source in ("title", "table", "diagram") and clue.written:
            union(name_key(clue.name), name_key(clue.written))
        if clue.source == "title":
            titles.setdefault(clue.doc_id, name_key(clue.name))
    for clue in clues:  # "Redis 注册中心" titles the page references/registry/redis
        subject = path_subject(clue.doc_id) if clue.source == "path" else None
        title = titles.get(clue.doc_id, "")
        if subject and title and title.startswith(name_key(subject[0])):
            union(title, name_key(clue.name))
    return {key: find(key) for key in parent}


def _package_families(clues: list[Clue]) -> frozenset[str]:
    """Prefixes that three or more code-like names share ("opentelemetry-instrumentation-"):
    a namespace of packages, not of components."""
    prefixes: dict[str, set[str]] = defaultdict(set)
    for clue in clues:
        parts = clue.name.split("-")
        if clue.source == "code-like" and len(parts) >= 3:
            prefixes["-".join(parts[:2])].add(clue.name)
    return frozenset(p for p, names in prefixes.items() if len(names) >= MIN_FAMILY)


def _artifact(group: list[Clue], families: frozenset[str]) -> bool:
    """A library, package, file or command rather than a component: written as one ("the
    `xk6-otel` extension") or named in a package family, and not named by the documents'
    structure (a title, path or table) as a component."""
    if any(c.source in ("title", "path", "table", "diagram") for c in group):
        return False
    if any(c.source == "artifact" for c in group):
        return True
    return any(
        "-".join(c.name.split("-")[:2]) in families for c in group if c.source == "code-like"
    )


def _proper_clues(documents: Sequence[SourceText]) -> list[Clue]:
    """Proper names used at least twice that a nearby kind word types ("a database, usually
    PostgreSQL or MySQL"; "Redis 是一个 KV 存储服务器")."""
    uses: Counter[str] = Counter()
    typed: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for document in documents:
        if is_boilerplate(document):
            continue
        for word, context in proper_uses(document):
            uses[word] += 1
            if context is not None:
                typed[word].append((*context, document.doc_id))
    clues: list[Clue] = []
    for word, count in uses.items():
        if count < MIN_PROPER_USES:
            continue
        for kind, kind_word, doc_id in typed.get(word, ()):
            why = f"proper name used {count} times, next to the kind word {kind_word!r}"
            clues.append(Clue(word, kind, "proper", why, doc_id, STRONG))
        why = f"proper name used {count} times"
        clues.append(Clue(word, None, "proper", why, "", CORROBORATED, uses=count))
    return clues


def _corpus_name_clues(documents: Sequence[SourceText]) -> list[Clue]:
    """Proper names the corpus repeats and general language rarely uses ("the Querier fans
    out …", "由 Master 分配给 Worker"): a name alone (``zehn.reading.names.proper_names``); the kind
    comes from other clues where there are any."""
    names = corpus_names(documents)
    compounds = corpus_compounds(documents, [name for name, *_ in names])
    return [
        Clue(name, None, "proper", why, "", STRONG, uses=count)
        for name, count, _, why in names + compounds
    ]


def _accepted(group: list[Clue]) -> bool:
    """A strong clue; or as many clues as the most lenient one needs, from two documents or
    two sources; or a weak one that a clue of another source confirms."""
    if any(c.alone == STRONG for c in group) or _own_page_and_term(group):
        return True
    if all(c.source == "code-like" for c in group if c.alone > CORROBORATED) and not any(
        c.closed for c in group if c.source == "code-like"
    ):
        return False  # "an in-process transport": hyphenated words before a noun describe it
    counted = [c for c in group if c.alone > CORROBORATED]
    # an identifier written twice is meant ("origin-mapper"); prose repeats itself in one page
    spread = (
        len({c.doc_id for c in counted}) >= 2
        or len({c.source for c in counted}) >= 2
        or all(c.source == "code-like" for c in counted)
    )
    if counted and spread and len(counted) >= min(c.alone for c in counted):
        return True
    return any(
        c.alone == CORROBORATED and any(o.source != c.source and _confirms(c, o) for o in counted)
        for c in group
    )


def _own_page_and_term(group: list[Clue]) -> bool:
    """An ordinary word with a page of its own (``plugins.rst``) that another page sets in
    emphasis as a term ("a folder of *plugins*"): two weak clues, independent of each other,
    that together say the documentation treats the word as a thing of the system."""
    pages = {c.doc_id for c in group if c.source in ("path", "title") and c.alone == CORROBORATED}
    terms = {c.doc_id for c in group if c.source == "emphasis" and c.alone == CORROBORATED}
    return bool(pages) and bool(terms - pages)


def _confirms(weak: Clue, other: Clue) -> bool:
    """A proper name's repeated use confirms only its own spelling as infrastructure ("a
    Valkey caching service"), not any phrase that happens to share its letters."""
    return weak.source != "proper" or (
        other.kind in _INFRA and other.name == weak.name and other.closed
    )


def _entities(group: list[Clue]) -> list[Entity]:
    """The entity (or, where the text gives a second kind next to the name, entities) of
    one normalised name."""
    effective = _effective_in(group)
    kinds = Counter(c.kind for c in group if c.kind is not None and effective(c))
    defaults = Counter(c.default_kind for c in group if c.default_kind is not None)
    fallback = defaults.most_common(1)[0][0] if defaults else EntityKind.SERVICE
    primary = kinds.most_common(1)[0][0] if kinds else fallback
    if primary in _OWNERS and _mostly_bare(group, kinds[primary]):
        return _bare_and_owner(group, primary, fallback)
    chosen = {primary}
    for kind, count in kinds.items():
        if kind != primary and _second_kind(kind, count, primary, kinds[primary]):
            chosen.add(kind)
    out: list[Entity] = []
    for kind in chosen:
        own = [
            c
            for c in group
            if c.kind == kind
            or (kind == primary and c.kind not in chosen and (c.kind is None or not c.written))
        ]
        out.append(_entity(own, kind))
    return out


def _mostly_bare(group: list[Clue], owner_clues: int) -> bool:
    """Whether a name is used alone far more often than with its team or customer word
    ("Prometheus" 200 times, "the Prometheus team" once): the bare name is the product."""
    bare = max((c.uses for c in group if c.kind is None), default=0)
    return bare >= BARE_OVER_OWNER * max(owner_clues, 1)


def _bare_and_owner(group: list[Clue], owner: str, fallback: str) -> list[Entity]:
    """The product under its bare name, and the team (or customer) under its written form
    only ("Prometheus team"): the bare name binds to the product, never to the team."""
    owned = [c for c in group if c.kind == owner]
    product = _entity([c for c in group if c.kind != owner], fallback)
    written = Counter(c.written or c.name for c in owned).most_common(1)[0][0]
    team = _entity([replace(c, name=written, written="") for c in owned], owner)
    return [product, team] if team.name != product.name else [product]


def _effective_in(group: list[Clue]) -> Callable[[Clue], bool]:
    """``_effective`` over ``group``, once per distinct (alone, kind, source, name, closed):
    what it reads of a clue. A name used 10k times in one large document has 10k clues, and
    asking for each over the whole group was quadratic."""
    memo: dict[tuple[int, str | None, str, str, bool], bool] = {}

    def effective(clue: Clue) -> bool:
        key = (clue.alone, clue.kind, clue.source, clue.name, clue.closed)
        if key not in memo:
            memo[key] = _effective(clue, group)
        return memo[key]

    return effective


def _effective(clue: Clue, group: list[Clue]) -> bool:
    """Whether a clue's kind counts: it is strong, or repeated as often as it needs."""
    if clue.alone == STRONG:
        return True
    same = [c for c in group if c.kind == clue.kind and c.alone > CORROBORATED]
    confirmed = any(
        c.alone == CORROBORATED and c.source != clue.source and _confirms(c, clue) for c in group
    )
    return clue.alone > CORROBORATED and (len(same) >= clue.alone or confirmed)


def _second_kind(kind: str, count: int, primary: str, primary_count: int) -> bool:
    """A team is never the service of the same name; other kinds of one name are usually one
    thing described loosely ("the Kafka broker", "a Kafka topic"): a second entity only when
    the text gives that kind about as often as the first."""
    if kind in _OWNERS or primary in _OWNERS:
        return True
    return count >= 2 and count * 2 >= primary_count


def _entity(clues: list[Clue], kind: str) -> Entity:
    names = Counter(c.name for c in clues)

    def rank(name: str) -> tuple[int, int, int]:
        best = min(_priority(c) for c in clues if c.name == name)
        return (name.lower().endswith(("service", "服务")), best, -names[name])

    name = min(names, key=rank)
    # per form, per source: the first reason and how many clues gave it
    evidence: dict[str, dict[str, tuple[str, int]]] = defaultdict(dict)
    for clue in clues:
        for form in dict.fromkeys(f for f in (clue.name, clue.written) if f):  # in order:
            # a set's order changes with the hash seed, and with it which form ranks first
            reason, count = evidence[form].get(clue.source, (clue.reason, 0))
            evidence[form][clue.source] = (reason, count + 1)
    uses = {form: sum(n for _, n in by_source.values()) for form, by_source in evidence.items()}
    kept: dict[str, str] = {_form_key(name): name}  # forms the binder cannot tell apart: one
    merged: dict[str, dict[str, tuple[str, int]]] = defaultdict(dict)
    for form in sorted(evidence, key=lambda f: -uses[f]):
        key = _form_key(form)
        if key not in kept and len(kept) <= MAX_ALIASES:
            kept[key] = form
        if key in kept:
            for source, (reason, count) in evidence[form].items():
                first, total = merged[kept[key]].get(source, (reason, 0))
                merged[kept[key]][source] = (first, total + count)
    aliases = [form for form in kept.values() if form != name]
    notes = tuple((form, _reasons(merged[form])) for form in (name, *aliases) if merged[form])
    return Entity(name, kind, tuple(aliases), origin="discovered", evidence=notes)


def _reasons(by_source: dict[str, tuple[str, int]]) -> str:
    """ "page title 'Cart Service'; table row under 'Service' (+3 more)": the strongest first."""
    ranked = sorted(by_source.items(), key=lambda item: _REASON_ORDER.index(item[0]))
    return "; ".join(
        reason if count == 1 else f"{reason} (+{count - 1} more)"
        for _, (reason, count) in ranked[:MAX_REASONS]
    )


def _priority(clue: Clue) -> int:
    """An identifier that is the name as written ("CeleryExecutor") ranks with code-like ones."""
    if clue.source == "camel" and not clue.written:
        return 1
    if clue.source == "path" and " " in clue.name:  # "etcd registry": made up from the folder
        return 7
    return _NAME_PRIORITY.get(clue.source, 9)


def _form_key(form: str) -> str:
    """Forms the binder cannot tell apart (case, spaces, ``-`` and ``_``)."""
    return re.sub(r"[\s_\-\u2010-\u2015]+", " ", form.lower()).strip()
