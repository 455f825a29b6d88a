"""The references part of the reading layer: what "It", "This service", 该服务 or a table
row's implicit subject refer to.

``reader`` reads a document with its discovered or catalog names and adds the references its
own structure makes; ``forms`` holds the reference forms (a pronoun read back from where the
clause before put it, names sharing a kind word), ``title_refs`` the page and title clues and
``agents_zh`` the implicit subjects of Chinese prose.
"""
