"""How ZEHN reads a sentence: one reader for extraction (write time), grading (read time) and
question understanding (query time) — splitting, language, vocabulary, binding, relation cues."""
