from rest_framework.routers import SimpleRouter

from . import views

app_name = "imports-api"

router = SimpleRouter()
router.register("pool-imports", views.PoolImportViewSet, basename="pool-import")
router.register("histogram-uploads", views.HistogramUploadViewSet, basename="histogram-upload")

urlpatterns = router.urls
