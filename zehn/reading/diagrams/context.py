"""What a diagram is about, read from around it: its title, its subgraphs, its caption, its heading.

An arrow means what its diagram draws. In a service diagram ``a --> b`` is a call; in a
diagram titled "Telemetry data flow" the same arrow says data moves from ``a`` to ``b``. The
arrow line cannot say which, so the words around it decide: the Mermaid subgraphs that
enclose the line, a ``title`` line of the diagram, the prose sentence right before it (a
caption: "The diagram below shows how data flows …") and the heading of its section.

:func:`flow_contexts` gives, for each line of a data-flow diagram, a note naming where that
was read ("data-flow context: subgraph 'Telemetry Data Flow'"). ``zehn.reading.diagrams.reader``
puts the note into the reason of each node's reference mention, so the grader, re-reading the
line with the recorded mentions, reads the arrow the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zehn.corpus.model import Sentence, SourceText
from zehn.reading.diagrams.syntax import DiagramBlock, diagram_blocks, parse_line
from zehn.reading.outline import headings

__all__ = ["DATA_FLOW_NOTE", "DATA_FLOW_WORDS", "document_flows", "flow_contexts"]

DATA_FLOW_NOTE = "data-flow context"
_ITEMS = r"(?:data|telemetry|events?|messages?|logs?|metrics?|traces?|signals?|records?|spans?)"
# Words that say a diagram draws data moving, not requests: "data flow", "flow of events",
# "telemetry pipeline", "ETL", "how logs travel", 数据流.
DATA_FLOW_WORDS = re.compile(
    rf"\bdata[\s-]?flows?\b|\bflows?\s+of\s+(?:the\s+)?{_ITEMS}\b"
    rf"|\b(?:{_ITEMS}|ingestion|processing|streaming|collection|etl|elt)[\s-]+(?:pipelines?|flows?)\b"
    rf"|\b(?:etl|elt)\b|\bhow\s+(?:the\s+)?{_ITEMS}\s+(?:flows?|moves?|travels?|is\s+routed)\b"
    r"|数据流|数据管道|数据链路|数据流向",
    re.IGNORECASE,
)
_TITLE = re.compile(r"^\s*title\s*:?\s+(?P<title>\S.*?)\s*$", re.IGNORECASE)
_SUBGRAPH = re.compile(r"^\s*subgraph\b")
_END = re.compile(r"^\s*end\s*;?\s*$")
_NOT_PROSE = re.compile(r"^\s*(?:`{3,}|~{3,}|\.\.\s|\{\{|@start|@end)")
MAX_SHOWN = 60
MAX_CAPTION_GAP = 4  # line breaks between a caption and its diagram's first line


def _shown(words: str) -> str:
    """Words as a reason quotes them: one line, no parentheses (a reason's note is read back
    up to its closing parenthesis), at most ``MAX_SHOWN`` characters."""
    flat = " ".join(re.sub(r"[()\[\]]", " ", words).split())
    return flat if len(flat) <= MAX_SHOWN else flat[: MAX_SHOWN - 1] + "…"


def _note(where: str, words: str) -> str:
    return f"{DATA_FLOW_NOTE}: {where} {_shown(words)!r}"


def document_flows(document: SourceText) -> dict[str, str]:
    """:func:`flow_contexts` of a stored document, its headings read only when it has a
    diagram (most documents have none)."""
    if not diagram_blocks(document.text):
        return {}
    found = [(h.start, h.text) for h in headings(document)]
    return flow_contexts(document.sentences, document.text, found)


def flow_contexts(
    sentences: Sequence[Sentence], text: str, headings: Sequence[tuple[int, str]] = ()
) -> dict[str, str]:
    """Sentence id → data-flow note, for the lines of each diagram whose context says data
    flows. ``sentences`` are the document's in order, ``text`` its text, ``headings`` its
    headings as (start, words) in order (``zehn.reading.outline.headings``)."""
    found: dict[str, str] = {}
    for block in diagram_blocks(text):
        found.update(_block_contexts(block, sentences, text, headings))
    return found


def _block_contexts(
    block: DiagramBlock,
    sentences: Sequence[Sentence],
    text: str,
    headings: Sequence[tuple[int, str]],
) -> dict[str, str]:
    first, last = block.lines[0][0], block.lines[-1][1]
    inside = [s for s in sentences if first <= s.start < last]
    around = _around(block, sentences, text, headings, inside)
    found: dict[str, str] = {}
    stack: list[str] = []  # labels of the groups open at this line, outermost first
    for start, end in block.lines:  # lines, not sentences: a lone "}" is no sentence
        line = text[start:end]
        if _group_line(line, stack):
            continue
        if _SUBGRAPH.match(line):
            statement = parse_line(line.strip(), block.language)
            node = statement.nodes[0] if statement and statement.nodes else None
            stack.append((node.label or node.id) if node else "")
            continue
        if _END.match(line):
            if stack:
                stack.pop()
            continue
        note = next(
            (
                _note("subgraph", label)
                for label in reversed(stack)
                if DATA_FLOW_WORDS.search(label)
            ),
            around,
        )
        for sentence in inside:
            if note and start <= sentence.start < end:
                found[sentence.id] = note
    return found


_QUOTED = re.compile(r'"([^"]+)"')
_GROUP_WORD = re.compile(r"^\s*(?:subgraph|cluster)\s+(?P<id>[\w.-]+)", re.IGNORECASE)
_LABEL_ATTR = re.compile(r'^\s*label\s*=\s*"(?P<label>[^"]*)"\s*;?\s*$', re.IGNORECASE)


def _group_line(line: str, stack: list[str]) -> bool:
    """Braced groups of DOT and PlantUML (``subgraph cluster_a {`` then ``label="…"``,
    ``package "Ingest pipeline" {``, ``}``): pushed, labelled or popped; True when the line
    only did that."""
    text = line.strip()
    if text.endswith("{") and "}" not in text:
        quoted = _QUOTED.search(text)
        word = _GROUP_WORD.match(text)
        stack.append(quoted.group(1) if quoted else word["id"] if word else "")
        return True
    if text.rstrip(";").strip() == "}":
        if stack:
            stack.pop()
        return True
    label = _LABEL_ATTR.match(text)
    if label and stack:
        stack[-1] = f"{stack[-1]} {label['label']}".strip()
        return True
    return False


def _around(
    block: DiagramBlock,
    sentences: Sequence[Sentence],
    text: str,
    headings: Sequence[tuple[int, str]],
    inside: Sequence[Sentence],
) -> str:
    """The note the whole diagram gets from its title line, caption or heading ('' if none)."""
    for sentence in inside:
        title = _TITLE.match(sentence.text)
        if title and DATA_FLOW_WORDS.search(title["title"]):
            return _note("title", title["title"])
    start = block.lines[0][0]
    before = [s for s in sentences if s.end <= start and not _NOT_PROSE.match(s.text)]
    heading = next((h for h in reversed(headings) if h[0] < start), None)
    if before and (heading is None or before[-1].start > heading[0]):
        caption = before[-1].text
        if (
            DATA_FLOW_WORDS.search(caption)
            and text[before[-1].end : start].count("\n") <= MAX_CAPTION_GAP
        ):
            return _note("caption", caption)
    if heading is not None and DATA_FLOW_WORDS.search(heading[1]):
        return _note("heading", heading[1])
    return ""
