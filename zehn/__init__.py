"""ZEHN: a citation-first question-answering workbench over an enterprise knowledge graph.

The front door. Build a graph, then ask it::

    import zehn

    zehn.ingest("data/sample", "sample")                 # -> graph sample__rules
    answer = zehn.ask("If I change origin-mapper, what breaks?", "sample")
    answer.status, answer.answer, answer.citations        # verbatim sentences, or "I don't know"

Everything here is re-exported from the layer that owns it (see docs/architecture.md).
"""

from zehn.api import ask, connect, ingest, open_engine
from zehn.config import Settings
from zehn.corpus.model import SourceType
from zehn.corpus.sample import SAMPLE_CORPUS, SAMPLE_DIR
from zehn.engine import CitedAnswer, Engine
from zehn.engine.answer import Citation, Identity, Status
from zehn.errors import (
    ConfigError,
    CorpusError,
    ExtractionError,
    GraphNotFound,
    GraphUnavailable,
    ModelError,
    PolicyError,
    QueryTimeout,
    RetrievalError,
    SourceError,
    StoreError,
    UnknownPredicate,
    ZehnError,
)
from zehn.evidence.policy import Policy, list_policies, load_policy
from zehn.extract.pipeline import BuildReport, build_graph
from zehn.models.base import Model
from zehn.models.offline import OfflineModel
from zehn.reading.vocabulary import EntityKind, GradeLabel, Predicate
from zehn.review.audit import AuditStore
from zehn.review.stats import audit_stats, audit_summary
from zehn.store.client import GraphClient
from zehn.store.health import Health, check_health

__all__ = [
    "SAMPLE_CORPUS",
    "SAMPLE_DIR",
    "AuditStore",
    "BuildReport",
    "Citation",
    "CitedAnswer",
    "ConfigError",
    "CorpusError",
    "Engine",
    "EntityKind",
    "ExtractionError",
    "GradeLabel",
    "GraphClient",
    "GraphNotFound",
    "GraphUnavailable",
    "Health",
    "Identity",
    "Model",
    "ModelError",
    "OfflineModel",
    "Policy",
    "PolicyError",
    "Predicate",
    "QueryTimeout",
    "RetrievalError",
    "Settings",
    "SourceError",
    "SourceType",
    "Status",
    "StoreError",
    "UnknownPredicate",
    "ZehnError",
    "__version__",
    "ask",
    "audit_stats",
    "audit_summary",
    "build_graph",
    "check_health",
    "connect",
    "ingest",
    "list_policies",
    "load_policy",
    "open_engine",
]
__version__ = "0.1.0"
