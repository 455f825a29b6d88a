"""The syntax of diagrams as code: Mermaid, PlantUML and Graphviz DOT, one line at a time.

Where diagrams are in a document (fenced blocks, reStructuredText directives, bare
``@startuml``), what a line says (nodes with their labels and shapes, arrows with their
direction and label), and labels as a reader sees them ("Cache<br/>&#40Valkey&#41" is
"Cache (Valkey)"). A line is read without its context, so a line read at write time and
the same line re-read by the grader say the same thing. ``zehn.reading.diagrams.reader`` turns
what a line says into mentions and edges; the splitter asks which lines are diagram lines.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace

MERMAID, PLANTUML, DOT = "mermaid", "plantuml", "dot"
_LANGUAGES = {
    **dict.fromkeys(("mermaid", "mmd"), MERMAID),
    **dict.fromkeys(("plantuml", "puml", "uml"), PLANTUML),
    **dict.fromkeys(("dot", "graphviz", "gv", "digraph", "graph"), DOT),
}


@dataclass(frozen=True)
class NodeRef:
    """A node as one line writes it; spans are offsets in that line."""

    id: str
    span: tuple[int, int]  # the whole node text: id, shape and label
    id_span: tuple[int, int]
    label: str | None = None  # cleaned label when the line gives one
    label_span: tuple[int, int] | None = None
    shape: str = ""  # "database" (a cylinder, PlantUML ``database``) or "queue"


@dataclass(frozen=True)
class Link:
    """One arrow between two nodes, already turned source → target."""

    source: NodeRef
    target: NodeRef
    text: str  # the verbatim arrow, with a Mermaid label: "-->|gRPC|"
    label: str  # the cleaned edge label ("" when none)
    directed: bool  # False: an undirected, bidirectional or structural line states nothing
    dependency: bool = False  # a dotted PlantUML arrow: UML's dependency


@dataclass(frozen=True)
class Statement:
    """What one diagram line says."""

    language: str
    nodes: tuple[NodeRef, ...] = ()
    links: tuple[Link, ...] = ()
    subgraph: NodeRef | None = None  # a DOT subgraph this line opens (its label may follow)
    label_attr: tuple[str, tuple[int, int]] | None = None  # a DOT ``label=…`` statement


@dataclass(frozen=True)
class DiagramBlock:
    """A diagram in a document: its language and the spans of its non-blank body lines."""

    language: str
    lines: tuple[tuple[int, int], ...]
    line_starts: tuple[int, ...] = ()  # where each of those lines starts (``str.splitlines``)


# --- blocks -------------------------------------------------------------------------------

_OPENERS = re.compile(
    r"^[ \t]*(?:```|~~~|\.\.[ \t]+(?:mermaid|graphviz|digraph|graph|uml|plantuml)::|@startuml"
    r"|\{\{[<%][ \t]*mermaid)",
    re.MULTILINE,
)
_FENCE = re.compile(r"^[ \t]*(?P<mark>`{3,}|~{3,})[ \t]*\{?(?P<lang>[\w+-]*)\}?")
_DIRECTIVE = re.compile(
    r"^(?P<indent>[ \t]*)\.\.[ \t]+(?P<lang>mermaid|graphviz|digraph|graph|uml|plantuml)::"
)
_SHORTCODE = re.compile(r"^[ \t]*\{\{[<%][ \t]*mermaid\b")
_SHORTCODE_END = re.compile(r"^[ \t]*\{\{[<%][ \t]*/mermaid\b")
_MERMAID_HEADER = re.compile(
    r"(?:graph|flowchart)(?:\s+(?:TB|TD|BT|RL|LR))?\s*;?|sequenceDiagram|classDiagram"
)
_DOT_HEADER = re.compile(r"(?:strict\s+)?(?:di)?graph\b[^{]*\{.*", re.IGNORECASE)


def _sniff(line: str) -> str | None:
    """The language a diagram's first line announces, if any."""
    line = line.strip()
    if _MERMAID_HEADER.fullmatch(line):
        return MERMAID
    if line.startswith("@startuml"):
        return PLANTUML
    return DOT if _DOT_HEADER.fullmatch(line) else None


