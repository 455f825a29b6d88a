"""Extraction strategies: entities, mentions and edges from stored sentences."""
