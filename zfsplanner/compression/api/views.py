"""``POST /api/compression/measure/`` and the stored samples a worker measures.

A request whose files add up to at most ``COMPRESSION_INLINE_MAX_BYTES`` is answered with
the measurement (200). A larger single file is stored and measured by a Celery worker: the
answer is 202 with the sample, whose ``url`` reports ``status`` and ``progress`` until the
``result`` is there. Bad options are 400 naming the field.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from zfsplanner.core.units import format_iec
from zfsplanner.uploads.handler import install_upload_handler
from zfsplanner.web.api_parsers import TextMultiPartParser

from .. import services
from ..access import get_sample_for_user
from ..models import COMPRESSION_SAMPLES, CompressionSample
from .serializers import MeasurementSerializer, MeasureRequestSerializer, SampleSerializer


def sample_url(request: Request, sample: CompressionSample) -> str:
    return reverse("compression-api:sample-detail", args=[sample.pk], request=request)


def read_options(data: Any) -> services.Options:
    try:
        return services.parse_options(
            data.get("algorithms") or data.get("algorithm"),
            data.getlist("recordsize") if hasattr(data, "getlist") else data.get("recordsize"),
            data.get("ashift"),
            data.get("openzfs_version"),
        )
    except services.OptionError as exc:
        raise ValidationError({exc.field: [exc.message]}) from exc


class MeasureView(APIView):
    """Measure how ZFS would compress sample files, with ZFS's own compressors."""

    parser_classes = [TextMultiPartParser]
    throttle_scopes = {"post": "compression"}

    def initialize_request(self, request: Any, *args: Any, **kwargs: Any) -> Request:
        if request.method == "POST":  # the one streaming handler, before anything (authentication too) reads the body
            install_upload_handler(request, COMPRESSION_SAMPLES)
        return super().initialize_request(request, *args, **kwargs)

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
        if length > services.upload_limit():
            raise ValidationError({"file": [f"the upload is larger than {format_iec(services.upload_limit())}"]})
        super().initial(request, *args, **kwargs)

    @extend_schema(
        request={"multipart/form-data": MeasureRequestSerializer},
        responses={200: MeasurementSerializer, 202: SampleSerializer},
    )
    def post(self, request: Request) -> Response:
        files = request.FILES.getlist("file")
        if not files:
            raise ValidationError({"file": ["is required: one or more sample files"]})
        if any(not f.size for f in files):
            raise ValidationError({"file": ["an empty file says nothing about compression"]})
        options = read_options(request.data)
        total = services.total_size(files)
        if total <= services.inline_limit():
            return Response(services.measure_uploads(files, options))
        if len(files) > 1:
            raise ValidationError(
                {
                    "file": [
                        f"above {format_iec(services.inline_limit())} upload one file at a time; it is measured "
                        "by a worker"
                    ]
                }
            )
        sample = services.store_sample(request.user, files[0], options)
        sample.refresh_from_db()
        url = sample_url(request, sample)
        body = services.status_document(sample, url)
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": url})


class SampleListView(APIView):
    @extend_schema(responses={200: SampleSerializer(many=True)})
    def get(self, request: Request) -> Response:
        samples = CompressionSample.objects.for_user(request.user)[:100]
        return Response([services.status_document(s, sample_url(request, s)) for s in samples])


class SampleDetailView(APIView):
    @extend_schema(responses={200: SampleSerializer})
    def get(self, request: Request, pk: int) -> Response:
        sample = get_sample_for_user(request, pk)
        return Response(services.status_document(sample, sample_url(request, sample)))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        sample = get_sample_for_user(request, pk)
        sample.file.delete(save=False)
        sample.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
