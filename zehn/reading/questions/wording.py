"""How a "what is X?" question is worded, in English and in Chinese: one place for the engine
(which takes a mention of X as evidence) and the offline model (which plans a ``mentions`` call).
"""

from __future__ import annotations

import re

WHAT_IS = re.compile(r"^\s*(?:what|who)\s+(?:is|are)\s+(?P<x>[^?]+?)\s*\??\s*$", re.IGNORECASE)
"""The whole question is "what/who is|are X?"; ``x`` is X (match with ``.match``)."""

WHAT_IS_ZH = re.compile(
    r"^\s*(?:什么是|何为)\s*(?P<x>[^？?]+?)\s*[？?]?\s*$"
    r"|^\s*(?P<y>[^？?]+?)\s*是(?:什么|啥|干什么的|做什么的)\s*[？?]?\s*$"
)
"""The whole question is "什么是 X？" (``x``) or "X 是什么？" (``y``) (match with ``.match``)."""

ASKS_WHAT_IS_ZH = re.compile(
    r"^\s*(?:什么是|何为)|是(?:什么|啥|干什么的|做什么的)\s*[？?]?\s*$|介绍一下"
)
"""A Chinese question that asks what something is, anywhere in it ("介绍一下 X"; use
``.search``): looser than :data:`WHAT_IS_ZH`, for reading the intent, not for finding X."""
