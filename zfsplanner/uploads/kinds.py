"""What one kind of upload is: its limit, its spool folder, what its files may hold, its model and its words.

Every kind (benchmark logs, file listings, compression samples) goes through the same
lifecycle (:mod:`.lifecycle`) and the same handler (:mod:`.handler`); an ``UploadKind`` is
all that differs. Each app declares its kind next to its model and registers the task that
reads one upload (:func:`zfsplanner.uploads.tasks.upload_task`), so the lifecycle can queue
it without the app's services importing its tasks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings

from .text import TextRule

if TYPE_CHECKING:
    from .models import UploadLifecycle

# Every kind declared, in the order the apps load (the sweep goes through all of them).
KINDS: list[UploadKind] = []


@dataclass(frozen=True, eq=False)
class UploadKind:
    name: str  # "benchmark logs": what logs and the sweep report call this kind
    model: type[UploadLifecycle]
    setting: str  # the setting that holds the byte limit, named in error messages
    default_max_bytes: int
    spool_subdir: str  # under MEDIA_ROOT, so storing a spooled file is a rename, not a copy
    prefix: str
    text: TextRule = TextRule.UTF8  # what its files may hold, checked as they arrive (.text)
    chunk_size: int = 256 * 1024
    running: str = "parsing"  # the status of a claimed upload
    noun: str = "upload"  # one of them, in messages: "the upload is kept"
    verb: str = "parsing"  # what the worker does to one: "parsing starts automatically"
    done: str = "parsed"  # what its task returns when it has finished one
    time_limit: int | None = None  # the task's hard limit in seconds; None: CELERY_TASK_TIME_LIMIT
    reset: tuple[tuple[str, Any], ...] = ()  # more fields a claim and a retry set back: (("error_line", None),)
    too_large_hint: str = ""  # a sentence added to the refusal of a file past the limit
    _task: list[Any] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        KINDS.append(self)  # every kind is swept, spool folder included

    # -- the handler's policy

    def max_bytes(self) -> int:
        return int(getattr(settings, self.setting, self.default_max_bytes))

    def spool_dir(self) -> Path:
        path = Path(settings.MEDIA_ROOT) / self.spool_subdir / "tmp"
        path.mkdir(parents=True, exist_ok=True)
        return path

    # -- the lifecycle's

    @property
    def queue_down_note(self) -> str:
        """Shown on a pending upload whose message the broker did not take (cleared when it is sent)."""
        return (
            f"The task queue is unavailable; the {self.noun} is kept and {self.verb} starts "
            "automatically once it is back."
        )

    def task_time_limit(self) -> int:
        return self.time_limit or int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 600))

    def register_task(self, task: Any) -> None:
        """The Celery task that reads one upload of this kind (set once, when its tasks module loads)."""
        self._task[:] = [task]

    @property
    def task(self) -> Any:
        if not self._task:
            raise LookupError(f"no task reads {self.name}: is its app's tasks module loaded (AppConfig.ready)?")
        return self._task[0]
