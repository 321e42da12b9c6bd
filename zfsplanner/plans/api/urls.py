from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import SimpleRouter

from . import views

app_name = "plans-api"

router = SimpleRouter()
router.register("teams", views.TeamViewSet, basename="team")
router.register("disks", views.CatalogDiskViewSet, basename="disk")
router.register("designs", views.DesignViewSet, basename="design")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="token"),
    path("estimate/", views.EstimateView.as_view(), name="estimate"),
    path("compression/measure/", views.CompressionMeasureView.as_view(), name="compression-measure"),
    *router.urls,
]
