"""The fields every upload kind keeps about its own lifecycle (an abstract model).

``status`` stays on each model, because each has its own words for it (``parsing``,
``bucketing``, ``measuring``; benchmarks add ``partial``); the running status is named by
the kind (:attr:`~.kinds.UploadKind.running`). Everything else the lifecycle writes is here.
"""

from __future__ import annotations

from django.db import models


class UploadLifecycle(models.Model):
    progress = models.PositiveSmallIntegerField(default=0, help_text="0-100 while a worker reads it.")
    error = models.TextField(blank=True)
    attempts = models.PositiveIntegerField(default=0, help_text="How many times a worker claimed it.")
    task_id = models.CharField(max_length=64, blank=True, help_text="The task that holds the claim.")
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True, help_text="The last change, or the running task's heartbeat.")
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @classmethod
    def failed(cls, pk: int) -> None:
        """Drop what an earlier read of upload ``pk`` left behind (called in the transaction that fails it)."""
