from django.apps import AppConfig


class PlansConfig(AppConfig):
    name = "zfsplanner.plans"
    label = "plans"
    verbose_name = "Pool designs"

    def ready(self) -> None:
        """Cached estimates follow the catalog and the benchmark runs they read (services.planning_stamp)."""
        from django.db.models.signals import post_delete, post_save

        from benchmarks.models import BenchResult, BenchRun

        from .models import CatalogDisk
        from .services import bump_planning_stamp

        for model in (CatalogDisk, BenchRun, BenchResult):
            post_save.connect(bump_planning_stamp, sender=model, dispatch_uid=f"planning-stamp-save-{model.__name__}")
            post_delete.connect(bump_planning_stamp, sender=model, dispatch_uid=f"planning-stamp-del-{model.__name__}")
