from django.urls import path
from rest_framework.routers import SimpleRouter

from . import planning, views

app_name = "plans-api"

router = SimpleRouter()
router.register("disks", views.CatalogDiskViewSet, basename="disk")
router.register("designs", views.DesignViewSet, basename="design")

urlpatterns = [
    path("estimate/", views.EstimateView.as_view(), name="estimate"),
    path("advisor/", planning.AdvisorView.as_view(), name="advisor"),
    path("designs/<int:pk>/measured/", planning.DesignMeasuredView.as_view(), name="design-measured"),
    *router.urls,
]
