from django.apps import AppConfig


class UploadsConfig(AppConfig):
    name = "zfsplanner.uploads"
    label = "uploads"
    verbose_name = "Uploads (one lifecycle for every kind)"
