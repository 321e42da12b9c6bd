from django.urls import path

from . import collect_views, views

app_name = "imports"

urlpatterns = [
    path("collect.sh", collect_views.collect_script, name="collect-script"),
    path("collect.sh.sha256", collect_views.collect_script_sha256, name="collect-script-sha256"),
    path("imports/collect/", collect_views.collect_page, name="collect"),
    path("imports/collect/tokens/", collect_views.collect_token_new, name="collect-token-new"),
    path("imports/collect/tokens/<int:pk>/revoke/", collect_views.collect_token_revoke, name="collect-token-revoke"),
    path("imports/pool/", views.pool_import_new, name="pool-import-new"),
    path("imports/pool/<int:pk>/", views.pool_import_detail, name="pool-import-detail"),
    path("imports/pool/<int:pk>/sizes/", views.pool_import_answer, name="pool-import-answer"),
    path("imports/pool/<int:pk>/save/", views.pool_import_save, name="pool-import-save"),
    path("imports/pool/<int:pk>/retry/", views.pool_import_retry, name="pool-import-retry"),
    path("designs/<int:pk>/histograms/", views.histogram_list, name="histogram-list"),
    path("designs/<int:pk>/histograms/upload/", views.histogram_upload, name="histogram-upload"),
    path("histograms/<int:upload_id>/status/", views.histogram_status, name="histogram-status"),
    path("histograms/<int:upload_id>/retry/", views.histogram_retry, name="histogram-retry"),
]
