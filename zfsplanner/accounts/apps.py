from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "zfsplanner.accounts"
    label = "accounts"
    verbose_name = "Teams and accounts"
