from django.urls import path
from rest_framework.routers import SimpleRouter

from . import views

app_name = "benchmarks-api"

router = SimpleRouter()
router.register("benchmarks", views.BenchRunViewSet, basename="run")
router.register("benchmark-uploads", views.BenchUploadViewSet, basename="upload")

urlpatterns = [
    # Before the router, whose detail pattern would otherwise take "charts" for a run id.
    path("benchmarks/charts/", views.ChartView.as_view(), name="chart"),
    path("benchmarks/charts.csv", views.ChartView.as_view(), {"format": "csv"}, name="chart-csv"),
    path("benchmarks/series/", views.SeriesCompareView.as_view(), name="series-compare"),
    # The .csv forms are the same operations as the JSON ones (documented there): kept out of the schema.
    path(
        "benchmarks/series.csv",
        views.SeriesCompareView.as_view(schema=None),
        {"format": "csv"},
        name="series-compare-csv",
    ),
    path(
        "benchmarks/<int:pk>/series.csv",
        views.BenchRunViewSet.as_view({"get": "series"}, renderer_classes=views.CHART_RENDERERS, schema=None),
        {"format": "csv"},
        name="run-series-csv",
    ),
    *router.urls,
]
