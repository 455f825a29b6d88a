"""The names part of the reading layer: which names a corpus uses for its components, and
where a sentence uses them.

Discovery (``discover``) weighs clues (``clues``, ``clues_zh``, ``page_clues``, proper names by
termhood: ``proper_names``, ``termhood``, ``termhood_zh``) over a corpus and folds the
variants of one name (``variants``); a catalog (``catalog``, read by ``safe_yaml``) replaces it
where an analyst wrote one, and ``suggest`` offers the discovered one for curation. Binding
(``binding``, with the one-pass ``matcher`` and the near misses of ``near_names``) finds the
names in a sentence; ``name_keys`` are the keys a graph's name index stores.
"""
