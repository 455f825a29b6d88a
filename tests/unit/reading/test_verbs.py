"""Verb forms from lemmas (``zehn.reading.verbs``) and the cues built from them.

Every name is made up; the sentences test the forms, never a corpus's sentence.
"""

from __future__ import annotations

import re

import pytest

from tests.unit.reading.relations.test_relation_forms import read
from zehn.reading.verbs import PARTICIPLE, PAST, PRESENT, alternation, forms


def test_present_forms_come_from_the_lemma() -> None:
    assert set(forms(["fetch"])) == {"fetch", "fetches", "fetching"}
    assert set(forms(["rely"], PRESENT + PAST)) == {"rely", "relies", "relying", "relied"}


def test_a_participle_is_given_where_the_dictionary_has_only_a_past() -> None:
    assert "fetched" in forms(["fetch"], PARTICIPLE)
    assert "written" in forms(["write"], PARTICIPLE)


def test_a_lemma_outside_the_dictionary_is_inflected_by_rule() -> None:
    assert {"enqueues", "enqueuing"} <= set(forms(["enqueue"]))


def test_the_first_word_of_a_phrasal_verb_is_inflected() -> None:
    assert {"backs up", "backing up", "back up"} <= set(forms(["back up"]))


def test_a_bare_form_read_as_a_noun_or_a_title_is_no_cue() -> None:
    assert "cache" not in forms(["cache"]) and "caches" in forms(["cache"])
    assert "add" not in forms(["add"]) and "adding" in forms(["add"])


def test_the_alternation_is_one_group_trying_longer_forms_first() -> None:
    pattern = re.compile(rf"\b{alternation(['depend'])}\s+on\b")
    assert pattern.fullmatch("depends on") and pattern.fullmatch("depending  on")
    assert not pattern.fullmatch("dependent on")


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        # a gerund the hand-written alternation lacked
        ("Quarn keeps relying on Brisk for its leases.", ("quarn", "DEPENDS_ON", "brisk")),
        # a progressive it lacked too
        ("Quarn is migrating to Mirelle this quarter.", ("quarn", "DEPENDS_ON", "mirelle-store")),
        # a past tense of a verb whose row reads the past
        ("Last week Quarn impacted Brisk twice.", ("quarn", "AFFECTS", "brisk")),
    ],
)
def test_every_inflection_of_a_cue_verb_is_read(text: str, edge: tuple[str, str, str]) -> None:
    assert edge in read(text)


@pytest.mark.parametrize(
    ("text", "edge"),
    [
        ("Kestrel is monitored by Quarn around the clock.", ("quarn", "READS_FROM", "kestrel")),
        ("Brisk is orchestrated by Quarn on every run.", ("quarn", "CALLS", "brisk")),
        ("Zorbex is also employed by Quarn for retries.", ("quarn", "USES", "zorbex")),
    ],
)
def test_a_verb_of_a_voice_row_reads_its_passive_with_the_agent_as_subject(
    text: str, edge: tuple[str, str, str]
) -> None:
    assert edge in read(text)
    assert (edge[2], edge[1], edge[0]) not in read(text)