def diagram_blocks(text: str) -> list[DiagramBlock]:
    """Fenced diagrams (```mermaid, ```dot …, or a fence whose first line is ``graph TD``,
    ``digraph {``, ``@startuml``), reStructuredText directives (``.. graphviz::``,
    ``.. mermaid::``, ``.. uml::`` …), bare ``@startuml … @enduml`` and Hugo mermaid
    shortcodes."""
    if not _OPENERS.search(text):
        return []
    lines: list[tuple[int, str]] = []
    position = 0
    for line in text.splitlines(keepends=True):
        lines.append((position, line.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")))
        position += len(line)
    blocks: list[DiagramBlock] = []
    i = 0
    while i < len(lines):
        line = lines[i][1]
        language: str | None = None
        body: list[tuple[int, str]] = []
        if fence := _FENCE.match(line):
            mark = fence["mark"]
            j = i + 1
            while j < len(lines) and not lines[j][1].strip().startswith(mark):
                j += 1
            body = lines[i + 1 : j]
            first = next((b for _, b in body if b.strip()), "")
            language = _LANGUAGES.get(fence["lang"].lower()) or _sniff(first)
            i = j + 1
        elif directive := _DIRECTIVE.match(line):
            depth = len(directive["indent"].expandtabs())
            j = i + 1
            while j < len(lines) and (
                not lines[j][1].strip() or len(lines[j][1]) - len(lines[j][1].lstrip()) > depth
            ):
                j += 1
            body, language, i = lines[i + 1 : j], _LANGUAGES[directive["lang"]], j
        elif line.lstrip().startswith("@startuml") or _SHORTCODE.match(line):
            end = re.compile(r"^\s*@enduml") if "@startuml" in line else _SHORTCODE_END
            j = i + 1
            while j < len(lines) and not end.match(lines[j][1]):
                j += 1
            body, language, i = (
                lines[i + 1 : j],
                _LANGUAGES["plantuml" if "@" in line else "mermaid"],
                j + 1,
            )
        else:
            i += 1
            continue
        kept = [(start, b) for start, b in body if b.strip()]
        if language and kept:
            spans = tuple(_stripped(start, b) for start, b in kept)
            blocks.append(DiagramBlock(language, spans, tuple(start for start, _ in kept)))
    return blocks


def _stripped(start: int, line: str) -> tuple[int, int]:
    left = len(line) - len(line.lstrip())
    return start + left, start + len(line.rstrip())


def diagram_line_starts(text: str) -> frozenset[int]:
    """Where each diagram body line starts (its first non-blank character's line start):
    the splitter makes each of these lines one sentence, never cut inside."""
    return frozenset(start for block in diagram_blocks(text) for start in block.line_starts)


# --- labels ------------------------------------------------------------------------------

_BREAK = re.compile(r"<br\s*/?>|\\n", re.IGNORECASE)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
_MERMAID_CODE = re.compile(r"#(\d{1,6}|[a-z]{2,8});")
_PARENTHETICAL = re.compile(r"\(([^()]*)\)")


def _label_lines(raw: str) -> list[str]:
    text = html.unescape(_BREAK.sub("\n", raw.strip().strip('"')))
    text = _MERMAID_CODE.sub(
        lambda m: chr(int(m[1])) if m[1].isdigit() else html.unescape(f"&{m[1]};"), text
    )
    lines = (" ".join(_TAG.sub("", line).split()) for line in text.split("\n"))
    return [line for line in lines if line]


def clean_label(raw: str) -> str:
    """ "Cache<br/>&#40Valkey&#41" → "Cache (Valkey)": line breaks, entities and tags undone."""
    return " ".join(_label_lines(raw))


def label_parts(label: str) -> tuple[str, list[str]]:
    """The name part of a label and its asides: "Frontend Proxy (Envoy)" → "Frontend Proxy",
    ["Envoy"]; a label's later lines are asides too ("OTLP Receiver<br/>listening on …")."""
    lines = _label_lines(label) or [""]
    main = " ".join(_PARENTHETICAL.sub(" ", lines[0]).split())
    return main, [*_PARENTHETICAL.findall(lines[0]), *lines[1:]]


# --- lines ------------------------------------------------------------------------------

_M_ID = re.compile(r"\w+(?:[-.]\w+)*")
_M_SHAPES = (
    ("(((", ")))", ""), ("((", "))", ""), ("([", "])", ""), ("[[", "]]", ""),
    ("[(", ")]", "database"), ("{{", "}}", ""), ("[/", "/]", ""), ("[\\", "\\]", ""),
    ("[/", "\\]", ""), ("[\\", "/]", ""), ("(", ")", ""), ("[", "]", ""), ("{", "}", ""),
    (">", "]", ""),
)  # fmt: skip
_QUOTED = re.compile(r'\s*"([^"]*)"\s*')
_ATTRIBUTE = re.compile(r"\s*\w+\s*=")
_M_CLASS = re.compile(r":::[\w-]+")
_M_TEXT_LINK = re.compile(
    r"(?P<open><?(?:--|==|-\.))\s+(?P<text>[^|]+?)\s+"
    r"(?P<close>-{2,}[>ox]?|={2,}[>ox]?|\.+-[>ox]?)(?![-=.>])"
)
_M_LINK = re.compile(
    r"(?P<start><)?(?P<body>-{2,}|-\.+-|={2,}|~{3,})(?P<head>>|[ox](?!\w))?"
    r"(?:\s*\|(?P<label>[^|]*)\|)?"
)
_M_KEYWORD = re.compile(
    r"(?:graph|flowchart)(?:\s+(?:TB|TD|BT|RL|LR))?\s*;?|sequenceDiagram|end|%%.*"
    r"|direction\s+(?:TB|TD|BT|RL|LR)|classDef\s+\S+\s+\S+:.*|class\s+[\w,-]+\s+\w+;?"
    r"|style\s+[\w-]+\s+\S+:.*|linkStyle\s+\S+\s+\S+:.*|click\s+[\w-]+\s+.*"
)
_M_SUBGRAPH = re.compile(
    r"subgraph\s+(?:(?P<id>\w+(?:-\w+)*)\s*\[(?P<label>[^\]]*)\]|\"(?P<quoted>[^\"]+)\""
    r"|(?P<title>[^{]+?))\s*$"
)


def _m_node(text: str, pos: int) -> tuple[NodeRef, int] | None:
    match = _M_ID.match(text, pos)
    if match is None:
        return None
    end, label_span, shape = match.end(), None, ""
    for opener, closer, kind in _M_SHAPES:
        if not text.startswith(opener, end):
            continue
        inner = end + len(opener)
        quoted = _QUOTED.match(text, inner)
        if quoted and text.startswith(closer, quoted.end()):
            label_span, stop = quoted.span(1), quoted.end()
        else:
            stop = text.find(closer, inner)
            if stop < 0:
                continue
            label_span = (inner, stop)
        if _ATTRIBUTE.match(text, inner):
            return None  # ``workers[label="Workers"]`` is DOT, not a Mermaid label
        end, shape = stop + len(closer), kind
        break
    if cls := _M_CLASS.match(text, end):
        end = cls.end()
    label = clean_label(text[label_span[0] : label_span[1]]) if label_span else ""
    return NodeRef(match.group(), (pos, end), match.span(), label or None, label_span, shape), end


def _m_group(text: str, pos: int) -> tuple[list[NodeRef], int] | None:
    nodes: list[NodeRef] = []
    while True:
        found = _m_node(text, pos)
        if found is None:
            return None
        nodes.append(found[0])
        amp = re.compile(r"\s*&\s*").match(text, found[1])
        if amp is None:
            return nodes, found[1]
        pos = amp.end()


_SPACE = re.compile(r"\s*")


def _m_link(line: str, pos: int) -> tuple[re.Match[str], str, bool] | None:
    """A Mermaid link at ``pos``: the match, its label and whether it points one way."""
    if match := _M_TEXT_LINK.match(line, pos):
        label, head = match["text"], match["close"][-1]
        start, body = match["open"].startswith("<"), match["open"]
    elif match := _M_LINK.match(line, pos):
        label, head = match["label"] or "", match["head"] or ""
        start, body = bool(match["start"]), match["body"]
    else:
        return None
    return match, label, head in (">", "o", "x") and not start and not body.startswith("~")


def _mermaid(text: str) -> Statement | None:
    line = text.rstrip().rstrip(";").rstrip()
    if _M_KEYWORD.fullmatch(line):
        return Statement(MERMAID)
    if sub := _M_SUBGRAPH.fullmatch(line):
        name = sub["id"] or sub["quoted"] or sub["title"]
        span = sub.span("id") if sub["id"] else sub.span("quoted" if sub["quoted"] else "title")
        label = clean_label(sub["label"] if sub["id"] else name)
        lspan = sub.span("label") if sub["id"] else span
        node = NodeRef(name.strip(), (span[0], sub.end()), span, label or None, lspan)
        return Statement(MERMAID, (node,))
    first = _m_group(line, 0)
    if first is None:
        return None
    groups, pos = [first[0]], first[1]
    links: list[Link] = []
    while pos < len(line):
        found = _m_link(line, _SPACE.match(line, pos).end())  # type: ignore[union-attr]
        following = _m_group(line, _SPACE.match(line, found[0].end()).end()) if found else None  # type: ignore[union-attr]
        if found is None or following is None:
            return None
        match, label, directed = found
        links.extend(
            Link(a, b, match.group(), clean_label(label), directed)
            for a in groups[-1]
            for b in following[0]
        )
        groups.append(following[0])
        pos = following[1]
    if not links and not any(n.label_span for n in groups[0]):
        return None  # a bare word is not a diagram line ("Overview")
    return Statement(MERMAID, tuple(n for g in groups for n in g), tuple(links))


_P_NAME = r'\[[^\]]+\]|"[^"]+"|\([^()]+\)|:[^:\s][^:]*:|\w+(?:\.\w+)*'
_P_EDGE = re.compile(
    rf"(?P<a>{_P_NAME})\s*(?P<arrow>(?P<left><<|<\||<|\*|o|\+|#)?"
    r"(?P<line>[-.]+(?:(?:\[[^\]]*\]|up|down|left|right|[udlr])[-.]+)?)"
    rf"(?P<right>>>|\|>|>|\*|o(?=\s)|\+|#)?)\s*(?P<b>{_P_NAME})\s*(?::\s*(?P<label>.*?))?\s*;?"
)
_P_KINDS = (
    "component|database|queue|node|actor|participant|boundary|control|entity|collections|"
    "artifact|cloud|folder|frame|interface|package|rectangle|storage|usecase|card|file|stack|"
    r"agent|person|system|container|hexagon|\(\)"
)
_P_DECL = re.compile(
    rf"(?:(?P<kw>{_P_KINDS})\s+)?(?P<name>{_P_NAME})(?:\s+as\s+(?P<alias>{_P_NAME}))?"
    r"(?:\s*<<[^>]*>>)*(?:\s*#[\w#]+)?\s*\{?"
)
_P_KEYWORD = re.compile(
    r"@startuml\b.*|@enduml|skinparam\s+\w+.*|(?:left to right|top to bottom) direction"
    r"|autonumber\b.*|(?:de)?activate\s+\w+|!(?:include|define|theme)\b.*|end\s?note|endlegend"
)


def _p_ref(line: str, span: tuple[int, int], named: bool = False) -> NodeRef:
    """``[Label]``, ``"Label"``, ``(Label)``, ``:Label:`` name the node; a bare word is its id."""
    raw = line[span[0] : span[1]]
    decorated = raw[:1] in '["(:'
    inner = (span[0] + 1, span[1] - 1) if decorated else span
    name = line[inner[0] : inner[1]].strip()
    label = clean_label(name) if decorated or named else None
    return NodeRef(name, span, inner, label or None, inner if label else None)


def _plantuml(text: str, language: str | None) -> Statement | None:
    line = text.strip()
    if _P_KEYWORD.fullmatch(line):
        return Statement(PLANTUML)
    if edge := _P_EDGE.fullmatch(line):
        left, right = edge["left"] or "", edge["right"] or ""
        a, b = _p_ref(line, edge.span("a")), _p_ref(line, edge.span("b"))
        forward = right.startswith(">") and not left
        reverse = left in ("<", "<<") and not right
        source, target = (b, a) if reverse else (a, b)
        directed = forward or reverse
        dependency = directed and "." in edge["line"]
        link = Link(
            source, target, edge["arrow"], clean_label(edge["label"] or ""), directed, dependency
        )
        return Statement(PLANTUML, (a, b), (link,))
    decl = _P_DECL.fullmatch(line)
    if decl is None or not (decl["kw"] or decl["name"].startswith("[")):
        return None
    kind = decl["kw"] or ""
    shape = "database" if kind in ("database", "storage") else "queue" if kind == "queue" else ""
    name_span, alias = decl.span("name"), decl["alias"]
    if alias is None:
        node = _p_ref(line, name_span, named=True)
    elif decl["name"][:1] in '["(:' or (language != MERMAID and alias[:1] != '"'):
        node = _with_id(_p_ref(line, decl.span("alias")), _p_ref(line, name_span, named=True))
    else:  # ``participant A as Alice`` (Mermaid) or ``X as "Label"``: the alias is the label
        node = _with_id(_p_ref(line, name_span), _p_ref(line, decl.span("alias"), named=True))
    return Statement(PLANTUML, (replace(node, shape=shape),))


def _with_id(ident: NodeRef, named: NodeRef) -> NodeRef:
    span = (min(ident.span[0], named.span[0]), max(ident.span[1], named.span[1]))
    return NodeRef(ident.id, span, ident.id_span, named.label, named.label_span)


_DOT_TOKEN = re.compile(
    r'\s*(?:(?P<op>->|--)|(?P<attrs>\[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\])|(?P<punct>[{};,=])'
    r'|(?P<id>"(?:[^"\\]|\\.)*"|<[^<>]*(?:<[^<>]*>[^<>]*)*>|-?(?:\.\d+|\d+(?:\.\d*)?)'
    r"|[^\W\d]\w*)(?P<port>(?::\w+){1,2})?)"
)
_DOT_ATTR = re.compile(r'(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|(<.*>)|([^\s,;\]]+))')


@dataclass(frozen=True)
class _Token:
    kind: str  # op, attrs, punct or id
    value: str
    span: tuple[int, int]
    inner: tuple[int, int]  # the id without quotes, or the attribute list without brackets


def _dot_tokens(text: str) -> list[_Token] | None:
    tokens, pos = [], 0
    while pos < len(text) and text[pos:].strip():
        match = _DOT_TOKEN.match(text, pos)
        if match is None or match.end() == pos:
            return None
        kind = next(k for k in ("op", "attrs", "punct", "id") if match[k] is not None)
        start, end = match.span(kind)
        inner = (start + 1, end - 1) if match[kind][:1] in '"<[' else (start, end)
        tokens.append(_Token(kind, text[inner[0] : inner[1]], (start, match.end()), inner))
        pos = match.end()
    return tokens


def _dot_attrs(line: str, token: _Token) -> tuple[str | None, tuple[int, int] | None, str]:
    label, span, shape = None, None, ""
    for match in _DOT_ATTR.finditer(line, *token.inner):
        group = next(g for g in (2, 3, 4) if match[g] is not None)
        if match[1] in ("label", "xlabel") and label is None:
            start, end = match.span(group)
            start, end = (start + 1, end - 1) if group == 3 else (start, end)  # <html label>
            label, span = clean_label(line[start:end]), (start, end)
        elif match[1] == "shape" and match[group] in ("cylinder", "database"):
            shape = "database"
    return label or None, span, shape


def _dot_node(token: _Token, label: str | None = None, lspan: tuple[int, int] | None = None,
              shape: str = "") -> NodeRef:  # fmt: skip
    return NodeRef(token.value, token.span, token.inner, label, lspan, shape)


def _dot(text: str) -> Statement | None:
    """DOT statements on one line; two statements without ';' between them are prose, not
    DOT ("Cart -- the checkout service"), unless the first ends with an attribute list."""
    tokens = _dot_tokens(text)
    if not tokens:
        return None
    nodes: list[NodeRef] = []
    links: list[Link] = []
    subgraph: NodeRef | None = None
    label_attr: tuple[str, tuple[int, int]] | None = None
    structural, separated = False, True
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        after = tokens[i + 1] if i + 1 < n else None
        if tok.kind == "punct" and not (tok.value == "{" and _braced_operand(tokens, i)):
            if tok.value == "=":
                return None
            structural = separated = True
            i += 1
            continue
        if not separated or tok.kind in ("op", "attrs"):
            return None
        word = tok.value.lower() if tok.kind == "id" else ""
        if word in ("graph", "digraph", "strict"):
            structural, i = True, i + 1
            while i < n and tokens[i].kind == "id":
                i += 1
            continue
        if word == "subgraph":
            structural, i = True, i + 1
            if i < n and tokens[i].kind == "id":
                subgraph, i = _dot_node(tokens[i]), i + 1
            continue
        if word in ("node", "edge") and after is not None and after.kind == "attrs":
            structural, i = True, i + 2
            continue
        if after is not None and after.value == "=" and after.kind == "punct" and i + 2 < n:
            value = tokens[i + 2]
            if word == "label" and value.kind == "id":
                label = clean_label(value.value)
                if subgraph is not None and subgraph.label is None:
                    subgraph = replace(subgraph, label=label or None, label_span=value.inner)
                elif label:
                    label_attr = (label, value.inner)
            structural, separated, i = True, False, i + 3
            continue
        chain: list[list[_Token]] = []
        ops: list[_Token] = []
        while True:
            operand, i = _dot_operand(tokens, i)
            if operand is None:
                return None
            chain.append(operand)
            if i < n and tokens[i].kind == "op":
                ops.append(tokens[i])
                i += 1
                continue
            break
        attrs = None
        while i < n and tokens[i].kind == "attrs":
            attrs, i = tokens[i], i + 1
        named, lspan, shape = _dot_attrs(text, attrs) if attrs else (None, None, "")
        if ops:
            refs = [[_dot_node(t) for t in group] for group in chain]
            for op, left, right in zip(ops, refs, refs[1:], strict=False):
                links.extend(
                    Link(a, b, op.value, named or "", op.value == "->") for a in left for b in right
                )
            nodes.extend(r for group in refs for r in group)
        else:
            nodes.extend(_dot_node(t, named, lspan, shape) for t in chain[0])
            structural = structural or attrs is not None
        separated = attrs is not None
    if not (structural or links):
        return None
    return Statement(DOT, tuple(nodes), tuple(links), subgraph, label_attr)


def _braced_operand(tokens: list[_Token], i: int) -> bool:
    """``{a b} -> c``: a brace group an edge operator follows."""
    close = next(
        (
            j
            for j in range(i + 1, len(tokens))
            if tokens[j].value in "{}" and tokens[j].kind == "punct"
        ),
        None,
    )
    return (
        close is not None
        and tokens[close].value == "}"
        and close + 1 < len(tokens)
        and tokens[close + 1].kind == "op"
    )


def _dot_operand(tokens: list[_Token], i: int) -> tuple[list[_Token] | None, int]:
    if i < len(tokens) and tokens[i].kind == "id" and tokens[i].value != "subgraph":
        return [tokens[i]], i + 1
    if i < len(tokens) and tokens[i].value == "{" and tokens[i].kind == "punct":
        found, i = [], i + 1
        while i < len(tokens) and tokens[i].value != "}":
            if tokens[i].kind == "id" and not (i + 1 < len(tokens) and tokens[i + 1].value == "="):
                found.append(tokens[i])
            elif tokens[i].value == "=":
                i += 1  # skip the value of ``rank = same``
            i += 1
        return (found or None), i + 1
    return None, i


def parse_line(text: str, language: str | None = None) -> Statement | None:
    """What a diagram line says, or None when it is no diagram statement in any of the three
    languages (prose, a bare word). ``language`` only decides ``A as B`` (which is the id)."""
    order = {MERMAID: (MERMAID, PLANTUML, DOT), DOT: (DOT, MERMAID, PLANTUML)}.get(
        language or "", (MERMAID, PLANTUML, DOT)
    )
    for grammar in order:
        found = (
            _mermaid(text) if grammar == MERMAID else _dot(text) if grammar == DOT
            else _plantuml(text, language)
        )  # fmt: skip
        if found is not None:
            return found
    return None


def is_diagram_line(text: str) -> bool:
    """A citation that is a line of a diagram (views mark it: an arrow, not prose)."""
    return bool(text.strip()) and parse_line(text.strip()) is not None
