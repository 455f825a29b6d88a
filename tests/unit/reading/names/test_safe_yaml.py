"""``load_yaml`` builds plain documents from libyaml's events; whatever it returns or raises
must be exactly what the safe loader returns or raises (invented documents only)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import yaml

from zehn.errors import CatalogError
from zehn.reading.names import safe_yaml
from zehn.reading.names.catalog import Catalog

SAFE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# scalars the safe loader types in every way it can: strings, nulls, booleans, numbers, dates,
# merge and value keys, quoted look-alikes, tags, anchors, flow and block collections
SCALARS = [
    "ledger-svc",
    "Ledger Service",
    "123",
    "-7",
    "0x1F",
    "0o17",
    "1_000",
    "1.5",
    "6.02e+23",
    ".inf",
    "-.INF",
    ".nan",
    "1:20",
    "~",
    "null",
    "Null",
    "NULL",
    "nUll",
    "",
    "yes",
    "Yes",
    "YES",
    "yEs",
    "no",
    "On",
    "off",
    "y",
    "n",
    "true",
    "False",
    "tRue",
    "2031-04-05",
    "2031-04-05 10:20:30",
    "<<",
    "=",
    "'quoted ledger'",
    "'123'",
    '"yes"',
    '"null"',
    "''",
    '"tab\\there"',
    "!!str 12",
    "!!int '12'",
    "!custom thing",
    "! 12",
    "&a anchored",
    "*a",
    "[a, 1, ~]",
    "{x: y}",
    "[]",
    "{}",
    "|\n    block text\n",
    ">-\n    folded\n    text\n",
    "no # a comment",
    "a: b",
    "{a: [b",
    "- x",
    "@reserved",
    "`tick",
    "%percent",
    "漏斗服务",
]


def _outcome(load: Any, text: str) -> tuple[str, str]:
    """What a load gives: the repr of its value (booleans and numbers stay apart), or the
    type and text of its error."""
    try:
        return "value", repr(load(text))
    except Exception as e:  # the comparison is the point: any error must match
        return type(e).__name__, str(e)


def _same_as_safe(text: str) -> None:
    assert _outcome(safe_yaml.load_yaml, text) == _outcome(
        lambda t: yaml.load(t, Loader=SAFE), text
    ), text


@pytest.mark.parametrize("value", SCALARS)
def test_a_catalog_entry_with_any_scalar_loads_as_the_safe_loader_loads_it(value: str) -> None:
    for template in (
        "entities:\n- name: {v}\n  kind: service\n  owner: {v}\n",
        "- name: x\n  kind: service\n  aliases: [{v}]\n",
        "- {{name: {v}, kind: team}}\n",
        "- name: x\n  {v}: kind\n",
        "{v}\n",
        "- not_entity: {v}\n  name: y\n",
    ):
        _same_as_safe(template.format(v=value))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "---\n",
        "--- a\n...\n",
        "a: 1\n---\nb: 2\n",
        "- a\n--- b\n",
        "a: &x [1]\nb: *x\n",
        "a: *missing\n",
        "a: &x 1\nb: &x 2\n",
        "? [a, b]\n: c\n",
        "? {a: b}\n: c\n",
        "{[a]: b}\n",
        "a: 1\na: 2\nb: 3\na: 4\n",
        "yes: a\ntrue: b\n~: c\n: d\n",
        "<<: {a: b}\nc: d\n",
        "base: &b {kind: service}\nx:\n  <<: *b\n  name: x\n",
        "!!set {a, b}\n",
        "!!omap [a: 1]\n",
        "!!binary aGVsbG8=\n",
        "a: !!str\n",
        "entities:\n\t- name: tab\n",
        "entities: [\n",
        "a: 'unterminated\n",
        "a: b: c\n",
        "%YAML 1.1\n---\na: b\n",
        "\ufeffa: b\n",
        "a: b\r\nc: d\r\n",
        "- [" * 70 + "]" * 70 + "\n",
        "- [" * 20 + "x" + "]" * 20 + "\n",
        "a:\n  - b\n  -\n  - ~\n",
    ],
)
def test_odd_documents_load_or_fail_as_the_safe_loader_does(text: str) -> None:
    _same_as_safe(text)


def test_scalar_pairs_as_keys_and_values_load_as_the_safe_loader_loads_them() -> None:
    plain = [v for v in SCALARS if "\n" not in v][:40]
    for key, value in itertools.product(plain, plain[:12]):
        _same_as_safe(f"{key}: {value}\n")


def test_a_plain_catalog_is_built_from_the_events_without_the_safe_loader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = (
        "entities:\n"
        "- name: Ledger Service\n  kind: service\n  aliases: [ledger, 'ledger-api']\n"
        "  owner: ~\n  not_entity: no\n"
        "- {name: Quill Store, kind: datastore, owner: Quill Team, description: ''}\n"
    )
    expected = yaml.load(text, Loader=SAFE)
    calls: list[str] = []
    monkeypatch.setattr(yaml, "load", lambda *a, **k: calls.append("safe"))
    assert safe_yaml.load_yaml(text) == expected
    assert calls == []


@pytest.mark.parametrize("text", ["a: 12\n", "a: &x b\n", "a: !!str b\n", "a: 2031-04-05\n"])
def test_what_the_events_path_does_not_build_goes_to_the_safe_loader(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(yaml, "load", lambda *a, **k: calls.append("safe"))
    safe_yaml.load_yaml(text)
    assert calls == ["safe"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("- name: 123\n  kind: service\n", "entry 1 has no name"),
        ("- name: null\n  kind: service\n", "entry 1 has no name"),
        ("- name: 2031-04-05\n  kind: service\n", "entry 1 has no name"),
        ("- name: yes\n  kind: service\n", "entry 1 has no name"),
        ("- name: x\n  kind: service\n  not_entity: maybe\n", "not_entity must be true or false"),
        ("- name: x\n  kind: service\n  aliases: [1]\n", "aliases must be a list of names"),
        ("entities: {name: x}\n", "expected a list"),
        ("a: 1\n---\nb: 2\n", "not valid YAML: expected a single document"),
        ("- name: *nowhere\n", "not valid YAML: found undefined alias"),
    ],
)
def test_odd_catalogs_fail_with_the_same_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "catalog.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CatalogError, match=message):
        Catalog.load(path)


def test_a_catalog_with_odd_scalars_loads_the_same_catalog(tmp_path: Path) -> None:
    content = (
        "entities:\n"
        "- name: '123'\n  kind: service\n  owner: ~\n  aliases: ['yes', \"null\", Ledger]\n"
        "- name: Quill\n  kind: datastore\n  owner: null\n  origin: discovered\n"
        "- name: Old Name\n  kind: service\n  not_entity: yes\n  aliases: [Older]\n"
        "- {name: Spool, kind: topic, owner: Spool Team, description: 'a \"queue\"'}\n"
        "- name: |\n    Block Name\n  kind: team\n"
    )
    path = tmp_path / "catalog.yaml"
    path.write_text(content, encoding="utf-8")
    expected = Catalog.from_entries(yaml.load(content, Loader=SAFE)["entities"], str(path))
    loaded = Catalog.load(path)
    assert repr(loaded) == repr(expected)
    assert [e.owner for e in loaded.entities] == [None, None, "Spool Team", None]
    assert loaded.not_entities == ("Old Name", "Older")
