from django.apps import AppConfig


class CompressionConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "zfsplanner.compression"
    label = "compression"
    verbose_name = "Measured compression"

    def ready(self) -> None:
        from . import tasks  # noqa: F401 (registers the task that measures a sample with its upload kind)
