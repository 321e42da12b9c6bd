"""The API's JSON parser: a request-size limit and the document limits before ``json.loads``.

DRF's own ``JSONParser`` reads the whole body (Django's DATA_UPLOAD_MAX_MEMORY_SIZE does
not apply to a stream) and hands it to Python's recursive parser, so a huge or deeply
nested body costs memory or a RecursionError. This one reads at most API_JSON_MAX_BYTES
(+1 to notice more), checks size and nesting depth on the text
(``zfsplanner.core.limits.load_json_document``), and refuses a NUL anywhere in the
parsed body (PostgreSQL cannot store one). Each refusal is a 400 with a message.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from zfsplanner.core.limits import DocumentLimitError, load_json_document


def nul_path(value: Any) -> str | None:
    """The path of the first string (or key) holding a NUL character, walking iteratively."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return path or "(body)"
        elif isinstance(item, dict):
            for key, child in item.items():
                if "\x00" in str(key):
                    return path or "(body)"
                stack.append((child, f"{path}.{key}" if path else str(key)))
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{i}]") for i, child in enumerate(item))
    return None


class JSONBodyError(ParseError):
    """A refused JSON body; ``field`` is the path of the offending value ("" for the whole body)."""

    def __init__(self, message: str, field: str = "") -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class LimitedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = int(settings.API_JSON_MAX_BYTES)
        data = stream.read(limit + 1)
        if len(data) > limit:
            raise ParseError(f"the request body is larger than {limit:,} bytes; send at most that much JSON")
        try:
            text = data.decode((parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET)
            value = load_json_document(text, max_bytes=limit)
        except DocumentLimitError as exc:
            raise ParseError(str(exc)) from exc
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from exc
        except ValueError as exc:  # e.g. Python's limit on digits in one integer
            raise ParseError(f"JSON parse error - {exc}") from exc
        where = nul_path(value)
        if where is not None:
            raise JSONBodyError("contains a NUL character (\\u0000), which cannot be stored", field=where)
        return value
