"""What the llm strategy needs beyond a plain install, and how to say so.

graphrag-sdk is not a dependency of zehn: its required dependencies pull GLiNER and with it
several GB of torch, which the llm strategy never uses. The ``llm`` extra holds the light
dependencies the SDK imports; the SDK itself is installed without its own.
"""

from __future__ import annotations

GRAPHRAG_SDK = "graphrag-sdk==1.4.0"
LLM_INSTALL = f"pip install -e '.[llm]' && pip install --no-deps '{GRAPHRAG_SDK}'"
# what importing the llm strategy needs that a plain install does not have
LLM_MODULES = frozenset({"graphrag_sdk", "tiktoken", "hnswlib", "scipy", "dotenv", "pydantic"})


def is_llm_module(error: ImportError) -> bool:
    """Whether the missing module is one the llm extra (or the SDK) provides."""
    return (error.name or "").partition(".")[0] in LLM_MODULES


def missing_sdk_message(error: ImportError) -> str:
    return (
        f"the llm strategy needs graphrag-sdk, which is not installed (no module {error.name!r}). "
        "Install it without its default dependencies (they pull several GB of torch the "
        f"strategy never uses), from the zehn checkout: {LLM_INSTALL} "
        "(or run scripts/install-llm.sh)"
    )
