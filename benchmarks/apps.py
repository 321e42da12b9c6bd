from django.apps import AppConfig


class BenchmarksConfig(AppConfig):
    name = "benchmarks"
    verbose_name = "Benchmark logs"

    def ready(self) -> None:
        """Hand the planning pages what runs measured (``benchmarks.measurements``), and have their cached
        estimates follow the runs: plans never imports this app."""
        from django.db.models.signals import post_delete, post_save

        from zfsplanner.plans.services import planning_figures_changed, register_measurements

        from . import tasks  # noqa: F401 (registers the task that parses a log with its upload kind)
        from .measurements import SOURCE
        from .models import BenchResult, BenchRun

        register_measurements(SOURCE)
        for model in (BenchRun, BenchResult):
            name = model.__name__
            post_save.connect(planning_figures_changed, sender=model, dispatch_uid=f"planning-stamp-save-{name}")
            post_delete.connect(planning_figures_changed, sender=model, dispatch_uid=f"planning-stamp-del-{name}")
