"""Who reaches a compression sample, or a 404: only the account that uploaded it."""

from __future__ import annotations

from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from .models import CompressionSample


def get_sample_for_user(request: HttpRequest, pk: int) -> CompressionSample:
    return get_object_or_404(CompressionSample.objects.for_user(request.user), pk=pk)
