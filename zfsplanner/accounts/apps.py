from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "zfsplanner.accounts"
    label = "accounts"
    verbose_name = "Teams and accounts"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)
