from django.apps import AppConfig


class PlansConfig(AppConfig):
    name = "zfsplanner.plans"
    label = "plans"
    verbose_name = "Pool designs"
