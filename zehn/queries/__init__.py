"""The whitelist of named, parameterised, read-only queries: all a question sends to a graph."""

from zehn.queries.named import QUERIES, get_query
from zehn.queries.spec import NamedQuery, ParamSpec

__all__ = ["QUERIES", "NamedQuery", "ParamSpec", "get_query"]
