"""Benchmarks tests: uploads go to a temporary MEDIA_ROOT; tasks run in-process.

The fast suite runs tasks eagerly even when CELERY_BROKER_URL is set (CI runs the whole
suite again against Redis); tests marked ``services`` keep the real broker and worker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from zfsplanner.celery import app as celery_app

CDM = SAMPLES / "crystaldiskmark"
CDM_WD = CDM / "cdmparser_cdm-8.0.1-x64_default_WD-Blue.txt"
CDM_CRUCIAL = CDM / "cdmparser_cdm-8.0.2-x64_default_Crucial-P2.txt"
FIO_JSON = SAMPLES / "fio_json" / "pkb_fio-2.1.4_five-jobs.json"
FIO_BW_LOG = SAMPLES / "fio_log" / "fioplot_fio-3.1_randread-iodepth-1-numjobs-16_bw.1.log"
BONNIE = SAMPLES / "bonnie" / "pkb_bonnie++-1.96_csv.txt"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def eager_tasks(request):
    if request.node.get_closest_marker("services"):
        yield
        return
    # The settings use the CELERY_ namespace, so the namespaced key is the one Celery reads.
    before = celery_app.conf.CELERY_TASK_ALWAYS_EAGER
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = True
    yield
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = before
