"""Proper names by corpus termhood: a name the corpus repeats that general language rarely uses.

A component is often named by a proper name alone, with no kind word beside it ("the Querier
fans out to every store"; "Master 负责调度, Worker 负责执行"). Such a name is written like one
— capitalised or CamelCase (``Querier``, ``MasterServer``), or a Latin-script word inside a
Chinese sentence — and the corpus uses it far more than general language does
(``termhood.is_term``). One mechanism reads both languages; the rows below are each
language's data: how a name may be written there, how many uses and documents it needs, and
the highest general-language frequency a name may have (a Latin word inside Chinese text is a
term more often than a capitalised word in English, which may open a heading or a title).

Not names, whatever their frequency: a capitalised word opening a sentence, an upper-case
abbreviation (``DDL``, ``OOM``: concepts more often than components) or a word the corpus
also writes alone in capitals ("Dag" beside "DAG"), an activity noun
(``Compaction``), a language or protocol, a word followed by another capitalised word (part
of a longer name), a plural whose singular is used (``Queriers`` counts for ``Querier``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from zehn.corpus.model import SourceText
from zehn.reading.lexicon import NOT_NAMES, is_ordinary
from zehn.reading.names.page_clues import is_boilerplate
from zehn.reading.names.termhood import general_zipf, is_term
from zehn.reading.outline import code_spans, inside
from zehn.reading.scripts import CJK_CHARS, has_cjk


@dataclass(frozen=True)
class NameRows:
    """One language's data: a name's least uses and documents, the most general-language
    frequency (Zipf) it may have, whether an ordinary English word may be one, and whether
    every lower-case spelling of it (paths, packages, settings) is a tool's, or only its
    invocations and lower-case prose are (``LowerCase.command``)."""

    min_uses: int
    min_docs: int
    max_general: float
    ordinary: bool
    every_spelling_a_tool: bool


ROWS: dict[str, NameRows] = {
    # up to Zipf 3.5 (about 3 in a million words: "Prometheus", "Django") a name general
    # language knows a little is still this corpus's name where the corpus repeats it;
    # English prose capitalises headings and emphasis: a name is rare in general English
    # English documentation writes a tool's packages and paths beside its name
    "en": NameRows(
        min_uses=5, min_docs=2, max_general=3.5, ordinary=False, every_spelling_a_tool=True
    ),
    # Chinese prose writes Latin script for terms only ("由 Master 分配给 Worker"); lower-case
    # Latin words there are every component's paths and settings (``/data/x``, ``x.port``)
    "zh": NameRows(
        min_uses=3, min_docs=2, max_general=3.7, ordinary=False, every_spelling_a_tool=False
    ),
}

# Latin runs: a capitalised word or a CamelCase/lower-camel identifier, bounded by anything
# that is not a Latin letter, digit or joiner (a Chinese character is a boundary)
_LATIN = re.compile(r"(?<![A-Za-z0-9_./@$#:\\-])[A-Za-z][A-Za-z0-9]*(?![A-Za-z0-9_/@\\-]|\.\w)")
_NEXT_CAPITAL = re.compile(r"[ -]?[A-Z][a-z]")
_ACTIVITY = re.compile(r"[a-z](?:[st]ion|ment|ing|ance|ence|ness|ity)s?$")
_WORD = re.compile(rf"[A-Za-z][A-Za-z0-9]*|[{CJK_CHARS}]{{2}}")
# English CamelCase humps: an identifier ("UserProfile"), read as one by ``clues``
_CAMEL_HUMPS = re.compile(r"(?:[A-Z][a-z0-9]+){2,}")
# a file ("Dockerfile") or a describing word ("RESTful", "Serverless"), not a thing that runs
_NOT_A_THING = re.compile(r"[a-z](?:file|ful|less|able|ible)$")
# a unit of measure written like a name ("GiB", "Mbps")
_UNIT = re.compile(r"[KMGTPE]i?B|[KMG]?bps|[KMG]Hz")
# the last hump of a CamelCase field, not a thing ("TableID", "StartKey", "CommitTS")
_FIELD_HUMP = re.compile(r"[a-z0-9](?:ID|Id|TS|Ts|Key|Keys|Name|Type|Count|Size|Time)$")


def name_shape(word: str, lang: str) -> bool:
    """Written as a name: capitalised ("Querier"), or in Chinese text CamelCase too
    ("MasterServer"; English CamelCase is an identifier, ``clues``); not in capitals (an
    abbreviation or a keyword: "DDL", "ROLLBACK"), not a unit, a field or an activity."""
    if not word[0].isupper() or word.removesuffix("s").isupper() or _UNIT.fullmatch(word):
        return False
    if lang == "en" and _CAMEL_HUMPS.fullmatch(word):
        return False
    return not (_ACTIVITY.search(word) or _FIELD_HUMP.search(word) or _NOT_A_THING.search(word))


@dataclass(frozen=True)
class LowerCase:
    """How a corpus writes words in lower case: alone in prose (outside code, links and
    addresses), invoked as a command (a code line or code span opening with the word and an
    argument: ``docker run``, ``$ tiup cluster``), and as a common noun (after a determiner
    or a preposition, or before a verb: "the compactor", "compactor will halt")."""

    prose: Counter[str]
    invoked: Counter[str]
    as_noun: Counter[str]

    @classmethod
    def of(cls, texts: Sequence[str]) -> LowerCase:
        prose: Counter[str] = Counter()
        invoked: Counter[str] = Counter()
        as_noun: Counter[str] = Counter()
        for text in texts:
            code = code_spans(text)
            inline = _INLINE_CODE.findall(text)
            for part in [text[a:b] for a, b in code] + inline:
                invoked.update(_INVOKED.findall(part))
            plain = _INLINE_CODE.sub(" ", _outside(text, code))
            prose.update(_ALONE.findall(_ADDRESSES.sub(" ", plain)))
            as_noun.update(_AS_NOUN.findall(text))
            as_noun.update(_AS_SUBJECT.findall(text))
        return cls(prose, invoked, as_noun)

    def command(self, word: str, runs: Counter[str], every_spelling: bool) -> bool:
        """A tool, not a component. ``every_spelling``: the corpus writes the word in lower case
        (commands, paths, packages: ``docker run``, ``k8s/kubernetes``), not as a common noun,
        half as often as it names it. Otherwise only what says "run": the corpus invokes the
        word (at least three times, and for at least a quarter of the times it spells the
        name), or writes it alone in prose in lower case half as often as it names it."""
        lower = word.lower()
        if every_spelling:
            return self.spelled(word, runs) * 2 > runs[word]
        invoked = self.invoked[lower]
        if invoked >= MIN_INVOCATIONS and invoked * 4 >= runs[word]:
            return True
        return (self.prose[lower] - self.as_noun[lower]) * 2 > runs[word]

    def spelled(self, word: str, runs: Counter[str]) -> int:
        """How often the corpus writes ``word`` in lower case anywhere (paths, packages,
        settings, commands), not as a common noun."""
        lower = word.lower()
        return runs[lower] - self.as_noun[lower]

    def the_product(self, word: str, docs: int, pages: int, runs: Counter[str]) -> bool:
        """The product the corpus documents, not one of its parts: a name on at least half the
        pages whose lower-case spelling (its packages, paths and settings: ``airflow.cfg``,
        ``/home/zulip``) is written at least half as often as the name."""
        return docs * 2 >= pages and self.spelled(word, runs) * 2 > runs[word]


MIN_INVOCATIONS = 3
_INLINE_CODE = re.compile(r"`[^`\n]*`")
# a word opening a line or a code span, then an argument: the word is run
_INVOKED = re.compile(
    r"(?m)(?:^[ \t]*(?:\$\s*|sudo\s+)?|`(?:sudo\s+)?)([a-z][a-z0-9]*)[ \t]+(?=[a-z-])"
)
# a link's target, a reference definition, an address: nothing written in prose
_ADDRESSES = re.compile(r"\]\([^)]*\)|\[[^\]]*\]:\s*\S+|\w+://\S+")
_ALONE = re.compile(r"(?<![\w./@$#:\[-])([a-z][a-z0-9]*)(?![\w/@\]-]|\.\w)")


def _outside(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """``text`` with ``spans`` blanked."""
    parts, last = [], 0
    for start, end in spans:
        parts.append(text[last:start])
        last = max(last, end)
    parts.append(text[last:])
    return " ".join(parts)


def _as_abbreviation(word: str, capitals: Counter[str], runs: Counter[str]) -> bool:
    """The corpus also writes the word alone in capitals ("Dag" and "DAG"), at least a tenth
    as often: an abbreviation written like a word, a concept as the capitals are, not a name
    (capitals inside an identifier, ``INNODB_PAGE_SIZE``, say nothing)."""
    upper = word.upper()
    return upper != word and capitals[upper] * 10 >= runs[word]


# a word in capitals standing alone, not part of a constant or a flag
_CAPITALS = re.compile(r"(?<![\w.-])[A-Z][A-Z0-9]+(?![\w-])")


# a lower-case word after a determiner, preposition or conjunction is a noun, not a command
_AS_NOUN = re.compile(
    r"\b(?i:the|a|an|each|every|this|that|our|your|its|their|no|and|or|of|for|by|to|from"
    r"|with|without|off|on|in|into)\s+(?=([a-z][a-z0-9]*)\b)"  # "for the x": both words read
)


# a lower-case word before a singular auxiliary or a modal is the subject of a verb ("x will
# halt", "x is running"): a noun, not a command
_AS_SUBJECT = re.compile(
    r"(?<![\w./@$#:-])([a-z][a-z0-9]*) (?=(?:is|was|will|would|can|could|does|did|has|must"
    r"|should|may|might|needs|then|also)\b)"
)


def _uses(document: SourceText) -> Iterator[tuple[str, str]]:
    """(word, language) for each name-shaped Latin word in ``document``'s prose."""
    code = code_spans(document.text)
    for sentence in document.sentences:
        if inside(code, sentence.start):
            continue
        text = sentence.text
        lang = "zh" if has_cjk(text) else "en"
        for match in _LATIN.finditer(text):
            word = match.group()
            if lang == "en":
                if match.start() == 0 or text[: match.start()].rstrip().endswith((".", ":")):
                    continue  # a capital opening a sentence or an item says nothing
                if _NEXT_CAPITAL.match(text, match.end()):
                    continue  # "Google Cloud Storage": part of a longer name
            elif _NEXT_CAPITAL.match(text, match.end()) and text[match.end()] == " ":
                continue
            if name_shape(word, lang) and word.lower() not in NOT_NAMES:
                yield word, lang


