from django.apps import AppConfig


class PlansConfig(AppConfig):
    name = "zfsplanner.plans"
    label = "plans"
    verbose_name = "Pool designs"

    def ready(self) -> None:
        """Cached estimates follow the catalog (services.planning_stamp); the benchmarks app connects
        its runs the same way (``services.measurements``)."""
        from allauth.account.signals import user_signed_up
        from django.db.models.signals import post_delete, post_save

        from .models import CatalogDisk
        from .services.estimates import planning_figures_changed

        post_save.connect(planning_figures_changed, sender=CatalogDisk, dispatch_uid="planning-stamp-save-CatalogDisk")
        post_delete.connect(planning_figures_changed, sender=CatalogDisk, dispatch_uid="planning-stamp-del-CatalogDisk")

        # A plan saved from the quick planner before signing up is kept with the new account (signup).
        from .signup import keep_the_plan

        user_signed_up.connect(keep_the_plan, dispatch_uid="plans.keep-the-plan")
