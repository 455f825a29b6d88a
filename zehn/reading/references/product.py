"""The product a corpus documents, and "we" as a reference to it.

A project's own documentation speaks for the project in the first person plural: "We use
RabbitMQ for queuing", "We also make use of Tornado for the real-time push system", "我们使用
ZooKeeper 作为注册中心". The "we" there is the product the pages document, whatever page the
sentence is on. A corpus has such a product when one proper name is used on most of its pages
(at least :data:`MIN_SHARE` of them) and on more than any other; a corpus of several services
none of which is named nearly everywhere (a demo of microservices) has none, and its "we"
refers to nothing.

Precision first, as for every reference: only a "we" that is the subject at the start of a
sentence (after a short adverbial opening at most: "However, we …", "Note that we …") is read,
and only where the sentence names another product by its proper name ("We use RabbitMQ"): a
"we" with common nouns ("we use event queues for …", "we use our processors to …") tells how
the authors build, often of a kind of thing rather than the component of that name. The
reference says why it names the product, so the grader accepts the same reading.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from zehn.corpus.model import SourceText
from zehn.reading.lexicon import is_ordinary_phrase
from zehn.reading.model import Entity, Mention
from zehn.reading.names.binding import Binder

__all__ = ["MIN_SHARE", "Product", "corpus_product", "we_reference"]

MIN_SHARE = 2 / 3  # of the corpus's documents that name the product
MIN_DOCUMENTS = 3  # a corpus of one or two pages says nothing about what it documents

# "We …", "However, we …", "Note that we …", "In production, we …"; in Chinese "我们 …",
# "因此我们 …", "目前，我们 …"; not "we'll" or "we're", nor "我们的" (ours).
_WE = re.compile(
    r"^\s*(?:(?:note\s+that|(?:[A-Za-z-]+\s+){0,3}[A-Za-z-]+\s*,)\s+)?(?P<we>[Ww]e)\s"
    r"|^\s*(?:[^，。；！？,;\s]{1,6}\s*[，,]?\s*)?(?P<zh>我们)(?!的)"
)


class Product(NamedTuple):
    """The product a corpus documents, and the figure that makes it so."""

    entity: Entity
    why: str


def corpus_product(documents: Sequence[SourceText], binder: Binder) -> Product | None:
    """The proper-named entity used on the most documents, if on at least :data:`MIN_SHARE`
    of them (ties broken by how often it is used); None otherwise."""
    if len(documents) < MIN_DOCUMENTS:
        return None
    pages: Counter[str] = Counter()
    for document in documents:
        pages.update(binder.names_in(document.text))
    proper = [
        (count, entity)
        for entity_id, count in pages.items()
        if (entity := binder.entities.get(entity_id)) and not is_ordinary_phrase(entity.name)
    ]
    if not proper:
        return None
    most = max(count for count, _ in proper)
    if most < MIN_SHARE * len(documents):
        return None
    tied = [entity for count, entity in proper if count == most]
    if len(tied) > 1:
        uses = _uses(documents, binder, {e.id for e in tied})
        tied.sort(key=lambda e: -uses[e.id])
        if uses[tied[0].id] == uses[tied[1].id]:
            return None
    why = f"the product these pages document (named on {most} of {len(documents)} pages)"
    return Product(tied[0], why)


def _uses(documents: Sequence[SourceText], binder: Binder, ids: set[str]) -> Counter[str]:
    """How many sentences name each of ``ids``."""
    uses: Counter[str] = Counter()
    for document in documents:
        for sentence in document.sentences:
            uses.update(binder.names_in(sentence.text) & ids)
    return uses


def we_reference(
    sentence_id: str, offset: int, text: str, product: Product, mentions: Sequence[Mention]
) -> Mention | None:
    """The reference a sentence-opening "we" (我们) makes to the corpus's ``product``, where
    the sentence names another product (one of its ``mentions`` is written as a proper name:
    capitalised, or no ordinary word: "Tornado", "RabbitMQ", "memcached")."""
    match = _WE.match(text)
    if match is None or not any(
        m.entity_id not in (None, product.entity.id)
        and (m.surface[:1].isupper() or not is_ordinary_phrase(m.surface))
        for m in mentions
    ):
        return None
    group = "we" if match["we"] else "zh"
    start, end = match.span(group)
    surface = match[group]
    return Mention(
        sentence_id,
        offset + start,
        offset + end,
        surface,
        (product.entity.id,),
        f"{surface!r} = {product.entity.name}, {product.why}",
        reference=True,
    )
