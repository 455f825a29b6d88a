"""ZEHN: a citation-first question-answering workbench over an enterprise knowledge graph."""

from zehn.config import Settings
from zehn.errors import ZehnError

__all__ = ["Settings", "ZehnError", "__version__"]
__version__ = "0.1.0"
