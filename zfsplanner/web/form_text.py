"""Form fields that are not UTF-8 text are refused, for every form the app reads, as the JSON API refuses them.

Django reads a posted form's bytes as UTF-8 with ``errors="replace"``: a team name posted as
``x%ED%BF%BF`` (the UTF-8 bytes of a lone surrogate) became ``x\\ufffd\\ufffd\\ufffd`` and was
saved, while the API answered 400. :class:`~zfsplanner.web.middleware.RefuseInvalidFormTextMiddleware`
hooks :func:`checked_load` on every POST before anything reads it: the body is parsed with a
codec that keeps each invalid byte visible (as Python's ``surrogateescape`` does), every
field name and value is checked, and the first that is not text is a
:class:`InvalidFormText` (Django's ``BadRequest``): a 400 page naming the field, nothing saved.

A urlencoded form is read again from its body (Django keeps it); a multipart form is read once,
with the codec (uploaded files still stream through the view's handler). A file's name is not
checked: Django drops a part whose headers are not UTF-8, and reads ``filename*=`` with
``errors="replace"``, so a name never holds more than U+FFFD.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, QueryDict

from zfsplanner.core.document.limits import text_error

# The codec a form is read with: UTF-8, each byte that is not UTF-8 kept as a lone surrogate
# (U+DC80..U+DCFF), whatever ``errors`` Django asks for, so that none goes unnoticed.
MARKED_UTF8 = "zfsplanner_marked_utf_8"


def _search(name: str) -> codecs.CodecInfo | None:
    if name.replace("-", "_") != MARKED_UTF8:
        return None
    return codecs.CodecInfo(
        name=MARKED_UTF8,
        encode=lambda text, errors="strict": codecs.utf_8_encode(text, "surrogateescape"),
        decode=lambda data, errors="strict": codecs.utf_8_decode(data, "surrogateescape", True),
    )


codecs.register(_search)


class InvalidFormText(BadRequest):
    """A form field that is not text; ``field`` names it as the form does, ``message`` says why."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        self.message = (
            f"The field “{field.replace('_', ' ')}” {problem}. Nothing was saved; "
            "type or paste the text again (an editor or script sent it in another encoding)."
        )
        super().__init__(self.message)


def text_problem(value: str) -> str | None:
    """Why a value read with :data:`MARKED_UTF8` is not text (bytes that are not UTF-8, a lone
    surrogate), in the API's words where they apply; None for text."""
    if not any(0xD800 <= ord(ch) <= 0xDFFF for ch in value):
        return None
    raw = value.encode("utf-8", "surrogateescape")
    try:
        surrogate = raw.decode("utf-8", "surrogatepass")  # the UTF-8 bytes of a lone surrogate (%ED%BF%BF)
    except UnicodeDecodeError as exc:
        return f"is not UTF-8 text (byte 0x{raw[exc.start]:02x})"
    return text_error(surrogate)


def _shown(name: str) -> str:
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")[:60]


def check_fields(post: QueryDict) -> None:
    """:class:`InvalidFormText` for the first field name or value that is not text."""
    for key, values in post.lists():
        problem = text_problem(key)
        if problem:
            raise InvalidFormText(_shown(key), f"has a name that {problem}")
        for value in values:
            problem = text_problem(value)
            if problem:
                raise InvalidFormText(key, problem)


def checked_load(request: HttpRequest, load: Callable[[], None]) -> None:
    """Django's ``request._load_post_and_files`` (``load``), with every field checked once parsed."""
    if request.method != "POST" or request.content_type not in ("multipart/form-data",
                                                                 "application/x-www-form-urlencoded"):
        load()
        return
    if request.content_type == "application/x-www-form-urlencoded":
        load()
        check_fields(QueryDict(request.body, encoding=MARKED_UTF8))
        return
    encoding = request._encoding  # type: ignore[attr-defined]  # the setter would drop the parsed GET
    request._encoding = MARKED_UTF8  # type: ignore[attr-defined]
    try:
        load()
    finally:
        request._encoding = encoding  # type: ignore[attr-defined]
    parsed = request._post  # type: ignore[attr-defined]
    try:
        check_fields(parsed)
    except InvalidFormText:
        # Whoever reads the form after the refusal reads it as Django would have (U+FFFD); the
        # files stay on the request, which removes them when it ends.
        request._post = as_django_reads(parsed)  # type: ignore[attr-defined]
        raise


def as_django_reads(post: QueryDict) -> QueryDict:
    """``post`` read with :data:`MARKED_UTF8`, as Django reads it (each invalid byte a U+FFFD)."""

    def plain(text: str) -> str:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")

    out = QueryDict(mutable=True)
    for key, values in post.lists():
        out.setlist(plain(key), [plain(v) for v in values])
    out._mutable = False
    return out