def corpus_names(documents: Sequence[SourceText]) -> list[tuple[str, int, int, str]]:
    """(name, uses, documents, why) for each proper name the corpus repeats and general
    language rarely uses, by the rows of the language it is mostly written in."""
    uses: Counter[tuple[str, str]] = Counter()
    docs: dict[str, set[str]] = defaultdict(set)
    total = pages = 0
    for document in documents:
        if is_boilerplate(document):
            continue
        pages += 1
        total += len(_WORD.findall(document.text))
        for word, lang in _uses(document):
            uses[word, lang] += 1
            docs[word].add(document.doc_id)
    by_word: Counter[str] = Counter()
    langs: dict[str, Counter[str]] = defaultdict(Counter)
    for (word, lang), count in uses.items():
        by_word[word] += count
        langs[word][lang] += count
    text = "\n".join(d.text for d in documents)
    words = set(re.findall(r"\w+", text))  # a word stands alone where it is one of these
    for word in list(by_word):  # "Queriers" is used as "Querier"; "Dags" as "Dag"
        if word.endswith("s") and word[:-1] in by_word:
            by_word[word[:-1]] += by_word.pop(word)
            docs[word[:-1]] |= docs[word]
        elif word.endswith("s") and word[:-1] in words:
            del by_word[word]  # a name is singular
    runs = Counter(re.findall(r"[A-Za-z0-9]+", text))
    lower_case = LowerCase.of([d.text for d in documents if not is_boilerplate(d)])
    capitals = Counter(_CAPITALS.findall(text))
    out: list[tuple[str, int, int, str]] = []
    for word, count in by_word.items():
        lang = langs[word].most_common(1)[0][0]
        rows = ROWS[lang]
        if count < rows.min_uses or len(docs[word]) < rows.min_docs:
            continue
        if not rows.ordinary and is_ordinary(word):
            continue
        if lower_case.the_product(word, len(docs[word]), pages, runs):
            continue
        if lower_case.command(word, runs, rows.every_spelling_a_tool) or _as_abbreviation(
            word, capitals, runs
        ):
            continue
        zipf = general_zipf(word.lower())
        if zipf > rows.max_general or not is_term(word.lower(), count, total):
            continue
        where = "in Chinese text " if lang == "zh" else ""
        why = (
            f"proper name used {count} times {where}in {len(docs[word])} documents, "
            f"rare in general language (Zipf {zipf:.1f})"
        )
        out.append((word, count, len(docs[word]), why))
    return out


