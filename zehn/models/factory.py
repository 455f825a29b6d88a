"""Build the model a setting names: ``offline`` (default) or ``openai`` (any compatible API)."""

from __future__ import annotations

from zehn.config import MODELS, Settings
from zehn.errors import ConfigError
from zehn.models.base import Model
from zehn.models.offline import OfflineModel

DEFAULT_MODEL_TIMEOUT_S = 60.0  # a real model needs longer than a database query


def make_model(settings: Settings, name: str | None = None, *, max_hops: int = 3) -> Model:
    chosen = name or settings.model
    if chosen == "offline":
        return OfflineModel(max_hops=max_hops)
    if chosen == "openai":
        from zehn.models.openai_model import OpenAIModel  # imports the openai client lazily

        return OpenAIModel(settings, timeout_s=DEFAULT_MODEL_TIMEOUT_S)
    raise ConfigError("ZEHN_MODEL", f"must be one of {', '.join(MODELS)}, not {chosen!r}")
