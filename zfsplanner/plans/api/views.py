"""REST API: the disk catalog, designs (CRUD, import/export, estimate, commands,
share links), and compression measured on a sample."""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Mapping
from typing import Any

from django.core.cache import cache
from django.db.models import Count, QuerySet
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.core.document.limits import MAX_DOCUMENT_BYTES, DocumentLimitError, load_json_document
from zfsplanner.uploads.text import UnreadableUpload, read_text
from zfsplanner.web.api_parsers import JSONBodyError, LimitedJSONParser, TextFormParser, TextMultiPartParser

from ..access import design_state
from ..filters import CatalogDiskFilterSet, PoolDesignFilterSet
from ..models import CatalogDisk, PoolDesign
from ..services.designs import (
    EditConflict,
    NothingToWalk,
    duplicate_design,
    export_filename,
    validate_document,
    walk_revisions,
)
from ..services.disk_inputs import estimate_with_catalog
from ..services.estimates import (
    ESTIMATE_CACHE_SECONDS,
    commands_script,
    design_commands,
    estimate_design,
    planning_stamp,
)
from ..services.fixes import FixRefused, FixUnavailable, apply_fix, available_fixes
from ..services.sharing import create_share_link, revoke_share_link
from .serializers import (
    CatalogDiskSerializer,
    CommandsSerializer,
    DesignErrorSerializer,
    DesignImportSerializer,
    DesignSerializer,
    DesignSummarySerializer,
    InvalidDesignError,
    ShareLinkSerializer,
)


class RevisionRequestSerializer(serializers.Serializer):
    revision = serializers.IntegerField(
        required=False, help_text="The revision you see; 409 if another was saved since."
    )


class ApplyFixSerializer(RevisionRequestSerializer):
    code = serializers.CharField(max_length=80, help_text="Risk code, from GET .../fixes/.")
    subject = serializers.CharField(max_length=40, help_text="What the risk is about, e.g. vdevs[1].")


class FixSerializer(serializers.Serializer):
    code = serializers.CharField()
    subject = serializers.CharField()
    label = serializers.CharField(help_text="What applying the fix changes.")


class RevisionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField()
    summary = serializers.CharField()
    undo_to = serializers.IntegerField(allow_null=True)
    redo_to = serializers.IntegerField(allow_null=True)
    created = serializers.DateTimeField()
    created_by = serializers.StringRelatedField()


ESTIMATE_RESPONSE = OpenApiResponse(
    OpenApiTypes.OBJECT,
    description="The zfsplanner.estimate/1 document: pool, vdevs, datasets, risks (null where not computed).",
)
DESIGN_ERRORS = OpenApiResponse(DesignErrorSerializer, description="Invalid design; each error names its field.")
STALE_REVISION = OpenApiResponse(OpenApiTypes.OBJECT, description="The revision sent is stale: reload and retry.")


