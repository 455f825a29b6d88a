"""The build: ingest documents, run an extraction strategy, write its named graph."""
