"""Script ranges, named once: which characters count as Chinese where.

The ranges are written as regex escapes, to go inside a character class
(``f"[{HAN}]"``). Call sites differ on purpose and each keeps its own range: a
cue's look-ahead wants the common ideographs only (:data:`HAN`), language
detection and sentence splitting also take the rare extension and the
compatibility ideographs (:data:`CJK_CHARS`), and word runs of the search and
spelling code take everything from Extension A to the end of the common block
in one span (:data:`HAN_SPAN`, which includes the Yijing hexagram symbols
U+4DC0–U+4DFF between the two). Changing a site's range changes what it reads.
"""

from __future__ import annotations

import re

HAN = r"\u4e00-\u9fff"  # CJK Unified Ideographs: the characters of ordinary Chinese text
HAN_EXT_A = r"\u3400-\u4dbf"  # CJK Unified Ideographs Extension A (rare characters)
HAN_COMPAT = r"\uf900-\ufaff"  # CJK Compatibility Ideographs
CJK_CHARS = HAN_EXT_A + HAN + HAN_COMPAT  # the three ideograph blocks, nothing between
HAN_SPAN = r"\u3400-\u9fff"  # Extension A through the common block, one span
HAN_SPAN_COMPAT = HAN_SPAN + HAN_COMPAT

CJK = re.compile(f"[{CJK_CHARS}]")  # one Chinese character (language, splitting, cues)


def is_cjk(ch: str) -> bool:
    """``ch`` (one character) is an ideograph of :data:`CJK_CHARS`."""
    return CJK.fullmatch(ch) is not None


def has_cjk(text: str) -> bool:
    """``text`` holds an ideograph of :data:`CJK_CHARS`; an ASCII text is answered at once."""
    return not text.isascii() and CJK.search(text) is not None


def in_han_span(ch: str) -> bool:
    """``ch`` (one character) lies in :data:`HAN_SPAN`: U+3400 to U+9FFF."""
    return "\u3400" <= ch <= "\u9fff"
