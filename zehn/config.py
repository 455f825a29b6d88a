"""Settings: every environment variable the workbench reads, read once.

Everything else takes a ``Settings`` as a parameter, so tests and notebooks
can build their own without touching the process environment.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path

from zehn.errors import ConfigError

DEFAULT_HOME = Path("~/.local/share/zehn")
_DEFAULT_HOME_EXPANDED = DEFAULT_HOME.expanduser()
DEFAULT_POLICY = "production"
DEFAULT_MODEL = "offline"
DEFAULT_QUERY_TIMEOUT_MS = 10_000
DEFAULT_GRAPH = "sample__rules"
MODELS = ("offline", "openai")
SECRET_FIELDS = ("openai_api_key",)
_URL_CREDENTIALS = re.compile(r"//[^@/]*@")


def redact_url(url: str) -> str:
    """``redis://user:secret@host:port`` as ``redis://***@host:port``: safe to print or log."""
    return _URL_CREDENTIALS.sub("//***@", url)


@dataclass(frozen=True)
class Settings:
    """Immutable configuration; build with :meth:`from_env` or directly."""

    home: Path = _DEFAULT_HOME_EXPANDED
    falkordb_url: str | None = None
    graph: str = DEFAULT_GRAPH
    policy: str = DEFAULT_POLICY
    model: str = DEFAULT_MODEL
    openai_base_url: str | None = None
    openai_api_key: str | None = None
    openai_model: str | None = None
    query_timeout_ms: int = DEFAULT_QUERY_TIMEOUT_MS
    server_port: int | None = None  # the managed server's one port (ZEHN_SERVER_PORT)

    def __post_init__(self) -> None:
        if self.model not in MODELS:
            raise ConfigError(
                "ZEHN_MODEL", f"must be one of {', '.join(MODELS)}, not {self.model!r}"
            )
        if self.query_timeout_ms <= 0:
            raise ConfigError("ZEHN_QUERY_TIMEOUT_MS", "must be a positive number of milliseconds")
        if self.server_port is not None and not 1024 < self.server_port < 65536:
            raise ConfigError(
                "ZEHN_SERVER_PORT", f"must be a port from 1025 to 65535, not {self.server_port}"
            )
        if self.falkordb_url is not None and not self.falkordb_url.startswith(
            ("redis://", "rediss://", "unix://")
        ):
            raise ConfigError(
                "FALKORDB_URL", f"must start with redis://, not {self.falkordb_url!r}"
            )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Read ``ZEHN_*``, ``FALKORDB_URL`` and ``OPENAI_*`` variables."""
        env = os.environ if environ is None else environ
        timeout_text = env.get("ZEHN_QUERY_TIMEOUT_MS", str(DEFAULT_QUERY_TIMEOUT_MS))
        try:
            timeout_ms = int(timeout_text)
        except ValueError as e:
            raise ConfigError("ZEHN_QUERY_TIMEOUT_MS", f"not an integer: {timeout_text!r}") from e
        port_text = env.get("ZEHN_SERVER_PORT") or None
        try:
            server_port = int(port_text) if port_text is not None else None
        except ValueError as e:
            raise ConfigError("ZEHN_SERVER_PORT", f"not an integer: {port_text!r}") from e
        return cls(
            home=Path(env.get("ZEHN_HOME") or DEFAULT_HOME).expanduser(),
            falkordb_url=env.get("FALKORDB_URL") or None,
            graph=env.get("ZEHN_GRAPH") or DEFAULT_GRAPH,
            policy=env.get("ZEHN_POLICY") or DEFAULT_POLICY,
            model=env.get("ZEHN_MODEL") or DEFAULT_MODEL,
            openai_base_url=env.get("OPENAI_BASE_URL") or None,
            openai_api_key=env.get("OPENAI_API_KEY") or None,
            openai_model=env.get("ZEHN_OPENAI_MODEL") or None,
            query_timeout_ms=timeout_ms,
            server_port=server_port,
        )

    def __repr__(self) -> str:
        """Like the dataclass repr, but never shows a password or an API key."""
        shown = []
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name in SECRET_FIELDS and value is not None:
                value = "***"
            elif item.name == "falkordb_url" and value is not None:
                value = redact_url(value)
            shown.append(f"{item.name}={value!r}")
        return f"Settings({', '.join(shown)})"

    def with_changes(self, **changes: object) -> Settings:
        """A copy with some fields replaced (the value object stays immutable)."""
        return replace(self, **changes)  # type: ignore[arg-type]
