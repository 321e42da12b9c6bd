from django.urls import path

from . import views

app_name = "benchmarks"

urlpatterns = [
    path("", views.run_list, name="run-list"),
    path("upload/", views.upload, name="upload"),
    path("compare/", views.compare, name="compare"),
    path("uploads/<int:pk>/status/", views.upload_status, name="upload-status"),
    path("uploads/<int:pk>/retry/", views.upload_retry, name="upload-retry"),
    path("uploads/<int:pk>/download/", views.upload_download, name="upload-download"),
    path("<int:pk>/", views.run_detail, name="run-detail"),
    path("<int:pk>/edit/", views.run_edit, name="run-edit"),
    path("<int:pk>/delete/", views.run_delete, name="run-delete"),
    path("<int:pk>/validity-check/", views.run_validity_check, name="run-validity-check"),
]
