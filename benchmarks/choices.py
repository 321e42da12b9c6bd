"""The choices a benchmark run's settings take (the settings are JSON on the run; forms, filters
and the settings reader share these)."""

from __future__ import annotations

from django.db import models


class SyncSetting(models.TextChoices):
    STANDARD = "standard", "standard"
    ALWAYS = "always", "always"
    DISABLED = "disabled", "disabled"


class ZilLocation(models.TextChoices):
    """Where synchronous writes land: in the pool, on a separate log device, or nowhere."""

    POOL = "pool", "In the pool (no SLOG)"
    SLOG = "slog", "Separate log device (SLOG)"
    DISABLED = "disabled", "Disabled (sync=disabled)"
