"""Which language a question or a sentence is in: English or Chinese (mixed text counts as Chinese).

Teams write Chinese with English service names in between ("origin-mapper 依赖
indexer 的 v2 索引"), so the rule is simple: text with Chinese characters
outside the names it mentions is Chinese. A question that only *names* a
Chinese alias ("What does 红木推理团队 own?") is still English: pass the
spans of its entity mentions as ``ignore``.
"""

from __future__ import annotations

from collections.abc import Iterable

from zehn.reading.scripts import CJK as CJK  # re-exported: callers read it here
from zehn.reading.vocabulary import EntityKind

EN = "en"
ZH = "zh"
LANGUAGES = (EN, ZH)

# Kind names as a Chinese reader expects them.
KIND_ZH: dict[str, str] = {
    EntityKind.TEAM: "团队",
    EntityKind.SERVICE: "服务",
    EntityKind.CUSTOMER: "客户",
    EntityKind.DATASTORE: "数据存储",
    EntityKind.TOPIC: "主题",
    EntityKind.PIPELINE: "流水线",
}


def detect_language(text: str, ignore: Iterable[tuple[int, int]] = ()) -> str:
    """``"zh"`` when ``text`` has a Chinese character outside the ``ignore`` spans, else "en"."""
    spans = sorted(ignore)
    position = 0
    for start, end in spans:
        if CJK.search(text, position, max(position, start)):
            return ZH
        position = max(position, end)
    return ZH if CJK.search(text, position) else EN
