from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from zfsplanner.uploads import lifecycle
from zfsplanner.uploads.handler import check_content_length, install_upload_handler

from .. import charts, services
from ..access import parse_run_ids, runs_for_user
from ..filters import BenchRunFilterSet
from ..models import BENCHMARK_LOGS, BenchRun, BenchUpload
from .serializers import (
    BenchRunSerializer,
    BenchUploadSerializer,
    UploadCreateSerializer,
    ValidityCheckInputSerializer,
)


class CanWriteTeam(permissions.BasePermission):
    """Members read; owners and editors of the object's team change it."""

    message = "Your role in this team may only read (owners and editors may change benchmark runs)."

    def has_object_permission(self, request: Any, view: Any, obj: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or obj.team.can_write(request.user)


class ChartCSVRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        if isinstance(data, dict) and "datasets" in data:
            return charts.chart_csv(data).encode()
        # An error body: keep it readable as one CSV cell per message.
        return ("error\n" + str(data.get("detail", data) if isinstance(data, dict) else data) + "\n").encode()


CHART_RENDERERS = [JSONRenderer, BrowsableAPIRenderer, ChartCSVRenderer]


class BenchRunViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Benchmark runs; ``result`` is the normalized document (benchmark-result-format).

    ``DELETE`` removes the run with its upload and stored bytes (409 while a worker parses it)."""

    serializer_class = BenchRunSerializer
    filterset_class = BenchRunFilterSet
    permission_classes = [permissions.IsAuthenticated, CanWriteTeam]

    def get_queryset(self) -> Any:
        return BenchRun.objects.for_user(self.request.user).select_related("upload", "team")

    @extend_schema(responses={204: None, 409: OpenApiTypes.OBJECT})
    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        run = self.get_object()
        try:
            services.delete_run(run)
        except services.RunBusy as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(methods=["POST"], request=ValidityCheckInputSerializer, responses={200: BenchRunSerializer})
    @extend_schema(methods=["DELETE"], request=None, responses={200: BenchRunSerializer})
    @action(detail=True, methods=["post", "delete"], url_path="validity-check")
    def validity_check(self, request: Request, pk: Any = None) -> Response:
        """POST ``{"reason": "…"}``: a person checked the run's validity warnings and says why its
        figures stand (charts stop marking it); DELETE: the warnings count again."""
        run = self.get_object()
        if request.method == "DELETE":
            services.clear_validity_check(run)
        else:
            data = ValidityCheckInputSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            services.mark_validity_checked(run, request.user, data.validated_data["reason"])
        return Response(BenchRunSerializer(run, context=self.get_serializer_context()).data)

    @extend_schema(
        parameters=[
            OpenApiParameter("metric", str, description="bandwidth, iops or latency (default: the first one)"),
            OpenApiParameter("max_points", int, description="Points per series after downsampling (default 1000)"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, renderer_classes=CHART_RENDERERS)
    def series(self, request: Request, pk: Any = None, format: str | None = None) -> Response:
        """Time series of the run's fio logs: ``?metric=bandwidth|iops|latency&max_points=1000``."""
        run = self.get_object()
        try:
            max_points = int(request.query_params.get("max_points", charts.DEFAULT_SERIES_POINTS))
            data = charts.run_data([run], with_series=True)
            return Response(charts.series_chart(data, request.query_params.get("metric") or None, max_points))
        except (ValueError, charts.ChartError) as exc:
            raise ValidationError({"detail": str(exc)}) from exc


class BenchUploadViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Uploads: POST one or many files (multipart), GET their status, POST ``{id}/retry/``."""

    serializer_class = BenchUploadSerializer
    permission_classes = [permissions.IsAuthenticated, CanWriteTeam]
    throttle_scopes = {"create": "uploads", "retry": "uploads"}

    def get_queryset(self) -> Any:
        return BenchUpload.objects.for_user(self.request.user).select_related("team", "run")

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        if request.method == "POST":
            install_upload_handler(request, BENCHMARK_LOGS)
        return super().initialize_request(request, *args, **kwargs)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        check_content_length(request._request, BENCHMARK_LOGS)
        super().initial(request, *args, **kwargs)

    def get_serializer_class(self) -> Any:
        return UploadCreateSerializer if self.action == "create" else BenchUploadSerializer

    @extend_schema(request={"multipart/form-data": UploadCreateSerializer}, responses={201: OpenApiTypes.OBJECT})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = UploadCreateSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        team, files = data.pop("team"), data.pop("files")
        stored = [services.store_upload(team=team, user=request.user, file=f, run_fields=data) for f in files]
        body = [
            {**BenchUploadSerializer(s.upload).data, "duplicate": s.duplicate, "message": s.message} for s in stored
        ]
        any_new = any(not s.duplicate for s in stored)
        return Response({"uploads": body}, status=status.HTTP_201_CREATED if any_new else status.HTTP_200_OK)

    @extend_schema(request=None, responses={202: BenchUploadSerializer, 409: OpenApiTypes.OBJECT})
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, pk: Any = None) -> Response:
        """Parse the stored bytes again: after a failure or a parser update, or queue a waiting upload again.

        Works from every state but a running parse (409); an upload left ``parsing`` by a
        worker that died is taken back."""
        upload = self.get_object()
        if not lifecycle.retry(BENCHMARK_LOGS, upload):
            return Response(
                {
                    "detail": f"upload {upload.pk} is being parsed right now; retry once it has finished",
                    **BenchUploadSerializer(upload).data,
                },
                status=status.HTTP_409_CONFLICT,
            )
        upload.refresh_from_db()
        return Response(BenchUploadSerializer(upload).data, status=status.HTTP_202_ACCEPTED)


class SeriesCompareView(APIView):
    """``?runs=1,2&metric=bandwidth|iops|latency[&max_points=1000]``: the fio-log time series of
    several runs overlaid on one chart (one line per run and log); JSON or CSV."""

    renderer_classes = CHART_RENDERERS

    @extend_schema(
        operation_id="benchmarks_series_compare",
        parameters=[
            OpenApiParameter("runs", str, required=True, description="Run ids, comma-separated: 1,2"),
            OpenApiParameter("metric", str, description="bandwidth, iops or latency (default: the first one)"),
            OpenApiParameter("max_points", int, description="Points per series after downsampling (default 1000)"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, format: str | None = None) -> Response:
        try:
            ids = parse_run_ids(request.query_params.getlist("runs"))
            max_points = int(request.query_params.get("max_points", charts.DEFAULT_SERIES_POINTS))
        except ValueError as exc:
            raise ValidationError({"runs": str(exc)}) from exc
        if not ids:
            raise ValidationError({"runs": "pick at least one run: runs=1,2"})
        runs = runs_for_user(request, ids)
        try:
            chart = charts.series_chart(
                charts.run_data(runs, with_series=True), request.query_params.get("metric") or None, max_points
            )
        except charts.ChartError as exc:
            raise ValidationError({"metric": str(exc)}) from exc
        chart["runs"] = [{"id": r.pk, "label": r.display_label} for r in runs]
        return Response(chart)


class ChartView(APIView):
    """``?runs=1,2&metric=bandwidth|iops|latency|latency_max|ops|percentiles[&test=NAME]``; JSON or CSV."""

    renderer_classes = CHART_RENDERERS

    @extend_schema(
        parameters=[
            OpenApiParameter("runs", str, required=True, description="Run ids, comma-separated: 1,2"),
            OpenApiParameter("metric", str, enum=list(charts.CHART_METRICS), description="Default: bandwidth"),
            OpenApiParameter("test", str, description="Percentiles of this test name only"),
        ],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, format: str | None = None) -> Response:
        try:
            ids = parse_run_ids(request.query_params.getlist("runs"))
        except ValueError as exc:
            raise ValidationError({"runs": str(exc)}) from exc
        metric = request.query_params.get("metric", "bandwidth")
        if metric not in charts.CHART_METRICS:
            raise ValidationError(
                {"metric": f"unknown metric {metric!r}; use one of {', '.join(charts.CHART_METRICS)}"}
            )
        if not ids:
            raise ValidationError({"runs": "pick at least one run: runs=1,2"})
        runs = runs_for_user(request, ids)  # 404 for any run the user cannot see
        chart = charts.chart_for(charts.run_data(runs), metric, request.query_params.get("test") or None)
        chart["runs"] = [{"id": r.pk, "label": r.display_label} for r in runs]
        return Response(chart)
