"""Markup residue never becomes text: style sheets and presentational attributes are stripped
by every loader, the visible words stay, code stays as written. Documents are invented."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from zehn.corpus.loaders import load_file
from zehn.corpus.loaders.residue import strip_residue
from zehn.errors import EmptySource
from zehn.reading.split import split_sentences

CSS = re.compile(r"mso-|font-weight|font-size|border|MsoNormal|class=|style=|cellpadding")

WORD_EXPORT_EN = """# Quill gateway

<style>
p.MsoNormal, li.MsoNormal {mso-style-parent:""; margin:0cm; font-size:10.5pt;}
table.MsoTableGrid {border:solid windowtext 1.0pt;}
</style>
<!--[if gte mso 9]><xml><w:WordDocument><w:View>Normal</w:View></w:WordDocument></xml><![endif]-->

The <span style="font-weight:bold; mso-bidi-font-size:10pt">Name</span> service calls \
the ledger-7 store.<o:p></o:p>

<table border="1" class="MsoTableGrid" cellpadding="0" style="border-collapse:collapse">
<tr><td class="xl65" width="120" style="mso-border-alt:solid">Owner</td><td>Pixel team</td></tr>
</table>
"""

WORD_EXPORT_ZH = """# 羽毛网关

<style>
p.MsoNormal {mso-style-parent:""; font-family:宋体; font-weight:normal;}
</style>

<span style="font-weight:bold; mso-bidi-font-size:10pt">Name</span> 服务调用<font face="宋体">账本服务</font>。

| 组件 | <span style="font-weight:normal">说明</span> |
|---|---|
| <p align="center" class="MsoNormal">注册中心</p> | <ul><li>保存地址</li></ul> |
"""


def _load(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    [doc] = load_file(path, tmp_path)
    for sentence in split_sentences(doc.id, doc.text):
        assert sentence.text == doc.text[sentence.start : sentence.end]
    return doc.text


@pytest.mark.parametrize("name", ["page.md", "notes.txt", "page.rst", "meetings/2024-05-01.md"])
def test_a_word_export_in_english_keeps_the_words_and_loses_the_css(
    tmp_path: Path, name: str
) -> None:
    text = _load(tmp_path, name, WORD_EXPORT_EN)
    assert "The Name service calls the ledger-7 store." in text
    assert "<td>Owner</td><td>Pixel team</td>" in text
    assert not CSS.search(text), text


def test_a_word_export_in_chinese_keeps_the_words_and_loses_the_css(tmp_path: Path) -> None:
    text = _load(tmp_path, "页面.md", WORD_EXPORT_ZH)
    assert "Name 服务调用账本服务。" in text
    assert "| 组件 | 说明 |" in text
    assert "<p>注册中心</p>" in text and "<ul><li>保存地址</li></ul>" in text
    assert not CSS.search(text) and "宋体" not in text, text


def test_code_keeps_its_markup(tmp_path: Path) -> None:
    page = (
        '# Styling\n\nSet `<span style="font-weight:bold">` on the label.\n\n'
        '```html\n<style>p {font-weight: bold;}</style>\n<td class="x">cell</td>\n```\n\n'
        '~~~xml\n<bean id="quillGateway" class="acme.Quill"/>\n~~~\n'
    )
    assert _load(tmp_path, "page.md", page) == page.rstrip("\n")


def test_only_what_a_reader_sees_of_a_tag_stays() -> None:
    assert strip_residue('<a href="/x.md" id="sec-1" class="c">x</a>') == '<a href="/x.md">x</a>'
    assert strip_residue('<img src="a.png" width="3" alt="d"/>') == '<img src="a.png" alt="d"/>'
    assert strip_residue("a <br/> b, List<String>, <service-name>") == (
        "a <br/> b, List<String>, <service-name>"
    )
    assert strip_residue('<bean id="quillGateway">') == '<bean id="quillGateway">'  # not HTML
    assert strip_residue("x <!-- hidden --> y <![if !supportLists]>1.<![endif]>") == "x  y 1."
    assert strip_residue("unclosed <style> p {a:b}") == "unclosed <style> p {a:b}"


def test_a_page_of_only_style_is_empty_and_named(tmp_path: Path) -> None:
    path = tmp_path / "style.md"
    path.write_text("<style>\np {font-weight:bold;}\n</style>\n", encoding="utf-8")
    with pytest.raises(EmptySource) as caught:
        load_file(path, tmp_path)
    assert str(path) in str(caught.value)


def test_html_pages_already_drop_style_sheets_and_attributes(tmp_path: Path) -> None:
    page = (
        "<html><head><style>p.MsoNormal {mso-style-parent:'';}</style></head><body>"
        '<h1>Quill</h1><p class="MsoNormal" style="font-weight:bold">The <span '
        'style="mso-bidi-font-size:10pt">Name</span> service calls ledger-7.</p></body></html>'
    )
    text = _load(tmp_path, "page.html", page)
    assert "The Name service calls ledger-7." in text
    assert not CSS.search(text)


def test_pull_requests_and_tickets_lose_the_css_too(tmp_path: Path) -> None:
    body = '<span style="font-weight:bold">Name</span> now calls ledger-7.<style>p {x:y}</style>'
    pull = {"number": 3, "title": "Route", "body": body, "user": {"login": "a"},
            "html_url": "https://github.com/acme/quill/pull/3"}  # fmt: skip
    issue = {"key": "QG-1", "fields": {"summary": "Route", "description": body}}
    for name, data in (("pr.json", pull), ("ticket.json", issue)):
        text = _load(tmp_path, name, json.dumps(data))
        assert "Name now calls ledger-7." in text
        assert not CSS.search(text) and "{x:y}" not in text
