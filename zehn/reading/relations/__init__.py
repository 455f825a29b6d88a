"""The relations part of the reading layer: how a sentence states a relation between the
names bound in it.

The cue lexicon (``cues`` for English, ``cues_zh`` for Chinese: data rows of verb phrases,
prepositions and direction markers; ``cue_words``: the first words that let a sentence skip
cues it cannot hold) is applied to bound mentions by ``reader`` (subjects, objects, lists,
clauses carried across coordination) with ``phrases`` (object and subject groups) and
``reader_zh`` (Chinese implicit subjects, split verbs, prepositions). ``purpose`` reads "Y … for X
to read", ``requirements`` what the reader is told to set up, and ``roles`` a role list ("the
clients of X are A, B and C", "X 的消费者包括 A 和 B"). Negation and hedging words
are in ``zehn.reading.modality``.
"""
