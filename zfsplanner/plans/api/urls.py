from django.urls import path
from rest_framework.routers import SimpleRouter

from . import views

app_name = "plans-api"

router = SimpleRouter()
router.register("disks", views.CatalogDiskViewSet, basename="disk")
router.register("designs", views.DesignViewSet, basename="design")

urlpatterns = [
    path("estimate/", views.EstimateView.as_view(), name="estimate"),
    path("compression/measure/", views.CompressionMeasureView.as_view(), name="compression-measure"),
    *router.urls,
]
