"""The one way JSON from a client is read: a size limit, the document limits before ``json.loads``,
and every string checked for what cannot be stored as text.

DRF's own ``JSONParser`` reads the whole body (Django's DATA_UPLOAD_MAX_MEMORY_SIZE does
not apply to a stream) and hands it to Python's recursive parser, so a huge or deeply
nested body costs memory or a RecursionError. This one reads at most its limit
(API_JSON_MAX_BYTES unless a view names a larger one, +1 to notice more), checks size and
nesting depth on the text (``zfsplanner.core.document.limits.load_json_document``), and refuses a NUL
or a lone surrogate (``"\\udfff"``) in any string or key of the parsed body (PostgreSQL cannot
store the one, no encoding the other). Each refusal is a 400 with a message naming the field.

JSON that arrives inside a request rather than as its body (a multipart field holding a JSON
string, such as a benchmark upload's ``settings``) goes through :func:`load_json_field`: the
same limits and checks, refused as that field's validation error.

Form bodies (:class:`TextFormParser`, :class:`TextMultiPartParser`) are read as the pages read
them (``zfsplanner.web.form_text``): a field name or value that is not UTF-8 text (invalid bytes, the
UTF-8 bytes of a lone surrogate) is a 400 naming the field, where DRF's own parsers would have
kept U+FFFD in its place.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import QueryDict
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import DataAndFiles, FormParser, JSONParser, MultiPartParser

from zfsplanner.core.document.limits import DocumentLimitError, load_json_document, text_error
from zfsplanner.web.form_text import MARKED_UTF8, InvalidFormText, as_django_reads, check_fields


def _shown(key: str) -> str:
    """A key as it can be shown in an answer (a NUL or a lone surrogate spelled out)."""
    return key[:40].encode("unicode_escape").decode("ascii")


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def text_problem(value: Any) -> tuple[str, str] | None:
    """``(path, message)`` of the first string or key that cannot be stored as text, walking
    iteratively (nesting depth costs no stack); None when every string is text."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            problem = text_error(item)
            if problem:
                return path, problem
        elif isinstance(item, dict):
            for key, child in item.items():
                key = str(key)
                problem = text_error(key)
                if problem:
                    return path, f"the key '{_shown(key)}' {problem}"
                stack.append((child, _join(path, key)))
        elif isinstance(item, list):
            stack.extend((child, _join(path, i)) for i, child in enumerate(item))
    return None


class JSONBodyError(ParseError):
    """A refused JSON body; ``field`` is the path of the offending value ("" for the whole body)."""

    def __init__(self, message: str, field: str = "") -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


def _load(data: bytes | str, limit: int) -> Any:
    """The parsed JSON; :class:`JSONBodyError` for anything refused (the message says what)."""
    try:
        value = load_json_document(data, max_bytes=limit)
    except DocumentLimitError as exc:
        raise JSONBodyError(str(exc)) from exc
    except json.JSONDecodeError as exc:
        raise JSONBodyError(f"JSON parse error - {exc}") from exc
    except ValueError as exc:  # e.g. Python's limit on digits in one integer
        raise JSONBodyError(f"JSON parse error - {exc}") from exc
    problem = text_problem(value)
    if problem is not None:
        path, message = problem
        raise JSONBodyError(message, field=path)
    return value


class LimitedJSONParser(JSONParser):
    """Every API view's JSON parser. ``max_bytes`` (a subclass's) overrides API_JSON_MAX_BYTES."""

    max_bytes: int | None = None

    def limit(self) -> int:
        return int(self.max_bytes or settings.API_JSON_MAX_BYTES)

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = self.limit()
        data = stream.read(limit + 1) if stream is not None else b""
        if len(data) > limit:
            raise ParseError(f"the request body is larger than {limit:,} bytes; send at most that much JSON")
        try:
            text = data.decode((parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET)
        except UnicodeDecodeError as exc:
            raise JSONBodyError(f"JSON parse error - {exc}") from exc
        return _load(text, limit)


def limited_json_parser(max_bytes: int) -> type[LimitedJSONParser]:
    """The parser with a view's own limit (e.g. pasted command outputs, larger than a design)."""
    return type("LimitedJSONParser", (LimitedJSONParser,), {"max_bytes": max_bytes})


def load_json_field(text: str, *, max_bytes: int | None = None) -> Any:
    """JSON given as a string in a request field, read like a body; a refusal is the field's
    ``ValidationError``, naming the place inside the value."""
    try:
        return _load(text, int(max_bytes or settings.API_JSON_MAX_BYTES))
    except JSONBodyError as exc:
        raise serializers.ValidationError(str(exc.detail)) from exc


class TextFormParser(FormParser):
    """DRF's urlencoded form parser, refusing a field that is not UTF-8 text (:class:`JSONBodyError`)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        body = stream.read() if stream is not None else b""
        try:
            check_fields(QueryDict(body, encoding=MARKED_UTF8))
        except InvalidFormText as exc:
            raise JSONBodyError(exc.problem, field=exc.field) from exc
        return QueryDict(body, encoding=(parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET)


class TextMultiPartParser(MultiPartParser):
    """DRF's multipart parser, refusing a field that is not UTF-8 text; files go on streaming through
    the view's upload handler, and are removed when a field is refused."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> DataAndFiles:
        parsed = super().parse(stream, media_type, {**(parser_context or {}), "encoding": MARKED_UTF8})
        try:
            check_fields(parsed.data)
        except InvalidFormText as exc:
            for upload in parsed.files.values():
                upload.close()
            raise JSONBodyError(exc.problem, field=exc.field) from exc
        return DataAndFiles(as_django_reads(parsed.data), parsed.files)
