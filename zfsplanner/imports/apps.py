from django.apps import AppConfig


class ImportsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "zfsplanner.imports"
    label = "imports"
    verbose_name = "Imports from existing pools and data"

    def ready(self) -> None:
        """The design page shows the pool an import was attached to (computed by its view)."""
        from zfsplanner.plans.services import register_design_addition

        from . import tasks  # noqa: F401 (registers the task that buckets a listing with its upload kind)
        from .attached import attached_pool

        register_design_addition("attached", attached_pool)
