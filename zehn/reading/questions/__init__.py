"""The questions part of the reading layer: what a question asks — intent, relation,
direction, target kind, attribute, parts (``asking``, ``asking_zh`` for Chinese,
``asking_names`` for the names in it) — and the wording of "what is X?" questions
(``wording``).
"""
