"""Models propose named-query calls and draft answers; the engine never trusts them."""
