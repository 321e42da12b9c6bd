"""REST API: pool imports (stored, read at once: the preview; sizes asked; save as a design) and histogram uploads
(stored, bucketed by a worker)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from zfsplanner.accounts.tokens import upload_only_team
from zfsplanner.core.design.types import InvalidDesign
from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import FORM_OVERHEAD_BYTES, check_content_length, install_upload_handler
from zfsplanner.web.api_parsers import LimitedJSONParser, TextFormParser, TextMultiPartParser

from .. import services
from ..models import FILE_LISTINGS, POOL_OUTPUTS, HistogramUpload, PoolImport
from ..presentation import answer_error
from .serializers import (
    HistogramUploadCreateSerializer,
    HistogramUploadSerializer,
    PoolImportRequestSerializer,
    PoolImportSerializer,
    PoolImportSizesSerializer,
    SaveImportSerializer,
)


class ImportJSONParser(LimitedJSONParser):
    """Pasted outputs and listings are larger than a design: JSON-escaped, an import's text (at most
    POOL_IMPORT_MAX_BYTES) may take twice that, plus room for the rest of the body. Larger listings
    go as a file."""

    def limit(self) -> int:
        return 2 * POOL_OUTPUTS.max_bytes() + FORM_OVERHEAD_BYTES


def _read(record: PoolImport, created: bool) -> Response:
    """The import once read (201 new, 200 read again); outputs that cannot be read are a 400 naming
    the line, with where the stored outputs are (``id``, ``url``) to read them again after an update."""
    if record.is_read:
        return Response(PoolImportSerializer(record).data, status=status.HTTP_201_CREATED if created else 200)
    body = {"detail": record.error, "line": record.error_line, "source": record.error_source or None,
            "format": record.error_format or None, "id": record.pk, "url": PoolImportSerializer(record).data["url"]}
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _must_be_read(record: PoolImport) -> None:
    if record.is_read:
        return
    retry = f"POST /api/pool-imports/{record.pk}/retry/"
    if record.error:
        raise Conflict(f"the outputs of import {record.pk} could not be read ({record.error}); read them again "
                       f"after an update ({retry})")
    raise Conflict(f"the outputs of import {record.pk} are not read yet; read them now with {retry}")


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


@extend_schema_view(
    create=extend_schema(
        request={"application/json": PoolImportRequestSerializer, "multipart/form-data": PoolImportRequestSerializer},
        responses={201: PoolImportSerializer,
                   400: OpenApiResponse(OpenApiTypes.OBJECT, description=(
                       'Unreadable output: {"detail", "line", "source", "format", "id", "url"} naming the line; '
                       "the outputs are stored as import id (POST retry/ reads them again). A missing or malformed "
                       "field: {field: [messages]}.")),
                   413: OpenApiResponse(OpenApiTypes.OBJECT, description="A file or the outputs together are "
                                        "larger than POOL_IMPORT_MAX_BYTES; nothing was stored.")},
    ),
)
class PoolImportViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin, mixins.ListModelMixin,
                        viewsets.GenericViewSet):
    """Import an existing pool from the outputs of zpool status & co.; the preview holds the design, the
    "model vs your pool" comparison and notes; ``save`` stores the design for a team."""

    serializer_class = PoolImportSerializer
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [ImportJSONParser, TextMultiPartParser, TextFormParser]

    def get_queryset(self) -> QuerySet[PoolImport]:
        return PoolImport.objects.for_user(self.request.user)

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        if request.method == "POST" and request.content_type.startswith("multipart/"):
            install_upload_handler(request, POOL_OUTPUTS)  # before authentication reads the body
        return super().initialize_request(request, *args, **kwargs)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if request.content_type.startswith("multipart/"):
            check_content_length(request, POOL_OUTPUTS)
        data = request.data
        if hasattr(data, "getlist") and request.FILES:
            data = {**{k: data.get(k) for k in data if k != "files"}, "files": request.FILES.getlist("files")}
        req = PoolImportRequestSerializer(data=data, context={"request": request})
        req.is_valid(raise_exception=True)
        design = req.validated_data.get("design")
        if design is not None:
            scoped = upload_only_team(request)
            if scoped is not None and design.team_id != scoped.pk:
                raise ValidationError({"design": [f"design {design.pk} belongs to another team than this token's"]})
            if not design.team.can_write(request.user):
                raise PermissionDenied("Only owners and editors of the design's team can attach an import to it.")
        record = services.create_pool_import(request.user, req.source_pairs(), req.validated_data.get("pool", ""))
        if design is not None:
            record = services.attach_pool_import(record, design)
        return _read(record, created=True)

    @extend_schema(request=None, responses={
        200: PoolImportSerializer,
        400: OpenApiResponse(OpenApiTypes.OBJECT, description="Still unreadable: as for create."),
        409: OpenApiResponse(description="Being read right now: nothing to retry.")})
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, pk: str | None = None) -> Response:
        """Read the stored outputs again (after an update); answered sizes are asked again."""
        record = self.get_object()
        if not services.read_again(record):
            raise Conflict(f"import {record.pk} is being read right now; nothing to retry")
        return _read(record, created=False)

    @extend_schema(request=PoolImportSizesSerializer, responses={
        200: PoolImportSerializer,
        400: OpenApiResponse(OpenApiTypes.OBJECT, description='{"sizes": [message naming the question]}'),
        409: OpenApiResponse(description="The outputs could not be read: nothing is asked.")})
    @action(detail=True, methods=["post"])
    def sizes(self, request: Request, pk: str | None = None) -> Response:
        """Answer the sizes the preview asks (``questions``), as the preview page does."""
        record = self.get_object()
        _must_be_read(record)
        ser = PoolImportSizesSerializer(data=request.data, context={"request": request})
        ser.is_valid(raise_exception=True)
        try:
            record = services.answer_pool_import(record, ser.fields_data())
        except ValueError as exc:  # UnreadableOutput and InvalidDesign are ValueErrors
            raise ValidationError({"sizes": [answer_error(exc, record.document)]}) from exc
        return Response(PoolImportSerializer(record).data)

    @extend_schema(request=SaveImportSerializer,
                   responses={201: OpenApiResponse(description='{"design": id, "url": "/designs/<id>/"}')})
    @action(detail=True, methods=["post"])
    def save(self, request: Request, pk: str | None = None) -> Response:
        record = self.get_object()
        _must_be_read(record)
        ser = SaveImportSerializer(data=request.data, context={"request": request})
        ser.is_valid(raise_exception=True)
        team = ser.validated_data["team"]
        if not team.can_write(request.user):
            raise PermissionDenied("Only owners and editors of that team can add designs to it.")
        try:
            design = services.save_pool_import(record, team, request.user, ser.validated_data.get("name"))
        except InvalidDesign as exc:
            raise ValidationError({path or "document": [message] for path, message in exc.errors}) from exc
        return Response({"design": design.pk, "url": f"/designs/{design.pk}/"}, status=status.HTTP_201_CREATED)


class HistogramUploadViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Listings (find/du/CSV) or zdb -Lbbbs dumps for one dataset of a design: stored, then bucketed by a worker;
    when done the dataset's contents hold the histogram (a new revision). ``?design=<id>`` filters."""

    serializer_class = HistogramUploadSerializer
    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [TextMultiPartParser, ImportJSONParser, TextFormParser]

    def get_queryset(self) -> QuerySet[HistogramUpload]:
        qs = HistogramUpload.objects.for_user(self.request.user).select_related("design__team")
        design = self.request.query_params.get("design")
        if design is not None:
            if not design.isdigit():
                raise ValidationError({"design": ["must be a design id"]})
            qs = qs.filter(design_id=int(design))
        return qs

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        if request.method == "POST" and request.content_type.startswith("multipart/"):
            install_upload_handler(request, FILE_LISTINGS)  # before authentication reads the body
        return super().initialize_request(request, *args, **kwargs)

    @extend_schema(
        request={"multipart/form-data": HistogramUploadCreateSerializer,
                 "application/json": HistogramUploadCreateSerializer},
        responses={202: HistogramUploadSerializer},
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        check_content_length(request, FILE_LISTINGS)
        ser = HistogramUploadCreateSerializer(data=request.data, context={"request": request})
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        design = d["design"]
        if not design.team.can_write(request.user):
            raise PermissionDenied("Only owners and editors of the team can change the design's datasets.")
        source: Any = d["file"] if d.get("file") else d["text"].encode()
        name = d["file"].name if d.get("file") else "pasted listing"
        try:
            upload = services.store_histogram(design=design, dataset=d["dataset"], user=request.user, file=source,
                                              name=name, fmt=d["format"])
        except LookupError as exc:
            raise ValidationError({"dataset": [str(exc)]}) from exc
        return Response(HistogramUploadSerializer(upload).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(request=None, responses={202: HistogramUploadSerializer, 409: OpenApiResponse(
        description="Still being bucketed: nothing to retry.")})
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, pk: str | None = None) -> Response:
        upload = self.get_object()
        if not upload.design.team.can_write(request.user):
            raise PermissionDenied("Only owners and editors of the team can change the design's datasets.")
        if not lifecycle.retry(FILE_LISTINGS, upload):
            return Response({"detail": f"the upload is {upload.status}; nothing to retry"},
                            status=status.HTTP_409_CONFLICT)
        return Response(HistogramUploadSerializer(upload).data, status=status.HTTP_202_ACCEPTED)