# a proper name followed by one or two capitalised words: "TiDB Lightning", "Zulip Cloud"
_FOLLOWING = re.compile(r"(?: [A-Z][a-z][A-Za-z0-9]*){1,2}(?![A-Za-z0-9_/@-]|\.\w)")
MIN_COMPOUND_USES = 3


def corpus_compounds(
    documents: Sequence[SourceText], names: Sequence[str]
) -> list[tuple[str, int, int, str]]:
    """(name, uses, documents, why) for each multi-word name made of a proper name the corpus
    repeats (``corpus_names``) and the capitalised words written after it ("TiDB Lightning",
    "PingCAP Clinic"), used at least three times in two documents: a product's own part, kept
    whole. An all-capital word after it is a concept of it ("TiDB HTAP"), not read."""
    starts = re.compile(rf"(?<![A-Za-z0-9_./@$#:-])({'|'.join(map(re.escape, names))})")
    uses: Counter[str] = Counter()
    docs: dict[str, set[str]] = defaultdict(set)
    for document in documents:
        if not names or is_boilerplate(document):
            continue
        code = code_spans(document.text)
        for sentence in document.sentences:
            if inside(code, sentence.start):
                continue
            for match in starts.finditer(sentence.text):
                following = _FOLLOWING.match(sentence.text, match.end())
                if following is not None:
                    compound = match.group(1) + following.group()
                    uses[compound] += 1
                    docs[compound].add(document.doc_id)
    return [
        (name, count, len(docs[name]), f"proper name {name!r} used {count} times")
        for name, count in uses.items()
        if count >= MIN_COMPOUND_USES and len(docs[name]) >= 2
    ]
