"""REST API of the planning answers: the layout advisor and a design's benchmark runs against
the prediction. (The estimate's special sizing, reliability, performance and sizing sections
come with every estimate: ``POST /api/estimate/``, ``GET /api/designs/{id}/estimate/``.)"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from zfsplanner.core import advisor
from zfsplanner.core.design.planning import PlanningError, read_growth
from zfsplanner.core.design.types import COMPRESSIBILITY_PROFILES, InvalidDesign
from zfsplanner.core.document.limits import MAX_FILES
from zfsplanner.core.document.parts import disk_from_document, read_histogram
from zfsplanner.core.document.reader import Reader
from zfsplanner.core.units import UnitError, parse_disk_size, parse_zfs_size
from zfsplanner.core.versions import Version, unknown_version_message

from ..access import get_design_for_user
from ..choices import DEFAULT_OPENZFS_VERSION
from ..models import CatalogDisk
from ..presentation import charts
from ..services.disk_inputs import catalog_candidate, catalog_inputs_for_models
from ..services.measurements import measured_vs_predicted
from .serializers import DesignErrorSerializer, InvalidDesignError

MAX_CANDIDATES = 10
PLANNING_KEYS = ("reliability", "performance", "special_headroom_fraction")
ADVISOR_EXAMPLE = {
    "candidates": [{"catalog": "ST16000NM001G", "count": 24, "price": 310, "currency": "EUR"}],
    "data": {"logical_bytes": "100TB", "growth_per_year": 0.2, "years": 3, "recordsize": "1M", "profile": "mixed"},
    "growth": {"per_year": 0.2, "horizon_years": 5, "fill_limit": 0.8},
    "sort": "cost_per_usable_tb_year",
}


class AdvisorRequestError(InvalidDesignError):
    """400 in the same shape as an invalid design: ``detail`` and ``errors`` naming each field."""

    def __init__(self, errors: list[tuple[str, str]]):
        super().__init__(errors)
        self.detail["detail"] = self.detail["detail"].replace("Invalid design", "Invalid advisor request", 1)


def _number(value: Any, path: str, errors: list[tuple[str, str]], *, lo: float, hi: float) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        errors.append((path, f"must be a number from {lo:g} to {hi:g}"))
        return None
    return float(value)


def _integer(value: Any, path: str, errors: list[tuple[str, str]], *, lo: int, hi: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        errors.append((path, f"must be a whole number from {lo} to {hi}"))
        return None
    return value


def _candidates(raw: Any, errors: list[tuple[str, str]]) -> tuple[list[advisor.Candidate], set[str]]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_CANDIDATES:
        errors.append(("candidates", f"must be a list of 1 to {MAX_CANDIDATES} disks"))
        return [], set()
    refs = {c["catalog"] for c in raw if isinstance(c, Mapping) and isinstance(c.get("catalog"), str)}
    catalog = {c.model: c for c in CatalogDisk.objects.filter(model__in=refs)} if refs else {}
    out: list[advisor.Candidate] = []
    models: set[str] = set()
    for i, c in enumerate(raw):
        path = f"candidates[{i}]"
        if not isinstance(c, Mapping):
            errors.append((path, "must be an object with catalog (or disk) and count"))
            continue
        count = _integer(c.get("count"), f"{path}.count", errors, lo=2, hi=advisor.MAX_DISKS)
        price = None
        if c.get("price") is not None:
            price = _number(c["price"], f"{path}.price", errors, lo=0, hi=1e9)
        currency = c.get("currency") or ""
        if not isinstance(currency, str) or len(currency) > 3:
            errors.append((f"{path}.currency", "must be a currency code of up to 3 letters"))
            currency = ""
        if isinstance(c.get("catalog"), str):
            disk = catalog.get(c["catalog"])
            if disk is None:
                errors.append((f"{path}.catalog", f"{c['catalog']!r} is not a disk in the catalog"))
            elif count is not None:
                candidate = catalog_candidate(disk, count, price)
                out.append(
                    candidate
                    if not currency
                    else advisor.Candidate(candidate.disk, count, candidate.price, currency, candidate.label)
                )
                models.add(disk.model)
        elif isinstance(c.get("disk"), Mapping):
            try:
                given = disk_from_document(c["disk"], f"{path}.disk")  # read where it comes in
            except InvalidDesign as exc:
                errors.extend(exc.errors)
                continue
            if count is not None:
                label = str(c.get("label") or given.model or f"disk {i + 1}")[:200]
                out.append(advisor.Candidate(given, count, price, currency, label))
                if given.model is not None:
                    models.add(given.model)
        else:
            errors.append((path, "give catalog (a catalog disk's model) or disk (a disk object of the design format)"))
    return out, models


def _needs(raw: Any, errors: list[tuple[str, str]]) -> advisor.DataNeeds | None:
    if not isinstance(raw, Mapping):
        errors.append(("data", "must be an object with logical_bytes (and growth_per_year, years, …)"))
        return None
    logical: int | None = None
    try:
        logical = parse_disk_size(raw.get("logical_bytes"))
    except (UnitError, TypeError, ValueError) as exc:
        errors.append(("data.logical_bytes", f"{exc}"))
    growth = _number(raw.get("growth_per_year", 0), "data.growth_per_year", errors, lo=0, hi=10)
    years = _integer(raw.get("years", 0), "data.years", errors, lo=0, hi=30)
    recordsize = 1 << 20
    if raw.get("recordsize") is not None:
        try:
            recordsize = parse_zfs_size(raw["recordsize"])
        except (UnitError, TypeError, ValueError) as exc:
            errors.append(("data.recordsize", str(exc)))
    pairs: tuple[tuple[int, int], ...] | None = None
    if raw.get("file_size_histogram") is not None:  # the design format's rule for the same histogram
        reader = Reader()
        pairs = read_histogram(
            reader, raw["file_size_histogram"], "data.file_size_histogram", "size_bytes", max_count=MAX_FILES
        )
        errors.extend(reader.errors)
    file_count = None
    if raw.get("file_count") is not None:
        file_count = _integer(raw["file_count"], "data.file_count", errors, lo=0, hi=MAX_FILES)
    compression = raw.get("compression", "lz4")
    if not isinstance(compression, str):
        errors.append(("data.compression", "must be a ZFS compression value such as lz4"))
    profile = raw.get("profile")
    if profile is not None and profile not in COMPRESSIBILITY_PROFILES:
        errors.append(("data.profile", f"must be one of {', '.join(COMPRESSIBILITY_PROFILES)}"))
    if logical is None or growth is None or years is None or not isinstance(compression, str):
        return None
    return advisor.DataNeeds(logical, growth, years, pairs, file_count, recordsize, compression, profile)


def _options(raw: Any, errors: list[tuple[str, str]]) -> advisor.Options:
    if raw is None:
        return advisor.Options()
    if not isinstance(raw, Mapping):
        errors.append(("options", "must be an object"))
        return advisor.Options()
    version = raw.get("openzfs_version", DEFAULT_OPENZFS_VERSION)
    problem = unknown_version_message(version) if isinstance(version, str) else "must be a version such as 2.4.4"
    if problem is not None:
        errors.append(("options.openzfs_version", problem))
        version = DEFAULT_OPENZFS_VERSION
    name = raw.get("pool_name", "tank")
    if not isinstance(name, str) or not name[:1].isalpha():
        errors.append(("options.pool_name", "must be a pool name starting with a letter"))
        name = "tank"
    fill = _number(raw.get("max_fill", 0.8), "options.max_fill", errors, lo=0.01, hi=1.0) or 0.8
    extra = {k: raw[k] for k in PLANNING_KEYS if k in raw}
    return advisor.Options(Version.parse(version), name, fill, extra)


@extend_schema(
    request=OpenApiTypes.OBJECT,
    responses={
        200: OpenApiResponse(
            OpenApiTypes.OBJECT,
            description='{"rows": [...]}: each row with usable_bytes, fault_tolerance, loss_1y, loss_5y, pool_loss_5y, '
            "resilver_seconds, random_read_iops, random_write_iops, seq_read_bytes_per_s, seq_write_bytes_per_s, "
            "cost, cost_per_usable_tb, fits and the design document that builds it (POST it to /api/designs/); "
            "with growth, cost_per_usable_tb_year over its horizon, and path: all-now, or add-vdev-later (one vdev "
            "fewer now, one more when the fill limit is reached, add_vdev_at_years from now).",
        ),
        400: OpenApiResponse(DesignErrorSerializer, description="Bad input; each error names its field."),
    },
    examples=[OpenApiExample("24 × 16 TB", request_only=True, value=ADVISOR_EXAMPLE)],
)
class AdvisorView(APIView):
    """Which layout to buy: every sensible layout of the candidate disks, best first by ``sort``.

    Body: ``candidates`` (``{"catalog": MODEL}`` or ``{"disk": {...}}``, ``count``, optional
    ``price`` per disk and ``currency``), ``data`` (``logical_bytes`` as bytes or "100TB",
    ``growth_per_year`` as a fraction, ``years``, optional ``file_size_histogram``,
    ``recordsize``, ``compression``, ``profile``), optional ``options`` (``openzfs_version``,
    ``pool_name``, ``max_fill``, and ``reliability``/``performance`` settings as in a design)
    optional ``growth`` (a design's growth block: ``per_year``, ``horizon_years``, ``fill_limit``, …,
    read by the same rule), which gives every row its ``cost_per_usable_tb_year`` over the horizon and
    adds an ``add-vdev-later`` row for each layout of two or more vdevs where that applies, and ``sort``
    (one of the row figures).
    """

    permission_classes = [permissions.IsAuthenticated]

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ParseError):
            exc = AdvisorRequestError([("", str(exc.detail))])
        return super().handle_exception(exc)

    def post(self, request: Request) -> Response:
        body = request.data
        if not isinstance(body, Mapping):
            raise AdvisorRequestError([("", "the body must be a JSON object")])
        errors: list[tuple[str, str]] = []
        candidates, models = _candidates(body.get("candidates"), errors)
        needs = _needs(body.get("data"), errors)
        options = _options(body.get("options"), errors)
        if body.get("growth") is not None:
            try:
                read_growth(body["growth"])  # the design's growth block, by its own rule
                options = replace(options, growth=body["growth"])
            except PlanningError as exc:
                errors.extend(exc.errors)
        sort = body.get("sort", "cost_per_usable_tb")
        if sort not in advisor.SORT_KEYS:
            errors.append(("sort", f"must be one of {', '.join(advisor.SORT_KEYS)}"))
        if errors or needs is None:
            raise AdvisorRequestError(errors or [("data", "is required")])
        try:
            rows = advisor.advise(candidates, needs, options, catalog_inputs_for_models(models), sort)
        except advisor.AdvisorError as exc:
            raise AdvisorRequestError(exc.errors) from exc
        return Response({"rows": [r.as_dict() for r in rows]})


@extend_schema(
    parameters=[
        OpenApiParameter(
            "metric",
            str,
            OpenApiParameter.QUERY,
            enum=["iops", "bandwidth"],
            description="Compare this figure for every test (default: IOPS for random tests, bandwidth for "
            "sequential ones; the chart then shows percentages of the prediction).",
        )
    ],
    responses={
        200: OpenApiResponse(OpenApiTypes.OBJECT, description='{"rows": [...], "chart": {...}}'),
        400: OpenApiResponse(OpenApiTypes.OBJECT, description="Unknown metric."),
    },
)
class DesignMeasuredView(APIView):
    """Benchmark runs attached to the design against the predicted range for each test shape.

    Each row: run, test, op, pattern, block size, depth, the measured figure, the predicted
    low and high, the difference from the middle of the range in percent and whether the
    measurement is inside the range; ``chart`` is the same as Chart.js JSON.
    """

    permission_classes = [permissions.IsAuthenticated]

    def get(self, request: Request, pk: int) -> Response:
        design, _ = get_design_for_user(request, pk)
        metric = request.query_params.get("metric") or None
        if metric not in (None, "iops", "bandwidth"):
            raise ValidationError({"metric": "must be iops or bandwidth"})
        try:
            rows = [c.as_dict() for c in measured_vs_predicted(design, metric)]
        except InvalidDesign as exc:
            raise InvalidDesignError(exc.errors) from exc
        return Response({"rows": rows, "chart": charts.measured_chart(rows, metric)})
