"""REST API: the disk catalog, designs (CRUD, import/export, estimate, commands,
share links), and compression measured on a sample."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from zfsplanner.core.design import InvalidDesign
from zfsplanner.core.estimate import estimate

from ..filters import CatalogDiskFilterSet, PoolDesignFilterSet
from ..models import CatalogDisk, PoolDesign
from ..samples import install_sample_handler, measure_sample, too_big_message
from ..services import (
    commands_script,
    create_share_link,
    design_commands,
    estimate_design,
    export_filename,
    revoke_share_link,
    validate_document,
)
from .serializers import (
    CatalogDiskSerializer,
    CommandsSerializer,
    CompressionSampleSerializer,
    DesignErrorSerializer,
    DesignImportSerializer,
    DesignSerializer,
    InvalidDesignError,
    MeasuredCompressionSerializer,
    ShareLinkSerializer,
)

ESTIMATE_RESPONSE = OpenApiResponse(
    OpenApiTypes.OBJECT,
    description="The zfsplanner.estimate/1 document: pool, vdevs, datasets, risks (null where not computed).",
)
DESIGN_ERRORS = OpenApiResponse(DesignErrorSerializer, description="Invalid design; each error names its field.")
STALE_REVISION = OpenApiResponse(OpenApiTypes.OBJECT, description="The revision sent is stale: reload and retry.")


class DesignErrorShapeMixin:
    """A body that is not JSON at all answers in the design error shape too, like any other bad design."""

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ParseError):
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

    def get_queryset(self) -> QuerySet[PoolDesign]:
        return (
            PoolDesign.objects.for_user(self.request.user)
            .select_related("team")
            .prefetch_related("vdevs__catalog_disk", "datasets")
        )

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
    def estimate(self, request: Request, pk: str | None = None) -> Response:
        """What ``zpool list``/``zfs list`` will print for this design, and its risks."""
        return Response(estimate_design(self.get_object()))

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

    @extend_schema(
        request={"multipart/form-data": DesignImportSerializer, "application/json": DesignImportSerializer},
        responses={201: DesignSerializer, 400: DESIGN_ERRORS},
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[JSONParser, MultiPartParser, FormParser],
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
        raise InvalidDesignError([("", "the body must be a JSON object: {\"team\": ..., \"document\": {...}}")])
    upload = request.FILES.get("file")
    if upload is not None:
        try:
            doc = json.loads(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError as exc:
            raise InvalidDesignError([("file", f"{upload.name} is not UTF-8 text")]) from exc
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
    def post(self, request: Request) -> Response:
        try:
            return Response(estimate(validate_document(request.data)))
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc


class CompressionMeasureView(APIView):
    """Measure compression on a sample file: what ``zfs get compressratio`` would print, block by block."""

    parser_classes = [MultiPartParser]

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        self.sample_handler = install_sample_handler(request)  # before authentication reads the body
        return super().initialize_request(request, *args, **kwargs)

    @extend_schema(
        request={"multipart/form-data": CompressionSampleSerializer},
        responses={200: MeasuredCompressionSerializer},
    )
    def post(self, request: Request) -> Response:
        fields = request.data  # parses the upload through the sample handler
        if self.sample_handler.too_big:
            raise ValidationError({"file": [too_big_message()]})
        serializer = CompressionSampleSerializer(data=fields)
        serializer.is_valid(raise_exception=True)
        d = serializer.validated_data
        data = d["file"].read()
        return Response(measure_sample(data, d["algorithm"], d["recordsize"], d["ashift"], d["openzfs_version"]))
