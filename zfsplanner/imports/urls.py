from django.urls import path

from .views import collect, histograms, pool_imports

app_name = "imports"

urlpatterns = [
    path("collect.sh", collect.collect_script, name="collect-script"),
    path("collect.sh.sha256", collect.collect_script_sha256, name="collect-script-sha256"),
    path("imports/collect/", collect.collect_page, name="collect"),
    path("imports/collect/tokens/", collect.collect_token_new, name="collect-token-new"),
    path("imports/collect/tokens/<int:pk>/revoke/", collect.collect_token_revoke, name="collect-token-revoke"),
    path("imports/pool/", pool_imports.pool_import_new, name="pool-import-new"),
    path("imports/pool/<int:pk>/", pool_imports.pool_import_detail, name="pool-import-detail"),
    path("imports/pool/<int:pk>/sizes/", pool_imports.pool_import_answer, name="pool-import-answer"),
    path("imports/pool/<int:pk>/save/", pool_imports.pool_import_save, name="pool-import-save"),
    path("imports/pool/<int:pk>/retry/", pool_imports.pool_import_retry, name="pool-import-retry"),
    path("designs/<int:pk>/histograms/", histograms.histogram_list, name="histogram-list"),
    path("designs/<int:pk>/histograms/upload/", histograms.histogram_upload, name="histogram-upload"),
    path("histograms/<int:upload_id>/status/", histograms.histogram_status, name="histogram-status"),
    path("histograms/<int:upload_id>/retry/", histograms.histogram_retry, name="histogram-retry"),
]