class DesignErrorShapeMixin:
    """A body that is not JSON at all answers in the design error shape too, like any other bad design."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, JSONBodyError):
            exc = InvalidDesignError([(exc.field, exc.message)])
        elif isinstance(exc, ParseError):
            exc = InvalidDesignError([("", str(exc.detail))])
        return super().handle_exception(exc)  # type: ignore[misc]


class IsStaffOrReadOnly(permissions.BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_staff)


class CanWriteDesign(permissions.BasePermission):
    """Members read a design; owners and editors of its team change it."""

    message = "Only owners and editors of the design's team can change it."

    def has_object_permission(self, request: Request, view: Any, obj: PoolDesign) -> bool:
        return request.method in permissions.SAFE_METHODS or obj.team.can_write(request.user)


class CatalogDiskViewSet(viewsets.ModelViewSet):
    """The disk catalog: any logged-in user reads it, staff change it."""

    queryset = CatalogDisk.objects.all()
    serializer_class = CatalogDiskSerializer
    filterset_class = CatalogDiskFilterSet
    permission_classes = [permissions.IsAuthenticated, IsStaffOrReadOnly]


class ScriptRenderer(BaseRenderer):
    """``?format=txt``: the commands as a ``sh`` script (errors as one ``# detail`` line)."""

    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> str:
        if isinstance(data, dict) and "commands" in data:
            return commands_script(data)
        detail = data.get("detail", data) if isinstance(data, dict) else data
        return f"# {detail}\n"


class ShareLinksMixin:
    """``/api/designs/{id}/share-links/``: members list a design's links; owners and editors create and revoke."""

    @extend_schema(methods=["GET"], responses={200: ShareLinkSerializer(many=True)})
    @extend_schema(methods=["POST"], request=ShareLinkSerializer, responses={201: ShareLinkSerializer})
    @extend_schema(
        methods=["DELETE"],
        operation_id="designs_share_links_revoke_by_id",
        parameters=[OpenApiParameter("id", int, OpenApiParameter.QUERY, description="Id of the link to revoke.")],
        responses={204: None},
    )
    @action(
        detail=True,
        methods=["get", "post", "delete"],
        url_path="share-links",
        serializer_class=ShareLinkSerializer,
        pagination_class=None,
    )
    def share_links(self, request: Request, pk: str | None = None) -> Response:
        """GET lists them; POST ``{"expires": iso or null}`` or ``{"expires_in_days": 7}`` creates one;
        DELETE ``?id=`` (or ``{"id": ...}``) revokes one."""
        design = self.get_object()  # type: ignore[attr-defined]
        context = {"request": request}
        if request.method == "GET":
            return Response(
                ShareLinkSerializer(design.share_links.select_related("created_by"), many=True, context=context).data
            )
        if request.method == "DELETE":
            link_id = request.query_params.get("id") or request.data.get("id")
            if not str(link_id or "").isdigit():
                raise ValidationError({"id": "give the id of the link to revoke"})
            return self._revoke(design, int(link_id))
        serializer = ShareLinkSerializer(data=request.data, context=context)
        serializer.is_valid(raise_exception=True)
        link = create_share_link(design, request.user, expires=serializer.validated_data.get("expires"))
        return Response(ShareLinkSerializer(link, context=context).data, status=status.HTTP_201_CREATED)

    @extend_schema(operation_id="designs_share_links_revoke", request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"share-links/(?P<link_id>[0-9]+)")
    def share_link(self, request: Request, pk: str | None = None, link_id: str = "") -> Response:
        """Revoke one link: it stays listed (``revoked: true``) and its URL answers 404 from now on."""
        return self._revoke(self.get_object(), int(link_id))  # type: ignore[attr-defined]

    def _revoke(self, design: PoolDesign, link_id: int) -> Response:
        revoke_share_link(get_object_or_404(design.share_links, pk=link_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(
    list=extend_schema(responses={200: DesignSummarySerializer(many=True)}),
    create=extend_schema(responses={201: DesignSerializer, 400: DESIGN_ERRORS}),
    update=extend_schema(responses={200: DesignSerializer, 400: DESIGN_ERRORS, 409: STALE_REVISION}),
    destroy=extend_schema(responses={204: None}),
)
class DesignViewSet(DesignErrorShapeMixin, ShareLinksMixin, viewsets.ModelViewSet):
    """Pool designs of your teams. The body is the design document plus ``team``."""

    serializer_class = DesignSerializer
    filterset_class = PoolDesignFilterSet
    permission_classes = [permissions.IsAuthenticated, CanWriteDesign]
    http_method_names = ["get", "post", "put", "delete", "head", "options"]
    throttle_scopes = {"estimate": "estimate"}

    def get_queryset(self) -> QuerySet[PoolDesign]:
        designs = PoolDesign.objects.for_user(self.request.user).select_related("team")
        if self.action == "list":  # a summary per design: counts, not the rows of every document
            return designs.annotate(
                vdev_group_count=Count("vdevs", distinct=True), dataset_count=Count("datasets", distinct=True)
            ).order_by("team__name", "name", "pk")
        return designs.prefetch_related("vdevs__catalog_disk", "datasets")

    def get_serializer_class(self) -> Any:
        return DesignSummarySerializer if self.action == "list" else DesignSerializer

    @extend_schema(
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The zfsplanner.design/1 document.")}
    )
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer])
    def export(self, request: Request, pk: str | None = None) -> Response:
        """The design document alone (catalog disks inlined), as a file download."""
        design = self.get_object()
        disposition = f'attachment; filename="{export_filename(design)}"'
        return Response(design.to_document(), headers={"Content-Disposition": disposition})

    @extend_schema(responses={200: ESTIMATE_RESPONSE})
    @action(detail=True, methods=["get"], url_path="estimate")
    def estimate(self, request: Request, pk: str | None = None) -> HttpResponseBase:
        """What ``zpool list``/``zfs list`` will print for this design, and its risks."""
        state = design_state(request.user, pk)
        key = f"estimate-json:{state.revision_key}:{planning_stamp()}" if state is not None else None
        try:
            if key is not None and request.accepted_renderer.format == "json":
                return _json_response(cached_json(key, lambda: estimate_design(self.get_object()).to_document()))
            return Response(estimate_design(self.get_object()).to_document())
        except InvalidDesign as exc:  # a stored design that no longer passes (e.g. beyond today's limits)
            raise InvalidDesignError(exc.errors) from exc

    @extend_schema(responses={200: CommandsSerializer})
    @action(detail=True, methods=["get"], renderer_classes=[JSONRenderer, BrowsableAPIRenderer, ScriptRenderer])
    def commands(self, request: Request, pk: str | None = None) -> Response:
        """The ``zpool create``/``zfs create`` commands that build the design (``?format=txt``: a sh script).

        Device paths are placeholders (``/dev/disk/by-id/<model>-<n>``) to replace with real ones.
        """
        try:
            return Response(design_commands(self.get_object()))
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc

    def _walk(self, request: Request, direction: str) -> Response:
        design = self.get_object()
        try:
            design = walk_revisions(design, direction, request.user, expected_revision=_expected(request))
        except NothingToWalk:
            return Response({"detail": f"There is nothing to {direction}."}, status=status.HTTP_409_CONFLICT)
        except EditConflict as exc:
            return Response({"detail": str(exc), "revision": exc.current}, status=status.HTTP_409_CONFLICT)
        return Response(DesignSerializer(design, context=self.get_serializer_context()).data)

    @extend_schema(request=RevisionRequestSerializer, responses={200: DesignSerializer, 409: STALE_REVISION})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str | None = None) -> Response:
        """Undo the last change: a new revision with the document of the one before it."""
        return self._walk(request, "undo")

    @extend_schema(request=RevisionRequestSerializer, responses={200: DesignSerializer, 409: STALE_REVISION})
    @action(detail=True, methods=["post"])
    def redo(self, request: Request, pk: str | None = None) -> Response:
        """Redo what the last undo took back."""
        return self._walk(request, "redo")

    @extend_schema(request=None, responses={201: DesignSerializer})
    @action(detail=True, methods=["post"])
    def duplicate(self, request: Request, pk: str | None = None) -> Response:
        """A variant: a new design in the same team with the same document (pool renamed ``NAME-v2``)."""
        variant = duplicate_design(self.get_object(), request.user)
        return Response(DesignSerializer(variant, context=self.get_serializer_context()).data, status=201)

    @extend_schema(responses={200: RevisionSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def revisions(self, request: Request, pk: str | None = None) -> Response:
        """The revisions of the design, newest first (what changed, who, when; undo/redo targets)."""
        rows = self.get_object().revisions.select_related("created_by")[:200]
        return Response(RevisionSerializer(rows, many=True).data)

    @extend_schema(responses={200: FixSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def fixes(self, request: Request, pk: str | None = None) -> Response:
        """The risks whose fix is a change to the design, with what applying it does."""
        try:
            found = available_fixes(self.get_object())
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc
        return Response([{"code": f.code, "subject": f.subject, "label": f.label} for f in found])

    @extend_schema(
        request=ApplyFixSerializer, responses={200: DesignSerializer, 400: OpenApiTypes.OBJECT, 409: STALE_REVISION}
    )
    @action(detail=True, methods=["post"], url_path="fixes/apply")
    def apply_fix(self, request: Request, pk: str | None = None) -> Response:
        """Apply one risk's fix (``code`` and ``subject`` from ``fixes``) as a new revision
        (``services.fixes.apply_fix``, as the designer does)."""
        design = self.get_object()
        body = ApplyFixSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        code, subject = body.validated_data["code"], body.validated_data["subject"]
        try:
            design, _ = apply_fix(design, code, subject, request.user, body.validated_data.get("revision"))
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc
        except FixRefused as exc:
            raise InvalidDesignError(exc.errors) from exc
        except FixUnavailable:
            return Response(
                {"code": [f"This design has no risk {code!r} on {subject!r} with a one-click fix (GET .../fixes/)."]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        except EditConflict as exc:
            return Response({"detail": str(exc), "revision": exc.current}, status=status.HTTP_409_CONFLICT)
        return Response(DesignSerializer(design, context=self.get_serializer_context()).data)

    @extend_schema(
        request={"multipart/form-data": DesignImportSerializer, "application/json": DesignImportSerializer},
        responses={201: DesignSerializer, 400: DESIGN_ERRORS},
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[LimitedJSONParser, TextMultiPartParser, TextFormParser],
    )
    def import_design(self, request: Request) -> Response:
        """Create a design from a document: a ``file`` upload with ``team``, or JSON ``{"team", "document"}``."""
        data = {**_import_document(request), "team": request.data.get("team")}
        serializer = DesignSerializer(data=data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data, status=status.HTTP_201_CREATED)


def _import_document(request: Request) -> dict[str, Any]:
    """The document of an import request (uploaded file, ``document`` key, or the body itself)."""
    if not isinstance(request.data, Mapping):
        raise InvalidDesignError([("", 'the body must be a JSON object: {"team": ..., "document": {...}}')])
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size > MAX_DOCUMENT_BYTES:
            raise InvalidDesignError([("file", f"{upload.name} is larger than 1 MiB; a design is a few kilobytes")])
        try:
            doc = load_json_document(read_text(upload.read(), upload.name))
        except DocumentLimitError as exc:
            raise InvalidDesignError([("file", f"{upload.name}: {exc}")]) from exc
        except UnreadableUpload as exc:
            raise InvalidDesignError([("file", str(exc.detail))]) from exc
        except json.JSONDecodeError as exc:
            raise InvalidDesignError(
                [("file", f"{upload.name}: invalid JSON at line {exc.lineno}: {exc.msg}")]
            ) from exc
    elif isinstance(request.data.get("document"), dict):
        doc = request.data["document"]
    elif not hasattr(request.data, "getlist") and "vdevs" in request.data:  # a JSON body that is the document
        doc = {k: v for k, v in request.data.items() if k != "team"}
    else:
        raise InvalidDesignError([("file", "give a design file (multipart 'file') or a JSON 'document'")])
    if not isinstance(doc, dict):
        raise InvalidDesignError([("", "the design must be a JSON object")])
    if "team" in doc:
        doc = {k: v for k, v in doc.items() if k != "team"}
    return doc


class EstimateView(DesignErrorShapeMixin, APIView):
    """Estimate a design document without saving it."""

    throttle_scopes = {"post": "estimate"}

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: ESTIMATE_RESPONSE, 400: DESIGN_ERRORS},
        examples=[
            OpenApiExample(
                "6 × 14 TB raidz2",
                request_only=True,
                value={
                    "name": "tank",
                    "vdevs": [{"role": "data", "layout": "raidz2", "width": 6, "disk": {"catalog": "ST14000NM001G"}}],
                },
            )
        ],
    )
    def post(self, request: Request) -> HttpResponseBase:
        key = _body_key(request)
        try:
            if key is not None and request.accepted_renderer.format == "json":
                compute = lambda: estimate_with_catalog(validate_document(request.data)).to_document()  # noqa: E731
                return _json_response(cached_json(key, compute, POSTED_ESTIMATE_CACHE_SECONDS))
            return Response(estimate_with_catalog(validate_document(request.data)).to_document())
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc


def _body_key(request: Request) -> str | None:
    """The cache key of a JSON body's estimate: the sender, the digest of the parsed document and
    the catalog's state (a document is estimated once; only valid ones are kept). None when the
    body is not a JSON object.

    The digest is taken over the parsed document written canonically, never over the raw body:
    a session's CSRF check (the browsable API, the docs' "Try it out") has already read the
    stream by now, and two bodies that differ only in spacing or key order are one document."""
    if not request.content_type.startswith("application/json"):
        return None
    data = request.data  # parsed once, through the size, depth and text checks of LimitedJSONParser
    if not isinstance(data, dict):
        return None
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    digest = hashlib.sha256(canonical.encode("ascii")).hexdigest()
    return f"estimate-body:{request.user.pk}:{digest}:{planning_stamp()}"


# A posted document's estimate is kept for a few minutes (a client posting the same document
# again); a stored design's for as long as its other cached figures.
POSTED_ESTIMATE_CACHE_SECONDS = 300


def cached_json(key: str, compute: Callable[[], Any], timeout: int = ESTIMATE_CACHE_SECONDS) -> bytes:
    """``compute()`` as the API's JSON bytes, computed and encoded once per key (an estimate per
    design revision or per document): later requests are served the bytes. Stored compressed
    (an estimate is ~27 KB of JSON, ~8 KB stored). Exceptions (an invalid design) are not cached."""
    stored = cache.get(key)
    if stored is not None:
        return zlib.decompress(stored)
    body = bytes(JSONRenderer().render(compute()))
    cache.set(key, zlib.compress(body, 1), timeout=timeout)
    return body


def _json_response(body: bytes) -> HttpResponse:
    return HttpResponse(body, content_type="application/json")


def _expected(request: Request) -> int | None:
    value = request.data.get("revision") if hasattr(request.data, "get") else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None
