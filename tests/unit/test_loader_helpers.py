"""Shared loader helpers: dates, title composition, markup flattening, reply stripping."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from zehn.corpus.loaders.base import (
    compose,
    decode_utf8,
    html_to_paragraphs,
    join_paragraphs,
    parse_date,
    split_paragraphs,
)
from zehn.corpus.loaders.email import strip_reply
from zehn.corpus.loaders.jira_text import adf_paragraphs, wiki_paragraphs
from zehn.corpus.loaders.text import markdown_title, split_front_matter
from zehn.errors import EncodingError


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-03-02T10:15:30.000+0000", datetime(2024, 3, 2, 10, 15, 30, tzinfo=UTC)),
        ("2024-03-02", datetime(2024, 3, 2, tzinfo=UTC)),
        ("02/Oct/24 10:15 AM", datetime(2024, 10, 2, 10, 15, tzinfo=UTC)),
        ("02/Oct/24 4:40 PM", datetime(2024, 10, 2, 16, 40, tzinfo=UTC)),
        ("Mar 02, 2024", datetime(2024, 3, 2, tzinfo=UTC)),
        (date(2024, 1, 18), datetime(2024, 1, 18, tzinfo=UTC)),
        (1709373600000, datetime(2024, 3, 2, 10, 0, tzinfo=UTC)),
        (
            "2024-03-02T10:00:00+05:30",
            datetime(2024, 3, 2, 10, tzinfo=timezone(timedelta(hours=5, minutes=30))),
        ),
        ("not a date", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_date_is_tz_aware_and_lenient(value: object, expected: datetime | None) -> None:
    assert parse_date(value) == expected
    parsed = parse_date(value)
    assert parsed is None or parsed.tzinfo is not None


def test_decode_strips_bom_and_normalises_line_endings() -> None:
    assert decode_utf8(b"\xef\xbb\xbfa\r\nb\rc", Path("x.md")) == "a\nb\nc"
    with pytest.raises(EncodingError, match=r"x\.md: not valid UTF-8 at byte 1"):
        decode_utf8(b"a\xff", Path("x.md"))


def test_compose_prepends_title_unless_body_opens_with_it() -> None:
    assert compose("Plan", "Body text.") == "Plan\n\nBody text."
    assert compose("Plan", "# Plan\n\nBody.") == "# Plan\n\nBody."
    assert compose("Plan", "") == "Plan"
    assert join_paragraphs(["a", "", "  ", "b\n"]) == "a\n\nb"
    assert split_paragraphs("a\n  \n\n    code\nb  \n") == ["a", "    code\nb"]


def test_html_flattening_blocks_tables_lists_and_breaks() -> None:
    markup = (
        "<h1>Title</h1><div>Intro <span>text</span><ul><li>one<ul><li>nested</li></ul></li>"
        "</ul></div><table><tr><th>K</th><th>V</th></tr><tr><td>a</td><td></td></tr></table>"
        "<p>line one<br>line two<br><br>next para</p><script>var x = 1;</script>"
    )
    assert html_to_paragraphs(markup) == [
        "Title",
        "Intro text",
        "one",
        "nested",
        "K | V",
        "a",
        "line one\nline two",
        "next para",
    ]


def test_storage_format_links_users_and_inline_markers() -> None:
    markup = (
        '<p>Ask <ac:link><ri:user ri:account-id="557058:abc" /></ac:link> or '
        '<ac:link><ri:page ri:content-title="On-call" /><ac:plain-text-link-body>'
        "<![CDATA[the rota]]></ac:plain-text-link-body></ac:link> "
        '<ac:inline-comment-marker ac:ref="r1">today</ac:inline-comment-marker>'
        '<ac:emoticon ac:name="smile" />.</p>'
        '<ac:structured-macro ac:name="noformat"><ac:plain-text-body><![CDATA[a <b> c]]>'
        "</ac:plain-text-body></ac:structured-macro>"
    )
    assert html_to_paragraphs(markup) == ["Ask 557058:abc or the rota today.", "a <b> c"]


def test_html_email_quotes_are_dropped() -> None:
    markup = (
        "<div>Sounds good.</div><div class='gmail_quote'><div>On Mon, Alice wrote:</div>"
        "<blockquote>old text</blockquote></div>"
    )
    assert html_to_paragraphs(markup, drop_quotes=True) == ["Sounds good."]


def test_strip_reply_handles_wrapped_attribution_and_bare_dashes() -> None:
    text = (
        "Yes.\n\nOn Mon, 4 Mar 2024 at 17:01, Alice Chen\n<alice@example.com> wrote:\n"
        "> question?\n\nMore below the quote.\n--\nsig"
    )
    assert strip_reply(text) == "Yes.\n\n\nMore below the quote."
    assert strip_reply("He wrote: fine.\nok") == "He wrote: fine.\nok"


def test_wiki_markup_markers_removed_words_kept() -> None:
    text = "h1. Title\nSee {code}x = 1{code} here.\n{noformat}\nraw  line\n\n{noformat}\nend"
    assert wiki_paragraphs(text) == ["Title", "See x = 1 here.", "raw  line", "end"]


def test_adf_tables_dates_and_rules() -> None:
    doc = {
        "type": "doc",
        "content": [
            {"type": "rule"},
            {
                "type": "table",
                "content": [
                    {
                        "type": "tableRow",
                        "content": [
                            {
                                "type": "tableHeader",
                                "content": [
                                    {
                                        "type": "paragraph",
                                        "content": [{"type": "text", "text": "Due"}],
                                    }
                                ],
                            },
                            {
                                "type": "tableCell",
                                "content": [
                                    {
                                        "type": "paragraph",
                                        "content": [
                                            {
                                                "type": "date",
                                                "attrs": {"timestamp": "1709337600000"},
                                            }
                                        ],
                                    }
                                ],
                            },
                        ],
                    }
                ],
            },
            {
                "type": "paragraph",
                "content": [{"type": "text", "text": "a"}, {"type": "hardBreak"}],
            },
        ],
    }
    assert adf_paragraphs(doc) == ["Due | 2024-03-02", "a"]


def test_front_matter_yaml_toml_and_broken() -> None:
    assert split_front_matter("---\ntitle: A\n---\nbody").meta == {"title": "A"}
    toml = split_front_matter('+++\ntitle = "B"\n+++\nbody')
    assert toml.meta == {"title": "B"} and toml.body == "body"
    broken = split_front_matter("---\ntitle: [unclosed\n---\nbody")
    assert broken.meta == {} and broken.body == "body"
    assert split_front_matter("no front matter\n---\n").body == "no front matter\n---\n"


def test_markdown_title_skips_code_fences_and_html() -> None:
    assert markdown_title("```\n# not a title\n```\n# <img src='x'> Real ##") == "Real"
    assert markdown_title("no heading") == ""
