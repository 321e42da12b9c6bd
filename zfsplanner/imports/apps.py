from django.apps import AppConfig


class ImportsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "zfsplanner.imports"
    label = "imports"
    verbose_name = "Imports from existing pools and data"
