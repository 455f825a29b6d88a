"""Email: single ``.eml`` messages and ``.mbox`` archives.

Only what the sender wrote is kept: quoted replies, their ``On … wrote:``
attribution and the signature are dropped, so a citation never attributes an
earlier message's words to the replier. Bodies are decoded with the charset
they declare, strictly.
"""

from __future__ import annotations

import email
import email.errors
import mailbox
import re
from dataclasses import replace
from datetime import datetime
from email.message import EmailMessage, Message
from email.policy import default as default_policy
from email.utils import parsedate_to_datetime
from pathlib import Path

from zehn.corpus.loaders.base import (
    collapse,
    compose,
    html_to_paragraphs,
    join_paragraphs,
    parse_date,
    read_bytes,
    relative_path,
    split_paragraphs,
)
from zehn.corpus.model import Document, SourceType, slugify
from zehn.errors import EmptySource, EncodingError, MalformedSource, SourceError

EMAIL_SUFFIXES = frozenset({".eml", ".mbox"})
_SIGNATURE = frozenset({"-- ", "--"})
_ATTRIBUTION_END = re.compile(r"wrote:\s*$")
_ESCAPED_FROM = re.compile(rb"^>(>*From )", re.MULTILINE)
_PARSE_ERRORS = (email.errors.MessageError, ValueError, IndexError, TypeError)


def strip_reply(text: str) -> str:
    """Drop the signature, quoted lines and the ``On … wrote:`` line that introduces them."""
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line in _SIGNATURE:
            lines = lines[:index]
            break
    kept: list[str] = []
    for index, line in enumerate(lines):
        if line.lstrip().startswith(">"):
            continue
        if _ATTRIBUTION_END.search(line) and _quote_or_end_follows(lines, index + 1):
            if not line.lstrip().startswith("On ") and kept and kept[-1].startswith("On "):
                kept.pop()  # attribution wrapped over two lines
            continue
        kept.append(line)
    return "\n".join(kept)


def _quote_or_end_follows(lines: list[str], start: int) -> bool:
    for line in lines[start:]:
        if line.strip():
            return line.lstrip().startswith(">")
    return True


def _header(message: Message, name: str) -> str:
    """A header as readable text; the raw value when the parsed one is broken."""
    try:
        value = message.get(name)
    except _PARSE_ERRORS:
        value = next((v for k, v in message.raw_items() if k.lower() == name.lower()), None)
    return collapse(str(value)) if value is not None else ""


def _sender(message: Message) -> str:
    try:
        header = message.get("from")
        addresses = getattr(header, "addresses", ())
    except _PARSE_ERRORS:
        return _header(message, "from")
    if addresses:
        first = addresses[0]
        return str(first.display_name or first.addr_spec)
    return _header(message, "from")


def _date(message: Message) -> datetime | None:
    raw = _header(message, "date")
    try:
        return parse_date(parsedate_to_datetime(raw))
    except (TypeError, ValueError, IndexError):
        return parse_date(raw)


def _body(message: EmailMessage, path: Path) -> str:
    """The text/plain part (else text/html, flattened), reply material stripped."""
    part = message.get_body(preferencelist=("plain",))
    is_html = part is None
    if part is None:
        part = message.get_body(preferencelist=("html",))
    if part is None:
        return ""
    try:
        content = part.get_content(errors="strict")
    except LookupError as e:
        raise EncodingError(path, f"unknown charset {part.get_content_charset()!r}") from e
    except UnicodeDecodeError as e:
        charset = part.get_content_charset() or "us-ascii"
        raise EncodingError(path, f"body is not valid {charset}") from e
    if not isinstance(content, str):
        return ""
    text = content.replace("\r\n", "\n").replace("\r", "\n")
    if is_html:
        text = join_paragraphs(html_to_paragraphs(text, drop_quotes=True))
    return join_paragraphs(split_paragraphs(strip_reply(text)))


def _unescape(data: bytes) -> bytes:
    """Undo mbox ``>From `` quoting, which would otherwise read as a quoted reply line."""
    return _ESCAPED_FROM.sub(rb"\1", data)


def _parse(data: bytes) -> EmailMessage:
    message = email.message_from_bytes(data, policy=default_policy)
    if not isinstance(message, EmailMessage):  # policy.default always builds EmailMessage
        raise TypeError("email parser returned a legacy Message")
    return message


class EmailLoader:
    """``.eml`` files (one message) and ``.mbox`` archives (many)."""

    source_type = SourceType.EMAIL

    def accepts(self, path: Path, head: bytes) -> bool:
        """By suffix: MIME content has no reliable signature in its first bytes."""
        return path.suffix.lower() in EMAIL_SUFFIXES

    def load(self, path: Path, root: Path) -> list[Document]:
        """A document per message with a body; an mbox skips body-less messages."""
        data = read_bytes(path)
        try:
            if path.suffix.lower() == ".eml":
                messages = [_parse(data)]
            else:
                box = mailbox.mbox(path, create=False)
                try:
                    messages = [_parse(_unescape(box.get_bytes(key))) for key in box.iterkeys()]
                finally:
                    box.close()
        except (OSError, mailbox.Error, *_PARSE_ERRORS) as e:
            raise MalformedSource(path, f"unreadable message data: {e}") from e
        documents: list[Document] = []
        seen: set[str] = set()
        for number, message in enumerate(messages, start=1):
            try:
                document = self._document(path, root, message)
            except EmptySource:
                if len(messages) == 1:
                    raise
                continue
            except SourceError as e:
                where = f"message {number}: " if len(messages) > 1 else ""
                raise type(e)(path, where + e.reason) from e
            except _PARSE_ERRORS as e:
                raise MalformedSource(path, f"message {number}: {e}") from e
            doc_id, suffix = document.id, 2
            while doc_id in seen:
                doc_id, suffix = f"{document.id}-{suffix}", suffix + 1
            seen.add(doc_id)
            documents.append(replace(document, id=doc_id))
        if not documents:
            raise EmptySource(path, "no message has a body")
        return documents

    def _document(self, path: Path, root: Path, message: EmailMessage) -> Document:
        body = _body(message, path)
        if not body:
            raise EmptySource(path, "message has no body text")
        subject = _header(message, "subject") or "(no subject)"
        created = _date(message)
        message_id = _header(message, "message-id")
        local = message_id.strip("<>").split("@", 1)[0]
        if local:
            doc_id = f"email/{slugify(local)}"
        else:
            day = created.strftime("%Y%m%d") if created else "undated"
            doc_id = f"email/{slugify(subject)}-{day}"
        attrs = {
            "message_id": message_id,
            "in_reply_to": _header(message, "in-reply-to"),
            "to": _header(message, "to"),
            "path": relative_path(path, root),
        }
        document = Document(
            id=doc_id,
            source_type=self.source_type,
            title=subject,
            text=compose(subject, body),
            author=_sender(message),
            created_at=created,
            attrs={key: value for key, value in attrs.items() if value},
        )
        try:
            (document.text + document.author + "".join(attrs.values())).encode("utf-8")
        except UnicodeEncodeError as e:
            raise EncodingError(path, "headers hold undeclared 8-bit bytes") from e
        return document
