from django.urls import path
from rest_framework.routers import SimpleRouter

from . import planning, reports, views

app_name = "plans-api"

router = SimpleRouter()
router.register("disks", views.CatalogDiskViewSet, basename="disk")
router.register("designs", views.DesignViewSet, basename="design")

urlpatterns = [
    path("estimate/", views.EstimateView.as_view(), name="estimate"),
    path("advisor/", planning.AdvisorView.as_view(), name="advisor"),
    path("designs/<int:pk>/measured/", planning.DesignMeasuredView.as_view(), name="design-measured"),
    path("designs/<int:pk>/report.md", reports.DesignReportView.as_view(), {"format": "md"},
         name="design-report-md"),
    path("designs/<int:pk>/estimate.csv", reports.DesignReportView.as_view(), {"format": "csv"},
         name="design-estimate-csv"),
    path("designs/<int:pk>/report/", reports.DesignReportView.as_view(), name="design-report"),
    *router.urls,
]
